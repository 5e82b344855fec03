package law

import "github.com/pomdpq/pomdpq/lib/fsc"

// Beliefs returns, for every history by global ID, the belief over states
// after h under controller c: b_h(s) = P^π(s_t = s | h), the state marginal
// of the joint posterior over (state, node), computed with c's own actions
// along h (docs/conventions.md#beliefs). Impossible histories get the uniform belief
// (the operational stand-in, whatever the engine's convention); impossible
// reports which did.
func (e *Engine) Beliefs(c *fsc.FSC) (beliefs [][]float64, impossible []bool, err error) {
	if err := e.Check(c); err != nil {
		return nil, nil, err
	}
	tr := e.tree
	nS := e.nS
	beliefs = make([][]float64, tr.Len())
	impossible = make([]bool, tr.Len())
	nodes := c.Nodes
	joint := make([]float64, nodes*nS)
	copy(joint, e.m.B0)
	var rec func(t, i int, joint []float64)
	pred := make([]float64, nS)
	rec = func(t, i int, joint []float64) {
		id := tr.Offset(t) + i
		b := make([]float64, nS)
		for n := 0; n < nodes; n++ {
			for s := 0; s < nS; s++ {
				b[s] += joint[n*nS+s]
			}
		}
		mass := sum(b)
		for s := range b {
			b[s] /= mass
		}
		beliefs[id] = b
		if t == tr.T {
			return
		}
		children := make([][]float64, tr.NumObs)
		for o := range children {
			children[o] = make([]float64, nodes*nS)
		}
		e.jointStep(c, t, joint, children, pred)
		for o, child := range children {
			if sum(child) == 0 {
				e.markImpossible(beliefs, impossible, t+1, i*tr.NumObs+o)
				continue
			}
			rec(t+1, i*tr.NumObs+o, child)
		}
	}
	rec(0, 0, joint)
	return beliefs, impossible, nil
}

// markImpossible gives history (t, i) and its whole subtree the uniform belief.
func (e *Engine) markImpossible(beliefs [][]float64, impossible []bool, t, i int) {
	tr := e.tree
	for d := t; d <= tr.T; d++ {
		span := tr.Count(d - t)
		for k := i * span; k < (i+1)*span; k++ {
			id := tr.Offset(d) + k
			u := make([]float64, e.nS)
			for s := range u {
				u[s] = 1 / float64(e.nS)
			}
			beliefs[id] = u
			impossible[id] = true
		}
	}
}
