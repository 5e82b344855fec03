package value

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Objective is a quantity whose expectation Evaluate computes over a
// finite horizon T. Evaluate understands three forms, tried in this order:
//
//   - LatentReward: Σ_{t<T} γ^t R(s_t, a_t) with the model's own reward.
//   - StepObjective: Σ_{t<T} r_t(a_t, o_{t+1}), additive on the trace.
//   - TraceObjective: any G(o_{1:T}, a_{1:T}) of the whole trace
//     (paper def:gobs, the class G_obs).
//
// An Objective implementing none of them is rejected with an error.
type Objective interface {
	// Name returns a short label, e.g. "obs score".
	Name() string
}

// StepObjective is an objective additive over the observation–action
// trace, the fast form of G_obs (def:gobs):
//
//	G(o_{1:T}, a_{1:T}) = Σ_{t=0}^{T−1} r_t(a_t, o_t)
//
// where a_t is the action of stage t and o_t the observation that follows
// it (the paper's o_{t+1}). Step(t, a, o) returns r_t(a, o); a discount is
// written into r_t. Its expectation costs a forward pass over the joint
// distribution of (state, controller node), polynomial in T.
type StepObjective interface {
	Objective
	Step(t, a, o int) float64
}

// TraceObjective is a general objective G ∈ G_obs on the whole
// observation–action trace (def:gobs). Trace receives obs[t], the
// observation following the stage-t action acts[t], for t = 0 … T−1; the
// slices are shared scratch and must not be retained or modified. Its
// expectation enumerates the traces of positive probability: at most |O|^T
// of them for a deterministic controller, (|A|·|O|)^T for a stochastic one.
type TraceObjective interface {
	Objective
	Trace(obs, acts []int) float64
}

// LatentReward is the expected latent-state return of the model's reward,
//
//	V = E[ Σ_{t=0}^{T−1} γ^t R(s_t, a_t) ],
//
// undiscounted by default: Discount 0 means γ = 1 (a genuine γ = 0 is
// horizon 1). It is not in G_obs: R depends on the hidden state. The
// paper's latent-planning tables (tab:latent-planning-exact) use it with
// γ = 1; the goal reward is GridWorldGoal's own R.
type LatentReward struct {
	Discount float64
}

// Name returns "latent reward" (with γ when discounted).
func (l LatentReward) Name() string {
	if l.Discount == 0 || l.Discount == 1 {
		return "latent reward"
	}
	return fmt.Sprintf("latent reward (γ=%g)", l.Discount)
}

func (l LatentReward) gamma() float64 {
	if l.Discount == 0 {
		return 1
	}
	return l.Discount
}

// StepFunc is a StepObjective given by a function.
type StepFunc struct {
	Label string
	F     func(t, a, o int) float64
}

// Name returns Label.
func (s StepFunc) Name() string { return s.Label }

// Step returns F(t, a, o).
func (s StepFunc) Step(t, a, o int) float64 { return s.F(t, a, o) }

// TraceFunc is a TraceObjective given by a function.
type TraceFunc struct {
	Label string
	F     func(obs, acts []int) float64
}

// Name returns Label.
func (f TraceFunc) Name() string { return f.Label }

// Trace returns F(obs, acts).
func (f TraceFunc) Trace(obs, acts []int) float64 { return f.F(obs, acts) }

// AsTrace returns s seen only through its general form,
//
//	G(o, a) = Σ_t s.Step(t, a_t, o_t),
//
// so that Evaluate enumerates traces instead of running the forward pass.
// It exists to cross-check the two evaluation paths.
func AsTrace(s StepObjective) TraceObjective {
	return TraceFunc{Label: s.Name() + " (trace form)", F: func(obs, acts []int) float64 {
		v := 0.0
		for t := range obs {
			v += s.Step(t, acts[t], obs[t])
		}
		return v
	}}
}

// ObsValues returns the observation values v of the paper's observation
// score: evenly spaced on [0, 1] over the observation list,
//
//	v(o) = o / (|O| − 1)   (v = 0 when |O| = 1),
//
// so Tiger has v(L) = 0, v(R) = 1 and GridWorld v(NW, NE, SW, SE) =
// (0, 1/3, 2/3, 1)
// (docs/benchmarks.md#trace-objectives). It panics if nO < 1.
func ObsValues(nO int) []float64 {
	if nO < 1 {
		panic(fmt.Sprintf("value: ObsValues needs at least one observation, have %d", nO))
	}
	v := make([]float64, nO)
	for o := 1; o < nO; o++ {
		v[o] = float64(o) / float64(nO-1)
	}
	return v
}

// obsScore is the paper's "Obs score".
type obsScore struct{ v []float64 }

