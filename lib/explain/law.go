package explain

import (
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// lawer computes the suffix law of one history under one controller by
// following that history alone and then expanding its subtree, never the
// whole history tree. It does the arithmetic of package law in the same
// order (the same Predict/Observe steps, the same bottom-up masses), so
// its laws are the ones the quotient's distances were computed from, bit
// for bit (TestSuffixMatchesLaw). Not safe for concurrent use.
type lawer struct {
	m      *pomdp.Model
	T      int
	conv   law.Convention
	nS, nO int
	pred   []float64
}

func newLawer(m *pomdp.Model, T int, conv law.Convention) *lawer {
	return &lawer{m: m, T: T, conv: conv, nS: m.NumStates(), nO: m.NumObservations(), pred: make([]float64, m.NumStates())}
}

// suffix returns P^π(O_{t+1:T} | h) for h = (o_1 … o_t) as a slice of
// length |O|^{T−t} indexed like law.Laws.Suffix, and whether it is the
// stand-in of an impossible history.
func (w *lawer) suffix(c *fsc.FSC, h []int) ([]float64, bool) {
	t := len(h)
	n := 1
	for range w.T - t {
		n *= w.nO
	}
	leaves := make([]float64, n)
	if c.Deterministic() {
		alpha := append([]float64(nil), w.m.B0...)
		node := 0
		next := make([]float64, w.nS)
		for tau, o := range h {
			a := c.Action(tau, node)
			w.m.Predict(w.pred, alpha, a)
			if w.m.Observe(next, w.pred, a, o) == 0 {
				return w.standIn(c, t, n), true
			}
			alpha, next = next, alpha
			node = c.NextNode(tau, node, o)
		}
		if t == w.T {
			leaves[0] = sum(alpha)
		} else {
			w.detDFS(c, t, 0, node, alpha, leaves)
		}
	} else {
		size := c.Nodes * w.nS
		joint := make([]float64, size)
		copy(joint, w.m.B0)
		children := w.children(size)
		for tau, o := range h {
			w.jointStep(c, tau, joint, children)
			if sum(children[o]) == 0 {
				return w.standIn(c, t, n), true
			}
			copy(joint, children[o])
		}
		w.jointDFS(c, t, 0, joint, leaves)
	}
	mass := treeSum(leaves, w.nO)
	if mass == 0 {
		return w.standIn(c, t, n), true
	}
	inv := 1 / mass
	for k, v := range leaves {
		leaves[k] = v * inv
	}
	return leaves, false
}

// treeSum returns the total of leaves summed as package law sums its
// masses: level by level, |O| children at a time.
func treeSum(leaves []float64, nO int) float64 {
	level := leaves
	for len(level) > 1 {
		up := make([]float64, len(level)/nO)
		for i := range up {
			s := 0.0
			for o := 0; o < nO; o++ {
				s += level[i*nO+o]
			}
			up[i] = s
		}
		level = up
	}
	return level[0]
}

func (w *lawer) children(size int) [][]float64 {
	ch := make([][]float64, w.nO)
	for o := range ch {
		ch[o] = make([]float64, size)
	}
	return ch
}

// standIn returns the stand-in law of an impossible depth-t history
// (docs/conventions.md#stand-ins), as package law computes it.
func (w *lawer) standIn(c *fsc.FSC, t, n int) []float64 {
	block := make([]float64, n)
	if w.conv == law.PointMassStandIn || t == w.T {
		block[0] = 1
		return block
	}
	size := c.Nodes * w.nS
	joint := make([]float64, size)
	u := 1 / float64(size)
	for k := range joint {
		joint[k] = u
	}
	w.jointDFS(c, t, 0, joint, block)
	s := sum(block)
	for k := range block {
		block[k] /= s
	}
	return block
}

func (w *lawer) detDFS(c *fsc.FSC, t, i, n int, alpha, leaf []float64) {
	a := c.Action(t, n)
	pred := make([]float64, w.nS)
	w.m.Predict(pred, alpha, a)
	last := t+1 == w.T
	child := make([]float64, w.nS)
	for o := 0; o < w.nO; o++ {
		mass := w.m.Observe(child, pred, a, o)
		if mass == 0 {
			continue
		}
		if last {
			leaf[i*w.nO+o] = mass
			continue
		}
		w.detDFS(c, t+1, i*w.nO+o, c.NextNode(t, n, o), child, leaf)
	}
}

func (w *lawer) jointDFS(c *fsc.FSC, t, rel int, joint, out []float64) {
	if t == w.T {
		out[rel] = sum(joint)
		return
	}
	children := w.children(c.Nodes * w.nS)
	w.jointStep(c, t, joint, children)
	for o := 0; o < w.nO; o++ {
		if sum(children[o]) == 0 {
			continue
		}
		w.jointDFS(c, t+1, rel*w.nO+o, children[o], out)
	}
}

// jointStep is package law's: children[o](n', s') = Σ_{n,a} α_t(a|n)
// β_t(n'|n,o) Z(s',a,o) Σ_s T(s,a,s') joint(n, s), node-major.
func (w *lawer) jointStep(c *fsc.FSC, t int, joint []float64, children [][]float64) {
	nS := w.nS
	for o := range children {
		clear(children[o])
	}
	pred := make([]float64, nS)
	for n := 0; n < c.Nodes; n++ {
		seg := joint[n*nS : (n+1)*nS]
		if sum(seg) == 0 {
			continue
		}
		for a := 0; a < c.NumActions; a++ {
			p := c.ActionProb(t, n, a)
			if p == 0 {
				continue
			}
			w.m.Predict(pred, seg, a)
			for o := 0; o < w.nO; o++ {
				states, probs := w.m.ObsColumn(a, o)
				for n2 := 0; n2 < c.Nodes; n2++ {
					q := p * c.NextProbOf(t, n, o, n2)
					if q == 0 {
						continue
					}
					dst := children[o][n2*nS : (n2+1)*nS]
					for k, s := range states {
						dst[s] += q * pred[s] * probs[k]
					}
				}
			}
		}
	}
}

// belief returns the state belief after h under c (the state marginal of
// the joint posterior, with c's own actions along h), or nil when h is
// impossible under c.
func (w *lawer) belief(c *fsc.FSC, h []int) []float64 {
	size := c.Nodes * w.nS
	joint := make([]float64, size)
	copy(joint, w.m.B0)
	children := w.children(size)
	for tau, o := range h {
		w.jointStep(c, tau, joint, children)
		copy(joint, children[o])
	}
	b := make([]float64, w.nS)
	for n := 0; n < c.Nodes; n++ {
		for s := range b {
			b[s] += joint[n*w.nS+s]
		}
	}
	z := sum(b)
	if z == 0 {
		return nil
	}
	for s := range b {
		b[s] /= z
	}
	return b
}

func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}
