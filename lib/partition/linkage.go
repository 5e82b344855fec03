package partition

import "fmt"

// Greedy returns the per-depth ε-partition by greedy complete linkage
// (CONVENTIONS.md, alg:approx-partition): start from singletons in history
// order; repeatedly take the first pair of clusters (i < j, scanning i then
// j) whose every cross distance is ≤ ε + ZeroTol, merge j into i, and rescan
// from the start. Depths with a nil matrix (depth T) form one class.
//
// The rescan is resumed at the merged pair: pairs scanned before it were
// not mergeable and merging only raises linkage distances, so the result is
// that of the literal rescan, in O(n²) per depth instead of O(n³).
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
	if n <= 1 {
		return labels
	}
	thr := eps + ZeroTol
	// link[i][j] for active clusters i < j: complete-linkage distance,
	// kept as a dense copy so merges can update it.
	link := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			v := m.At(i, j)
			link[i*n+j], link[j*n+i] = v, v
		}
	}
	owner := make([]int, n) // cluster of each history
	active := make([]bool, n)
	for i := range owner {
		owner[i], active[i] = i, true
	}
	for i := 0; i < n; i++ {
		if !active[i] {
			continue
		}
		for j := i + 1; j < n; j++ {
			if !active[j] || !(link[i*n+j] <= thr) {
				continue
			}
			// merge j into i
			active[j] = false
			for k := 0; k < n; k++ {
				if active[k] && k != i {
					v := max(link[i*n+k], link[j*n+k])
					link[i*n+k], link[k*n+i] = v, v
				}
			}
			for h := range owner {
				if owner[h] == j {
					owner[h] = i
				}
			}
		}
	}
	return canonical(owner)
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
