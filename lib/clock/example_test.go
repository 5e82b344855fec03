package clock_test

import (
	"context"
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
