package certify

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// RankTol is the relative threshold of NumericalRank: singular values at
// or below RankTol·σ_max count as zero.
const RankTol = 1e-9

// Spectrum is the singular value spectrum of an FSC distinguishing matrix.
type Spectrum struct {
	// Depth is the history depth of the rows (−1: all depths).
	Depth int
	// Rows is the number of history pairs; Cols the number of controller
	// columns (the family size when duplicates are kept, else the number
	// of distinct columns).
	Rows, Cols int
	// Duplicates reports whether every family member has its own column.
	Duplicates bool
	// Values are the singular values, largest first.
	Values []float64
}

// Spectrum returns the singular values (gonum's mat.SVD) of the FSC
// distinguishing matrix M_{u,p} = D_{u,p}: one row per pair u of histories
// of the given depth (−1: every depth, as in the tensor) and one column per
// controller p. With duplicates every member of the family has its own
// column, as the paper's table counts them (147 Tiger, 6,405 GridWorld);
// controllers with equal action trees have equal columns, so the matrix is
// computed as the distinct columns scaled by √multiplicity, which has the
// same singular values. Without duplicates each distinct column appears
// once. It panics if depth is out of range.
//
// Cost O(rows · cols · min(rows, cols)) for the SVD.
func (t *Tensor) Spectrum(depth int, duplicates bool) Spectrum {
	lo, hi := 0, t.Pairs()
	if depth >= 0 {
		if depth >= len(t.sizes) {
			panic(fmt.Sprintf("certify: depth %d out of range [0, %d)", depth, len(t.sizes)))
		}
		lo = 0
		for d := 0; d < depth; d++ {
			n := t.sizes[d]
			lo += n * (n - 1) / 2
		}
		n := t.sizes[depth]
		hi = lo + n*(n-1)/2
	}
	mult := t.Multiplicity()
	sp := Spectrum{Depth: depth, Rows: hi - lo, Duplicates: duplicates}
	for _, m := range mult {
		if duplicates {
			sp.Cols += m
		} else {
			sp.Cols++
		}
	}
	if sp.Rows == 0 || len(t.Cols) == 0 {
		return sp
	}
	a := mat.NewDense(hi-lo, len(t.Cols), nil)
	for p, col := range t.Cols {
		s := 1.0
		if duplicates {
			s = math.Sqrt(float64(mult[p]))
		}
		for u := lo; u < hi; u++ {
			a.Set(u-lo, p, s*col[u])
		}
	}
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDNone) {
		panic("certify: SVD did not converge")
	}
	sp.Values = svd.Values(nil)
	return sp
}

// Multiplicity returns, for every column, the number of family members
// whose laws it holds (controllers with the same action tree).
func (t *Tensor) Multiplicity() []int {
	mult := make([]int, len(t.Cols))
	pos := make(map[int]int, len(t.First)) // dist column → tensor column
	for p := range t.Cols {
		pos[t.res.Column[t.First[p]]] = p
	}
	for _, c := range t.res.Column {
		mult[pos[c]]++
	}
	return mult
}

// EffectiveRank returns the number of leading singular values that capture
// the fraction frac of the total variance (the "effective rank" of the
// paper's low-rank table):
//
//	min{k : Σ_{i<k} σ_i² ≥ frac · Σ_i σ_i²}   (0 for an all-zero matrix).
//
// The squares are compared with a relative slack of 1e-12. It panics
// unless 0 < frac ≤ 1.
func (s Spectrum) EffectiveRank(frac float64) int {
	if !(frac > 0 && frac <= 1) {
		panic(fmt.Sprintf("certify: variance fraction %v not in (0, 1]", frac))
	}
	tot := 0.0
	for _, v := range s.Values {
		tot += v * v
	}
	if tot == 0 {
		return 0
	}
	cum := 0.0
	for i, v := range s.Values {
		cum += v * v
		if cum >= frac*tot*(1-1e-12) {
			return i + 1
		}
	}
	return len(s.Values)
}

// NumericalRank returns the number of singular values above
// RankTol·σ_max.
func (s Spectrum) NumericalRank() int {
	return numericalRank(s.Values)
}

func numericalRank(sv []float64) int {
	if len(sv) == 0 || sv[0] == 0 {
		return 0
	}
	r := 0
	for _, v := range sv {
		if v > RankTol*sv[0] {
			r++
		}
	}
	return r
}

// Explained returns the cumulative fraction of variance of the first k
// singular values, for k = 1 … len(Values).
func (s Spectrum) Explained() []float64 {
	tot := 0.0
	for _, v := range s.Values {
		tot += v * v
	}
	out := make([]float64, len(s.Values))
	cum := 0.0
	for i, v := range s.Values {
		cum += v * v
		if tot > 0 {
			out[i] = cum / tot
		}
	}
	return out
}
