package law

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Convention selects the stand-in law of an impossible history.
type Convention int

const (
	// UniformStandIn replaces the joint posterior of an impossible history
	// by the uniform distribution over (state, node): the operational
	// (deterministic-stationary) pipeline's convention.
	UniformStandIn Convention = iota
	// PointMassStandIn gives an impossible history the point-mass law on
	// the all-first-observation suffix: the exact clock-aware pipeline's
	// convention.
	PointMassStandIn
)

func (c Convention) String() string {
	switch c {
	case UniformStandIn:
		return "uniform"
	case PointMassStandIn:
		return "point-mass"
	}
	return fmt.Sprintf("Convention(%d)", int(c))
}

// ParseConvention accepts "uniform" and "point-mass".
func ParseConvention(s string) (Convention, error) {
	switch s {
	case "uniform", "":
		return UniformStandIn, nil
	case "point-mass", "pointmass", "point":
		return PointMassStandIn, nil
	}
	return 0, fmt.Errorf("law: unknown impossible-history convention %q (want uniform or point-mass)", s)
}

// Laws holds every law of one probe over a history tree.
type Laws struct {
	Tree Tree
	// Leaf[x] = P^π(O_{1:T} = x), the trajectory law, indexed like the
	// depth-T histories.
	Leaf []float64
	// Mass[id] = P^π(h) for every history by global ID.
	Mass []float64
	// StandIns counts the histories whose law is a stand-in.
	StandIns int

	data    [][]float64 // data[t][i*SuffixLen(t):(i+1)*SuffixLen(t)] is the law of (t, i)
	standIn []bool
}

// Suffix returns P^π(O_{t+1:T} | h) for history (t, i) as a slice of length
// |O|^{T−t} indexed by the suffix's base-|O| value (shared; do not modify).
func (l *Laws) Suffix(t, i int) []float64 {
	n := l.Tree.SuffixLen(t)
	return l.data[t][i*n : (i+1)*n]
}

// Depth returns the laws of all depth-t histories as one slice: history i
// owns [i·|O|^{T−t}, (i+1)·|O|^{T−t}).
func (l *Laws) Depth(t int) []float64 { return l.data[t] }

// Trajectory returns the trajectory law P^π(O_{1:T}).
func (l *Laws) Trajectory() []float64 { return l.Leaf }

// StandIn reports whether the law of history (t, i) is a stand-in.
// It is false on a Laws value from NewBlocks.
func (l *Laws) StandIn(t, i int) bool {
	return l.standIn != nil && l.standIn[l.Tree.Offset(t)+i]
}

// Engine computes laws of probes on one model, horizon and convention. It
// owns scratch memory reused across calls, so an Engine must not be used by
// two goroutines at once; make one per worker.
type Engine struct {
	m    *pomdp.Model
	tree Tree
	conv Convention
	nS   int

	alpha [][]float64 // per depth, |S|
	pred  [][]float64 // per depth, |S|

	nodes  int           // node count the joint buffers are sized for
	jchild [][][]float64 // [depth][o] joint child buffers, nodes·|S|
	jroot  []float64
	// standInRuns counts the stand-in laws propagated (uniform
	// convention, depth < T), for the tests.
	standInRuns int

	// Cancellation (ComputeIntoContext): the context, the steps since it
	// was last polled, and its error once done.
	ctx   context.Context
	steps int
	err   error
}

// pollSteps is the number of belief steps between two polls of the
// context (each step is O(nnz(T_a) + |S|·|O|)).
const pollSteps = 1 << 12

// stopped counts one step and reports whether the computation was
// cancelled (polling the context every pollSteps steps).
func (e *Engine) stopped() bool {
	if e.err != nil {
		return true
	}
	if e.ctx == nil {
		return false
	}
	e.steps++
	if e.steps >= pollSteps {
		e.steps = 0
		e.err = e.ctx.Err()
	}
	return e.err != nil
}

// NewEngine returns an engine for model m, horizon T and convention conv.
// It fails when the history tree is too large (see NewTree).
func NewEngine(m *pomdp.Model, T int, conv Convention) (*Engine, error) {
	return NewEngineLimit(m, T, conv, MaxHistories)
}

// NewEngineLimit is NewEngine with an explicit limit on the histories
// (NewTreeLimit): an engine over a larger tree is for DAG, whose cost
// follows the distinct posteriors, not the tree (NewLaws still allocates
// (T+1)·|O|^T floats).
func NewEngineLimit(m *pomdp.Model, T int, conv Convention, limit int) (*Engine, error) {
	tree, err := NewTreeLimit(m.NumObservations(), T, limit)
	if err != nil {
		return nil, err
	}
	e := &Engine{m: m, tree: tree, conv: conv, nS: m.NumStates()}
	e.alpha = make([][]float64, T+1)
	e.pred = make([][]float64, T+1)
	for t := range e.alpha {
		e.alpha[t] = make([]float64, e.nS)
		e.pred[t] = make([]float64, e.nS)
	}
	return e, nil
}

