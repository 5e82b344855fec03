package partition_test

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/partition"
)

// Greedy complete linkage on three histories at distances 0.3, 0.3, 0.6
// (points on a line): at ε = 0.3 the first pair merges and the third
// history cannot join it.
func ExampleGreedy() {
	d := partition.NewMatrix(3)
	d.Data[d.Index(0, 1)] = 0.3
	d.Data[d.Index(1, 2)] = 0.3
	d.Data[d.Index(0, 2)] = 0.6
	for _, eps := range []float64{0, 0.3, 0.6} {
		p := partition.Greedy([]partition.Matrix{d}, eps)
		fmt.Printf("ε = %.1f: labels %v\n", eps, p.Labels[0])
	}
	fmt.Printf("ARI of {0,1}{2} vs {0}{1,2}: %.3f\n", partition.ARI([]int{0, 0, 1}, []int{0, 1, 1}))
	// Output:
	// ε = 0.0: labels [0 1 2]
	// ε = 0.3: labels [0 0 1]
	// ε = 0.6: labels [0 0 0]
	// ARI of {0,1}{2} vs {0}{1,2}: -0.500
}
