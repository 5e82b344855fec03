package nb

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// ProbeGap compares a model M and the quotient Q seen by one probe: the W1
// distance between their trajectory laws and an objective's value on both.
type ProbeGap struct {
	Probe      string  // the probe's policy, as value.Policy writes it
	W1, VM, VQ float64 // W1(P_M, P_Q), the value on M, the value on Q
}

// ProbeGaps returns, for every probe of fam, W1 between the trajectory laws
// of b's model and of the quotient of p seen by the probe (class beliefs the
// uniform averages of their members', quotient.ForProbe), and obj's value on
// both, at horizon T.
func ProbeGaps(b bench.Benchmark, fam fsc.Family, T int, p *partition.Partition, obj value.Objective) ([]ProbeGap, error) {
	q, err := quotient.New(b.Model, T, p)
	if err != nil {
		return nil, err
	}
	out := make([]ProbeGap, 0, fam.Len())
	var s ot.Solver
	for i := 0; i < fam.Len(); i++ {
		g, err := probeGap(&s, b, q, fam.At(i), T, obj)
		if err != nil {
			return nil, fmt.Errorf("probe %d of %s: %w", i, b.Name, err)
		}
		out = append(out, g)
	}
	return out, nil
}

// probeGap is ProbeGaps for one probe c.
func probeGap(s *ot.Solver, b bench.Benchmark, q *quotient.Quotient, c *fsc.FSC, T int, obj value.Objective) (ProbeGap, error) {
	qm, err := q.ForProbe(c)
	if err != nil {
		return ProbeGap{}, err
	}
	lm, err := law.Compute(b.Model, c, T, law.UniformStandIn)
	if err != nil {
		return ProbeGap{}, err
	}
	lq, err := law.Compute(qm, c, T, law.UniformStandIn)
	if err != nil {
		return ProbeGap{}, err
	}
	w, err := s.SeqW1(b.Ground, T, lm.Trajectory(), lq.Trajectory())
	if err != nil {
		return ProbeGap{}, err
	}
	vm, err := value.Evaluate(b.Model, c, T, obj)
	if err != nil {
		return ProbeGap{}, err
	}
	vq, err := value.Evaluate(qm, c, T, obj)
	if err != nil {
		return ProbeGap{}, err
	}
	return ProbeGap{value.Policy(b.Model, c, T), w.Value, vm, vq}, nil
}

// Diameter returns the largest distance under r between two histories of
// the same class of p (0 if every class is a single history): p is a
// diameter-partition, so thm:value-bound applies with ε = Diameter.
func Diameter(r *distance.Result, p *partition.Partition) float64 {
	d := 0.0
	for t := range r.D {
		for i := 0; i < r.D[t].N; i++ {
			for j := i + 1; j < r.D[t].N; j++ {
				if p.Labels[t][i] == p.Labels[t][j] {
					d = max(d, r.D[t].At(i, j))
				}
			}
		}
	}
	return d
}

// MinGround returns δ, the smallest distance between two distinct
// observations under g (+Inf for fewer than two): the indicator of one
// observation sequence is (1/δ)-Lipschitz on O^T.
func MinGround(g ot.Ground) float64 {
	d := math.Inf(1)
	for i := range g {
		for j := range g[i] {
			if i != j {
				d = min(d, g[i][j])
			}
		}
	}
	return d
}

// BoundCheck is one benchmark's sweep of thm:value-bound over an ε grid
// (see [SweepBounds]): the number of inequalities checked, how many failed,
// and the largest ratio of left to right side of each kind.
type BoundCheck struct {
	Name, Objective                string
	T, Checks, Violations          int
	MaxLip, MaxCore, MaxThm, MaxDV float64
}

// boundRatio is lhs/rhs, with 0/0 = 0 and x/0 = +Inf for x > 0 (within
// rounding).
func boundRatio(lhs, rhs float64) float64 {
	if rhs <= 1e-12 {
		if lhs <= 1e-9 {
			return 0
		}
		return math.Inf(1)
	}
	return lhs / rhs
}

// SweepBounds checks, for every ε of grid and every probe of Π_op (m = 1,
// the |A| constant controllers) on b at horizon T:
//
//	(Lip)  |E_M G − E_Q G| ≤ L·W1(P_M, P_Q)   (L = 1/δ, [MinGround]; latent false)
//	(core) W1(P_M, P_Q) ≤ T·diam               (the proof of thm:value-bound)
//	(thm)  |V_M − V_Q| ≤ L_R·T·diam            (latent true: L_R estimated by value.EstimateLipschitz)
//
// where Q is the quotient of the W1 ε-partition and diam its [Diameter], and
// returns the largest ratio of each left side to its right side.
func SweepBounds(ctx context.Context, b bench.Benchmark, T int, obj value.Objective, latent bool, grid []float64) (BoundCheck, error) {
	c := BoundCheck{Name: b.Name, Objective: obj.Name(), T: T}
	fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), 1, fsc.Options{})
	if err != nil {
		return c, err
	}
	r, err := distance.Compute(ctx, b.Model, fam, T, distance.Options{Ground: b.Ground, Metric: distance.W1})
	if err != nil {
		return c, err
	}
	L := 1 / MinGround(b.Ground)
	if latent {
		l, err := value.EstimateLipschitz(ctx, b.Model, fam, T, value.LipschitzOptions{Ground: b.Ground})
		if err != nil {
			return c, err
		}
		L = l.LR
	}
	for _, eps := range grid {
		p := r.Partition(eps)
		gaps, err := ProbeGaps(b, fam, T, p, obj)
		if err != nil {
			return c, fmt.Errorf("ε = %g: %w", eps, err)
		}
		c.add(gaps, float64(T)*Diameter(r, p), L, latent)
	}
	return c, nil
}

// add checks the inequalities of [SweepBounds] on the gaps of one partition
// whose T·diam is tDiam, with Lipschitz constant L.
func (c *BoundCheck) add(gaps []ProbeGap, tDiam, L float64, latent bool) {
	count := func(r float64) {
		c.Checks++
		if r > 1+1e-9 {
			c.Violations++
		}
	}
	for _, g := range gaps {
		dv := math.Abs(g.VM - g.VQ)
		c.MaxDV = max(c.MaxDV, dv)
		core := boundRatio(g.W1, tDiam)
		c.MaxCore = max(c.MaxCore, core)
		count(core)
		if latent {
			other := boundRatio(dv, L*tDiam)
			c.MaxThm = max(c.MaxThm, other)
			count(other)
		} else {
			other := boundRatio(dv, L*g.W1)
			c.MaxLip = max(c.MaxLip, other)
			count(other)
		}
	}
}
