package statbb_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/statbb"
)

// Tag (870 states, 5 actions, 30 observations) with stationary probes of
// at most two nodes at T = 2: 2.9·10¹⁹ controllers, none enumerated.
// Decision mode decides d ≤ ε for the listed ε only. (TestCoverT2 checks
// these partitions against an enumerable subfamily that attains the
// family's maximum at T = 2.)
func ExampleCompute() {
	b, err := bench.Lookup("tag")
	if err != nil {
		panic(err)
	}
	eps := []float64{0, 0.1, 0.3}
	res, err := statbb.Compute(context.Background(), b.Model, 2, 2, statbb.Options{Ground: b.Ground, Eps: eps})
	if err != nil {
		panic(err)
	}
	fmt.Println("controllers", res.FamilySize)
	for _, e := range eps {
		fmt.Printf("ε = %g: %d classes\n", e, res.Partition(e).Total())
	}
	// Output:
	// controllers 28823037615171174405
	// ε = 0: 32 classes
	// ε = 0.1: 32 classes
	// ε = 0.3: 32 classes
}
