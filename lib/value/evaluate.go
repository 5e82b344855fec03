package value

import (
	"errors"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// DefaultMaxTraces is the largest number of traces a TraceObjective's
// evaluation may enumerate (an a-priori bound: |O|^T for a deterministic
// controller, (|A|·|O|)^T for a stochastic one) unless Options.MaxTraces
// raises it.
const DefaultMaxTraces = 1 << 24

// DefaultTol is the tolerance of the best-policy search: a controller is
// optimal when its value is within DefaultTol of the maximum.
const DefaultTol = 1e-9

// ErrTooLarge is returned (wrapped, with the numbers) when an enumeration
// would exceed its limit; raise the limit in Options if you mean it.
var ErrTooLarge = errors.New("value: enumeration too large")

// Options configure evaluation and search. The zero value means the
// defaults documented on each field.
type Options struct {
	// MaxTraces bounds the traces enumerated for a TraceObjective; 0 means
	// DefaultMaxTraces.
	MaxTraces int64
	// Limit bounds the family size Best accepts; 0 means fsc.DefaultLimit.
	Limit int64
	// Tol is the optimality tolerance of Best; 0 means DefaultTol.
	Tol float64
	// Workers is the number of goroutines of Best; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Progress, when set, is called by Best with the number of controllers
	// evaluated and the family size, from one goroutine at a time.
	Progress func(done, total int)
	// KeepValues makes Best return every controller's value.
	KeepValues bool
}

// Evaluator computes exact expected objectives of controllers on one
// model, horizon and objective. It owns its scratch memory, so evaluating
// many controllers does not allocate; it must not be used by two
// goroutines at once (make one per worker).
type Evaluator struct {
	m   *pomdp.Model
	T   int
	obj Objective

	latent    bool
	gamma     float64
	step      StepObjective
	trace     TraceObjective
	maxTraces int64

	nS    int
	nodes int // node count the buffers are sized for

	// forward pass
	cur, next, pred []float64
	// trace enumeration, per depth
	alpha [][]float64 // joint over (node, state) at depth t
	tpred [][]float64 // predicted joint at depth t (stochastic: per node)
	obs   []int
	acts  []int
}

// NewEvaluator returns an evaluator of obj over horizon T on model m. It
// returns an error if T < 0 or obj has none of the forms Evaluate
// understands (see Objective).
func NewEvaluator(m *pomdp.Model, T int, obj Objective, opt Options) (*Evaluator, error) {
	if T < 0 {
		return nil, fmt.Errorf("value: horizon T = %d is negative", T)
	}
	e := &Evaluator{m: m, T: T, obj: obj, nS: m.NumStates(), maxTraces: opt.MaxTraces}
	if e.maxTraces == 0 {
		e.maxTraces = DefaultMaxTraces
	}
	switch o := obj.(type) {
	case LatentReward:
		e.latent, e.gamma = true, o.gamma()
	case *LatentReward:
		e.latent, e.gamma = true, o.gamma()
	case StepObjective:
		e.step = o
	case TraceObjective:
		e.trace = o
	case nil:
		return nil, errors.New("value: nil objective")
	default:
		return nil, fmt.Errorf("value: objective %q (%T) is neither a LatentReward, a StepObjective nor a TraceObjective", obj.Name(), obj)
	}
	if e.latent && !(e.gamma >= 0 && e.gamma <= 1) {
		return nil, fmt.Errorf("value: discount %v outside [0, 1]", e.gamma)
	}
	e.pred = make([]float64, e.nS)
	e.ensure(1)
	return e, nil
}

// ensure sizes the node-dependent buffers for controllers with n nodes.
func (e *Evaluator) ensure(n int) {
	if n <= e.nodes {
		return
	}
	e.nodes = n
	size := n * e.nS
	e.cur = make([]float64, size)
	e.next = make([]float64, size)
	if e.trace != nil {
		e.alpha = make([][]float64, e.T+1)
		e.tpred = make([][]float64, e.T+1)
		for t := range e.alpha {
			e.alpha[t] = make([]float64, size)
			e.tpred[t] = make([]float64, size)
		}
		e.obs = make([]int, e.T)
		e.acts = make([]int, e.T)
	}
}

// Model returns the evaluator's model.
func (e *Evaluator) Model() *pomdp.Model { return e.m }

// Horizon returns T.
func (e *Evaluator) Horizon() int { return e.T }

// Objective returns the objective.
func (e *Evaluator) Objective() Objective { return e.obj }

// checkDims reports a controller that does not fit the model or horizon,
// and for a trace objective an enumeration above the limit.
func (e *Evaluator) checkDims(c *fsc.FSC) error {
	if c.NumActions != e.m.NumActions() || c.NumObs != e.m.NumObservations() {
		return fmt.Errorf("value: controller is for |A| = %d, |O| = %d; model %s has |A| = %d, |O| = %d",
			c.NumActions, c.NumObs, e.m.Name, e.m.NumActions(), e.m.NumObservations())
	}
	if c.Clock() && c.Stages < e.T {
		return fmt.Errorf("value: clock-aware controller has %d stages, horizon T = %d needs at least %d", c.Stages, e.T, e.T)
	}
	if e.trace != nil {
		branch := float64(c.NumObs)
		if !c.Deterministic() {
			branch *= float64(c.NumActions)
		}
		if n := math.Pow(branch, float64(e.T)); n > float64(e.maxTraces) {
			return fmt.Errorf("%w: a trace objective over T = %d enumerates up to %.4g traces for this controller, above the limit %d (Options.MaxTraces)",
				ErrTooLarge, e.T, n, e.maxTraces)
		}
	}
	return nil
}

// Value returns the exact expectation of the evaluator's objective under
// controller c, started in node 0 with the model's initial belief:
//
//	LatentReward:   E^c[ Σ_{t<T} γ^t R(s_t, a_t) ]
//	StepObjective:  E^c[ Σ_{t<T} r_t(a_t, o_{t+1}) ]
//	TraceObjective: E^c[ G(o_{1:T}, a_{1:T}) ] = Σ_traces P^c(o, a)·G(o, a)
//
// Histories of probability 0 contribute nothing. LatentReward and
// StepObjective use one forward pass of the joint law of (state, node),
// which is a Markov chain under any FSC: O(T·m·|A|·(nnz(T_a) +
// nnz(Z_a)·m)) for m nodes (|A| replaced by 1 for deterministic
// controllers). A TraceObjective needs the whole trace, so it is
// enumerated depth first sharing each prefix's joint vector: one belief
// step per trace prefix of positive probability, branching on
// observations (and on actions for stochastic controllers).
//
// It returns an error if c does not fit the model (action or observation
// counts, too few stages for a clock-aware controller), if c is invalid,
// or (wrapping ErrTooLarge) if a trace enumeration exceeds MaxTraces. It
// does not allocate after the first call with a given node count.
func (e *Evaluator) Value(c *fsc.FSC) (float64, error) {
	if err := e.checkDims(c); err != nil {
		return 0, err
	}
	if err := c.Validate(); err != nil {
		return 0, err
	}
	return e.value(c), nil
}

// value evaluates a controller already checked.
func (e *Evaluator) value(c *fsc.FSC) float64 {
	if e.T == 0 {
		if e.trace != nil {
			return e.trace.Trace(nil, nil)
		}
		return 0
	}
	e.ensure(c.Nodes)
	if e.trace != nil {
		size := c.Nodes * e.nS
		root := e.alpha[0][:size]
		clear(root)
		copy(root, e.m.B0)
		if c.Deterministic() {
			return e.detTrace(c, 0, 0, root[:e.nS])
		}
		return e.stochTrace(c, 0, root)
	}
	if c.Deterministic() {
		return e.detForward(c)
	}
	return e.stochForward(c)
}

func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// detForward propagates the joint law of (node, state) under a
// deterministic controller, node-major, accumulating the expected reward.
func (e *Evaluator) detForward(c *fsc.FSC) float64 {
	nS, m, nO := e.nS, c.Nodes, c.NumObs
	size := m * nS
	cur, next := e.cur[:size], e.next[:size]
	clear(cur)
	copy(cur, e.m.B0)
	v, w := 0.0, 1.0
	for t := 0; t < e.T; t++ {
		last := t == e.T-1
		clear(next)
		for n := 0; n < m; n++ {
			seg := cur[n*nS : (n+1)*nS]
			if sum(seg) == 0 {
				continue
			}
			a := c.Action(t, n)
			if e.latent {
				v += w * e.latentReward(seg, a)
				if last {
					continue
				}
			}
			e.m.Predict(e.pred, seg, a)
			for o := 0; o < nO; o++ {
				states, probs := e.m.ObsColumn(a, o)
				if e.step != nil {
					if mass := e.obsMass(states, probs); mass != 0 {
						v += mass * e.step.Step(t, a, o)
					}
				}
				if last {
					continue
				}
				n2 := c.NextNode(t, n, o)
				dst := next[n2*nS : (n2+1)*nS]
				for k, s := range states {
					dst[s] += e.pred[s] * probs[k]
				}
			}
		}
		cur, next = next, cur
		w *= e.gamma
	}
	return v
}

// latentReward returns Σ_s seg[s]·R(s, a), the expected latent reward
// of action a under the unnormalised state vector seg.
func (e *Evaluator) latentReward(seg []float64, a int) float64 {
	r := 0.0
	for s, x := range seg {
		r += x * e.m.R[s][a]
	}
	return r
}

// obsMass returns Σ_k pred[states[k]]·probs[k]: the probability of the
// observation whose column (states, probs) is given, from e.pred.
func (e *Evaluator) obsMass(states []int, probs []float64) float64 {
	mass := 0.0
	for k, s := range states {
		mass += e.pred[s] * probs[k]
	}
	return mass
}

// stochForward is detForward for a stochastic controller.
func (e *Evaluator) stochForward(c *fsc.FSC) float64 {
	nS, m, nA, nO := e.nS, c.Nodes, c.NumActions, c.NumObs
	size := m * nS
	cur, next := e.cur[:size], e.next[:size]
	clear(cur)
	copy(cur, e.m.B0)
	v, w := 0.0, 1.0
	for t := 0; t < e.T; t++ {
		last := t == e.T-1
		clear(next)
		for n := 0; n < m; n++ {
			seg := cur[n*nS : (n+1)*nS]
			if sum(seg) == 0 {
				continue
			}
			for a := 0; a < nA; a++ {
				p := c.ActionProb(t, n, a)
				if p == 0 {
					continue
				}
				if e.latent {
					v += w * p * e.latentReward(seg, a)
					if last {
						continue
					}
				}
				e.m.Predict(e.pred, seg, a)
				for o := 0; o < nO; o++ {
					states, probs := e.m.ObsColumn(a, o)
					if e.step != nil {
						if mass := e.obsMass(states, probs); mass != 0 {
							v += p * mass * e.step.Step(t, a, o)
						}
					}
					if last {
						continue
					}
					for n2 := 0; n2 < m; n2++ {
						q := p * c.NextProbOf(t, n, o, n2)
						if q == 0 {
							continue
						}
						dst := next[n2*nS : (n2+1)*nS]
						for k, s := range states {
							dst[s] += q * e.pred[s] * probs[k]
						}
					}
				}
			}
		}
		cur, next = next, cur
		w *= e.gamma
	}
	return v
}

// detTrace returns Σ over the traces extending the current prefix of
// P(prefix·suffix)·G, for a deterministic controller in node n at depth t
// with unnormalised state vector alpha = P(prefix, s_t = ·).
func (e *Evaluator) detTrace(c *fsc.FSC, t, n int, alpha []float64) float64 {
	nS := e.nS
	a := c.Action(t, n)
	e.acts[t] = a
	pred := e.tpred[t][:nS]
	e.m.Predict(pred, alpha, a)
	child := e.alpha[t+1][:nS]
	last := t+1 == e.T
	v := 0.0
	for o := 0; o < c.NumObs; o++ {
		mass := e.m.Observe(child, pred, a, o)
		if mass == 0 {
			continue
		}
		e.obs[t] = o
		if last {
			v += mass * e.trace.Trace(e.obs, e.acts)
			continue
		}
		v += e.detTrace(c, t+1, c.NextNode(t, n, o), child)
	}
	return v
}

// stochTrace is detTrace for a stochastic controller: joint is the
// unnormalised law of (node, state) at depth t, node-major, and the
// enumeration branches on the action as well.
func (e *Evaluator) stochTrace(c *fsc.FSC, t int, joint []float64) float64 {
	nS, m := e.nS, c.Nodes
	size := m * nS
	pred := e.tpred[t][:size]
	child := e.alpha[t+1][:size]
	last := t+1 == e.T
	v := 0.0
	for a := 0; a < c.NumActions; a++ {
		// pred[n] = α_t(a | n) · (joint[n] · T_a)
		live := false
		for n := 0; n < m; n++ {
			seg, dst := joint[n*nS:(n+1)*nS], pred[n*nS:(n+1)*nS]
			p := c.ActionProb(t, n, a)
			if p == 0 || sum(seg) == 0 {
				clear(dst)
				continue
			}
			live = true
			e.m.Predict(dst, seg, a)
			if p != 1 {
				for s := range dst {
					dst[s] *= p
				}
			}
		}
		if !live {
			continue
		}
		e.acts[t] = a
		for o := 0; o < c.NumObs; o++ {
			states, probs := e.m.ObsColumn(a, o)
			clear(child)
			mass := 0.0
			for n := 0; n < m; n++ {
				src := pred[n*nS : (n+1)*nS]
				for n2 := 0; n2 < m; n2++ {
					q := 1.0
					if !last {
						q = c.NextProbOf(t, n, o, n2)
					} else if n2 != n {
						continue // the last stage's β is unused: keep the node
					}
					if q == 0 {
						continue
					}
					dst := child[n2*nS : (n2+1)*nS]
					for k, s := range states {
						x := q * src[s] * probs[k]
						dst[s] += x
						mass += x
					}
				}
			}
			if mass == 0 {
				continue
			}
			e.obs[t] = o
			if last {
				v += mass * e.trace.Trace(e.obs, e.acts)
				continue
			}
			v += e.stochTrace(c, t+1, child)
		}
	}
	return v
}

// Evaluate returns the exact expected value of obj over horizon T under
// controller c on model m (see Evaluator.Value for the formulas, errors
// and cost). It works unchanged on quotient models, which are ordinary
// *pomdp.Model values. For many controllers make one Evaluator and reuse
// it.
func Evaluate(m *pomdp.Model, c *fsc.FSC, T int, obj Objective) (float64, error) {
	e, err := NewEvaluator(m, T, obj, Options{})
	if err != nil {
		return 0, err
	}
	return e.Value(c)
}
