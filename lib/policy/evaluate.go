package policy

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// DefaultMaxPairs is the largest number of (node, state) pairs Evaluate
// solves for the infinite horizon (a dense linear system: 8·K² bytes and
// about K³/3 multiply-adds for K pairs; 4096 pairs take 128 MiB).
const DefaultMaxPairs = 4096

// Options configure EvaluateContext. The zero value means the defaults.
type Options struct {
	// MaxPairs bounds the (node, state) pairs of the discounted linear
	// solve; 0 means DefaultMaxPairs.
	MaxPairs int
}

// Evaluation is the exact value of a controller on a model.
type Evaluation struct {
	// Value is the value at b0 from StartNode, the best start node.
	Value     float64
	StartNode int
	// Nodes is the controller's node count, Horizon the horizon (0: the
	// discounted infinite horizon) and Discount the γ used (1 for a
	// finite horizon on a model without a discount).
	Nodes    int
	Horizon  int
	Discount float64
	// Start[n] is the value at b0 from start node n: Σ_s b0(s)·V[n][s];
	// NaN when a "-" successor is reached with positive probability from
	// n.
	Start []float64
	// V[n][s] is the value of starting in node n and state s; NaN when a
	// "-" successor is reached with positive probability from (n, s).
	V [][]float64
}

// String summarises the evaluation, e.g. "value 19.3714 from node 4 of 9
// (infinite horizon, γ = 0.95)".
func (e *Evaluation) String() string {
	h := "infinite horizon"
	if e.Horizon > 0 {
		h = fmt.Sprintf("horizon %d", e.Horizon)
	}
	return fmt.Sprintf("value %.6g from node %d of %d (%s, γ = %g)", e.Value, e.StartNode, e.Nodes, h, e.Discount)
}

// Alpha returns the evaluation's alpha vectors, one per node of the
// deterministic controller c it evaluated: node n's action at stage 0 and
// V[n]. For a converged pomdp-solve graph they are the solver's vectors.
func (e *Evaluation) Alpha(c *fsc.FSC) []Alpha {
	out := make([]Alpha, len(e.V))
	for n, v := range e.V {
		out[n] = Alpha{Action: c.Action(0, n), V: append([]float64(nil), v...)}
	}
	return out
}

// MissingError reports a "-" successor (None) of a policy graph that is
// reached with positive probability.
type MissingError struct {
	Node, Obs int
	ObsName   string
	Start     int // the start node it is reached from
	Stage     int // the stage at which the node is left by the observation
	All       bool
}

func (e *MissingError) Error() string {
	from := fmt.Sprintf("from start node %d", e.Start)
	if e.All {
		from = fmt.Sprintf("from every start node (e.g. from node %d)", e.Start)
	}
	return fmt.Sprintf("policy: node %d has no successor (\"-\") for observation %s, which is reached with positive probability %s at stage %d",
		e.Node, e.ObsName, from, e.Stage)
}

// Evaluate returns the exact value of controller c on model m over horizon
// T, or the discounted infinite horizon when T is 0. It is
// EvaluateContext with a background context and default options.
func Evaluate(m *pomdp.Model, c *fsc.FSC, T int) (*Evaluation, error) {
	return EvaluateContext(context.Background(), m, c, T, Options{})
}

