package wrap

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// Model gives the POMDP a probe runs on. Most models are Fixed; the
// quotient of an ε-partition aggregates beliefs under the probe that runs on
// it, so it is a different POMDP for every probe (quotient.ForProbe).
type Model func(pi *fsc.FSC) (*pomdp.Model, error)

// Fixed returns the model that is m for every probe.
func Fixed(m *pomdp.Model) Model {
	return func(*fsc.FSC) (*pomdp.Model, error) { return m, nil }
}

// Quotient returns the quotient q as seen by each probe (q.ForProbe).
func Quotient(q *quotient.Quotient) Model {
	return func(pi *fsc.FSC) (*pomdp.Model, error) { return q.ForProbe(pi) }
}

// DistanceResult is a closed-loop distance between two models.
type DistanceResult struct {
	// Distance is D_T^Π(A, B) = max_{π ∈ Π} W1(P_{A(π)}^π, P_{B(π)}^π).
	Distance float64
	// Probe is the family index of the first probe attaining it (−1 for
	// an empty family).
	Probe int
	// PerProbe[i] is W1 for family member i.
	PerProbe []float64
}

// Distance returns the closed-loop distance (def:pseudometric)
//
//	D_T^Π(A, B) = max_{π ∈ Π} W1(P_{A(π)}^π, P_{B(π)}^π)
//
// between the trajectory laws over O^T, under the additive sequence cost of
// the ground metric g (nil: discrete). A and B must share the observation
// set (same count; names are not compared, so a quotient or a wrapped model
// compares with the model it came from). The convention for impossible
// histories does not matter: only trajectory laws are compared.
//
// Cost per probe: two law passes (package law) and one transport problem on
// |O|^T points; it is checked for cancellation between probes. It returns an
// error when a model fails to build, the observation counts differ, or a
// transport problem fails.
func Distance(ctx context.Context, A, B Model, fam fsc.Family, T int, g ot.Ground) (DistanceResult, error) {
	res := DistanceResult{Probe: -1, PerProbe: make([]float64, fam.Len())}
	for i := 0; i < fam.Len(); i++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		pi := fam.At(i)
		w, err := probeW1(A, B, pi, T, g)
		if err != nil {
			return res, fmt.Errorf("wrap: probe %d (%v): %w", i, pi, err)
		}
		res.PerProbe[i] = w
		if res.Probe < 0 || w > res.Distance {
			res.Distance, res.Probe = w, i
		}
	}
	return res, nil
}

// probeW1 returns W1 between the trajectory laws of pi on A(pi) and B(pi).
func probeW1(A, B Model, pi *fsc.FSC, T int, g ot.Ground) (float64, error) {
	pa, err := trajectory(A, pi, T)
	if err != nil {
		return 0, err
	}
	pb, err := trajectory(B, pi, T)
	if err != nil {
		return 0, err
	}
	if len(pa) != len(pb) {
		return 0, fmt.Errorf("trajectory laws over %d and %d sequences: the models have different observation sets", len(pa), len(pb))
	}
	if g == nil {
		g = ot.Discrete(ilog(len(pa), T))
	}
	return ot.SeqW1(g, T, pa, pb)
}

// trajectory returns P^π(O_{1:T}) on the model src(pi).
func trajectory(src Model, pi *fsc.FSC, T int) ([]float64, error) {
	m, err := src(pi)
	if err != nil {
		return nil, err
	}
	l, err := law.Compute(m, pi, T, law.UniformStandIn)
	if err != nil {
		return nil, err
	}
	return l.Trajectory(), nil
}

// ilog returns b with b^T = n (T ≥ 1), the observation count of a law.
func ilog(n, T int) int {
	if T == 0 {
		return 1
	}
	for b := 1; ; b++ {
		if p := ipow(b, T); p >= n {
			return b
		}
	}
}