// Tree returns the engine's history tree.
func (e *Engine) Tree() Tree { return e.tree }

// Model returns the engine's model.
func (e *Engine) Model() *pomdp.Model { return e.m }

// Convention returns the impossible-history convention.
func (e *Engine) Convention() Convention { return e.conv }

// NewLaws allocates a Laws value for the engine's tree.
func (e *Engine) NewLaws() *Laws {
	tr := e.tree
	l := &Laws{Tree: tr, Leaf: make([]float64, tr.Count(tr.T)), Mass: make([]float64, tr.Len()),
		data: make([][]float64, tr.T+1), standIn: make([]bool, tr.Len())}
	for t := range l.data {
		l.data[t] = make([]float64, tr.Count(tr.T))
	}
	return l
}

// Check returns an error when controller c does not fit the engine's model
// and horizon (action or observation counts, too few stages, bad tables).
func (e *Engine) Check(c *fsc.FSC) error {
	if c.NumActions != e.m.NumActions() || c.NumObs != e.m.NumObservations() {
		return fmt.Errorf("law: controller is for |A| = %d, |O| = %d; model %s has |A| = %d, |O| = %d",
			c.NumActions, c.NumObs, e.m.Name, e.m.NumActions(), e.m.NumObservations())
	}
	if c.Clock() && c.Stages < e.tree.T {
		return fmt.Errorf("law: clock-aware controller has %d stages, horizon T = %d needs at least %d", c.Stages, e.tree.T, e.tree.T)
	}
	return c.Validate()
}

// Compute returns the laws of controller c (allocating the result).
func (e *Engine) Compute(c *fsc.FSC) (*Laws, error) {
	l := e.NewLaws()
	if err := e.ComputeInto(l, c); err != nil {
		return nil, err
	}
	return l, nil
}

// ComputeInto fills dst (from NewLaws) with the laws of controller c. For a
// deterministic controller it costs one pass over the histories of positive
// probability, each step O(nnz(T_a) + |S|·|O|), plus the stand-ins; it does
// not allocate after the first call with a given node count.
func (e *Engine) ComputeInto(dst *Laws, c *fsc.FSC) error {
	return e.ComputeIntoContext(context.Background(), dst, c)
}

// ComputeIntoContext is ComputeInto polling ctx as it goes (every few
// thousand belief steps): it returns ctx.Err() soon after ctx is done,
// with dst then unspecified.
func (e *Engine) ComputeIntoContext(ctx context.Context, dst *Laws, c *fsc.FSC) error {
	if err := e.Check(c); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	e.ctx, e.steps, e.err = ctx, 0, nil
	if ctx.Done() == nil {
		e.ctx = nil // never cancelled: nothing to poll
	}
	e.computeUnchecked(dst, c)
	err := e.err
	e.ctx, e.err = nil, nil
	return err
}

func (e *Engine) computeUnchecked(dst *Laws, c *fsc.FSC) {
	tr := e.tree
	T := tr.T
	clear(dst.Leaf)
	if c.Deterministic() {
		copy(e.alpha[0], e.m.B0)
		if T == 0 {
			dst.Leaf[0] = sum(e.alpha[0])
		} else {
			e.detDFS(c, 0, 0, 0, e.alpha[0], dst.Leaf)
		}
	} else {
		e.ensureJoint(c.Nodes)
		clear(e.jroot)
		copy(e.jroot, e.m.B0) // node 0 block
		e.jointDFS(c, 0, 0, e.jroot, dst.Leaf)
	}
	// masses bottom-up
	copy(dst.Mass[tr.Offset(T):], dst.Leaf)
	for t := T - 1; t >= 0; t-- {
		off, offc, nO := tr.Offset(t), tr.Offset(t+1), tr.NumObs
		if e.stopped() {
			return
		}
		for i := 0; i < tr.Count(t); i++ {
			s := 0.0
			for o := 0; o < nO; o++ {
				s += dst.Mass[offc+i*nO+o]
			}
			dst.Mass[off+i] = s
		}
	}
	// conditional laws
	dst.StandIns = 0
	clear(dst.standIn)
	for t := 0; t <= T; t++ {
		n := tr.SuffixLen(t)
		data := dst.data[t]
		// The stand-in law depends on the controller and the depth only:
		// it is computed once per depth and copied (under the uniform
		// convention each is a propagation over every state).
		var std []float64
		for i := 0; i < tr.Count(t); i++ {
			if e.stopped() {
				return
			}
			block := data[i*n : (i+1)*n]
			mass := dst.Mass[tr.Offset(t)+i]
			if mass > 0 {
				inv := 1 / mass
				for k, v := range dst.Leaf[i*n : (i+1)*n] {
					block[k] = v * inv
				}
				continue
			}
			dst.StandIns++
			dst.standIn[tr.Offset(t)+i] = true
			if e.err != nil {
				return
			}
			if std != nil {
				copy(block, std)
				continue
			}
			e.standIn(block, c, t)
			std = block
		}
	}
}

