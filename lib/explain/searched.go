package explain

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/bb"
	"github.com/pomdpq/pomdpq/lib/clock2"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/statbb"
)

// Searcher is the probe source of a family too large to enumerate: for
// two histories of one depth it searches the family (branch and bound)
// for a controller attaining their distance, the pair's argmax, without
// ranking the other probes. ClockSearch and StationarySearch are the
// searches of `pomdpq quotient` (lib/clock2, lib/statbb).
type Searcher interface {
	// Witness returns a controller attaining the largest distance between
	// h1 and h2 (observation indices, one depth) over the family.
	Witness(ctx context.Context, h1, h2 []int) (*Witness, error)
	// String describes the family, e.g. "clock-aware m=2 T=3 (… FSCs,
	// searched)".
	String() string
}

// Witness is what a Searcher returns for one pair (bb.Witness): its
// Controller attains Distance, the search's maximum for the pair when
// Exact, else the best the search found before its node limit, with Upper
// an upper bound on the maximum (Upper = Distance when Exact).
type Witness = bb.Witness

// Search says how a pair of a searched family was explained: Pair.Probes
// then holds only the argmax, the witness the search returned, whose
// family index is −1; the other probes are not ranked (they were never
// listed).
type Search struct {
	// Family describes the family searched, Size its number of
	// controllers, Nodes the branch-and-bound nodes of this pair's search.
	Family string `json:"family"`
	Size   string `json:"family_size"`
	Nodes  int64  `json:"search_nodes"`
	// Distance is the search's value; Pair.Distance is the witness
	// re-evaluated (its suffix laws computed again, one transport
	// problem), equal to it within WitnessTol.
	Distance float64 `json:"searched_distance"`
	// Exact reports whether the search completed: Distance is then the
	// family's maximum for the pair. Otherwise it stopped at its node
	// limit and the maximum lies in [Lower, Upper], Lower = Distance the
	// value of the best controller found (when Exact, Lower = Upper =
	// Distance).
	Exact bool    `json:"exact"`
	Lower float64 `json:"lower"`
	Upper float64 `json:"upper"`
	// OnlyArgmax is always true: no ranking of the other probes exists.
	OnlyArgmax bool   `json:"only_argmax"`
	Note       string `json:"note"`
}

// WitnessTol is the largest difference accepted between a search's
// maximum and its witness re-evaluated: the searches intern beliefs to a
// relative 2⁻⁴⁴ and sum in another order than package law.
const WitnessTol = 1e-9

// explainSearched explains a pair of a searched family: the search's
// witness is re-evaluated on the two histories and taken apart as an
// enumerated family's argmax.
func (s *Setup) explainSearched(ctx context.Context, h1, h2 []int) (*Pair, error) {
	w, err := s.Search.Witness(ctx, h1, h2)
	if err != nil {
		return nil, err
	}
	c := w.Controller
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("explain: the witness of %s: %w", s.Search, err)
	}
	k := s.T - len(h1)
	lw := newLawer(s.Model, s.T, s.Convention)
	b := &best{index: -1}
	var si1, si2 bool
	b.l1, si1 = lw.suffix(c, h1)
	b.l2, si2 = lw.suffix(c, h2)
	tp := &transport{g: s.ground(), k: k}
	v, flows, err := tp.w1(b.l1, b.l2, true)
	if err != nil {
		return nil, fmt.Errorf("explain: the witness of %s: %w", s.Search, err)
	}
	if math.Abs(v-w.Distance) > WitnessTol {
		return nil, fmt.Errorf("explain: the witness of %s re-evaluated is %.12g apart, the search found %.12g", s.Search, v, w.Distance)
	}
	b.flows = flows
	bp := ProbeDistance{Index: -1, Probe: ProbeWords(s.Model, c, s.T), Short: ProbeShort(s.Model, c, s.T), Distance: v, StandIn1: si1, StandIn2: si2}
	size := "?"
	if w.FamilySize != nil {
		size = w.FamilySize.String()
	}
	p := &Pair{Depth: len(h1), Suffix: k, History1: HistoryWords(s.Model, h1), History2: HistoryWords(s.Model, h2),
		Probes: []ProbeDistance{bp}, Best: bp, Distance: v, Witness: c,
		Search: searchOf(s.Search.String(), size, w)}
	if err := s.detail(p, h1, h2, b); err != nil {
		return nil, err
	}
	return p, nil
}

