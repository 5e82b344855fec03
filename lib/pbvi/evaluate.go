package pbvi

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// DefaultMaxTraces bounds the observation histories Evaluate visits, and
// DefaultMaxWork the belief-tree nodes Optimal visits, unless the caller
// raises the limit.
const (
	DefaultMaxTraces = 1 << 22
	DefaultMaxWork   = 1e7
)

// Evaluate returns the exact expected return of the policy r over T
// stages when the policy is computed on model plan and acts on model run,
// two models with the same actions and observations (for instance a
// quotient and the original):
//
//	V = E_run[ Σ_{t<T} γ^t R_run(s_t, a_t) ],   a_t = r.Action(T − t, b^plan_t),
//
// where b^plan_t is the belief of plan after the observations seen so far
// (plan's own Bayes update; when plan gives an observation probability 0
// the belief keeps its prediction) and γ is r.Discount. With run = plan it
// is the value of the PBVI policy on its own model, which the α-vectors
// bound from below only at the belief points.
//
// It enumerates the observation histories of positive probability under
// run: at most |O|^{T−1}, refused with ErrTooLarge (wrapped) above limit
// (0 means DefaultMaxTraces). Other errors: mismatched action or
// observation counts, a plan whose state count differs from the
// α-vectors', T < 1, T above a finite horizon, ctx's error.
func (r *Result) Evaluate(ctx context.Context, plan, run *pomdp.Model, T int, limit int64) (float64, error) {
	if plan.NumActions() != run.NumActions() || plan.NumObservations() != run.NumObservations() {
		return 0, fmt.Errorf("pbvi: plan model has %d actions and %d observations, run model %d and %d",
			plan.NumActions(), plan.NumObservations(), run.NumActions(), run.NumObservations())
	}
	if n := len(r.Alphas[len(r.Alphas)-1][0].Vector); n != plan.NumStates() {
		return 0, fmt.Errorf("pbvi: the policy has α-vectors over %d states, the plan model %d", n, plan.NumStates())
	}
	if T < 1 || (r.Horizon > 0 && T > r.Horizon) {
		return 0, fmt.Errorf("pbvi: evaluation horizon %d not in [1, %d]", T, max(r.Horizon, T))
	}
	if limit == 0 {
		limit = DefaultMaxTraces
	}
	if n := math.Pow(float64(run.NumObservations()), float64(T-1)); n > float64(limit) {
		return 0, fmt.Errorf("%w: %.3g observation histories (|O|^(T−1)) exceed the limit %d", ErrTooLarge, n, limit)
	}
	e := &evaluator{r: r, plan: plan, run: run, T: T, ctx: ctx}
	e.mass = make([][]float64, T)
	e.belief = make([][]float64, T)
	e.predRun = make([][]float64, T)
	e.predPlan = make([][]float64, T)
	for t := 0; t < T; t++ {
		e.mass[t] = make([]float64, run.NumStates())
		e.belief[t] = make([]float64, plan.NumStates())
		e.predRun[t] = make([]float64, run.NumStates())
		e.predPlan[t] = make([]float64, plan.NumStates())
	}
	copy(e.mass[0], run.B0)
	copy(e.belief[0], plan.B0)
	v := e.rec(0, 1)
	if e.err != nil {
		return 0, e.err
	}
	return v, nil
}

type evaluator struct {
	r                 *Result
	plan, run         *pomdp.Model
	T                 int
	ctx               context.Context
	mass, belief      [][]float64
	predRun, predPlan [][]float64
	visited           int
	err               error
}

