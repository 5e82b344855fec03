package explain_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bb"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/explain"
)

// Tiger with two-node clock-aware probes at T = 4: 26,873,856
// controllers, too many to run on a pair one by one. The search of
// lib/clock2, restricted to the pair, returns the controller that attains
// the pair's distance, and ExplainPair takes it apart.
func ExampleClockSearch() {
	b, err := bench.Lookup("tiger")
	if err != nil {
		panic(err)
	}
	m, T := b.Model, 4
	s := &explain.Setup{Model: m, Ground: b.Ground, T: T, Search: explain.ClockSearch(m, T, bb.Options{Ground: b.Ground})}
	h1, _ := explain.ParseHistory(m, "L")
	h2, _ := explain.ParseHistory(m, "R")
	p, err := explain.ExplainPair(context.Background(), s, h1, h2)
	if err != nil {
		panic(err)
	}
	fmt.Printf("searched %s controllers, listed %d probe\n", p.Search.Size, len(p.Probes))
	fmt.Printf("distance %.5f (search %.5f)\n", p.Distance, p.Search.Distance)
	fmt.Printf("most different: “%s”, %.4f after L, %.4f after R\n", p.MostDifferent.Words, p.MostDifferent.P1, p.MostDifferent.P2)
	// Output:
	// searched 26873856 controllers, listed 1 probe
	// distance 1.50124 (search 1.50124)
	// most different: “R R R”, 0.0638 after L, 0.5225 after R
}
