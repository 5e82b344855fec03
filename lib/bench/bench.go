package bench

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Benchmark is a built-in model together with the ground metric on its
// observations that the paper uses for it.
type Benchmark struct {
	// Name is the canonical registry name (e.g. "gridworld:3"); it is also
	// the model's Name.
	Name string
	// Model is the validated POMDP.
	Model *pomdp.Model
	// Ground is the metric d_O on Model.Observations (same order).
	Ground ot.Ground
	// GroundName says what Ground is: "discrete", or a name such as
	// GridGroundName. It is printed beside every result computed with it.
	GroundName string
	// Doc is a one-line description.
	Doc string
}

// String returns the name, sizes and description on one line.
func (b Benchmark) String() string {
	if b.Model == nil {
		return b.Name + ": <nil model>"
	}
	return fmt.Sprintf("%s: |S|=%d |A|=%d |O|=%d — %s", b.Name, b.Model.NumStates(), b.Model.NumActions(), b.Model.NumObservations(), b.Doc)
}

// Size limits of the built-in constructors.
const (
	// MaxStates bounds |S| of every built-in model (262,144: enough for
	// the standard RockSample(10,10) and (11,11), 102,401 and 247,809
	// states).
	MaxStates = 1 << 18
	// MaxEntries bounds the number of stored probabilities of T and Z
	// together (about 16 bytes each), and separately the |O|² entries of a
	// ground metric built for a size given by the caller (8 bytes each).
	MaxEntries = 1 << 24
)

var (
	// ErrTooLarge is returned (wrapped) when the requested model exceeds
	// MaxStates or MaxEntries.
	ErrTooLarge = errors.New("bench: model too large")
	// ErrUnknown is returned (wrapped) by Lookup for an unknown name.
	ErrUnknown = errors.New("bench: unknown benchmark")
)

// checkSize returns ErrTooLarge (wrapped, naming the model) when nS exceeds
// MaxStates or entries exceeds MaxEntries. Arguments are float64 so that the
// caller's products cannot overflow.
func checkSize(name string, nS, entries float64) error {
	if nS > MaxStates {
		return fmt.Errorf("%w: %s has %.0f states, the limit is %d", ErrTooLarge, name, nS, MaxStates)
	}
	if entries > MaxEntries {
		return fmt.Errorf("%w: %s stores about %.3g probabilities, the limit is %d", ErrTooLarge, name, entries, MaxEntries)
	}
	return nil
}

type entry struct {
	j int
	v float64
}

// buildCSR returns the r×c sparse matrix whose row i holds the entries added
// by fill(i, add); duplicates are summed in the order they were added and
// zeros are dropped. It panics if a column is out of range.
func buildCSR(r, c int, fill func(i int, add func(j int, v float64))) *pomdp.Sparse {
	m := &pomdp.Sparse{Rows: r, Cols: c, RowPtr: make([]int, 1, r+1)}
	var row []entry
	add := func(j int, v float64) {
		if j < 0 || j >= c {
			panic(fmt.Sprintf("bench: column %d outside [0, %d)", j, c))
		}
		row = append(row, entry{j, v})
	}
	for i := 0; i < r; i++ {
		row = row[:0]
		fill(i, add)
		slices.SortStableFunc(row, func(a, b entry) int { return cmp.Compare(a.j, b.j) })
		for k := 0; k < len(row); {
			j, v := row[k].j, 0.0
			for ; k < len(row) && row[k].j == j; k++ {
				v += row[k].v
			}
			if v != 0 {
				m.Col = append(m.Col, j)
				m.Val = append(m.Val, v)
			}
		}
		m.RowPtr = append(m.RowPtr, len(m.Col))
	}
	return m
}

// sameKernel returns nA copies of the same (immutable) kernel value.
func sameKernel(k pomdp.Kernel, nA int) []pomdp.Kernel {
	out := make([]pomdp.Kernel, nA)
	for a := range out {
		out[a] = k
	}
	return out
}

// sameObs returns nA copies of the same (immutable) observation matrix.
func sameObs(z *pomdp.Sparse, nA int) []*pomdp.Sparse {
	out := make([]*pomdp.Sparse, nA)
	for a := range out {
		out[a] = z
	}
	return out
}

// zeros returns an nS×nA zero reward table.
func zeros(nS, nA int) [][]float64 {
	r := make([][]float64, nS)
	flat := make([]float64, nS*nA)
	for s := range r {
		r[s] = flat[s*nA : (s+1)*nA : (s+1)*nA]
	}
	return r
}

// names returns prefix_0 … prefix_{n−1}.
func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s_%d", prefix, i)
	}
	return out
}

// pointMass returns the distribution on n points concentrated on i.
func pointMass(n, i int) []float64 {
	b := make([]float64, n)
	b[i] = 1
	return b
}

// finish validates m and wraps it with its ground metric and description.
func finish(m *pomdp.Model, g ot.Ground, doc string) (Benchmark, error) {
	if err := m.Validate(); err != nil {
		return Benchmark{}, err
	}
	if len(g) != m.NumObservations() {
		panic(fmt.Sprintf("bench: %s: ground metric has %d points for %d observations", m.Name, len(g), m.NumObservations()))
	}
	name := ""
	if g.IsDiscrete() {
		name = "discrete"
	}
	return Benchmark{Name: m.Name, Model: m, Ground: g, GroundName: name, Doc: doc}, nil
}

// Described returns the benchmark's ground metric with its name and the
// source "built-in NAME", for printing beside results.
func (b Benchmark) Described() ot.Described {
	return ot.Described{Ground: b.Ground, Name: b.GroundName, Source: "built-in " + b.Name}
}

// GroundName returns the name of a built-in's ground metric equal to g
// bit for bit — "discrete", GridGroundName, its North/South merge, or the
// ordered metric of the sensor grid — and "" for any other matrix.
func GroundName(g ot.Ground) string {
	same := func(h ot.Ground) bool {
		if len(h) != len(g) {
			return false
		}
		for i := range h {
			if len(g[i]) != len(h[i]) {
				return false
			}
			for j := range h[i] {
				if math.Float64bits(g[i][j]) != math.Float64bits(h[i][j]) {
					return false
				}
			}
		}
		return true
	}
	groups, _ := GridCoarsening()
	merged, _ := CoarsenGround(GridGround(), groups)
	switch {
	case g.IsDiscrete():
		return "discrete"
	case same(GridGround()):
		return GridGroundName
	case same(merged):
		return gridMergedName
	case len(g) > 1 && same(ot.Ordered(len(g))):
		return orderedName(len(g))
	}
	return ""
}

// GroundFile returns the benchmark's ground metric as a model file carries
// it (pomdp.Model.Ground): what an export should write so that reading the
// file back gives this ground metric bit for bit.
func (b Benchmark) GroundFile() *pomdp.Ground {
	return &pomdp.Ground{Name: b.GroundName, D: b.Ground}
}
