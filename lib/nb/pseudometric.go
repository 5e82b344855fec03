package nb

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// TrajectoryLaws returns, for every probe of fam, the law of m's
// observation sequence at horizon T (stand-in convention: uniform).
func TrajectoryLaws(m *pomdp.Model, fam fsc.Family, T int) ([][]float64, error) {
	e, err := law.NewEngine(m, T, law.UniformStandIn)
	if err != nil {
		return nil, err
	}
	out := make([][]float64, fam.Len())
	for i := range out {
		l, err := e.Compute(fam.At(i))
		if err != nil {
			return nil, fmt.Errorf("probe %d: %w", i, err)
		}
		out[i] = append([]float64(nil), l.Trajectory()...)
	}
	return out, nil
}

// LawDistance returns max over probes i of W1(p[i], q[i]) on O^T under g
// (the model distance D for the probes' trajectory laws p and q), and the
// first probe attaining it (0 if every distance is 0).
func LawDistance(p, q [][]float64, g ot.Ground, T int) (float64, int, error) {
	if len(p) != len(q) {
		return 0, 0, fmt.Errorf("nb: LawDistance: %d laws against %d", len(p), len(q))
	}
	var s ot.Solver
	best, arg := 0.0, 0
	for i := range p {
		r, err := s.SeqW1(g, T, p[i], q[i])
		if err != nil {
			return 0, 0, fmt.Errorf("probe %d: %w", i, err)
		}
		if r.Value > best+1e-15 {
			best, arg = r.Value, i
		}
	}
	return best, arg, nil
}

// Pseudometric is the check of prop:pseudometric over a set of models
// (see [CheckPseudometric]).
type Pseudometric struct {
	D                          [][]float64 // D[i][j] computed with M_i first
	Equal                      [][]bool    // every probe's laws equal entry by entry
	Asym, MinMargin            float64
	Triangles, Violations, Iff int // Iff counts pairs where (D = 0) != Equal
}

// CheckPseudometric computes D over all ordered pairs of models given by
// their trajectory laws (laws[i][k]: model i, probe k; [TrajectoryLaws])
// under g at horizon T, and checks prop:pseudometric: symmetry, the
// triangle inequality over distinct triples, and D = 0 exactly when every
// probe's laws are equal (to 1e-12).
func CheckPseudometric(laws [][][]float64, g ot.Ground, T int) (Pseudometric, error) {
	n := len(laws)
	c := Pseudometric{D: make([][]float64, n), Equal: make([][]bool, n), MinMargin: math.Inf(1)}
	for i := range laws {
		c.D[i], c.Equal[i] = make([]float64, n), make([]bool, n)
		for j := range laws {
			d, _, err := LawDistance(laws[i], laws[j], g, T)
			if err != nil {
				return c, fmt.Errorf("models %d and %d: %w", i, j, err)
			}
			c.D[i][j], c.Equal[i][j] = d, lawsEqual(laws[i], laws[j])
			if (d <= 1e-12) != c.Equal[i][j] {
				c.Iff++
			}
		}
	}
	for i := range laws {
		for j := range laws {
			c.Asym = max(c.Asym, math.Abs(c.D[i][j]-c.D[j][i]))
			for k := range laws {
				if i == j || j == k || i == k {
					continue
				}
				c.Triangles++
				mg := c.D[i][j] + c.D[j][k] - c.D[i][k]
				c.MinMargin = min(c.MinMargin, mg)
				if mg < -1e-12 {
					c.Violations++
				}
			}
		}
	}
	return c, nil
}

// lawsEqual reports whether every probe's laws agree entry by entry (1e-12).
func lawsEqual(p, q [][]float64) bool {
	for k := range p {
		for x := range p[k] {
			if math.Abs(p[k][x]-q[k][x]) > 1e-12 {
				return false
			}
		}
	}
	return true
}
