package clock2_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/clock2"
)

// Tiger with two-node clock-aware probes at T = 4: 26,873,856 controllers,
// none enumerated. Decision mode decides d ≤ ε for the listed ε only.
func ExampleCompute() {
	b, err := bench.Lookup("tiger")
	if err != nil {
		panic(err)
	}
	eps := []float64{0, 0.3, 0.5}
	res, err := clock2.Compute(context.Background(), b.Model, 4, clock2.Options{Ground: b.Ground, Eps: eps})
	if err != nil {
		panic(err)
	}
	fmt.Println("controllers", res.FamilySize)
	for _, e := range eps {
		fmt.Printf("ε = %g: %d classes\n", e, res.Partition(e).Total())
	}
	// Output:
	// controllers 26873856
	// ε = 0: 16 classes
	// ε = 0.3: 16 classes
	// ε = 0.5: 11 classes
}
