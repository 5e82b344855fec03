package law_test

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
)

// The worked example of the paper's appendix: listen-only Tiger, the one
// probe "always listen", T = 2. After L the next observation is L with
// probability 0.745; after R with 0.255.
func ExampleCompute() {
	b, _ := bench.Lookup("tiger-listen")
	l, err := law.Compute(b.Model, fsc.Constant(1, 2, 0), 2, law.UniformStandIn)
	if err != nil {
		panic(err)
	}
	for i := 0; i < 2; i++ {
		fmt.Printf("P(O_2 | %s) = %.3f\n", l.Tree.Label(b.Model.Observations, 1, i), l.Suffix(1, i))
	}
	fmt.Printf("P(O_1:2) = %.4f\n", l.Trajectory())
	// Output:
	// P(O_2 | L) = [0.745 0.255]
	// P(O_2 | R) = [0.255 0.745]
	// P(O_1:2) = [0.3725 0.1275 0.1275 0.3725]
}
