package witness_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/witness"
)

// The smallest model on the halves grid where Q_op ≠ Q_clk without
// relying on the impossible-history stand-in: two states at T = 2 (the
// paper's hand-built witness has nine, at T = 3).
func ExampleSearch() {
	rep, err := witness.Search(context.Background(), witness.Options{
		MaxStates: 2, MaxT: 2, Grids: []witness.Grid{{Dyn: 2, Init: 2}}, Criteria: []witness.Criterion{witness.ClkFree}})
	if err != nil {
		panic(err)
	}
	w := rep.Witnesses[0]
	fmt.Printf("|S| = %d, T = %d, |O| = %d, |A| = %d\n", w.Class.S, w.T, w.Class.O, w.Class.A)
	fmt.Printf("|Q_op| = %d, |Q_clk| = %d, separated pair %s / %s\n", w.SmallClasses, w.LargeClasses, w.H1, w.H2)
	fmt.Println("separating probe:", w.Separating.Probe)
	fmt.Println("verified by brute force:", w.Verified)
	// Output:
	// |S| = 2, T = 2, |O| = 2, |A| = 2
	// |Q_op| = 3, |Q_clk| = 4, separated pair o0 / o1
	// separating probe: open-loop a1 a0
	// verified by brute force: true
}

// The paper's stationary witness (prop:stationary-counterexample) at
// T = 3, checked with the same oracle.
func ExampleCheck() {
	b, err := bench.Lookup("witness")
	if err != nil {
		panic(err)
	}
	w, err := witness.Check(context.Background(), witness.ClkFree, b.Model, 3)
	if err != nil {
		panic(err)
	}
	fmt.Printf("|Q_op| = %d, |Q_clk| = %d\n", w.SmallClasses, w.LargeClasses)
	fmt.Printf("%s / %s separated by %s: %s vs %s\n", w.H1, w.H2, w.Separating.Probe,
		w.Separating.Law1[0].Suffix, w.Separating.Law2[0].Suffix)
	// Output:
	// |Q_op| = 6, |Q_clk| = 8
	// L / R separated by open-loop A A B: U X vs U Y
}