// EvaluateContext returns the exact value of controller c on model m: per
// (node, state) pair and at b0 from the best start node.
//
// For T = 0 (the discounted infinite horizon, which needs a model discount
// γ < 1) it solves the linear system
//
//	V(n,s) = Σ_a α(a|n) [ R(s,a) + γ Σ_{s'} T(s,a,s') Σ_o Z(s',a,o) Σ_{n'} β(n'|n,o) V(n',s') ]
//
// over the pairs from which no "-" successor is reached, by dense LU
// (c must be stationary). For T > 0 it runs the same recursion backwards
// from V_T = 0 with stage-indexed α_τ, β_τ (clock-aware controllers need
// T ≤ Stages) and discounts by the model's γ (1 when it has none).
//
// c may be a policy graph with None entries; a None reached with positive
// probability makes the affected pairs and start nodes NaN, and when every
// start node is affected EvaluateContext returns a *MissingError naming
// the node and observation. Other errors: sizes of c that do not match m,
// a negative T, an infinite horizon without γ < 1, a clock-aware controller
// beyond its stages, more than Options.MaxPairs pairs for the linear solve
// (the error names the size and memory and suggests a finite horizon or
// Minimize), and ctx's error when cancelled.
//
// Cost: T > 0, O(T · N · (nnz(Z) + nnz(T))) per action used; T = 0,
// O(K³) time and O(K²) memory for the K = N·|S| pairs.
func EvaluateContext(ctx context.Context, m *pomdp.Model, c *fsc.FSC, T int, opt Options) (*Evaluation, error) {
	if c == nil || m == nil {
		return nil, errors.New("policy: nil model or controller")
	}
	if c.NumActions != m.NumActions() || c.NumObs != m.NumObservations() {
		return nil, fmt.Errorf("policy: controller has %d actions and %d observations, the model %d and %d", c.NumActions, c.NumObs, m.NumActions(), m.NumObservations())
	}
	if err := checkTables(c); err != nil {
		return nil, err
	}
	if T < 0 {
		return nil, fmt.Errorf("policy: horizon %d is negative", T)
	}
	if c.Clock() && (T == 0 || T > c.Stages) {
		return nil, fmt.Errorf("policy: a clock-aware controller with %d stages needs a horizon 1 … %d (got %d)", c.Stages, c.Stages, T)
	}
	ev := &Evaluation{Nodes: c.Nodes, Horizon: T, Discount: 1}
	if m.HasDiscount {
		ev.Discount = m.Discount
	}
	var err error
	if T == 0 {
		if !m.HasDiscount || !(m.Discount < 1) {
			return nil, fmt.Errorf("policy: the infinite horizon needs a discount γ < 1 (model %s has %s); give a finite horizon", m.Name, discountText(m))
		}
		ev.V, err = solveDiscounted(ctx, m, c, opt)
	} else {
		ev.V, err = backward(ctx, m, c, T, ev.Discount)
	}
	if err != nil {
		return nil, err
	}
	ev.Start = make([]float64, c.Nodes)
	ev.StartNode, ev.Value = -1, math.NaN()
	for n := range ev.Start {
		v := 0.0
		for s, p := range m.B0 {
			if p > 0 {
				v += p * ev.V[n][s]
			}
		}
		ev.Start[n] = v
		if !math.IsNaN(v) && (ev.StartNode < 0 || v > ev.Value) {
			ev.StartNode, ev.Value = n, v
		}
	}
	if ev.StartNode < 0 {
		me := findMissing(m, c, T, 0)
		if me == nil {
			return nil, errors.New("policy: every start node's value is NaN, but no \"-\" successor is reached (a model with non-finite rewards?)")
		}
		me.All = true
		return nil, me
	}
	return ev, nil
}

func discountText(m *pomdp.Model) string {
	if !m.HasDiscount {
		return "none"
	}
	return fmt.Sprintf("γ = %g", m.Discount)
}

// checkTables checks c's tables against its sizes, None allowed in the
// next-node tables of deterministic controllers.
func checkTables(c *fsc.FSC) error {
	if !c.Deterministic() || c.Clock() {
		return c.Validate()
	}
	return checkGraph(c)
}

// step calls fn for every successor of (node n, state s) at stage τ with
// positive probability: the action a, the observation o, the next state s2,
// the next node n2 (None for a "-" successor) and the probability
// p = α_τ(a|n) T(s,a,s2) Z(s2,a,o) β_τ(n2|n,o).
func step(m *pomdp.Model, c *fsc.FSC, tau, n, s int, fn func(a, o, s2, n2 int, p float64)) {
	for a := 0; a < c.NumActions; a++ {
		pa := c.ActionProb(tau, n, a)
		if pa == 0 {
			continue
		}
		m.T[a].Entries(s, func(s2 int, pt float64) {
			cols, vals := m.Z[a].Row(s2)
			for k, o := range cols {
				p := pa * pt * vals[k]
				if p == 0 {
					continue
				}
				if c.Deterministic() {
					fn(a, o, s2, c.NextNode(tau, n, o), p)
					continue
				}
				for n2 := 0; n2 < c.Nodes; n2++ {
					if pb := c.NextProbOf(tau, n, o, n2); pb > 0 {
						fn(a, o, s2, n2, p*pb)
					}
				}
			}
		})
	}
}

// reward returns Σ_a α_τ(a|n) R(s,a).
func reward(m *pomdp.Model, c *fsc.FSC, tau, n, s int) float64 {
	if c.Deterministic() {
		return m.R[s][c.Action(tau, n)]
	}
	r := 0.0
	for a := 0; a < c.NumActions; a++ {
		if p := c.ActionProb(tau, n, a); p > 0 {
			r += p * m.R[s][a]
		}
	}
	return r
}

// backward runs the finite-horizon recursion; pairs that reach a None with
// positive probability get NaN.
func backward(ctx context.Context, m *pomdp.Model, c *fsc.FSC, T int, gamma float64) ([][]float64, error) {
	nS := m.NumStates()
	next := make([][]float64, c.Nodes)
	cur := make([][]float64, c.Nodes)
	for n := range cur {
		next[n] = make([]float64, nS)
		cur[n] = make([]float64, nS)
	}
	for tau := T - 1; tau >= 0; tau-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		last := tau == T-1
		for n := 0; n < c.Nodes; n++ {
			for s := 0; s < nS; s++ {
				v := reward(m, c, tau, n, s)
				if !last {
					cont := 0.0
					step(m, c, tau, n, s, func(_, _, s2, n2 int, p float64) {
						if n2 == None {
							cont = math.NaN()
							return
						}
						cont += p * next[n2][s2]
					})
					v += gamma * cont
				}
				cur[n][s] = v
			}
		}
		cur, next = next, cur
	}
	return next, nil
}

