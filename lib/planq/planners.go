package planq

import (
	"context"
	"fmt"
	"time"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pbvi"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// BestFSC is the exhaustive search of the family Π: on the quotient every
// controller is valued on the quotient it sees (quotient.ForProbe); on
// the original, value.Best. Ties go to the first controller in family
// order within value.DefaultTol.
type BestFSC struct{}

// Name returns "best-fsc".
func (BestFSC) Name() string { return "best-fsc" }

// Quotient returns the best controller of env.Family on q.
func (b BestFSC) Quotient(ctx context.Context, env *Env, q *quotient.Quotient) (*Plan, error) {
	return one(b.Quotients(ctx, env, []*quotient.Quotient{q}))
}

// Quotients returns the best controller of env.Family on each of qs, in
// one pass over the family (searchQuotients).
func (BestFSC) Quotients(ctx context.Context, env *Env, qs []*quotient.Quotient) ([]*Plan, error) {
	return searchQuotients(ctx, env, env.Family, qs)
}

// one returns the single plan of a batch.
func one(ps []*Plan, err error) (*Plan, error) {
	if err != nil {
		return nil, err
	}
	return ps[0], nil
}

// Original returns the best controller of env.Family on env.Model.
func (BestFSC) Original(ctx context.Context, env *Env) (*Plan, error) {
	return searchOriginal(ctx, env, env.Family)
}

// Work estimates the steps of Original.
func (BestFSC) Work(env *Env) float64 { return familyWork(env, env.Family) }

// OpenLoop searches the open-loop action strings (clock-aware m = 1
// controllers) the same way as BestFSC.
type OpenLoop struct{}

// Name returns "open-loop".
func (OpenLoop) Name() string { return "open-loop" }

func openLoopFamily(env *Env) (fsc.Family, error) {
	return fsc.NewClock(env.Model.NumActions(), env.Model.NumObservations(), 1, env.T, fsc.Options{})
}

// Quotient returns the best open-loop string on q.
func (o OpenLoop) Quotient(ctx context.Context, env *Env, q *quotient.Quotient) (*Plan, error) {
	return one(o.Quotients(ctx, env, []*quotient.Quotient{q}))
}

// Quotients returns the best open-loop string on each of qs, in one pass.
func (OpenLoop) Quotients(ctx context.Context, env *Env, qs []*quotient.Quotient) ([]*Plan, error) {
	fam, err := openLoopFamily(env)
	if err != nil {
		return nil, err
	}
	return searchQuotients(ctx, env, fam, qs)
}

// Original returns the best open-loop string on env.Model.
func (OpenLoop) Original(ctx context.Context, env *Env) (*Plan, error) {
	fam, err := openLoopFamily(env)
	if err != nil {
		return nil, err
	}
	return searchOriginal(ctx, env, fam)
}

// Work estimates the steps of Original.
func (OpenLoop) Work(env *Env) float64 {
	fam, err := openLoopFamily(env)
	if err != nil {
		return 1e300
	}
	return familyWork(env, fam)
}

func searchOriginal(ctx context.Context, env *Env, fam fsc.Family) (*Plan, error) {
	r, err := value.Best(ctx, env.Model, fam, env.T, env.Obj, value.Options{Workers: env.Workers})
	if err != nil {
		return nil, err
	}
	p, err := controllerPlan(env, r.Controller, r.Value)
	if err != nil {
		return nil, err
	}
	p.Seconds, p.search = r.Seconds, &r
	return p, nil
}

func controllerPlan(env *Env, c *fsc.FSC, v float64) (*Plan, error) {
	l, err := Unroll(c, 0, env.T)
	if err != nil {
		return nil, err
	}
	return &Plan{Policy: value.Policy(env.Model, c, env.T), Controller: c, Lifted: l, Value: v}, nil
}

// PBVI solves the quotient exported under env.Ref (quotient.Export) by
// point-based value iteration (finite horizon T, the model's γ, 50
// points, seed 42) and lifts its policy through the classes; on the
// original it solves env.Model the same way.
type PBVI struct{}

// Name returns "pbvi".
func (PBVI) Name() string { return "pbvi" }

func (PBVI) settings(env *Env) pbvi.Settings {
	return pbvi.Settings{Horizon: env.T, Discount: env.Obj.Discount, Seed: pbvi.DefaultSeed}
}

// Quotient solves the exported quotient and lifts the policy.
func (p PBVI) Quotient(ctx context.Context, env *Env, q *quotient.Quotient) (*Plan, error) {
	start := time.Now()
	qm, err := q.Export(env.Ref)
	if err != nil {
		return nil, err
	}
	r, err := pbvi.Solve(ctx, qm, p.settings(env))
	if err != nil {
		return nil, err
	}
	states, _ := QStates(q)
	if len(states) != qm.NumStates() {
		return nil, fmt.Errorf("planq: exported quotient has %d states, the class walk %d", qm.NumStates(), len(states))
	}
	b := make([]float64, len(states))
	l := LiftStates(q, func(k int) int {
		clear(b)
		b[k] = 1
		return r.Action(env.T-states[k].T, b)
	})
	elapsed := time.Since(start).Seconds()
	vq, err := LiftedValue(ctx, qm, l)
	if err != nil {
		return nil, err
	}
	return &Plan{Policy: fmt.Sprintf("PBVI policy lifted to %d nodes (%d classes)", len(l.Nodes), q.Classes()), Lifted: l, Value: vq, Seconds: elapsed}, nil
}

// Original solves env.Model by PBVI; Value is the exact value of the PBVI
// policy (belief tracking on the original).
func (p PBVI) Original(ctx context.Context, env *Env) (*Plan, error) {
	start := time.Now()
	r, err := pbvi.Solve(ctx, env.Model, p.settings(env))
	if err != nil {
		return nil, err
	}
	elapsed := time.Since(start).Seconds()
	v, err := r.Evaluate(ctx, env.Model, env.Model, env.T, 0)
	if err != nil {
		return nil, err
	}
	return &Plan{Policy: fmt.Sprintf("PBVI on the original (%d belief points)", len(r.Beliefs)), Value: v, Seconds: elapsed}, nil
}

// Work estimates PBVI's backups on the original: T sweeps of points ×
// vectors × |A|·|O| projections of nnz(T) + nnz(Z) each.
func (PBVI) Work(env *Env) float64 {
	m := env.Model
	nnz := 0.0
	for a := range m.T {
		nnz += float64(m.T[a].NNZ() + m.Z[a].NNZ())
	}
	pts := float64(pbvi.DefaultPoints)
	return float64(env.T) * pts * pts * float64(m.NumObservations()) * nnz
}
