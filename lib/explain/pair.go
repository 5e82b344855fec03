package explain

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Setup is what every explanation is computed from: the model, the ground
// metric on its observations (nil: discrete), the probe family Π, the
// horizon and the impossible-history convention.
type Setup struct {
	Model  *pomdp.Model
	Ground ot.Ground
	Family fsc.Family
	// Search, when Family is nil, is the probe source of a family too
	// large to enumerate: ExplainPair then shows the witness it finds
	// (Pair.Search says so); ExplainClass and ExplainMerges need Family.
	Search     Searcher
	T          int
	Convention law.Convention
	// Workers bounds the goroutines over probes (0: one per probe, at
	// most 8). Results do not depend on it.
	Workers int
	// Top is how many ranked probes, sequences and moves are kept
	// (0: DefaultTop).
	Top int
}

// DefaultTop is the default length of every ranked list.
const DefaultTop = 8

func (s *Setup) top() int {
	if s.Top > 0 {
		return s.Top
	}
	return DefaultTop
}

func (s *Setup) ground() ot.Ground {
	if s.Ground != nil {
		return s.Ground
	}
	return ot.Discrete(s.Model.NumObservations())
}

func (s *Setup) check(hs ...[]int) error {
	if s.Model == nil || (s.Family == nil && s.Search == nil) {
		return fmt.Errorf("explain: a model and a probe family (or a search) are required")
	}
	if s.Family != nil && s.Family.Len() == 0 {
		return fmt.Errorf("explain: the family %s is empty", s.Family)
	}
	for _, h := range hs {
		if len(h) > s.T {
			return fmt.Errorf("explain: history %s has depth %d, above the horizon T = %d", HistoryWords(s.Model, h), len(h), s.T)
		}
		for _, o := range h {
			if o < 0 || o >= s.Model.NumObservations() {
				return fmt.Errorf("explain: observation %d out of range [0, %d)", o, s.Model.NumObservations())
			}
		}
	}
	return nil
}

// ProbeDistance is the distance one probe sees between two histories.
type ProbeDistance struct {
	// Index is the probe's index in the family.
	Index int `json:"probe_index"`
	// Probe is the probe in words (ProbeWords); Short as `plan` prints it.
	Probe string `json:"probe"`
	Short string `json:"probe_short"`
	// Distance is W1 between the two suffix laws under this probe.
	Distance float64 `json:"distance"`
	// StandIn1, StandIn2 report that a history is impossible under the
	// probe and its law is the stand-in (docs/conventions.md#stand-ins).
	StandIn1 bool `json:"stand_in_1,omitempty"`
	StandIn2 bool `json:"stand_in_2,omitempty"`
	// Bounded reports that the probe's transport problem was too large to
	// solve (see DenseArcs) and did not need to be: cheap bounds (lib/ot's
	// LowerBound, the cost of a sequential coupling) settled that it is
	// not the argmax. Distance is then the lower bound and Upper the upper one;
	// the distance lies between them, and at most the argmax's.
	Bounded bool    `json:"bounded,omitempty"`
	Upper   float64 `json:"upper,omitempty"`
}

// SeqMass is one suffix sequence with its probability under both laws.
type SeqMass struct {
	Seq   int     `json:"seq"`
	Words string  `json:"words"`
	P1    float64 `json:"p1"`
	P2    float64 `json:"p2"`
}

// Move is one entry of the optimal transport plan: Mass of the first law
// at From goes to To of the second at ground cost Cost.
type Move struct {
	From  string  `json:"from"`
	To    string  `json:"to"`
	Mass  float64 `json:"mass"`
	Cost  float64 `json:"cost"`
	Total float64 `json:"total"`
}

