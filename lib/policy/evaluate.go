package policy

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Defaults of Options.
const (
	// DefaultMaxPairs is the largest number K of (node, state) pairs
	// solved by dense LU for the infinite horizon (8·K² bytes, about K³/3
	// multiply-adds: 1024 pairs take 8 MiB and a fraction of a second);
	// larger chains are solved by value iteration, which reaches
	// DefaultTol faster from a few thousand pairs on.
	DefaultMaxPairs = 1024
	// DefaultTol is the relative error bound value iteration stops at.
	DefaultTol = 1e-12
	// DefaultMaxBytes is the memory budget of the infinite-horizon solve.
	DefaultMaxBytes = 2 << 30
	// MaxSweeps bounds the sweeps of value iteration.
	MaxSweeps = 1_000_000
)

// Options configure EvaluateContext. The zero value means the defaults.
type Options struct {
	// MaxPairs bounds the (node, state) pairs of the dense linear solve;
	// above it the discounted values come from value iteration. 0 means
	// DefaultMaxPairs.
	MaxPairs int
	// Tol is the bound, relative to max(1, max|V|), on the error of
	// value iteration; 0 means DefaultTol.
	Tol float64
	// MaxBytes is the memory budget of the discounted solve, estimated
	// before anything is built; 0 means DefaultMaxBytes.
	MaxBytes int64
	// Workers is the number of goroutines of value iteration; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Progress, when set, is called after every sweep of value iteration
	// with the sweeps done and the sweeps the a-priori bound needs, and
	// after every stage of the finite-horizon recursion with the stages
	// done and T.
	Progress func(done, total int)
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
	// Method is "backward recursion" (finite horizon), "dense LU" or
	// "value iteration" (infinite horizon); for value iteration Sweeps is
	// the number of sweeps and Bound a proven bound on max |V − exact|
	// (MacQueen's: γ/(1−γ) times half the spread of the last sweep's
	// changes).
	Method string
	Sweeps int
	Bound  float64
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
// A node from which a "-" successor is reached has NaN values, which
// WriteAlpha refuses.
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
	Node, Obs int    // the node without successor and the observation
	ObsName   string // the observation's name in the model
	Start     int    // the start node it is reached from
	Stage     int    // the stage at which the node is left by the observation
	All       bool   // every start node reaches a "-"
}

// Error names the node, the observation, the start node and the stage.
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
// over the pairs from which no "-" successor is reached (c must be
// stationary): by dense LU for at most Options.MaxPairs pairs, otherwise
// by value iteration until a proven error bound meets Options.Tol
// (Evaluation.Method, Sweeps and Bound say which). The memory of either is
// estimated first and refused above Options.MaxBytes with an error naming
// the largest term. For T > 0 it runs the same recursion backwards from
// V_T = 0 with stage-indexed α_τ, β_τ (clock-aware controllers need
// T ≤ Stages) and discounts by the model's γ (1 when it has none).
//
// c may be a policy graph with None entries; a None reached with positive
// probability makes the affected pairs and start nodes NaN, and when every
// start node is affected EvaluateContext returns a *MissingError naming
// the node and observation. Other errors: sizes of c that do not match m,
// a negative T, an infinite horizon without γ < 1, a clock-aware controller
// beyond its stages, a solve above the memory budget, and ctx's error
// when cancelled.
//
// Cost for a deterministic controller with N nodes: O(N·(nnz(Z[a]) +
// nnz(T[a]))) per step of the recursion or sweep of value iteration
// (parallel over nodes), about log(Tol·(1−γ)/max|R|)/log γ sweeps; dense
// LU, O(K³) time and O(K²) memory for K = N·|S| pairs. Stochastic
// controllers build the (node, state) chain, O(K·|S|·|O|·N) edges at most.
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
		ev.V, err = solveDiscounted(ctx, m, c, opt, ev)
	} else {
		ev.Method = "backward recursion"
		if c.Deterministic() {
			ev.V, err = newFactored(m, c, opt.Workers).backward(ctx, T, ev.Discount, opt.Progress)
		} else {
			ev.V, err = backward(ctx, m, c, T, ev.Discount, opt.Progress)
		}
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
func backward(ctx context.Context, m *pomdp.Model, c *fsc.FSC, T int, gamma float64, progress func(done, total int)) ([][]float64, error) {
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
		if progress != nil {
			progress(T-tau, T)
		}
	}
	return next, nil
}

