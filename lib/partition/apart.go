package partition

import (
	"math/bits"
	"sync/atomic"
)

// Apart records, for the n items of one depth and one threshold, which
// pairs are apart (their distance exceeds the threshold): the condensed
// upper triangle of Matrix with one bit per pair, pair (i, j) at bit
// Index(i, j). It is all the greedy partition at that threshold reads
// (GreedyApart), in 1/64 of a Matrix's memory. A nil Bits means no pair
// is apart (depth T).
//
// Set and Has are atomic: workers may mark pairs of one Apart
// concurrently.
type Apart struct {
	N    int
	Bits []uint64
}

// NewApart returns an n-item Apart with no pair apart.
func NewApart(n int) Apart {
	return Apart{N: n, Bits: make([]uint64, ApartWords(n))}
}

// ApartWords returns the 64-bit words of an n-item Apart.
func ApartWords(n int) int {
	pairs := int64(n) * int64(n-1) / 2
	return int((pairs + 63) / 64)
}

// Index returns the bit of pair (i, j), i ≠ j (as Matrix.Index).
func (a Apart) Index(i, j int) int { return Matrix{N: a.N}.Index(i, j) }

// Set marks the pair at bit k apart.
func (a Apart) Set(k int) {
	w := &a.Bits[k>>6]
	m := uint64(1) << (k & 63)
	if atomic.LoadUint64(w)&m == 0 {
		atomic.OrUint64(w, m)
	}
}

// Has reports whether the pair at bit k is apart.
func (a Apart) Has(k int) bool {
	if a.Bits == nil {
		return false
	}
	return atomic.LoadUint64(&a.Bits[k>>6])&(uint64(1)<<(k&63)) != 0
}

// ApartAbove returns the pairs of m whose distance exceeds eps + ZeroTol:
// exactly the pairs Greedy(·, eps) never puts in one cluster.
func ApartAbove(m Matrix, eps float64) Apart {
	if m.Data == nil {
		return Apart{N: m.N}
	}
	a := NewApart(m.N)
	thr := eps + ZeroTol
	for k, v := range m.Data {
		if !(v <= thr) {
			a.Bits[k>>6] |= 1 << (k & 63)
		}
	}
	return a
}

// GreedyApart returns the greedy complete-linkage partition of Greedy from
// the apart pairs alone: a[t] holds, per depth, the pairs whose distance
// exceeds ε + ZeroTol, and the result is Greedy(d, ε) label for label.
// Greedy merges singleton j into the scanned cluster when no member is
// farther than ε + ZeroTol from j; here the cluster's running linkage is
// the union of its members' apart rows, and the next mergeable j is found
// a word at a time: O(n²/64) word operations per depth.
func GreedyApart(a []Apart) *Partition {
	p := &Partition{Labels: make([][]int, len(a))}
	for t, m := range a {
		p.Labels[t] = greedyApartDepth(m)
	}
	return p
}

func greedyApartDepth(a Apart) []int {
	n := a.N
	labels := make([]int, n)
	if n <= 1 || a.Bits == nil {
		return labels
	}
	words := (n + 63) / 64
	free := make([]uint64, words) // free[j]: j is still a singleton
	for j := 0; j < n; j++ {
		free[j>>6] |= 1 << (j & 63)
	}
	link := make([]uint64, words) // link[j]: some member of the scanned cluster is apart from j
	next := 0
	for i := 0; i < n; i++ {
		if free[i>>6]&(1<<(i&63)) == 0 {
			continue
		}
		c := next
		next++
		labels[i] = c
		free[i>>6] &^= 1 << (i & 63)
		// Row i of the triangle: bits j = i+1 … n−1, at link[i+1 …].
		clear(link[(i+1)>>6:])
		a.orRow(link, i)
		for j := i + 1; j < n; {
			w := j >> 6
			cand := free[w] &^ link[w] &^ (1<<(j&63) - 1)
			if cand == 0 {
				j = (w + 1) << 6
				continue
			}
			j = w<<6 + bits.TrailingZeros64(cand)
			labels[j] = c
			free[w] &^= 1 << (j & 63)
			a.orRow(link, j)
			j++
		}
	}
	return labels
}

// orRow ORs row i of the triangle (pairs (i, j), j > i) into dst at bits
// i+1 … n−1.
func (a Apart) orRow(dst []uint64, i int) {
	n := a.N
	length := n - i - 1
	if length <= 0 {
		return
	}
	src := a.Index(i, i+1)
	dpos := i + 1
	for done := 0; done < length; {
		d := dpos + done
		off := d & 63
		take := min(64-off, length-done)
		v := a.get64(src + done)
		if take < 64 {
			v &= 1<<take - 1
		}
		dst[d>>6] |= v << off
		done += take
	}
}

// get64 returns the 64 bits of a.Bits from bit pos on (zero past the end).
func (a Apart) get64(pos int) uint64 {
	q, r := pos>>6, pos&63
	v := a.Bits[q] >> r
	if r != 0 && q+1 < len(a.Bits) {
		v |= a.Bits[q+1] << (64 - r)
	}
	return v
}
