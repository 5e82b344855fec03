package partition

import "fmt"

// ARI returns the adjusted Rand index of two labelings of the same items
// (Hubert and Arabie 1985): 1 for identical partitions, about 0 for
// independent ones. When both labelings put all items in one class, or
// both in singletons, the index is 1. It panics if the lengths differ.
//
//	ARI = (Σ_ij C(n_ij,2) − E) / (½(Σ_i C(a_i,2) + Σ_j C(b_j,2)) − E),
//	E   = Σ_i C(a_i,2) · Σ_j C(b_j,2) / C(n,2)
func ARI(a, b []int) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("partition: ARI of labelings of lengths %d and %d", len(a), len(b)))
	}
	n := len(a)
	if n < 2 {
		return 1
	}
	c2 := func(x int) float64 { return float64(x) * float64(x-1) / 2 }
	joint := make(map[[2]int]int)
	ra, rb := make(map[int]int), make(map[int]int)
	for k := range a {
		joint[[2]int{a[k], b[k]}]++
		ra[a[k]]++
		rb[b[k]]++
	}
	var sij, sa, sb float64
	for _, v := range joint {
		sij += c2(v)
	}
	for _, v := range ra {
		sa += c2(v)
	}
	for _, v := range rb {
		sb += c2(v)
	}
	expected := sa * sb / c2(n)
	maxIdx := (sa + sb) / 2
	if maxIdx == expected {
		return 1
	}
	return (sij - expected) / (maxIdx - expected)
}

// ARIPartitions returns the ARI of two partitions of the same tree on the
// concatenation of all depths' labels (docs/conventions.md#ari).
func ARIPartitions(p, q *Partition) float64 { return ARI(p.Flat(), q.Flat()) }