// pairChain is the Markov chain of a stationary controller over (node,
// state) pairs i = n·|S| + s, in compressed rows: the successors of pair i
// are to[row[i]:row[i+1]] with probabilities p[…] (a pair may repeat), and
// bad[i] marks pairs from which a None is reached with positive
// probability.
type pairChain struct {
	row []int
	to  []int32
	p   []float64
	r   []float64 // expected immediate reward of each pair
	bad []bool
}

// chainEdges returns an upper bound on the number of successors of every
// pair of c's chain on m, computed from the kernels' non-zeros without
// building anything.
func chainEdges(m *pomdp.Model, c *fsc.FSC) float64 {
	nS := m.NumStates()
	perAction := make([]float64, m.NumActions())
	for a := range perAction {
		for s := 0; s < nS; s++ {
			m.T[a].Entries(s, func(s2 int, _ float64) {
				cols, _ := m.Z[a].Row(s2)
				perAction[a] += float64(len(cols))
			})
		}
	}
	total := 0.0
	for n := 0; n < c.Nodes; n++ {
		for a := range perAction {
			if c.ActionProb(0, n, a) > 0 {
				fan := 1.0
				if !c.Deterministic() {
					fan = float64(c.Nodes)
				}
				total += perAction[a] * fan
			}
		}
	}
	return total
}

// buildChain builds the pair chain and marks every pair that reaches a
// None.
func buildChain(ctx context.Context, m *pomdp.Model, c *fsc.FSC) (*pairChain, error) {
	nS := m.NumStates()
	K := c.Nodes * nS
	ch := &pairChain{row: make([]int, K+1), r: make([]float64, K), bad: make([]bool, K)}
	for n := 0; n < c.Nodes; n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for s := 0; s < nS; s++ {
			i := n*nS + s
			ch.r[i] = reward(m, c, 0, n, s)
			step(m, c, 0, n, s, func(_, _, s2, n2 int, p float64) {
				if n2 == None {
					ch.bad[i] = true
					return
				}
				j := int32(n2*nS + s2)
				if l := len(ch.to); l > ch.row[i] && ch.to[l-1] == j {
					ch.p[l-1] += p
					return
				}
				ch.to = append(ch.to, j)
				ch.p = append(ch.p, p)
			})
			ch.row[i+1] = len(ch.to)
		}
	}
	// Every pair that reaches a bad pair is bad: reverse edges, then a
	// search from the bad pairs.
	inRow := make([]int, K+1)
	for _, j := range ch.to {
		inRow[j+1]++
	}
	for j := 0; j < K; j++ {
		inRow[j+1] += inRow[j]
	}
	in := make([]int32, len(ch.to))
	fill := append([]int(nil), inRow[:K]...)
	for i := 0; i < K; i++ {
		for e := ch.row[i]; e < ch.row[i+1]; e++ {
			j := ch.to[e]
			in[fill[j]] = int32(i)
			fill[j]++
		}
	}
	var queue []int32
	for i, b := range ch.bad {
		if b {
			queue = append(queue, int32(i))
		}
	}
	for len(queue) > 0 {
		j := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, i := range in[inRow[j]:inRow[j+1]] {
			if !ch.bad[i] {
				ch.bad[i] = true
				queue = append(queue, i)
			}
		}
	}
	return ch, nil
}

