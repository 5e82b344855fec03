package nb

import (
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// ActionProb is the probability that controller c takes action a after the
// observation history h. A stochastic controller is read at its node 0 and
// stage 0: the notebooks' stochastic probes are single-node and stationary.
func ActionProb(c *fsc.FSC, h []int, a int) float64 {
	if !c.Deterministic() {
		return c.ActionProb(0, 0, a)
	}
	stage := func(tau int) int {
		if c.Clock() {
			return tau
		}
		return 0
	}
	n := 0
	for tau, o := range h {
		n = c.NextNode(stage(tau), n, o)
	}
	if c.Action(stage(len(h)), n) == a {
		return 1
	}
	return 0
}

// ObsKernel returns the one-step observation kernel of m from belief b
// under action a: P(O_{t+1} = · | b, a) = Σ_s′ Z(s′, a, ·) Σ_s T(s, a, s′) b(s).
func ObsKernel(m *pomdp.Model, b []float64, a int) []float64 {
	pred := make([]float64, m.NumStates())
	out := make([]float64, m.NumObservations())
	m.Predict(pred, b, a)
	m.ObsProbs(out, pred, a)
	return out
}

// MaxAbsDiff returns max_i |p_i − q_i| over the common length of p and q
// (0 for empty vectors).
func MaxAbsDiff(p, q []float64) float64 {
	d := 0.0
	for i := range min(len(p), len(q)) {
		d = math.Max(d, math.Abs(p[i]-q[i]))
	}
	return d
}
