package main

import (
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/statbb"
)

// quotientSearchJSON is quotient --json for the stationary family
// computed by branch and bound (lib/statbb) instead of enumeration.
type quotientSearchJSON struct {
	quotientJSON
	// Method is "search"; Why says what chose it (the enumeration limit or
	// --search); SearchNodes the branch-and-bound nodes visited.
	Method      string `json:"method"`
	Why         string `json:"method_reason"`
	SearchNodes int64  `json:"search_nodes"`
}

type statbbArgs struct {
	model    *pomdp.Model
	ground   ot.Described
	M, T     int
	eps      []float64
	metric   distance.Metric
	conv     law.Convention
	exact    bool
	dryRun   bool
	workers  int
	maxNodes float64
	mem      int64 // --mem: 0 default, negative none
	asJSON   bool
	rep      *reporter
	stdout   io.Writer
	size     *big.Int
	why      string
}

// useStatSearch reports whether `quotient --family stationary --m M`
// searches the family (lib/statbb) instead of enumerating it, and why:
// --search asks for it; otherwise a family of 2 or 3 nodes above the
// enumeration limit is searched unless --enumerate insists.
func useStatSearch(kind fsc.Kind, M int, size *big.Int, limit int64, search, enumerate, sharded bool) (bool, string) {
	if kind != fsc.KindStationary || sharded || enumerate {
		return false, ""
	}
	if search {
		return true, "--search"
	}
	if limit == 0 {
		limit = fsc.DefaultLimit
	}
	if M >= 2 && M <= statbb.MaxM && (!size.IsInt64() || size.Int64() > limit) {
		return true, fmt.Sprintf("the family's %s controllers exceed the enumeration limit %d (--limit); --enumerate refuses instead", size, limit)
	}
	return false, ""
}