// standIn writes the stand-in law of an impossible depth-t history.
func (e *Engine) standIn(block []float64, c *fsc.FSC, t int) {
	clear(block)
	if e.conv == PointMassStandIn || t == e.tree.T {
		block[0] = 1
		return
	}
	e.standInRuns++
	e.ensureJoint(c.Nodes)
	joint := e.jroot
	u := 1 / float64(e.nS*c.Nodes)
	for k := range joint[:e.nS*c.Nodes] {
		joint[k] = u
	}
	e.jointDFS(c, t, 0, joint[:e.nS*c.Nodes], block)
	s := sum(block)
	for k := range block {
		block[k] /= s
	}
}

func (e *Engine) detDFS(c *fsc.FSC, t, i, n int, alpha, leaf []float64) {
	if e.stopped() {
		return
	}
	nO := e.tree.NumObs
	a := c.Action(t, n)
	pred := e.pred[t]
	e.m.Predict(pred, alpha, a)
	last := t+1 == e.tree.T
	child := e.alpha[t+1]
	for o := 0; o < nO; o++ {
		mass := e.m.Observe(child, pred, a, o)
		if mass == 0 {
			continue
		}
		if last {
			leaf[i*nO+o] = mass
			continue
		}
		e.detDFS(c, t+1, i*nO+o, c.NextNode(t, n, o), child, leaf)
	}
}

func (e *Engine) ensureJoint(nodes int) {
	if nodes <= e.nodes && e.jchild != nil {
		return
	}
	e.nodes = max(nodes, e.nodes)
	size := e.nodes * e.nS
	e.jroot = make([]float64, size)
	e.jchild = make([][][]float64, e.tree.T+1)
	for t := range e.jchild {
		e.jchild[t] = make([][]float64, e.tree.NumObs)
		for o := range e.jchild[t] {
			e.jchild[t][o] = make([]float64, size)
		}
	}
}

// jointDFS propagates a joint vector over (node, state), node-major, from
// depth t and writes the masses of the subtree's leaves into out (indexed
// relative to the subtree root, rel).
func (e *Engine) jointDFS(c *fsc.FSC, t, rel int, joint, out []float64) {
	T, nO, nS := e.tree.T, e.tree.NumObs, e.nS
	if t == T {
		out[rel] = sum(joint)
		return
	}
	if e.stopped() {
		return
	}
	size := c.Nodes * nS
	children := e.jchild[t+1]
	e.jointStep(c, t, joint, children, e.pred[t])
	for o := 0; o < nO; o++ {
		ch := children[o][:size]
		if sum(ch) == 0 {
			continue
		}
		e.jointDFS(c, t+1, rel*nO+o, ch, out)
	}
}

// jointStep sets children[o] (each nodes·|S|, node-major) to the
// unnormalised joint over (node, state) after observing o from the joint
// at stage t:
//
//	child_o(n', s') = Σ_{n,a} α_t(a|n) β_t(n'|n,o) Z(s',a,o) Σ_s T(s,a,s') joint(n, s).
func (e *Engine) jointStep(c *fsc.FSC, t int, joint []float64, children [][]float64, pred []float64) {
	nS, nO := e.nS, e.tree.NumObs
	for o := 0; o < nO; o++ {
		clear(children[o][:c.Nodes*nS])
	}
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
			e.m.Predict(pred, seg, a)
			for o := 0; o < nO; o++ {
				states, probs := e.m.ObsColumn(a, o)
				ch := children[o]
				for n2 := 0; n2 < c.Nodes; n2++ {
					q := p * c.NextProbOf(t, n, o, n2)
					if q == 0 {
						continue
					}
					dst := ch[n2*nS : (n2+1)*nS]
					for k, s := range states {
						dst[s] += q * pred[s] * probs[k]
					}
				}
			}
		}
	}
}

func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// Compute returns the laws of controller c on model m for horizon T under
// the convention conv. It is a convenience wrapper around an Engine.
func Compute(m *pomdp.Model, c *fsc.FSC, T int, conv Convention) (*Laws, error) {
	e, err := NewEngine(m, T, conv)
	if err != nil {
		return nil, err
	}
	return e.Compute(c)
}

// ActionTree appends to dst a key of the actions a deterministic controller
// takes at every history of depth < T, in tree order. Two controllers with
// equal keys have equal laws at every history of positive probability
// (docs/algorithms.md#duplicate-probes); if one of them needed no stand-in, neither does
// the other and all their laws are equal.
func ActionTree(dst []byte, c *fsc.FSC, tree Tree) []byte {
	if !c.Deterministic() {
		panic("law: ActionTree of a stochastic controller")
	}
	wide := c.NumActions > 255
	var rec func(t, n int)
	rec = func(t, n int) {
		if t == tree.T {
			return
		}
		a := c.Action(t, n)
		if wide {
			dst = append(dst, byte(a), byte(a>>8))
		} else {
			dst = append(dst, byte(a))
		}
		for o := 0; o < tree.NumObs; o++ {
			rec(t+1, c.NextNode(t, n, o))
		}
	}
	rec(0, 0)
	return dst
}
