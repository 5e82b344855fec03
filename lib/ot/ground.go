package ot

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
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

// GroundError reports why a matrix is not a ground metric: the entry
// d(I, J) and, for the triangle inequality, the intermediate point K
// (d(I,K) > d(I,J) + d(J,K)); indices that do not apply are −1. Readers of
// ground-metric files translate the indices into observation names and
// lines.
type GroundError struct {
	Kind    GroundFault
	I, J, K int
	// Value is d(I, J) (the triangle inequality: d(I, K)), Other d(J, I)
	// (symmetry) or d(I, J) + d(J, K) (the triangle inequality).
	Value, Other float64
	// Len is the length of row I (Kind RowLength), N the number of points.
	Len, N int
}

// GroundFault names the rule a GroundError breaks.
type GroundFault int

// The rules of a ground metric, in the order NewGround checks them.
const (
	RowLength    GroundFault = iota // a row of the wrong length
	NotFinite                       // NaN or ±Inf
	Negative                        // d(i,j) < 0
	Diagonal                        // d(i,i) ≠ 0
	Asymmetric                      // |d(i,j) − d(j,i)| > GroundTol
	Triangle                        // d(i,k) > d(i,j) + d(j,k) + GroundTol
	NotSeparated                    // d(i,j) = 0 for i ≠ j (NewMetric only)
)

// GroundTol is the absolute tolerance of the symmetry and triangle checks.
const GroundTol = 1e-12

// Rule describes what the fault breaks, in words.
func (f GroundFault) Rule() string {
	switch f {
	case RowLength:
		return "the matrix must be square"
	case NotFinite:
		return "distances must be finite"
	case Negative:
		return "distances must be non-negative"
	case Diagonal:
		return "the diagonal must be 0"
	case Asymmetric:
		return fmt.Sprintf("the matrix must be symmetric (within %g)", GroundTol)
	case Triangle:
		return fmt.Sprintf("the triangle inequality must hold (within %g)", GroundTol)
	case NotSeparated:
		return "distinct points must be at a positive distance (a metric, not a pseudometric)"
	}
	return fmt.Sprintf("GroundFault(%d)", int(f))
}

func (e *GroundError) Error() string {
	switch e.Kind {
	case RowLength:
		return fmt.Sprintf("ot: ground metric row %d has %d entries, want %d", e.I, e.Len, e.N)
	case NotFinite:
		return fmt.Sprintf("ot: ground metric d(%d,%d) = %v is not finite", e.I, e.J, e.Value)
	case Negative:
		return fmt.Sprintf("ot: ground metric d(%d,%d) = %v is negative", e.I, e.J, e.Value)
	case Diagonal:
		return fmt.Sprintf("ot: ground metric d(%d,%d) = %v, want 0 on the diagonal", e.I, e.J, e.Value)
	case Asymmetric:
		return fmt.Sprintf("ot: ground metric not symmetric: d(%d,%d) = %v, d(%d,%d) = %v", e.I, e.J, e.Value, e.J, e.I, e.Other)
	case Triangle:
		return fmt.Sprintf("ot: ground metric violates the triangle inequality: d(%d,%d) = %v > d(%d,%d) + d(%d,%d) = %v", e.I, e.K, e.Value, e.I, e.J, e.J, e.K, e.Other)
	case NotSeparated:
		return fmt.Sprintf("ot: ground metric d(%d,%d) = 0 for distinct points (a pseudometric; a metric is required)", e.I, e.J)
	}
	return "ot: invalid ground metric"
}

// NewGround checks that d is a square, symmetric, finite matrix with zero
// diagonal, non-negative entries and the triangle inequality (within
// GroundTol), and returns it as a Ground. Zero distances between distinct
// points are allowed (a pseudometric). Errors are *GroundError values.
func NewGround(d [][]float64) (Ground, error) {
	if err := checkGround(d); err != nil {
		return nil, err
	}
	return Ground(d), nil
}

