package ot

import (
	"fmt"
	"math"
)

// Ground is a ground metric d_O on a finite set {0, …, n−1}, stored as a
// symmetric n×n matrix with zero diagonal. The sequence metric of the paper
// (docs/conventions.md#distances) is the sum of d_O over positions.
type Ground [][]float64

// Discrete returns the discrete metric on n points: d(i,j) = 1 for i ≠ j.
func Discrete(n int) Ground {
	g := make(Ground, n)
	for i := range g {
		g[i] = make([]float64, n)
		for j := range g[i] {
			if i != j {
				g[i][j] = 1
			}
		}
	}
	return g
}

// Ordered returns the metric |i−j|/k on n ordered points with k = n−1, so
// that the two ends are at distance 1 (the paper's sensor grid uses n = 5).
// For n = 1 it returns the zero metric.
func Ordered(n int) Ground {
	g := make(Ground, n)
	k := float64(n - 1)
	for i := range g {
		g[i] = make([]float64, n)
		for j := range g[i] {
			if i != j {
				g[i][j] = math.Abs(float64(i-j)) / k
			}
		}
	}
	return g
}

// NewGround checks that d is a square, symmetric, finite matrix with zero
// diagonal, non-negative entries and the triangle inequality (within 1e-12),
// and returns it as a Ground. Zero distances between distinct points are
// allowed (a pseudometric).
func NewGround(d [][]float64) (Ground, error) {
	n := len(d)
	for i, row := range d {
		if len(row) != n {
			return nil, fmt.Errorf("ot: ground metric row %d has %d entries, want %d", i, len(row), n)
		}
		for j, v := range row {
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return nil, fmt.Errorf("ot: ground metric d(%d,%d) = %v is not finite", i, j, v)
			case v < 0:
				return nil, fmt.Errorf("ot: ground metric d(%d,%d) = %v is negative", i, j, v)
			case i == j && v != 0:
				return nil, fmt.Errorf("ot: ground metric d(%d,%d) = %v, want 0 on the diagonal", i, j, v)
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if !(math.Abs(d[i][j]-d[j][i]) <= 1e-12) {
				return nil, fmt.Errorf("ot: ground metric not symmetric: d(%d,%d) = %v, d(%d,%d) = %v", i, j, d[i][j], j, i, d[j][i])
			}
			for k := 0; k < n; k++ {
				if d[i][k] > d[i][j]+d[j][k]+1e-12 {
					return nil, fmt.Errorf("ot: ground metric violates the triangle inequality: d(%d,%d) = %v > d(%d,%d) + d(%d,%d) = %v", i, k, d[i][k], i, j, j, k, d[i][j]+d[j][k])
				}
			}
		}
	}
	return Ground(d), nil
}

// Size returns the number of points.
func (g Ground) Size() int { return len(g) }

// Max returns the largest distance (the diameter).
func (g Ground) Max() float64 {
	m := 0.0
	for _, row := range g {
		for _, v := range row {
			m = math.Max(m, v)
		}
	}
	return m
}

// ForObservations returns the ground metric to use on n observations: the
// discrete metric when g is nil, else g after checking that it has n points
// and is a pseudometric (NewGround). Callers wrap the error with the model
// they are working on.
func ForObservations(g Ground, n int) (Ground, error) {
	if g == nil {
		return Discrete(n), nil
	}
	if g.Size() != n {
		return nil, fmt.Errorf("ot: ground metric has %d points for %d observations", g.Size(), n)
	}
	return NewGround(g)
}
