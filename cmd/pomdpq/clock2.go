package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/pomdpq/pomdpq/lib/clock2"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// quotientClock2JSON is quotient --json for the two-node clock-aware
// family computed by search (lib/clock2) instead of enumeration.
type quotientClock2JSON struct {
	quotientJSON
	// Method is "search"; RootPairs the distinct tail problems solved and
	// SearchNodes the branch-and-bound nodes visited.
	Method      string `json:"method"`
	RootPairs   int    `json:"root_pairs"`
	SearchNodes int64  `json:"search_nodes"`
}

type clock2Args struct {
	model      *pomdp.Model
	ground     ot.Described
	T          int
	eps        []float64
	metric     distance.Metric
	conv       law.Convention
	exact      bool
	dryRun     bool
	workers    int
	maxNodes   float64
	mem        int64 // --mem: 0 default, negative none
	asJSON     bool
	rep        *reporter
	stdout     io.Writer
	familySize string
}

// quotientClock2 runs `pomdpq quotient --family clock --m 2` without
// enumerating the family (lib/clock2); --enumerate selects the
// enumeration instead.
func quotientClock2(a clock2Args) error {
	if a.metric != distance.W1 {
		return usageError{msg: "quotient: the two-node clock-aware search computes W1 only; add --enumerate for --metric tv (small T)"}
	}
	md := a.model
	work := clock2.Work(md.NumActions(), md.NumObservations(), a.T)
	cost := clock2.EstimateCost(md, a.T, a.workers)
	if a.dryRun {
		a.rep.Phase("")
		fmt.Fprintf(a.stdout, "model %s, clock-aware m=2 T=%d (%s FSCs, searched, not enumerated), metric w1\n", md.Name, a.T, a.familySize)
		fmt.Fprintln(a.stdout, groundLine(a.ground, ""))
		fmt.Fprintf(a.stdout, "worst case of the search: %.3g (history pair, tail controller) combinations; each tail search stops after %.3g nodes (--max-nodes)\n", work, a.maxNodes)
		name, v := cost.Largest()
		fmt.Fprintf(a.stdout, "memory: fixed buffers %s (largest term: %s, %s), checked before they are allocated; then one entry per distinct tail problem and belief met, checked against the budget as they are listed (no law tensor)\n",
			distance.FormatBytes(cost.Bytes()), name, distance.FormatBytes(v))
		budget := a.mem
		if budget == 0 {
			budget = distance.DefaultMemBudget()
		}
		if budget < 0 {
			fmt.Fprintln(a.stdout, "no memory budget (--mem unlimited)")
		} else if cost.Bytes() > budget {
			fmt.Fprintf(a.stdout, "budget %s: the run does NOT fit\n", distance.FormatBytes(budget))
		} else {
			fmt.Fprintf(a.stdout, "budget %s: the fixed buffers fit\n", distance.FormatBytes(budget))
		}
		return nil
	}
	budget := a.mem
	if budget == 0 {
		budget = distance.DefaultMemBudget()
	}
	defer softLimit(budget)()
	ctx, cancel := signalContext()
	defer cancel()
	eps := a.eps
	opt := clock2.Options{Ground: a.ground.Ground, Convention: a.conv, Workers: a.workers, MaxNodes: a.maxNodes, MemBudget: a.mem, Progress: a.rep.Progress}
	if !a.exact {
		opt.Eps = append([]float64{0}, eps...) // 0 gives the exact classes
	}
	a.rep.Phase("search")
	res, err := clock2.Compute(ctx, md, a.T, opt)
	if err != nil {
		return err
	}
	a.rep.Phase("linkage")
	out := quotientClock2JSON{Method: "search", RootPairs: res.RootPairs, SearchNodes: res.Nodes}
	q := &out.quotientJSON
	if res.FamilySize.IsInt64() {
		q.FamilySize = int(res.FamilySize.Int64())
	}
	q.Histories, q.ExactClasses = res.Tree.Len(), res.Partition(0).Total()
	q.MaxDistance = res.MaxDistance()
	q.MaxDistanceExact = res.MaxDistanceExact()
	q.StandIns, q.Convention = -1, a.conv.String()
	q.Ground = newGroundJSON(a.ground, "")
	q.EstimateBytes, q.EstimatePhases = cost.Bytes(), []estimateJSON{{"search", cost.Bytes()}}
	for k, e := range eps {
		if err := ctx.Err(); err != nil {
			return err
		}
		q.Classes = append(q.Classes, classJSON{Epsilon: e, Count: res.Partition(e).Total()})
		a.rep.Progress(k+1, len(eps))
	}
	a.rep.Phase("")
	q.Seconds, q.Phases = a.rep.Seconds(), a.rep.Phases()
	if a.asJSON {
		return writeJSON(a.stdout, out)
	}
	fmt.Fprintf(a.stdout, "model %s, clock-aware m=2 T=%d (%s FSCs, searched, not enumerated), T = %d, metric w1\n", md.Name, a.T, a.familySize, a.T)
	fmt.Fprintln(a.stdout, groundLine(a.ground, ""))
	maxd := fmt.Sprintf("%.6g", q.MaxDistance)
	if !q.MaxDistanceExact {
		lo, hi := res.MaxBracket()
		maxd = searchedMaxText(lo, hi, slices.Min(eps))
	}
	fmt.Fprintf(a.stdout, "histories %d in %d exact classes, %d distinct tail problems, %d search nodes, max distance %s\n",
		q.Histories, q.ExactClasses, res.RootPairs, res.Nodes, maxd)
	fmt.Fprintf(a.stdout, "impossible histories take the %s stand-in (not counted by the search; --enumerate counts them)\n", a.conv)
	fmt.Fprintf(a.stdout, "%8s  %s\n", "epsilon", "classes")
	for _, c := range q.Classes {
		fmt.Fprintf(a.stdout, "%8g  %d\n", c.Epsilon, c.Count)
	}
	fmt.Fprintf(a.stdout, "%.3fs in all:", q.Seconds)
	for _, p := range q.Phases {
		fmt.Fprintf(a.stdout, " %s %.3fs", p.Name, p.Seconds)
	}
	fmt.Fprintf(a.stdout, "; estimated fixed memory %s (the search tables were checked against the budget as they grew)\n", distance.FormatBytes(cost.Bytes()))
	return nil
}
