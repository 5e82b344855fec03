package certify_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/certify"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

// tab:partition-agreement, Tiger T = 4: five greedily chosen controllers of
// the 147 recover the full probe envelope (δ_S = 0).
func ExampleAgreement() {
	b, _ := bench.Lookup("tiger")
	fam, _ := fsc.NewStationary(3, 2, 2, fsc.Options{})
	r, _ := distance.Compute(context.Background(), b.Model, fam, 4, distance.Options{Ground: b.Ground, Tensor: true})
	t, err := certify.FromResult(r)
	if err != nil {
		panic(err)
	}
	for _, row := range certify.Agreement(t, 0, []int{1, 3, 5}) {
		fmt.Printf("k=%d δ_S=%.3f classes %d/%d ARI %.3f\n", row.K, row.DeltaS, row.SubClasses, row.FullClasses, row.ARI)
	}
	// Output:
	// k=1 δ_S=0.980 classes 11/16 ARI 0.961
	// k=3 δ_S=0.245 classes 15/16 ARI 0.994
	// k=5 δ_S=0.000 classes 16/16 ARI 1.000
}
