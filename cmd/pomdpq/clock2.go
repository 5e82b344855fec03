package main

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bb"
	"github.com/pomdpq/pomdpq/lib/clock2"
	"github.com/pomdpq/pomdpq/lib/distance"
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
	searchArgs
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
	cost := clock2.EstimateCost(md, a.T, a.workers)
	if a.dryRun {
		a.rep.Phase("")
		fmt.Fprintf(a.stdout, "model %s, clock-aware m=2 T=%d (%s FSCs, searched, not enumerated), metric w1\n", md.Name, a.T, a.familySize)
		fmt.Fprintln(a.stdout, groundLine(a.ground, ""))
		fmt.Fprintf(a.stdout, "worst case of the search: %.3g (history pair, tail controller) combinations; each tail search stops after %.3g nodes (--max-nodes)\n",
			clock2.Work(md.NumActions(), md.NumObservations(), a.T), a.maxNodes)
		name, v := cost.Largest()
		fmt.Fprintf(a.stdout, "memory: fixed buffers %s (largest term: %s, %s), checked before they are allocated; then one entry per distinct tail problem and belief met, checked against the budget as they are listed (no law tensor)\n",
			distance.FormatBytes(cost.Bytes()), name, distance.FormatBytes(v))
		a.printFit(cost.Bytes(), "the fixed buffers fit")
		return nil
	}
	var res *clock2.Result
	out := quotientClock2JSON{Method: "search"}
	err := a.run(&out.quotientJSON, cost.Bytes(), func(ctx context.Context, opt bb.Options) (*bb.Distances, error) {
		var err error
		if res, err = clock2.Compute(ctx, md, a.T, opt); err != nil {
			return nil, err
		}
		return &res.Distances, nil
	})
	if err != nil {
		return err
	}
	out.RootPairs, out.SearchNodes = res.RootPairs, res.Nodes
	if res.FamilySize.IsInt64() {
		out.FamilySize = int(res.FamilySize.Int64())
	}
	if a.asJSON {
		return writeJSON(a.stdout, out)
	}
	a.print(&out.quotientJSON, &res.Distances, searchText{
		head:    fmt.Sprintf("model %s, clock-aware m=2 T=%d (%s FSCs, searched, not enumerated), T = %d, metric w1", md.Name, a.T, a.familySize, a.T),
		family:  fmt.Sprintf("clock-aware m=2 (%s FSCs, searched)", a.familySize),
		counts:  fmt.Sprintf("%d distinct tail problems, %d search nodes", res.RootPairs, res.Nodes),
		standIn: "not counted by the search; --enumerate counts them",
		tail:    fmt.Sprintf("estimated fixed memory %s (the search tables were checked against the budget as they grew)", distance.FormatBytes(cost.Bytes())),
	})
	return nil
}
