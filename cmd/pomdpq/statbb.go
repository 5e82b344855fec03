package main

import (
	"context"
	"fmt"
	"math/big"

	"github.com/pomdpq/pomdpq/lib/bb"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
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
	searchArgs
	M    int
	size *big.Int
	why  string
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
	cost := statbb.EstimateCost(md, a.T, a.workers)
	head := fmt.Sprintf("model %s, stationary m≤%d (%s FSCs, searched by branch and bound, not enumerated: %s), T = %d, metric w1", md.Name, a.M, a.size, a.why, a.T)
	if a.dryRun {
		a.rep.Phase("")
		fmt.Fprintln(a.stdout, head)
		fmt.Fprintln(a.stdout, groundLine(a.ground, ""))
		fmt.Fprintf(a.stdout, "worst case of the search: %.3g (history pair, controller restricted to the entries the pair reads) combinations; each pair's search stops after %.3g nodes (--max-nodes)\n",
			statbb.Work(md.NumActions(), md.NumObservations(), a.M, a.T), a.maxNodes)
		name, v := cost.Largest()
		fmt.Fprintf(a.stdout, "memory: estimate %s (largest term: %s, %s)\n", distance.FormatBytes(cost.Bytes()), name, distance.FormatBytes(v))
		a.printFit(cost.Bytes(), "the run fits")
		return nil
	}
	var res *statbb.Result
	out := quotientSearchJSON{Method: "search", Why: a.why}
	err := a.run(&out.quotientJSON, cost.Bytes(), func(ctx context.Context, opt bb.Options) (*bb.Distances, error) {
		var err error
		if res, err = statbb.Compute(ctx, md, a.M, a.T, opt); err != nil {
			return nil, err
		}
		return &res.Distances, nil
	})
	if err != nil {
		return err
	}
	out.SearchNodes = res.Nodes
	if a.size.IsInt64() {
		out.FamilySize = int(a.size.Int64())
	}
	if a.asJSON {
		return writeJSON(a.stdout, out)
	}
	a.print(&out.quotientJSON, &res.Distances, searchText{
		head:    head,
		family:  fmt.Sprintf("stationary m≤%d (%s FSCs, searched)", a.M, a.size),
		counts:  fmt.Sprintf("%d search nodes, %d beliefs", res.Nodes, res.Beliefs),
		standIn: "not counted by the search",
		tail:    fmt.Sprintf("method: search (lib/statbb); estimated memory %s", distance.FormatBytes(cost.Bytes())),
	})
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