// NewMetric is NewGround for a metric: it also refuses d(i,j) = 0 for
// i ≠ j. The paper's ground metric d_O is a metric, which makes the probe
// distance 0 exactly when the suffix laws are equal (prop:pseudometric);
// under a pseudometric two histories with different laws could be at
// distance 0 and the exact classes (equal laws) would be finer than the
// classes at ε = 0. Files giving a ground metric are read with NewMetric.
func NewMetric(d [][]float64) (Ground, error) {
	if err := checkGround(d); err != nil {
		return nil, err
	}
	for i, row := range d {
		for j, v := range row {
			if i != j && v == 0 {
				return nil, &GroundError{Kind: NotSeparated, I: i, J: j, K: -1, N: len(d)}
			}
		}
	}
	return Ground(d), nil
}

func checkGround(d [][]float64) *GroundError {
	n := len(d)
	for i, row := range d {
		if len(row) != n {
			return &GroundError{Kind: RowLength, I: i, J: -1, K: -1, Len: len(row), N: n}
		}
		for j, v := range row {
			var kind GroundFault
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				kind = NotFinite
			case v < 0:
				kind = Negative
			case i == j && v != 0:
				kind = Diagonal
			default:
				continue
			}
			return &GroundError{Kind: kind, I: i, J: j, K: -1, Value: v, N: n}
		}
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if !(math.Abs(d[i][j]-d[j][i]) <= GroundTol) {
				return &GroundError{Kind: Asymmetric, I: i, J: j, K: -1, Value: d[i][j], Other: d[j][i], N: n}
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				if d[i][k] > d[i][j]+d[j][k]+GroundTol {
					return &GroundError{Kind: Triangle, I: i, J: j, K: k, Value: d[i][k], Other: d[i][j] + d[j][k], N: n}
				}
			}
		}
	}
	return nil
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

// IsDiscrete reports whether g is the discrete metric: 1 between distinct
// points, 0 on the diagonal.
func (g Ground) IsDiscrete() bool {
	for i, row := range g {
		if len(row) != len(g) {
			return false
		}
		for j, v := range row {
			if (i == j && v != 0) || (i != j && v != 1) {
				return false
			}
		}
	}
	return true
}

// Fingerprint returns the first 12 hexadecimal digits of the SHA-256 of
// the matrix (the number of points, then every entry's IEEE-754 bits,
// little-endian, row by row). Two ground metrics with the same fingerprint
// are equal bit for bit but for a hash collision; a printed fingerprint
// says which matrix a result was computed with.
func (g Ground) Fingerprint() string {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(len(g)))
	h.Write(b[:])
	for _, row := range g {
		for _, v := range row {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
			h.Write(b[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// Described is a ground metric with what it is and where it came from,
// printed beside every result computed with it (results depend on it: the
// built-in GridWorld's geometric metric and the discrete one give
// different quotients of the same model).
type Described struct {
	Ground Ground
	// Name says what the metric is, e.g. "quadrant-manhattan"; empty for
	// an unnamed matrix. The discrete metric is recognised by its entries.
	Name string
	// Source says where it came from, e.g. "built-in gridworld:3",
	// "file g.csv" or "default: a .pomdp file carries no ground metric".
	Source string
}

// DescribeDiscrete returns the discrete metric on n points with the given
// source.
func DescribeDiscrete(n int, source string) Described {
	return Described{Ground: Discrete(n), Name: "discrete", Source: source}
}

// Label is the metric without its source: "discrete 0/1" for the discrete
// metric (whatever its Name), else the Name (or "unnamed n×n matrix")
// followed by the fingerprint, e.g. "quadrant-manhattan [sha256 0123abcd4567]".
func (d Described) Label() string {
	if d.Ground.IsDiscrete() {
		return "discrete 0/1"
	}
	name := d.Name
	if name == "" {
		name = fmt.Sprintf("unnamed %d×%d matrix", len(d.Ground), len(d.Ground))
	}
	return fmt.Sprintf("%s [sha256 %s]", name, d.Ground.Fingerprint())
}

// String is Label followed by the source in parentheses, e.g.
// "discrete 0/1 (default: a .pomdp file carries no ground metric)".
func (d Described) String() string {
	if d.Source == "" {
		return d.Label()
	}
	return d.Label() + " (" + d.Source + ")"
}
