package partition

import "fmt"

// Greedy returns the per-depth ε-partition by greedy complete linkage
// (docs/conventions.md#partitions, alg:approx-partition): start from singletons in history
// order; repeatedly take the first pair of clusters (i < j, scanning i then
// j) whose every cross distance is ≤ ε + ZeroTol, merge j into i, and rescan
// from the start. Depths with a nil matrix (depth T) form one class.
//
// The rescan is resumed at the merged pair: pairs scanned before it were
// not mergeable and merging only raises linkage distances, so the result is
// that of the literal rescan, in O(n²) per depth instead of O(n³). While
// cluster i is scanned, every cluster j > i is still a singleton (merges
// only ever go into the cluster being scanned), so the linkage of i to j
// is max over i's members x of d(x, j): one running maximum per j, updated
// from the rows of the condensed matrix. Greedy reads d and needs O(n)
// extra memory per depth; it never copies the matrix.
func Greedy(d []Matrix, eps float64) *Partition {
	p := &Partition{Labels: make([][]int, len(d))}
	for t, m := range d {
		p.Labels[t] = greedyDepth(m, eps)
	}
	return p
}

func greedyDepth(m Matrix, eps float64) []int {
	n := m.N
	labels := make([]int, n)
	if n <= 1 || m.Data == nil {
		return labels
	}
	thr := eps + ZeroTol
	const free = -1
	for i := range labels {
		labels[i] = free
	}
	link := make([]float64, n) // link[j]: linkage of the scanned cluster to singleton j
	next := 0
	for i := 0; i < n; i++ {
		if labels[i] != free {
			continue
		}
		c := next
		next++
		labels[i] = c
		// Row i of the condensed triangle: d(i, j) for j = i+1 … n−1.
		if i+1 < n {
			base := m.Index(i, i+1)
			copy(link[i+1:], m.Data[base:base+n-i-1])
		}
		for j := i + 1; j < n; j++ {
			if labels[j] != free || !(link[j] <= thr) {
				continue
			}
			labels[j] = c
			if j+1 < n {
				base := m.Index(j, j+1)
				row := m.Data[base : base+n-j-1]
				lk := link[j+1:]
				for k, v := range row {
					if v > lk[k] {
						lk[k] = v
					}
				}
			}
		}
	}
	return labels
}

// Exact returns the ε = 0 partition: histories at distance ≤ ZeroTol share
// a class (greedy linkage at ε = 0).
func Exact(d []Matrix) *Partition { return Greedy(d, 0) }

// Curve returns the total class count of the greedy partition at every ε
// of the grid.
func Curve(d []Matrix, grid []float64) []int {
	out := make([]int, len(grid))
	for k, eps := range grid {
		out[k] = Greedy(d, eps).Total()
	}
	return out
}

// Grid returns lo, lo+step, …, up to hi (inclusive within step/1e6).
func Grid(lo, hi, step float64) []float64 {
	if !(step > 0) {
		panic(fmt.Sprintf("partition: grid step %v is not positive", step))
	}
	var g []float64
	for k := 0; ; k++ {
		v := lo + float64(k)*step
		if v > hi+step*1e-6 {
			break
		}
		g = append(g, v)
	}
	return g
}