// Pair explains why two histories of one depth are apart.
type Pair struct {
	Depth int `json:"depth"`
	// Suffix is the number of observations the laws are over, T − Depth.
	Suffix   int    `json:"suffix_length"`
	History1 string `json:"history_1"`
	History2 string `json:"history_2"`
	// Probes holds the Top probes ranked by distance (largest first,
	// ties by family index; a Bounded probe by its lower bound);
	// NumProbes is the family size searched.
	Probes    []ProbeDistance `json:"probes"`
	NumProbes int             `json:"num_probes"`
	// Best is the argmax probe and Distance its distance, d^Π(h, h').
	Best     ProbeDistance `json:"best_probe"`
	Distance float64       `json:"distance"`
	// Laws are the sequences carrying most mass (largest p1 + p2) of the
	// two suffix laws under the best probe; Shown1, Shown2 the mass of
	// each law they cover.
	Laws   []SeqMass `json:"laws"`
	Shown1 float64   `json:"shown_mass_1"`
	Shown2 float64   `json:"shown_mass_2"`
	// Moves are the largest entries (by mass × cost) of an optimal
	// transport plan; MovesTotal is the cost of the whole plan, which
	// equals Distance, and MovesShown the part of it Moves cover.
	Moves      []Move  `json:"moves"`
	MovesTotal float64 `json:"moves_total"`
	MovesShown float64 `json:"moves_shown"`
	// MostDifferent is the sequence whose probability differs most and
	// Sentence says it in words.
	MostDifferent SeqMass `json:"most_different"`
	Sentence      string  `json:"sentence"`
	// Search is set when the family was searched (Setup.Search), not
	// enumerated: Probes then holds the argmax alone, NumProbes is 0, and
	// Witness is the controller the search found.
	Search  *Search  `json:"search,omitempty"`
	Witness *fsc.FSC `json:"witness,omitempty"`
}

// ExplainPair explains the distance between histories h1 and h2 (observation
// indices, equal depth): every probe of the family is run on these two
// histories only (one transport problem each), and the argmax is taken
// apart. It never builds a distance matrix. A searched family (Setup.Search)
// is searched for these two histories only, and its witness taken apart.
func ExplainPair(ctx context.Context, s *Setup, h1, h2 []int) (*Pair, error) {
	if err := s.check(h1, h2); err != nil {
		return nil, err
	}
	if len(h1) != len(h2) {
		return nil, fmt.Errorf("explain: histories %s and %s have depths %d and %d; only histories of one depth are compared",
			HistoryWords(s.Model, h1), HistoryWords(s.Model, h2), len(h1), len(h2))
	}
	if s.Family == nil {
		return s.explainSearched(ctx, h1, h2)
	}
	ranked, b, err := s.rank(ctx, h1, h2)
	if err != nil {
		return nil, err
	}
	p := &Pair{Depth: len(h1), Suffix: s.T - len(h1), History1: HistoryWords(s.Model, h1), History2: HistoryWords(s.Model, h2),
		NumProbes: len(ranked), Best: ranked[0], Distance: ranked[0].Distance}
	p.Probes = ranked[:min(len(ranked), s.top())]
	if err := s.detail(p, h1, h2, b); err != nil {
		return nil, err
	}
	return p, nil
}

// best is the argmax of a ranking whose transport problem was solved on
// the product graph: its laws and optimal coupling, kept for detail.
type best struct {
	index  int
	l1, l2 []float64
	flows  []ot.Flow
}

