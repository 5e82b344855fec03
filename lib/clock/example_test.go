package clock_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/clock"
)

// Tiger at T = 4: the operational (constant-action) quotient has
// 1+2+3+4+1 = 11 classes, the clock-aware m = 1 quotient 1+2+4+8+1 = 16
// (paper, tab:probe-family-comparison).
func ExampleQuotients() {
	b, err := bench.Lookup("tiger")
	if err != nil {
		panic(err)
	}
	r, err := clock.Quotients(context.Background(), b.Model, 4, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("|Q_op| = %d %v\n", r.Op.Total(), r.Op.Counts())
	fmt.Printf("|Q_clk| = %d %v\n", r.Clk.Total(), r.Clk.Counts())
	fmt.Printf("ARI = %.3f\n", r.ARI)
	// Output:
	// |Q_op| = 11 [1 2 3 4 1]
	// |Q_clk| = 16 [1 2 4 8 1]
	// ARI = 0.961
}

// The cross-family gap δ_clk on Tiger at T = 4 is attained by LR and RL:
// every constant prefix leaves them the same belief, while open·listen
// leaves beliefs 0.15/0.85 and 0.85/0.15, whose two remaining listens are
// 2 × 0.49 apart.
func ExampleNewDistances() {
	b, err := bench.Lookup("tiger")
	if err != nil {
		panic(err)
	}
	d, err := clock.NewDistances(context.Background(), b.Model, b.Ground, 4, nil)
	if err != nil {
		panic(err)
	}
	i, j := d.GapI, d.GapJ
	fmt.Printf("δ_clk = %.2f at depth %d: d^clk = %.2f, d^op = %.2f\n", d.Gap, d.GapDepth, d.ClkAt(2, i, j), d.OpAt(2, i, j))
	// Output:
	// δ_clk = 0.98 at depth 2: d^clk = 0.98, d^op = 0.00
}

// The stationary witness at T = 3 under both conventions: def:equiv with
// the point-mass stand-in, and the authors' possibility-pattern labelling,
// which gives the printed 9 / 10 / 0.957 (paper,
// tab:probe-family-comparison).
func ExampleQuotients_possibilityPattern() {
	b, err := bench.Lookup("witness")
	if err != nil {
		panic(err)
	}
	for _, cv := range []clock.Convention{clock.PointMass, clock.PossibilityPattern} {
		r, err := clock.Quotients(context.Background(), b.Model, 3, &clock.Options{Convention: cv})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-19s |Q_op| = %d %v, |Q_clk| = %d %v, ARI %.3f\n", cv, r.Op.Total(), r.Op.Counts(), r.Clk.Total(), r.Clk.Counts(), r.ARI)
	}
	// Output:
	// point-mass          |Q_op| = 6 [1 2 2 1], |Q_clk| = 8 [1 3 3 1], ARI 1.000
	// possibility-pattern |Q_op| = 9 [1 3 3 2], |Q_clk| = 10 [1 3 3 3], ARI 0.957
}

// The printed column "max |d^clk − d^op|" of tab:probe-family-comparison on
// GridWorld 3×3 at T = 3 is 0.549: the authors' mechanism gives it, the
// largest d^clk at depth ⌈T/2⌉ rounds to 0.550, and the exact gap δ_clk is
// 0.204.
func ExampleNewSlicedGap() {
	b, err := bench.Lookup("gridworld:3")
	if err != nil {
		panic(err)
	}
	d, err := clock.NewDistances(context.Background(), b.Model, b.Ground, 3, nil)
	if err != nil {
		panic(err)
	}
	s, err := clock.NewSlicedGap(context.Background(), b.Model, b.Ground, d, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("sliced %.3f (depth %d), depth-⌈T/2⌉ %.3f, δ_clk %.3f\n", s.Value, s.Depth, d.PaperColumn(), d.Gap)
	// Output:
	// sliced 0.549 (depth 2), depth-⌈T/2⌉ 0.550, δ_clk 0.204
}

// A memory budget holds in every phase: GridWorld 3×3 at T = 4 interns
// 127,172 beliefs (about 245 MiB estimated), so under a budget of 64 MiB
// the prefix trees are stopped as they grow, and the error says where and
// on what.
func ExampleBudgetError() {
	b, err := bench.Lookup("gridworld:3")
	if err != nil {
		panic(err)
	}
	_, err = clock.NewDistances(context.Background(), b.Model, b.Ground, 4, &clock.Options{MaxBytes: 64 << 20})
	var be *clock.BudgetError
	if errors.As(err, &be) {
		fmt.Printf("phase %s, refused before allocating: %t, largest term: %s\n", be.Phase, be.Refused, be.Term)
	}
	// Output:
	// phase prefix trees, refused before allocating: false, largest term: interned beliefs (packed keys, and masses over the support once stepped)
}
