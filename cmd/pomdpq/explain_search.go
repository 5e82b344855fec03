package main

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/pomdpq/pomdpq/lib/bb"
	"github.com/pomdpq/pomdpq/lib/clock2"
	"github.com/pomdpq/pomdpq/lib/explain"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/statbb"
)

// explainMaxNodes is explain's default node limit of one pair's search:
// lower than quotient's (clock2.DefaultMaxNodes), since a witness needs
// the exact maximum (hallway's depth-1 pairs at T = 3 visit about 1,500
// nodes a second), so that a hopeless search fails in minutes.
const explainMaxNodes = 1e6

// searchedFamily is a family explain searches instead of enumerating:
// why (above the enumeration limit, or --search), its size, and the
// search's settings.
type searchedFamily struct {
	kind     fsc.Kind
	M, T     int
	size     *big.Int
	limit    int64
	why      string
	maxNodes float64
}

// hasSearch reports whether `quotient` searches the family kind with m
// nodes (lib/clock2, lib/statbb), so that explain can search it too.
func hasSearch(kind fsc.Kind, m int) bool {
	return kind == fsc.KindClock && m == 2 || kind == fsc.KindStationary && m >= 1 && m <= statbb.MaxM
}

// searcher returns the search of the family with the run's ground metric,
// convention and budgets.
func (f *searchedFamily) searcher(in quotientInput, mem int64, progress func(done, total int)) explain.Searcher {
	opt := bb.Options{Ground: in.ground.Ground, Convention: in.conv, MaxNodes: f.maxNodes, MemBudget: mem, Progress: progress}
	if f.kind == fsc.KindClock {
		return explain.ClockSearch(in.model, in.T, opt)
	}
	return explain.StationarySearch(in.model, in.M, in.T, opt)
}

// searchedQuotient computes the ε-partition the way `pomdpq quotient`
// does for a searched family (decision mode at 0 and the listed ε, its
// default node limit and the memory budget).
func (a *explainArgs) searchedQuotient(ctx context.Context, rep *reporter) (*bb.Distances, error) {
	defer softLimit(bb.Budget(a.mem))()
	s, f := a.setup, a.searched
	opt := bb.Options{Ground: s.Ground, Convention: s.Convention, Workers: a.workers, MaxNodes: clock2.DefaultMaxNodes, MemBudget: a.mem,
		Progress: rep.Progress, Eps: append([]float64{0}, a.eps...)}
	rep.Phase("search")
	var d *bb.Distances
	if f.kind == fsc.KindClock {
		res, err := clock2.Compute(ctx, s.Model, s.T, opt)
		if err != nil {
			return nil, err
		}
		d = &res.Distances
	} else {
		res, err := statbb.Compute(ctx, s.Model, f.M, s.T, opt)
		if err != nil {
			return nil, err
		}
		d = &res.Distances
	}
	return d, nil
}

// refusal says why --class is refused for a searched family and what
// would help.
func (f *searchedFamily) refusal(nA, nO int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "explain: --class needs the probes of the family listed: the class belief is taken under a probe chosen among the family's members "+
		"(the first under which most members are possible, or --probe); the %s family with m = %d (%s controllers) is searched, not enumerated (%s), "+
		"and a search keeps the argmax of one pair, not the family. What would help: ", f.kind, f.M, f.size, f.why)
	if f.size.IsInt64() {
		fmt.Fprintf(&b, "--limit %s (enumerate it: time grows with the family); ", f.size)
	}
	if alts := smallerFamilies(f.kind, nA, nO, f.M, f.T); alts != "" {
		fmt.Fprintf(&b, "a smaller family: %s; ", alts)
	}
	b.WriteString("or --classes t:i,t:j, which searches the controller that attains one pair's distance.")
	return b.String()
}

// smallerFamilies lists the families one step smaller (T − 1 for clock,
// m − 1) with their sizes, "" when there is none.
func smallerFamilies(kind fsc.Kind, nA, nO, m, T int) string {
	var alts []string
	if kind == fsc.KindClock && T > 1 {
		if n, err := fsc.Size(kind, nA, nO, m, T-1); err == nil {
			alts = append(alts, fmt.Sprintf("T = %d (%s controllers)", T-1, n))
		}
	}
	if m > 1 {
		if n, err := fsc.Size(kind, nA, nO, m-1, T); err == nil {
			alts = append(alts, fmt.Sprintf("m = %d (%s controllers)", m-1, n))
		}
	}
	return strings.Join(alts, " or ")
}

// searchedRefusal says why explain refuses a family above the
// enumeration limit that no search covers (clock-aware m ≠ 2, stationary
// m > statbb.MaxM) and what would help.
func searchedRefusal(e *fsc.TooLargeError, nA, nO int, model string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "explain: the %s family of %s with m = %d", e.Kind, model, e.M)
	if e.Kind == fsc.KindClock {
		fmt.Fprintf(&b, ", T = %d,", e.T)
	}
	fmt.Fprintf(&b, " has %s controllers, above the enumeration limit %d (--limit), and no search covers it "+
		"(`pomdpq quotient` searches the clock-aware family with m = 2 and the stationary one with m ≤ %d, and enumerates the others). "+
		"What would help: --limit %s (explain then runs every controller on the explained histories only, one "+
		"transport problem each, so time grows with the family)", e.Size, e.Limit, statbb.MaxM, e.Size)
	if alts := smallerFamilies(e.Kind, nA, nO, e.M, e.T); alts != "" {
		fmt.Fprintf(&b, "; a smaller family: %s", alts)
	}
	b.WriteString(".")
	return b.String()
}

// searchNote is the line the text output gives a searched pair.
func searchNote(s *explain.Search) string {
	if !s.Exact {
		return fmt.Sprintf("the family (%s controllers) was searched, not enumerated, up to the node limit (--max-nodes), which it reached: the controller shown is the best of %s search nodes: distance %.6g (the family's maximum is ≤ %.6g)",
			s.Size, thousands(int(s.Nodes)), s.Lower, s.Upper)
	}
	return fmt.Sprintf("the family (%s controllers) was searched, not enumerated (%s search nodes for this pair): only the argmax is shown, the other probes are not ranked",
		s.Size, thousands(int(s.Nodes)))
}