// solveDiscounted solves the discounted system over the pairs from which no
// None is reached with positive probability (other pairs get NaN): by dense
// LU up to opt.MaxPairs pairs, by value iteration to opt.Tol above.
func solveDiscounted(ctx context.Context, m *pomdp.Model, c *fsc.FSC, opt Options, ev *Evaluation) ([][]float64, error) {
	nS := m.NumStates()
	K := c.Nodes * nS
	maxDense := opt.MaxPairs
	if maxDense == 0 {
		maxDense = DefaultMaxPairs
	}
	budget := opt.MaxBytes
	if budget == 0 {
		budget = DefaultMaxBytes
	}
	dense := K <= maxDense
	tol := opt.Tol
	if tol == 0 {
		tol = DefaultTol
	}
	if !dense && c.Deterministic() {
		if need := factoredBytes(m, c); need > float64(budget) {
			return nil, fmt.Errorf("policy: evaluating %d nodes × %d states needs about %s (the kernels and two values per pair), above the budget of %s; "+
				"Minimize the graph first, evaluate a finite horizon or raise Options.MaxBytes", c.Nodes, nS, fmtBytes(need), fmtBytes(float64(budget)))
		}
		ev.Method = "value iteration"
		return newFactored(m, c, opt.Workers).iterate(ctx, m.Discount, tol, opt.Progress, ev)
	}
	if err := chainBudget(m, c, K, dense, budget); err != nil {
		return nil, err
	}
	ch, err := buildChain(ctx, m, c)
	if err != nil {
		return nil, err
	}
	idx := make([]int, K)
	k := 0
	for i := range idx {
		if ch.bad[i] {
			idx[i] = -1
			continue
		}
		idx[i] = k
		k++
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
	var x []float64
	if dense {
		ev.Method = "dense LU"
		x, err = solveChainLU(ch, idx, k, m.Discount)
	} else {
		ev.Method = "value iteration"
		x, err = iterateChain(ctx, ch, idx, k, m.Discount, tol, opt, ev)
	}
	if err != nil {
		return nil, err
	}
	for i := 0; i < K; i++ {
		if r := idx[i]; r >= 0 {
			V[i/nS][i%nS] = x[r]
		}
	}
	return V, nil
}

// solveChainLU solves x = r + γ P x over the k pairs idx numbers (the
// others are -1) by a dense LU factorisation.
func solveChainLU(ch *pairChain, idx []int, k int, gamma float64) ([]float64, error) {
	K := len(idx)
	x := make([]float64, k)
	A := mat.NewDense(k, k, nil)
	b := mat.NewVecDense(k, nil)
	for i := 0; i < K; i++ {
		r := idx[i]
		if r < 0 {
			continue
		}
		A.Set(r, r, A.At(r, r)+1)
		b.SetVec(r, ch.r[i])
		for e := ch.row[i]; e < ch.row[i+1]; e++ {
			col := idx[ch.to[e]]
			A.Set(r, col, A.At(r, col)-gamma*ch.p[e])
		}
	}
	var lu mat.LU
	lu.Factorize(A)
	var sol mat.VecDense
	if err := lu.SolveVecTo(&sol, false, b); err != nil {
		return nil, fmt.Errorf("policy: the discounted linear solve failed: %w", err)
	}
	for r := range x {
		x[r] = sol.AtVec(r)
	}
	return x, nil
}

// iterateChain solves x = r + γ P x over the k pairs idx numbers (the
// others are -1) by Jacobi sweeps until MacQueen's bound is below tol,
// recording the sweeps and the bound in ev.
func iterateChain(ctx context.Context, ch *pairChain, idx []int, k int, gamma, tol float64, opt Options, ev *Evaluation) ([]float64, error) {
	K := len(idx)
	x := make([]float64, k)
	// Jacobi sweeps x ← r + γ P x; after a sweep that moved x by δ in
	// the max norm, |x − V| ≤ γ δ / (1 − γ).
	good := make([]int, 0, k)
	for i := 0; i < K; i++ {
		if idx[i] >= 0 {
			good = append(good, i)
		}
	}
	next := make([]float64, k)
	rmax := 0.0
	for _, i := range good {
		rmax = math.Max(rmax, math.Abs(ch.r[i]))
	}
	// Sweeps needed for the a-priori bound γ^n·max|R|/(1−γ) ≤ tol·max(1, …).
	expect := int(math.Ceil(math.Log(tol*(1-gamma)/math.Max(rmax, 1e-300)) / math.Log(gamma)))
	// Rows are split into contiguous chunks, one goroutine each.
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(good)/1024+1))
	los := make([]float64, workers)
	his := make([]float64, workers)
	norms := make([]float64, workers)
	sweepRange := func(w int, cur, nxt []float64) {
		lo, hi := w*len(good)/workers, (w+1)*len(good)/workers
		dlo, dhi, norm := math.Inf(1), math.Inf(-1), 0.0
		for r := lo; r < hi; r++ {
			i := good[r]
			acc := 0.0
			for e := ch.row[i]; e < ch.row[i+1]; e++ {
				acc += ch.p[e] * cur[idx[ch.to[e]]]
			}
			v := ch.r[i] + gamma*acc
			d := v - cur[r]
			dlo, dhi = math.Min(dlo, d), math.Max(dhi, d)
			norm = math.Max(norm, math.Abs(v))
			nxt[r] = v
		}
		los[w], his[w], norms[w] = dlo, dhi, norm
	}
	for sweep := 1; ; sweep++ {
		if sweep%16 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if workers == 1 {
			sweepRange(0, x, next)
		} else {
			var wg sync.WaitGroup
			for w := 0; w < workers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sweepRange(w, x, next)
				}()
			}
			wg.Wait()
		}
		lo, hi, norm := math.Inf(1), math.Inf(-1), 0.0
		for w := range los {
			lo, hi, norm = math.Min(lo, los[w]), math.Max(hi, his[w]), math.Max(norm, norms[w])
		}
		x, next = next, x
		if opt.Progress != nil {
			opt.Progress(sweep, max(expect, sweep))
		}
		done, bound := macQueen(x, nil, gamma, lo, hi, tol, norm)
		ev.Sweeps, ev.Bound = sweep, bound
		if done {
			break
		}
		if sweep >= MaxSweeps {
			return nil, fmt.Errorf("policy: value iteration did not reach the tolerance %g in %d sweeps (error bound %g); lower Options.Tol's demand or use the dense solve (raise Options.MaxPairs)", tol, MaxSweeps, ev.Bound)
		}
	}
	return x, nil
}

