package pbvi

import (
	"math"
	"math/rand/v2"
)

// expand returns up to points distinct beliefs reachable from b0 (b0
// first) and whether fewer were found.
func expand(c *model, points, depth int, how Expansion, rng *rand.Rand) ([][]float64, bool) {
	B := [][]float64{append([]float64(nil), c.m.B0...)}
	st := newStepper(c)
	switch how {
	case SSEA:
		depths := []int{0}
		fruitless := 0
		for len(B) < points && fruitless < 10 {
			n := len(B)
			added := false
			for i := 0; i < n && len(B) < points; i++ {
				if depths[i] >= depth && depth > 0 {
					continue
				}
				var far []float64
				farD := -1.0
				for a := 0; a < c.nA; a++ {
					b2, ok := st.sample(B[i], a, rng)
					if !ok {
						continue
					}
					if d := minL1(B, b2); d > farD {
						far, farD = b2, d
					}
				}
				if farD > DupTol {
					B = append(B, far)
					depths = append(depths, depths[i]+1)
					added = true
				}
			}
			if added {
				fruitless = 0
			} else {
				fruitless++
			}
		}
	default: // RandomWalk
		fruitless := 0
		// Stop when 20·|B| + 100 walks in a row add nothing: the reachable
		// set is (very likely) exhausted.
		for len(B) < points && fruitless < 20*len(B)+100 && depth > 0 {
			b := B[0]
			added := false
			for d := 0; d < depth && len(B) < points; d++ {
				b2, ok := st.sample(b, rng.IntN(c.nA), rng)
				if !ok {
					break
				}
				if minL1(B, b2) > DupTol {
					B = append(B, b2)
					added = true
				}
				b = b2
			}
			if added {
				fruitless = 0
			} else {
				fruitless++
			}
		}
	}
	return B, len(B) < points
}

// minL1 returns the smallest L1 distance from b to a point of B.
func minL1(B [][]float64, b []float64) float64 {
	d := math.Inf(1)
	for _, x := range B {
		s := 0.0
		for i, v := range x {
			s += math.Abs(v - b[i])
			if s >= d {
				break
			}
		}
		d = min(d, s)
	}
	return d
}

// stepper samples belief transitions.
type stepper struct {
	c     *model
	pred  []float64
	probs []float64
}

func newStepper(c *model) *stepper {
	return &stepper{c: c, pred: make([]float64, c.nS), probs: make([]float64, c.nO)}
}

// sample draws o from P(o | b, a) and returns the posterior τ(b, a, o)
// (freshly allocated); ok is false if no observation has positive mass.
func (st *stepper) sample(b []float64, a int, rng *rand.Rand) ([]float64, bool) {
	m := st.c.m
	m.Predict(st.pred, b, a)
	m.ObsProbs(st.probs, st.pred, a)
	tot := 0.0
	for _, p := range st.probs {
		tot += p
	}
	if !(tot > 0) {
		return nil, false
	}
	u := rng.Float64() * tot
	o := len(st.probs) - 1
	for k, p := range st.probs {
		if u < p {
			o = k
			break
		}
		u -= p
	}
	for st.probs[o] <= 0 { // guard against rounding at the end of the scan
		o--
	}
	post := make([]float64, st.c.nS)
	z := m.Observe(post, st.pred, a, o)
	for i := range post {
		post[i] /= z
	}
	return post, true
}