// ObsScore returns the paper's "Obs score" on nO observations,
//
//	G = Σ_{t=1}^{T} v(o_t)   with v = ObsValues(nO),
//
// a StepObjective (tab:observation-planning). v is 1-Lipschitz under the
// discrete metric; under GridWorld's geometric metric its Lipschitz
// constant is 4/3 (NE → SE: Δv = 2/3 at distance 1/2). It panics if
// nO < 1.
func ObsScore(nO int) StepObjective { return obsScore{ObsValues(nO)} }

func (s obsScore) Name() string             { return "obs score" }
func (s obsScore) Step(_, _, o int) float64 { return s.v[o] }

// actionObsScore is the paper's "Action+obs score".
type actionObsScore struct{ pref []int }

// ActionObsScore returns the paper's "Action+obs score",
//
//	G = Σ_t 1[a_t = pref(o_t)],
//
// where o_t is the observation that follows a_t (tab:observation-planning).
// pref[o] is the preferred action after observation o; DefaultPref gives
// the paper's choice. The slice is copied.
func ActionObsScore(pref []int) StepObjective {
	return actionObsScore{append([]int(nil), pref...)}
}

func (s actionObsScore) Name() string { return "action+obs score" }
func (s actionObsScore) Step(_, a, o int) float64 {
	if s.pref[o] == a {
		return 1
	}
	return 0
}

// DefaultPref returns the paper's preferred action per observation for
// ActionObsScore (docs/benchmarks.md#trace-objectives): for Tiger, recognised by its names
// (observations "L" and "R", actions "open_left" and "open_right"),
// pref(L) = open_right and pref(R) = open_left; otherwise, and for any
// other observation of such a model, pref(o) = o mod |A|. For GridWorld
// that is NW → up, NE → down, SW → left, SE → right.
func DefaultPref(m *pomdp.Model) []int {
	nO, nA := m.NumObservations(), m.NumActions()
	pref := make([]int, nO)
	for o := range pref {
		pref[o] = o % nA
	}
	l, r := m.ObsIndex("L"), m.ObsIndex("R")
	ol, or := m.ActionIndex("open_left"), m.ActionIndex("open_right")
	if l >= 0 && r >= 0 && ol >= 0 && or >= 0 {
		pref[l], pref[r] = or, ol
	}
	return pref
}

// WithObsReward returns a copy of m whose reward is the synthetic
// 1-Lipschitz observation reward of the value-bound experiments
// (def:obs-lipschitz, "L_R = 1"):
//
//	R(s, a) = E[v(O') | s, a] = Σ_{s'} T(s, a, s') Σ_o Z(s', a, o) v(o),
//
// with v = ObsValues(|O|). The copy shares m's kernels and initial belief
// (models are immutable) and is named m.Name + "+obs-reward". Its
// LatentReward value under any controller equals m's ObsScore value. Cost
// O(|A|·(nnz(T) + nnz(Z))).
func WithObsReward(m *pomdp.Model) (*pomdp.Model, error) {
	nS, nA := m.NumStates(), m.NumActions()
	v := ObsValues(m.NumObservations())
	zv := make([]float64, nS) // zv[s'] = Σ_o Z(s', a, o) v(o)
	R := make([][]float64, nS)
	flat := make([]float64, nS*nA)
	for s := range R {
		R[s] = flat[s*nA : (s+1)*nA : (s+1)*nA]
	}
	for a := 0; a < nA; a++ {
		for s2 := 0; s2 < nS; s2++ {
			cols, vals := m.Z[a].Row(s2)
			x := 0.0
			for k, o := range cols {
				x += vals[k] * v[o]
			}
			zv[s2] = x
		}
		for s := 0; s < nS; s++ {
			x := 0.0
			m.T[a].Entries(s, func(j int, p float64) { x += p * zv[j] })
			R[s][a] = x
		}
	}
	out := &pomdp.Model{
		Name:         m.Name + "+obs-reward",
		States:       m.States,
		Actions:      m.Actions,
		Observations: m.Observations,
		Discount:     m.Discount,
		HasDiscount:  m.HasDiscount,
		T:            m.T,
		Z:            m.Z,
		R:            R,
		B0:           m.B0,
	}
	if err := out.Validate(); err != nil {
		return nil, err
	}
	return out, nil
}

// RewardRange returns R_max − R_min over all (s, a) of m's reward table,
// the paper's upper bound on L_R under the discrete observation metric
// (def:obs-lipschitz, rem:lipschitz-small): 110 for Tiger. Cost O(|S|·|A|).
func RewardRange(m *pomdp.Model) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range m.R {
		for _, r := range row {
			lo, hi = math.Min(lo, r), math.Max(hi, r)
		}
	}
	if lo > hi {
		return 0
	}
	return hi - lo
}