// chainBudget checks that the chain over K pairs, and the dense system
// when dense, fit in budget bytes.
func chainBudget(m *pomdp.Model, c *fsc.FSC, K int, dense bool, budget int64) error {
	nS := m.NumStates()
	edges := chainEdges(m, c)
	chainBytes := 16*edges + 64*float64(K) // to, p and the reverse index per edge; rows, rewards, flags, indexes and iterates per pair
	need := chainBytes
	if dense {
		need += 8 * float64(K) * float64(K)
	}
	if need > float64(budget) {
		largest := fmt.Sprintf("the chain over %d (node, state) pairs with up to %.3g transitions (%s)", K, edges, fmtBytes(chainBytes))
		if dense && 8*float64(K)*float64(K) > chainBytes {
			largest = fmt.Sprintf("the dense %d×%d system (%s)", K, K, fmtBytes(8*float64(K)*float64(K)))
		}
		return fmt.Errorf("policy: evaluating %d nodes × %d states needs about %s, above the budget of %s; the largest term is %s. "+
			"Minimize the graph first, evaluate a finite horizon, lower Options.MaxPairs (iterate instead of a dense solve) or raise Options.MaxBytes",
			c.Nodes, nS, fmtBytes(need), fmtBytes(float64(budget)), largest)
	}
	return nil
}

// fmtBytes formats a byte count with a binary unit, e.g. "1.5 GiB".
func fmtBytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	u := 0
	for b >= 1024 && u < len(units)-1 {
		b /= 1024
		u++
	}
	return fmt.Sprintf("%.4g %s", b, units[u])
}

// FindMissing returns the first "-" successor (None) of controller c that
// is reached with positive probability on model m from start node start
// within horizon T (0: any number of steps), or nil when there is none.
// Controllers with None entries are only meaningful where it returns nil:
// Complete replaces the None entries by self-loops, so a caller that
// completes a graph and evaluates it elsewhere (package value, a
// quotient) checks here first. It panics if start is not a node of c.
func FindMissing(m *pomdp.Model, c *fsc.FSC, start, T int) *MissingError {
	if start < 0 || start >= c.Nodes {
		panic(fmt.Sprintf("policy: start node %d out of range (%d nodes)", start, c.Nodes))
	}
	return findMissing(m, c, T, start)
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