// solveDiscounted solves the discounted system over the pairs from which no
// None is reached with positive probability; other pairs get NaN.
func solveDiscounted(ctx context.Context, m *pomdp.Model, c *fsc.FSC, opt Options) ([][]float64, error) {
	nS := m.NumStates()
	K := c.Nodes * nS
	type edge struct {
		to int
		p  float64
	}
	out := make([][]edge, K)
	bad := make([]bool, K)
	in := make([][]int32, K)
	for n := 0; n < c.Nodes; n++ {
		for s := 0; s < nS; s++ {
			i := n*nS + s
			step(m, c, 0, n, s, func(_, _, s2, n2 int, p float64) {
				if n2 == None {
					bad[i] = true
					return
				}
				j := n2*nS + s2
				if l := len(out[i]); l > 0 && out[i][l-1].to == j {
					out[i][l-1].p += p
					return
				}
				out[i] = append(out[i], edge{j, p})
				in[j] = append(in[j], int32(i))
			})
		}
	}
	// Every pair that reaches a bad pair is bad.
	var queue []int
	for i, b := range bad {
		if b {
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		j := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, i := range in[j] {
			if !bad[i] {
				bad[i] = true
				queue = append(queue, int(i))
			}
		}
	}
	idx := make([]int, K)
	k := 0
	for i := range idx {
		if bad[i] {
			idx[i] = -1
			continue
		}
		idx[i] = k
		k++
	}
	max := opt.MaxPairs
	if max == 0 {
		max = DefaultMaxPairs
	}
	if k > max {
		return nil, fmt.Errorf("policy: the discounted linear solve has %d (node, state) pairs (%d nodes × %d states), above the limit of %d: "+
			"it needs %.3g GiB and about %.3g multiply-adds; evaluate a finite horizon, Minimize the graph first, or raise Options.MaxPairs",
			k, c.Nodes, nS, max, 8*float64(k)*float64(k)/(1<<30), float64(k)*float64(k)*float64(k)/3)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	V := make([][]float64, c.Nodes)
	for n := range V {
		V[n] = make([]float64, nS)
		for s := range V[n] {
			V[n][s] = math.NaN()
		}
	}
	if k == 0 {
		return V, nil
	}
	gamma := m.Discount
	A := mat.NewDense(k, k, nil)
	b := mat.NewVecDense(k, nil)
	for i := 0; i < K; i++ {
		r := idx[i]
		if r < 0 {
			continue
		}
		A.Set(r, r, A.At(r, r)+1)
		b.SetVec(r, reward(m, c, 0, i/nS, i%nS))
		for _, e := range out[i] {
			col := idx[e.to]
			A.Set(r, col, A.At(r, col)-gamma*e.p)
		}
	}
	var lu mat.LU
	lu.Factorize(A)
	var x mat.VecDense
	if err := lu.SolveVecTo(&x, false, b); err != nil {
		return nil, fmt.Errorf("policy: the discounted linear solve failed: %w", err)
	}
	for i := 0; i < K; i++ {
		if r := idx[i]; r >= 0 {
			V[i/nS][i%nS] = x.AtVec(r)
		}
	}
	return V, nil
}

// findMissing searches breadth first from start node start (and every
// state of b0's support) for a None reached with positive probability
// within horizon T (0: unbounded) and returns it, or nil.
func findMissing(m *pomdp.Model, c *fsc.FSC, T, start int) *MissingError {
	type key struct{ tau, n, s int }
	type item struct{ depth, n, s int }
	keyOf := func(depth, n, s int) key {
		if T == 0 {
			depth = 0 // stationary: the stage does not matter
		}
		return key{depth, n, s}
	}
	seen := map[key]bool{}
	var queue []item
	for s, p := range m.B0 {
		if p > 0 {
			queue = append(queue, item{0, start, s})
			seen[keyOf(0, start, s)] = true
		}
	}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if T > 0 && x.depth >= T-1 {
			continue // the last stage's successors are never used
		}
		tau := x.depth
		if T == 0 {
			tau = 0
		}
		var found *MissingError
		step(m, c, tau, x.n, x.s, func(_, o, s2, n2 int, _ float64) {
			if found != nil {
				return
			}
			if n2 == None {
				found = &MissingError{Node: x.n, Obs: o, ObsName: obsName(m, o), Start: start, Stage: x.depth}
				return
			}
			if k := keyOf(x.depth+1, n2, s2); !seen[k] {
				seen[k] = true
				queue = append(queue, item{x.depth + 1, n2, s2})
			}
		})
		if found != nil {
			return found
		}
	}
	return nil
}