// searchOf says how the pair's witness w was searched.
func searchOf(family, size string, w *Witness) *Search {
	note := fmt.Sprintf("the family (%s controllers) was searched by branch and bound, not enumerated: only the argmax, the controller the search found, is shown; the other probes are not ranked", size)
	if !w.Exact {
		note = fmt.Sprintf("the family (%s controllers) was searched by branch and bound up to its node limit, which it reached: the controller shown is the best of %d search nodes, at distance %.6g; the family's maximum for the pair lies in [%.6g, %.6g]",
			size, w.Nodes, w.Distance, w.Distance, w.Upper)
	}
	return &Search{Family: family, Size: size, Nodes: w.Nodes, Distance: w.Distance, OnlyArgmax: true,
		Exact: w.Exact, Lower: w.Distance, Upper: w.Upper, Note: note}
}

// family describes the family: the enumerated one, or the search's.
func (s *Setup) family() string {
	if s.Family != nil {
		return s.Family.String()
	}
	return s.Search.String()
}

// needFamily refuses what needs the family's probes listed when the
// family is searched: what says what and why.
func (s *Setup) needFamily(what string) error {
	if s.Family != nil {
		return nil
	}
	return fmt.Errorf("explain: %s needs an enumerated family; %s is searched, not enumerated, and a search keeps the argmax of one pair only (ExplainPair)", what, s.Search)
}

// diameterSearched is diameter for a searched family: one search per
// pair of reps, the widest pair's witness the nearest probe.
func (s *Setup) diameterSearched(ctx context.Context, mg *Merge, t int, reps []int, nO int) error {
	best := ProbeDistance{Index: -1, Distance: -1}
	var b1, b2 int
	var ctl *fsc.FSC
	for x := range reps {
		for y := x + 1; y < len(reps); y++ {
			w, err := s.Search.Witness(ctx, digits(reps[x], nO, t), digits(reps[y], nO, t))
			if err != nil {
				return fmt.Errorf("explain: the diameter of class %s: %w", mg.Class, err)
			}
			if !w.Exact {
				return fmt.Errorf("explain: the diameter of class %s needs each member pair's exact maximum, but the search of %s and %s stopped at its node limit after %d nodes (distance between %.6g and %.6g); raise --max-nodes or explain the pair with --histories",
					mg.Class, HistoryWords(s.Model, digits(reps[x], nO, t)), HistoryWords(s.Model, digits(reps[y], nO, t)), w.Nodes, w.Distance, w.Upper)
			}
			if w.Distance > best.Distance {
				best.Distance, ctl, b1, b2 = w.Distance, w.Controller, reps[x], reps[y]
			}
		}
	}
	best.Probe, best.Short = ProbeWords(s.Model, ctl, s.T), ProbeShort(s.Model, ctl, s.T)
	mg.Diameter, mg.Nearest = best.Distance, best
	mg.History1, mg.History2 = HistoryWords(s.Model, digits(b1, nO, t)), HistoryWords(s.Model, digits(b2, nO, t))
	return nil
}

// ClockSearch returns the search of the two-node clock-aware family of m
// at horizon T (lib/clock2), with opt's ground metric, convention, node
// limit and memory budget (its Eps and Workers are not used).
func ClockSearch(m *pomdp.Model, T int, opt bb.Options) Searcher {
	return &clockSearch{m: m, T: T, opt: opt}
}

type clockSearch struct {
	m   *pomdp.Model
	T   int
	opt bb.Options
}

func (c *clockSearch) Witness(ctx context.Context, h1, h2 []int) (*Witness, error) {
	w, err := clock2.FindWitness(ctx, c.m, c.T, h1, h2, c.opt)
	if err != nil {
		return nil, err
	}
	return &w.Witness, nil
}

func (c *clockSearch) String() string {
	n, _ := fsc.Size(fsc.KindClock, c.m.NumActions(), c.m.NumObservations(), 2, c.T)
	return fmt.Sprintf("clock-aware m=2 T=%d (%s FSCs, searched)", c.T, n)
}

// StationarySearch returns the search of the stationary family with at
// most M nodes of m at horizon T (lib/statbb), with opt's ground metric,
// convention, node limit and memory budget (its Eps and Workers are not
// used).
func StationarySearch(m *pomdp.Model, M, T int, opt bb.Options) Searcher {
	return &statSearch{m: m, M: M, T: T, opt: opt}
}

type statSearch struct {
	m    *pomdp.Model
	M, T int
	opt  bb.Options
}

func (c *statSearch) Witness(ctx context.Context, h1, h2 []int) (*Witness, error) {
	w, err := statbb.FindWitness(ctx, c.m, c.M, c.T, h1, h2, c.opt)
	if err != nil {
		return nil, err
	}
	return w, nil
}

func (c *statSearch) String() string {
	n, _ := fsc.Size(fsc.KindStationary, c.m.NumActions(), c.m.NumObservations(), c.M, 0)
	return fmt.Sprintf("stationary m≤%d (%s FSCs, searched)", c.M, n)
}