func (e *evaluator) rec(t int, disc float64) float64 {
	if e.visited++; e.visited%4096 == 0 {
		if err := e.ctx.Err(); err != nil {
			e.err = err
		}
	}
	if e.err != nil {
		return 0
	}
	mass, b := e.mass[t], e.belief[t]
	k := e.T - t
	if e.r.Horizon == 0 {
		k = 0
	}
	a := e.r.Action(k, b)
	v := 0.0
	for s, p := range mass {
		if p != 0 {
			v += p * e.run.R[s][a]
		}
	}
	v *= disc
	if t == e.T-1 {
		return v
	}
	e.run.Predict(e.predRun[t], mass, a)
	e.plan.Predict(e.predPlan[t], b, a)
	for o := 0; o < e.run.NumObservations(); o++ {
		if e.run.Observe(e.mass[t+1], e.predRun[t], a, o) <= 0 {
			continue
		}
		nb := e.belief[t+1]
		if z := e.plan.Observe(nb, e.predPlan[t], a, o); z > 0 {
			for i := range nb {
				nb[i] /= z
			}
		} else {
			copy(nb, e.predPlan[t])
		}
		v += e.rec(t+1, disc*e.r.Discount)
	}
	return v
}

// OptimalResult is the outcome of Optimal.
type OptimalResult struct {
	// Value is the optimal expected return from b0 and Action the first
	// optimal action (the smallest index within 1e-9).
	Value  float64
	Action int
	// Nodes is the number of (belief, stages to go) nodes expanded.
	Nodes int
}

// Optimal returns the optimal expected return over T stages from m's
// initial belief with discount gamma (0 means 1), over all
// history-dependent policies, by exhaustive search of the belief tree:
//
//	V_k(b) = max_a [ b·R(·, a) + γ Σ_o P(o | b, a) V_{k−1}(τ(b, a, o)) ],   V_0 = 0.
//
// It is the exact reference against which PBVI's lower bounds are
// checked. The tree has Σ_{t<T} (|A|·|O|)^t nodes, each costing
// O(|A|·(nnz(T) + nnz(Z))); more than limit nodes (0 means
// DefaultMaxWork) are refused with ErrTooLarge (wrapped) before any work.
// Other errors: T < 1, gamma outside [0, 1], ctx's error.
func Optimal(ctx context.Context, m *pomdp.Model, T int, gamma, limit float64) (OptimalResult, error) {
	if T < 1 {
		return OptimalResult{}, fmt.Errorf("pbvi: horizon %d < 1", T)
	}
	if gamma == 0 {
		gamma = 1
	}
	if !(gamma > 0 && gamma <= 1) {
		return OptimalResult{}, fmt.Errorf("pbvi: discount %v not in [0, 1]", gamma)
	}
	if limit == 0 {
		limit = DefaultMaxWork
	}
	work, x := 0.0, 1.0
	for t := 0; t < T; t++ {
		work += x
		x *= float64(m.NumActions() * m.NumObservations())
	}
	if work > limit {
		return OptimalResult{}, fmt.Errorf("%w: the belief tree has %.3g nodes (Σ_t (|A|·|O|)^t), above the limit %.3g", ErrTooLarge, work, limit)
	}
	o := &optimal{m: m, gamma: gamma, ctx: ctx}
	v, a := o.value(m.B0, T)
	if o.err != nil {
		return OptimalResult{}, o.err
	}
	return OptimalResult{Value: v, Action: a, Nodes: o.nodes}, nil
}

type optimal struct {
	m     *pomdp.Model
	gamma float64
	ctx   context.Context
	nodes int
	err   error
}

func (o *optimal) value(b []float64, k int) (float64, int) {
	if o.nodes++; o.nodes%4096 == 0 && o.err == nil {
		o.err = o.ctx.Err()
	}
	if o.err != nil {
		return 0, 0
	}
	m := o.m
	nS, nO := m.NumStates(), m.NumObservations()
	bestV, bestA := math.Inf(-1), 0
	pred := make([]float64, nS)
	post := make([]float64, nS)
	for a := 0; a < m.NumActions(); a++ {
		v := 0.0
		for s, p := range b {
			v += p * m.R[s][a]
		}
		if k > 1 {
			m.Predict(pred, b, a)
			for z := 0; z < nO; z++ {
				p := m.Observe(post, pred, a, z)
				if p <= 0 {
					continue
				}
				for i := range post {
					post[i] /= p
				}
				w, _ := o.value(append([]float64(nil), post...), k-1)
				v += o.gamma * p * w
			}
		}
		if v > bestV+1e-9 {
			bestV, bestA = v, a
		}
	}
	return bestV, bestA
}
