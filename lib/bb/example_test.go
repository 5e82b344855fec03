package bb_test

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bb"
)

// A search deciding ε ∈ {0, 0.3, 0.5} prunes a subtree whose bound is at
// most the smallest listed ε at or above its best value, and stops at the
// first value above the cap.
func ExampleDecision_Theta() {
	d := bb.NewDecision([]float64{0.5, 0, 0.3})
	fmt.Println("decided", d.Eps, "cap above 0.5:", d.Cap > 0.5)
	for _, lb := range []float64{0, 0.2, 0.4, 0.7} {
		fmt.Printf("best %.1f: prune at %.3g\n", lb, d.Theta(lb))
	}
	fmt.Printf("exact mode, best 0.2: prune at %.3g\n", bb.NewDecision(nil).Theta(0.2))
	// Output:
	// decided [0 0.3 0.5] cap above 0.5: true
	// best 0.0: prune at 1e-12
	// best 0.2: prune at 0.3
	// best 0.4: prune at 0.5
	// best 0.7: prune at +Inf
	// exact mode, best 0.2: prune at 0.2
}
