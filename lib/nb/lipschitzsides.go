package nb

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// HistorySide is one history's side of def:obs-lipschitz under a
// deterministic controller (see [LipschitzSides]).
type HistorySide struct {
	History string    // the history, as law.Tree.Label writes it
	B0      float64   // its belief in the model's first state
	Action  string    // the controller's action after it
	RBar    float64   // R̄(h, π) = Σ_s b_h(s) R(s, π(h))
	Suffix  []float64 // P^π(O_{t+1:T} | h)
}

// LipschitzSides recomputes both sides of def:obs-lipschitz for the
// deterministic controller c and the histories (t, i), (t, j) of m at
// horizon T: each history's belief, action, suffix law and R̄, and the W1
// distance under g between the two suffix laws.
func LipschitzSides(m *pomdp.Model, c *fsc.FSC, T, t, i, j int, g ot.Ground) ([2]HistorySide, float64, error) {
	var sides [2]HistorySide
	if !c.Deterministic() {
		return sides, 0, fmt.Errorf("nb: LipschitzSides: the controller is stochastic")
	}
	e, err := law.NewEngine(m, T, law.UniformStandIn)
	if err != nil {
		return sides, 0, err
	}
	laws, err := e.Compute(c)
	if err != nil {
		return sides, 0, err
	}
	beliefs, _, err := e.Beliefs(c)
	if err != nil {
		return sides, 0, err
	}
	tree := e.Tree()
	for side, k := range []int{i, j} {
		n := 0
		for tau, o := range tree.History(t, k) {
			n = c.NextNode(tau, n, o)
		}
		a := c.Action(t, n)
		b := beliefs[tree.Offset(t)+k]
		r := 0.0
		for s, p := range b {
			r += p * m.R[s][a]
		}
		sides[side] = HistorySide{History: tree.Label(m.Observations, t, k), B0: b[0], Action: m.Actions[a], RBar: r, Suffix: laws.Suffix(t, k)}
	}
	w, err := ot.SeqW1(g, T-t, laws.Suffix(t, i), laws.Suffix(t, j))
	if err != nil {
		return sides, 0, err
	}
	return sides, w, nil
}