// rank computes every probe's distance for the pair and sorts them. A
// small transport problem is solved at once; a large one (above
// DenseArcs) only gets bounds first, and is solved, largest upper bound
// first, while its upper bound can reach the best distance solved so far
// (solveLarge): the argmax's distance is always exact.
func (s *Setup) rank(ctx context.Context, h1, h2 []int) ([]ProbeDistance, *best, error) {
	n := s.Family.Len()
	out := make([]ProbeDistance, n)
	workers := s.Workers
	if workers <= 0 {
		workers = 8
	}
	workers = min(workers, n)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	k := s.T - len(h1)
	g := s.ground()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lw := newLawer(s.Model, s.T, s.Convention)
			tp := &transport{g: g, k: k}
			for i := w; i < n; i += workers {
				if err := ctx.Err(); err != nil {
					errs[w] = err
					return
				}
				c := s.Family.At(i)
				p, si1 := lw.suffix(c, h1)
				q, si2 := lw.suffix(c, h2)
				out[i] = ProbeDistance{Index: i, StandIn1: si1, StandIn2: si2}
				if !tp.small(p, q) {
					out[i].Bounded = true
					out[i].Distance = tp.sol.LowerBound(g, k, p, q)
					out[i].Upper = min(ot.UpperBound(g, k, p, q), seqUpper(&tp.sol, g, k, p, q))
					continue
				}
				v, _, err := tp.w1(p, q, false)
				if err != nil {
					errs[w] = fmt.Errorf("explain: probe %d: %w", i, err)
					return
				}
				out[i].Distance = v
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	b, err := s.solveLarge(ctx, out, h1, h2)
	if err != nil {
		return nil, nil, err
	}
	slices.SortStableFunc(out, func(a, b ProbeDistance) int {
		if a.Distance != b.Distance {
			if a.Distance > b.Distance {
				return -1
			}
			return 1
		}
		if a.Bounded != b.Bounded {
			if b.Bounded {
				return -1
			}
			return 1
		}
		return a.Index - b.Index
	})
	for i := range out[:min(len(out), s.top())] {
		s.name(&out[i])
	}
	return out, b, nil
}

// boundSlack is the margin by which an upper bound must fall below the
// best distance for its probe to be left unsolved (rounding).
const boundSlack = 1e-9

// solveLarge solves, one at a time (the result does not depend on the
// workers), the bounded probes of out whose upper bound can reach the
// largest exact distance, largest upper bound first, and returns the
// argmax's laws and coupling when it is one of them.
func (s *Setup) solveLarge(ctx context.Context, out []ProbeDistance, h1, h2 []int) (*best, error) {
	top, topV := -1, -1.0
	var cand []int
	for i, p := range out {
		if p.Bounded {
			cand = append(cand, i)
		} else if p.Distance > topV {
			top, topV = i, p.Distance
		}
	}
	slices.SortStableFunc(cand, func(a, b int) int {
		if out[a].Upper != out[b].Upper {
			if out[a].Upper > out[b].Upper {
				return -1
			}
			return 1
		}
		return a - b
	})
	k := s.T - len(h1)
	tp := &transport{g: s.ground(), k: k}
	lw := newLawer(s.Model, s.T, s.Convention)
	var b *best
	for _, i := range cand {
		if out[i].Upper+boundSlack < topV {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := s.Family.At(i)
		p, _ := lw.suffix(c, h1)
		q, _ := lw.suffix(c, h2)
		// Once a distance is known, a solve may stop as soon as a
		// feasible flow shows this probe cannot reach it.
		v, exact, flows, err := tp.w1Below(p, q, true, max(topV-boundSlack, 0))
		if err != nil {
			return nil, fmt.Errorf("explain: probe %d: %w", i, err)
		}
		if !exact {
			out[i].Upper = min(out[i].Upper, v)
			continue
		}
		out[i].Distance, out[i].Upper, out[i].Bounded = v, 0, false
		if v > topV || (v == topV && i < top) {
			top, topV = i, v
			b = &best{index: i, l1: p, l2: q, flows: flows}
		}
	}
	if b != nil && b.index != top {
		b = nil
	}
	return b, nil
}

func (s *Setup) name(p *ProbeDistance) {
	c := s.Family.At(p.Index)
	p.Probe, p.Short = ProbeWords(s.Model, c, s.T), ProbeShort(s.Model, c, s.T)
}

// DenseArcs is the largest transportation problem (the product of the
// residual supports, after the mass the two laws share in place) solved
// by lib/ot's network simplex, which holds a cost per pair of supports;
// larger ones are solved as a min-cost flow on the product graph of O^k
// (graphW1), whose size does not grow with the supports. Small problems
// keep lib/ot's solver, the one the quotient's distances come from.
const DenseArcs = 250_000

// denseArcs is DenseArcs, lowered by tests to exercise the graph path.
var denseArcs = float64(DenseArcs)

// MaxArcs bounds the arcs of the product graph of a non-uniform ground
// metric, solved by the network simplex; a larger problem is refused
// with an error at once (1.6·10⁶ arcs ran for minutes in the big-M
// network simplex).
const MaxArcs = 1_000_000

// MaxUnitArcs bounds the arcs of the product graph of a uniform ground
// metric (the discrete one), solved by the primal-dual method on the
// implicit graph (hamFlow): hallway's four-step suffixes, 1.6·10⁶ arcs,
// take 0.3–1 s; a solve's time grows with the arcs, and its memory is
// about 10 bytes an arc.
const MaxUnitArcs = 24_000_000

// transport solves the W1 problems of one worker for one suffix length.
type transport struct {
	g     ot.Ground
	k     int
	sol   ot.Solver
	graph *graphW1
}

// small reports whether the transportation problem between p and q (the
// product of the residual supports) is at most denseArcs pairs.
func (tp *transport) small(p, q []float64) bool {
	var n, m int
	for x := range p {
		switch {
		case p[x] > q[x]:
			n++
		case q[x] > p[x]:
			m++
		}
	}
	return float64(n)*float64(m) <= denseArcs
}

// w1 returns W1(p, q) and, with flows, an optimal coupling's entries.
func (tp *transport) w1(p, q []float64, flows bool) (float64, []ot.Flow, error) {
	v, _, fl, err := tp.w1Below(p, q, flows, 0)
	return v, fl, err
}

// w1Below is w1, except that a large problem may stop early, with exact
// false, at an upper bound on W1 below below (> 0).
func (tp *transport) w1Below(p, q []float64, flows bool, below float64) (float64, bool, []ot.Flow, error) {
	if tp.small(p, q) {
		r, err := tp.sol.SeqW1(tp.g, tp.k, p, q)
		if err != nil || !flows {
			return r.Value, true, nil, err
		}
		return r.Value, true, tp.sol.Flows(nil), nil
	}
	if tp.graph == nil {
		nO := float64(len(tp.g))
		arcs := float64(tp.k) * math.Pow(nO, float64(tp.k)) * (nO - 1)
		limit := float64(MaxArcs)
		if uniform, _ := uniformGround(tp.g); uniform {
			arcs, limit = 2*float64(tp.k)*math.Pow(nO, float64(tp.k)), MaxUnitArcs
		}
		if arcs > limit {
			return 0, false, nil, fmt.Errorf("the transport problem between the two suffix laws needs about %.3g arcs, above %.0f; explain a pair of a larger depth (shorter suffixes) or a shorter horizon", arcs, limit)
		}
		tp.graph = newGraphW1(tp.g, tp.k)
	}
	v, exact, fl, err := tp.graph.solveBelow(p, q, below)
	if err != nil || !flows || !exact {
		return v, exact, nil, err
	}
	return v, true, tp.graph.moves(p, q, fl), nil
}

// detail fills the laws, plan and sentence of the best probe, from b
// when the ranking kept them (a large problem is not solved twice).
func (s *Setup) detail(p *Pair, h1, h2 []int, b *best) error {
	k := s.T - len(h1)
	g := s.ground()
	if b == nil || b.index != p.Best.Index {
		c := s.Family.At(p.Best.Index)
		lw := newLawer(s.Model, s.T, s.Convention)
		b = &best{index: p.Best.Index}
		b.l1, _ = lw.suffix(c, h1)
		b.l2, _ = lw.suffix(c, h2)
		tp := &transport{g: g, k: k}
		v, flows, err := tp.w1(b.l1, b.l2, true)
		if err != nil {
			return fmt.Errorf("explain: probe %d: %w", p.Best.Index, err)
		}
		if v != p.Distance {
			return fmt.Errorf("explain: probe %d: distance %g on a second solve, %g on the first", p.Best.Index, v, p.Distance)
		}
		b.flows = flows
	}
	l1, l2, flows := b.l1, b.l2, b.flows
	p.Laws, p.Shown1, p.Shown2 = s.topLaws(l1, l2, k)
	p.Moves, p.MovesTotal, p.MovesShown = s.moves(flows, g, k)
	best := -1
	for x := range l1 {
		if best < 0 || math.Abs(l1[x]-l2[x]) > math.Abs(l1[best]-l2[best]) {
			best = x
		}
	}
	p.MostDifferent = SeqMass{Seq: best, Words: SeqWords(s.Model, best, k), P1: l1[best], P2: l2[best]}
	p.Sentence = s.sentence(p, k)
	return nil
}

func (s *Setup) sentence(p *Pair, k int) string {
	if p.Distance == 0 {
		return fmt.Sprintf("No probe of %s tells %s from %s: every probe gives them the same law of the next %d observations.",
			s.family(), quote(p.History1), quote(p.History2), k)
	}
	return fmt.Sprintf("%s and %s are %.4g apart because an agent that plays “%s” then sees “%s” with probability %.4g after the first and %.4g after the second.",
		quote(p.History1), quote(p.History2), p.Distance, p.Best.Probe, p.MostDifferent.Words, p.MostDifferent.P1, p.MostDifferent.P2)
}

func quote(h string) string { return "“" + h + "”" }

// topLaws returns the sequences of largest p1 + p2 and the mass shown.
func (s *Setup) topLaws(l1, l2 []float64, k int) ([]SeqMass, float64, float64) {
	var all []SeqMass
	for x := range l1 {
		if l1[x] > 0 || l2[x] > 0 {
			all = append(all, SeqMass{Seq: x, P1: l1[x], P2: l2[x]})
		}
	}
	all = firstN(all, s.top(), func(a, b SeqMass) int {
		if sa, sb := a.P1+a.P2, b.P1+b.P2; sa != sb {
			if sa > sb {
				return -1
			}
			return 1
		}
		return a.Seq - b.Seq
	})
	var m1, m2 float64
	for i := range all {
		all[i].Words = SeqWords(s.Model, all[i].Seq, k)
		m1 += all[i].P1
		m2 += all[i].P2
	}
	return all, m1, m2
}

// moves ranks the plan's entries by mass × cost.
func (s *Setup) moves(flows []ot.Flow, g ot.Ground, k int) ([]Move, float64, float64) {
	nO := s.Model.NumObservations()
	type mv struct {
		f    ot.Flow
		cost float64
	}
	var all []mv
	total := 0.0
	for _, f := range flows {
		c := seqCost(g, f.I, f.J, nO, k)
		total += f.Mass * c
		if c > 0 {
			all = append(all, mv{f, c})
		}
	}
	all = firstN(all, s.top(), func(a, b mv) int {
		if x, y := a.f.Mass*a.cost, b.f.Mass*b.cost; x != y {
			if x > y {
				return -1
			}
			return 1
		}
		if a.f.I != b.f.I {
			return a.f.I - b.f.I
		}
		return a.f.J - b.f.J
	})
	out := make([]Move, len(all))
	shown := 0.0
	for i, m := range all {
		out[i] = Move{From: SeqWords(s.Model, m.f.I, k), To: SeqWords(s.Model, m.f.J, k), Mass: m.f.Mass, Cost: m.cost, Total: m.f.Mass * m.cost}
		shown += out[i].Total
	}
	return out, total, shown
}

// seqCost is the additive sequence cost Σ_t g(x_t, y_t).
func seqCost(g ot.Ground, x, y, nO, k int) float64 {
	c := 0.0
	for range k {
		c += g[x%nO][y%nO]
		x /= nO
		y /= nO
	}
	return c
}

// firstN returns the n first elements of all in the order of cmp, sorted
// (all may be reordered). cmp must be a total order (ties broken by an
// index), so the result is the prefix a full sort would give; a short
// list is kept by insertion in one pass instead of sorting the whole
// law (10⁵ entries at depth 1 of hallway T = 5).
func firstN[T any](all []T, n int, cmp func(a, b T) int) []T {
	if n <= 0 {
		return all[:0]
	}
	if n*16 >= len(all) {
		slices.SortFunc(all, cmp)
		return all[:min(n, len(all))]
	}
	top := all[:0:0]
	for _, x := range all {
		if len(top) == n && cmp(x, top[n-1]) >= 0 {
			continue
		}
		i, _ := slices.BinarySearchFunc(top, x, cmp)
		if len(top) < n {
			top = append(top, x)
		}
		copy(top[i+1:], top[i:len(top)-1])
		top[i] = x
	}
	return top
}