// quotientStatbb runs `pomdpq quotient --family stationary --m M` by
// branch and bound over the controllers (lib/statbb).
func quotientStatbb(a statbbArgs) error {
	if a.metric != distance.W1 {
		return usageError{msg: "quotient: the stationary search computes W1 only; drop --search for --metric tv (enumeration)"}
	}
	if a.M < 1 || a.M > statbb.MaxM {
		return usageError{msg: fmt.Sprintf("quotient: the stationary search takes 1 ≤ m ≤ %d (have %d)", statbb.MaxM, a.M)}
	}
	md := a.model
	work := statbb.Work(md.NumActions(), md.NumObservations(), a.M, a.T)
	cost := statbb.EstimateCost(md, a.T, a.workers)
	budget := a.mem
	if budget == 0 {
		budget = distance.DefaultMemBudget()
	}
	head := fmt.Sprintf("model %s, stationary m≤%d (%s FSCs, searched by branch and bound, not enumerated: %s), T = %d, metric w1", md.Name, a.M, a.size, a.why, a.T)
	if a.dryRun {
		a.rep.Phase("")
		fmt.Fprintln(a.stdout, head)
		fmt.Fprintln(a.stdout, groundLine(a.ground, ""))
		fmt.Fprintf(a.stdout, "worst case of the search: %.3g (history pair, controller restricted to the entries the pair reads) combinations; each pair's search stops after %.3g nodes (--max-nodes)\n", work, a.maxNodes)
		name, v := cost.Largest()
		fmt.Fprintf(a.stdout, "memory: estimate %s (largest term: %s, %s)\n", distance.FormatBytes(cost.Bytes()), name, distance.FormatBytes(v))
		switch {
		case budget < 0:
			fmt.Fprintln(a.stdout, "no memory budget (--mem unlimited)")
		case cost.Bytes() > budget:
			fmt.Fprintf(a.stdout, "budget %s: the run does NOT fit\n", distance.FormatBytes(budget))
		default:
			fmt.Fprintf(a.stdout, "budget %s: the run fits\n", distance.FormatBytes(budget))
		}
		return nil
	}
	defer softLimit(budget)()
	ctx, cancel := signalContext()
	defer cancel()
	opt := statbb.Options{Ground: a.ground.Ground, Convention: a.conv, Workers: a.workers, MaxNodes: a.maxNodes, MemBudget: a.mem, Progress: a.rep.Progress}
	if !a.exact {
		opt.Eps = append([]float64{0}, a.eps...) // 0 gives the exact classes
	}
	a.rep.Phase("search")
	res, err := statbb.Compute(ctx, md, a.M, a.T, opt)
	if err != nil {
		return err
	}
	a.rep.Phase("linkage")
	out := quotientSearchJSON{Method: "search", Why: a.why, SearchNodes: res.Nodes}
	q := &out.quotientJSON
	if a.size.IsInt64() {
		q.FamilySize = int(a.size.Int64())
	}
	q.Histories, q.ExactClasses = res.Tree.Len(), res.Partition(0).Total()
	q.MaxDistance = res.MaxDistance()
	q.MaxDistanceExact = res.MaxDistanceExact()
	q.StandIns, q.Convention = -1, a.conv.String()
	q.Ground = newGroundJSON(a.ground, "")
	q.EstimateBytes, q.EstimatePhases = cost.Bytes(), []estimateJSON{{"search", cost.Bytes()}}
	for k, e := range a.eps {
		if err := ctx.Err(); err != nil {
			return err
		}
		q.Classes = append(q.Classes, classJSON{Epsilon: e, Count: res.Partition(e).Total()})
		a.rep.Progress(k+1, len(a.eps))
	}
	a.rep.Phase("")
	q.Seconds, q.Phases = a.rep.Seconds(), a.rep.Phases()
	if a.asJSON {
		return writeJSON(a.stdout, out)
	}
	fmt.Fprintln(a.stdout, head)
	fmt.Fprintln(a.stdout, groundLine(a.ground, ""))
	maxd := fmt.Sprintf("%.6g", q.MaxDistance)
	if !q.MaxDistanceExact {
		lo, hi := res.MaxBracket()
		maxd = searchedMaxText(lo, hi, slices.Min(a.eps))
	}
	fmt.Fprintf(a.stdout, "histories %d in %d exact classes, %d search nodes, %d beliefs, max distance %s\n", q.Histories, q.ExactClasses, res.Nodes, res.Beliefs, maxd)
	fmt.Fprintf(a.stdout, "impossible histories take the %s stand-in (not counted by the search)\n", a.conv)
	fmt.Fprintf(a.stdout, "%8s  %s\n", "epsilon", "classes")
	for _, c := range q.Classes {
		fmt.Fprintf(a.stdout, "%8g  %d\n", c.Epsilon, c.Count)
	}
	fmt.Fprintf(a.stdout, "%.3fs in all:", q.Seconds)
	for _, p := range q.Phases {
		fmt.Fprintf(a.stdout, " %s %.3fs", p.Name, p.Seconds)
	}
	fmt.Fprintf(a.stdout, "; method: search (lib/statbb); estimated memory %s\n", distance.FormatBytes(cost.Bytes()))
	return nil
}

func init() {
	// The two-node rows: the stationary m ≤ 2 family of hallway
	// (1.1·10¹⁴ controllers) and tiger-grid (4.0·10¹¹), searched.
	for _, q := range []struct{ name, model, T string }{
		{"quotient-hallway-m2-T2", "file:hallway.POMDP", "2"},
		{"quotient-hallway-m2-T3", "file:hallway.POMDP", "3"},
		{"quotient-tiger-grid-m2-T2", "file:tiger-grid.POMDP", "2"},
		{"quotient-tiger-grid-m2-T3", "file:tiger-grid.POMDP", "3"},
	} {
		addBench(benchRow{name: q.name, estimate: quotientRow(q.model, "--m", "2", "--T", q.T, "--eps", "0,0.1,0.3")})
	}
}

// searchedMaxText writes the max distance of a decision-mode search
// (lib/statbb, lib/clock2) from its bracket (lo, hi] of listed ε (the
// smallest listed ε is first; below it the bracket is [0, first]): the
// searches decide each pair only up to its ε-bracket, and the value they
// keep inside it depends on the search order, so only the bracket is
// printed.
func searchedMaxText(lo, hi, first float64) string {
	const exact = "--exact-distances for the exact value"
	switch {
	case math.IsInf(hi, 1):
		return fmt.Sprintf("> %g (pairs above the largest ε decided by a probe; %s)", lo, exact)
	case hi == first:
		return fmt.Sprintf("≤ %g (decided only at the listed ε; %s)", hi, exact)
	}
	return fmt.Sprintf("in (%g, %g] (decided only at the listed ε; %s)", lo, hi, exact)
}
