package distance

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// ModelResult is the closed-loop distance between two models.
type ModelResult struct {
	// Distance is D_T^Π(M, N) = max_{π ∈ Π} W1(P_M^π, P_N^π) over the
	// trajectory laws on O^T (def:pseudometric; TV under Options.Metric TV).
	Distance float64
	// Probe is the family index of the first probe attaining it (−1 for an
	// empty family).
	Probe int
}

// Models returns D_T^Π(M, N) for two models sharing their action and
// observation sets (same counts and names). It is a pseudometric on models
// (prop:pseudometric): 0 iff every probe of the family sees the same law.
func Models(ctx context.Context, M, N *pomdp.Model, fam fsc.Family, T int, opt Options) (ModelResult, error) {
	res := ModelResult{Probe: -1}
	if M.NumActions() != N.NumActions() || M.NumObservations() != N.NumObservations() {
		return res, fmt.Errorf("distance: models %s and %s do not share (A, O): |A| = %d vs %d, |O| = %d vs %d",
			M.Name, N.Name, M.NumActions(), N.NumActions(), M.NumObservations(), N.NumObservations())
	}
	for k := range M.Observations {
		if M.Observations[k] != N.Observations[k] {
			return res, fmt.Errorf("distance: observation %d is %q in %s but %q in %s", k, M.Observations[k], M.Name, N.Observations[k], N.Name)
		}
	}
	for k := range M.Actions {
		if M.Actions[k] != N.Actions[k] {
			return res, fmt.Errorf("distance: action %d is %q in %s but %q in %s", k, M.Actions[k], M.Name, N.Actions[k], N.Name)
		}
	}
	g, err := ot.ForObservations(opt.Ground, M.NumObservations())
	if err != nil {
		return res, fmt.Errorf("distance: models %s and %s: %w", M.Name, N.Name, err)
	}
	em, err := law.NewEngine(M, T, opt.Convention)
	if err != nil {
		return res, err
	}
	en, err := law.NewEngine(N, T, opt.Convention)
	if err != nil {
		return res, err
	}
	lm, ln := em.NewLaws(), en.NewLaws()
	var s ot.Solver
	for i := 0; i < fam.Len(); i++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		c := fam.At(i)
		if err := em.ComputeInto(lm, c); err != nil {
			return res, err
		}
		if err := en.ComputeInto(ln, c); err != nil {
			return res, err
		}
		p, q := lm.Trajectory(), ln.Trajectory()
		var d float64
		if opt.Metric == TV {
			d = totalVariation(p, q)
		} else if r, err := s.SeqW1(g, T, p, q); err != nil {
			return res, fmt.Errorf("distance: probe %d: %w", i, err)
		} else {
			d = r.Value
		}
		if res.Probe < 0 || d > res.Distance {
			res.Distance, res.Probe = d, i
		}
		if opt.Progress != nil {
			opt.Progress(i+1, fam.Len())
		}
	}
	return res, nil
}
