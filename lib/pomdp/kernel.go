package pomdp

import (
	"fmt"
	"math"
)

// Kernel is a row-stochastic transition matrix K(s, s') for one action.
// Implementations are immutable once built and safe for concurrent use.
type Kernel interface {
	// Dims returns the number of rows and columns (both |S|).
	Dims() (r, c int)
	// Push sets dst = src·K, i.e. dst[j] = Σ_i src[i]·K(i,j). dst and src
	// must have length |S| and must not alias. It does not allocate.
	Push(dst, src []float64)
	// Entries calls fn for each non-zero entry of row i in column order.
	Entries(i int, fn func(j int, p float64))
	// NNZ returns the number of non-zero entries (or an upper bound).
	NNZ() int
}

var _ Kernel = (*Sparse)(nil)

// Kron is the Kronecker (tensor) product of small dense stochastic factors:
// a state is a mixed-radix index Σ_k x_k·Π_{l<k} d_l with digit x_k of factor
// k (factor 0 is the least significant digit), and components evolve
// independently: K(s, s') = Π_k F_k(x_k, x'_k).
//
// Network Monitoring with n nodes is Kron of n 2×2 factors; a belief step
// then costs O(|S|·Σ d_k) instead of O(|S|²).
type Kron struct {
	Factors [][][]float64
	n       int
}

// NewKron returns the Kronecker product of the given square factors.
// It panics if a factor is not square or has more than 16 rows.
func NewKron(factors ...[][]float64) *Kron {
	n := 1
	for k, f := range factors {
		d := len(f)
		if d == 0 || d > 16 {
			panic(fmt.Sprintf("pomdp: Kron factor %d has %d rows (want 1..16)", k, d))
		}
		for _, row := range f {
			if len(row) != d {
				panic(fmt.Sprintf("pomdp: Kron factor %d is not square", k))
			}
		}
		n *= d
	}
	return &Kron{Factors: factors, n: n}
}

// Dims returns (|S|, |S|).
func (k *Kron) Dims() (r, c int) { return k.n, k.n }

// NNZ returns the number of non-zero entries of the full matrix.
func (k *Kron) NNZ() int {
	nnz := 1
	for _, f := range k.Factors {
		c := 0
		for _, row := range f {
			for _, v := range row {
				if v != 0 {
					c++
				}
			}
		}
		nnz *= c
	}
	return nnz
}

// Push sets dst = src·K by one mode product per factor, in place in dst.
func (k *Kron) Push(dst, src []float64) {
	copy(dst[:k.n], src[:k.n])
	stride := 1
	var old [16]float64
	for _, f := range k.Factors {
		d := len(f)
		block := stride * d
		for base := 0; base < k.n; base += block {
			for off := 0; off < stride; off++ {
				p := base + off
				for x := 0; x < d; x++ {
					old[x] = dst[p+x*stride]
				}
				for y := 0; y < d; y++ {
					s := 0.0
					for x := 0; x < d; x++ {
						s += old[x] * f[x][y]
					}
					dst[p+y*stride] = s
				}
			}
		}
		stride = block
	}
}

// Entries calls fn for each non-zero entry of row i.
func (k *Kron) Entries(i int, fn func(j int, p float64)) {
	digits := make([]int, len(k.Factors))
	rem := i
	for f, fac := range k.Factors {
		digits[f] = rem % len(fac)
		rem /= len(fac)
	}
	var rec func(f, j, stride int, p float64)
	rec = func(f, j, stride int, p float64) {
		if f < 0 {
			fn(j, p)
			return
		}
		// iterate most significant factor first so columns come in order
		fac := k.Factors[f]
		for y, v := range fac[digits[f]] {
			if v != 0 {
				rec(f-1, j+y*stride/len(fac), stride/len(fac), p*v)
			}
		}
	}
	rec(len(k.Factors)-1, 0, k.n, 1)
}

// SparseKernel returns K as an explicit sparse matrix (costly for large products).
func SparseKernel(k Kernel) *Sparse {
	if s, ok := k.(*Sparse); ok {
		return s
	}
	r, c := k.Dims()
	m := &Sparse{Rows: r, Cols: c, RowPtr: make([]int, 1, r+1)}
	for i := 0; i < r; i++ {
		k.Entries(i, func(j int, p float64) {
			m.Col = append(m.Col, j)
			m.Val = append(m.Val, p)
		})
		m.RowPtr = append(m.RowPtr, len(m.Col))
	}
	return m
}

// check reports a factor that is not a finite, non-negative, row-stochastic
// matrix. Factor rows must sum to 1 within RowTol divided by the number of
// factors, which bounds the row-sum error of the product by RowTol.
func (k *Kron) check() error {
	tol := RowTol / float64(max(1, len(k.Factors)))
	for f, fac := range k.Factors {
		for i, row := range fac {
			sum := 0.0
			for j, p := range row {
				if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 {
					return fmt.Errorf("Kron factor %d entry (%d,%d) = %v is not a finite non-negative number", f, i, j, p)
				}
				sum += p
			}
			if !(math.Abs(sum-1) <= tol) {
				return fmt.Errorf("Kron factor %d row %d sums to %.12g, want 1", f, i, sum)
			}
		}
	}
	return nil
}
