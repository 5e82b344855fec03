package partition

import (
	"fmt"
	"math"
	"strings"
)

// ZeroTol is the distance at or below which two histories count as
// equivalent, and the slack added to ε in greedy linkage (docs/conventions.md#tolerances).
const ZeroTol = 1e-12

// Partition assigns every history (t, i) a class label Labels[t][i]. Labels
// are numbered 0, 1, … within each depth in order of first appearance in
// history order, so equal partitions have equal labels.
type Partition struct {
	Labels [][]int
}

// FromLabels returns a partition with the given per-depth labels,
// renumbered in order of first appearance.
func FromLabels(labels [][]int) *Partition {
	p := &Partition{Labels: make([][]int, len(labels))}
	for t, l := range labels {
		p.Labels[t] = canonical(l)
	}
	return p
}

func canonical(l []int) []int {
	out := make([]int, len(l))
	seen := make(map[int]int)
	for i, x := range l {
		c, ok := seen[x]
		if !ok {
			c = len(seen)
			seen[x] = c
		}
		out[i] = c
	}
	return out
}

// Depths returns T + 1, the number of depths.
func (p *Partition) Depths() int { return len(p.Labels) }

// Classes returns the number of classes at depth t.
func (p *Partition) Classes(t int) int {
	n := 0
	for _, c := range p.Labels[t] {
		n = max(n, c+1)
	}
	return n
}

// Counts returns the number of classes at every depth.
func (p *Partition) Counts() []int {
	c := make([]int, len(p.Labels))
	for t := range c {
		c[t] = p.Classes(t)
	}
	return c
}

// Total returns the number of classes summed over all depths (the count
// the paper's tables report).
func (p *Partition) Total() int {
	n := 0
	for t := range p.Labels {
		n += p.Classes(t)
	}
	return n
}

// Members returns the indices of the depth-t histories in class c, in
// history order; the first is the class's representative.
func (p *Partition) Members(t, c int) []int {
	var m []int
	for i, x := range p.Labels[t] {
		if x == c {
			m = append(m, i)
		}
	}
	return m
}

// Flat returns the labels of all depths concatenated, with the labels of
// depth t shifted by the number of classes of earlier depths (the input of
// ARI, docs/conventions.md#ari).
func (p *Partition) Flat() []int {
	var out []int
	shift := 0
	for t, l := range p.Labels {
		for _, c := range l {
			out = append(out, c+shift)
		}
		shift += p.Classes(t)
	}
	return out
}

// Refines reports whether p refines q: every class of p lies inside a
// class of q (same tree shape required).
func (p *Partition) Refines(q *Partition) bool {
	if len(p.Labels) != len(q.Labels) {
		return false
	}
	for t := range p.Labels {
		img := make(map[int]int)
		for i, c := range p.Labels[t] {
			if d, ok := img[c]; ok && d != q.Labels[t][i] {
				return false
			} else if !ok {
				img[c] = q.Labels[t][i]
			}
		}
	}
	return true
}

// Equal reports whether p and q are the same partition.
func (p *Partition) Equal(q *Partition) bool { return p.Refines(q) && q.Refines(p) }

// String lists the classes per depth, e.g. "t=1: {0} {1}".
func (p *Partition) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d classes", p.Total())
	for t := range p.Labels {
		fmt.Fprintf(&b, "; t=%d:", t)
		for c := 0; c < p.Classes(t); c++ {
			fmt.Fprintf(&b, " %v", p.Members(t, c))
		}
	}
	return b.String()
}

// Matrix is a symmetric distance matrix over the n histories of one depth,
// stored as the condensed upper triangle: entry (i, j), i < j, at
// index i·n − i(i+1)/2 + (j − i − 1). A nil Data means every entry is 0
// (dist stores depth T, where all suffixes are empty, that way).
type Matrix struct {
	N    int
	Data []float64
}

// NewMatrix returns an all-zero n×n matrix.
func NewMatrix(n int) Matrix { return Matrix{N: n, Data: make([]float64, n*(n-1)/2)} }

// Index returns the position of (i, j), i ≠ j, in Data.
func (m Matrix) Index(i, j int) int {
	if i > j {
		i, j = j, i
	}
	return i*m.N - i*(i+1)/2 + (j - i - 1)
}

// At returns d(i, j) (0 on the diagonal).
func (m Matrix) At(i, j int) float64 {
	if i == j || m.Data == nil {
		return 0
	}
	return m.Data[m.Index(i, j)]
}

// Max returns the largest entry (0 for n < 2).
func (m Matrix) Max() float64 {
	x := 0.0
	for _, v := range m.Data {
		x = math.Max(x, v)
	}
	return x
}

// MaxInto sets m = max(m, o) element-wise (docs/algorithms.md#splitting-the-family: per-probe
// or per-shard matrices merge by max).
//
// It panics if m has no storage (nil Data) and o has a non-zero entry.
func (m Matrix) MaxInto(o Matrix) {
	for k, v := range o.Data {
		if v > m.Data[k] {
			m.Data[k] = v
		}
	}
}
