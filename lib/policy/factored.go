package policy

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// factored evaluates deterministic controllers without building their
// (node, state) chain: a node's values come from two sparse products,
//
//	W(s') = Σ_o Z(s',a,o) V'(β(n,o), s'),   V(n,s) = R(s,a) + γ Σ_{s'} T(s,a,s') W(s'),
//
// which cost nnz(Z[a]) + nnz(T[a]) per node instead of the chain's
// nnz(T[a]·Z[a]) fan-out per pair.
type factored struct {
	m       *pomdp.Model
	c       *fsc.FSC
	nS      int
	T       []*pomdp.Sparse // per action, nil when no node takes it
	R       [][]float64     // R[a][s], for the actions in T
	workers int
}

func newFactored(m *pomdp.Model, c *fsc.FSC, workers int) *factored {
	f := &factored{m: m, c: c, nS: m.NumStates(), T: make([]*pomdp.Sparse, m.NumActions()), workers: workers}
	if f.workers <= 0 {
		f.workers = runtime.GOMAXPROCS(0)
	}
	f.workers = max(1, min(f.workers, c.Nodes))
	stages := max(c.Stages, 1)
	for tau := 0; tau < stages; tau++ {
		for n := 0; n < c.Nodes; n++ {
			if a := c.Action(tau, n); f.T[a] == nil {
				f.T[a] = pomdp.SparseKernel(m.T[a])
			}
		}
	}
	f.R = make([][]float64, len(f.T))
	for a, t := range f.T {
		if t != nil {
			f.R[a] = make([]float64, f.nS)
			for s := range f.R[a] {
				f.R[a][s] = m.R[s][a]
			}
		}
	}
	return f
}

// bytes estimates the memory of a factored evaluation: the kernels
// converted to sparse rows and their transposes, and per pair the
// iterates and flags.
func factoredBytes(m *pomdp.Model, c *fsc.FSC) float64 {
	used := make([]bool, m.NumActions())
	for tau := 0; tau < max(c.Stages, 1); tau++ {
		for n := 0; n < c.Nodes; n++ {
			used[c.Action(tau, n)] = true
		}
	}
	b := 0.0
	for a, u := range used {
		if u {
			b += 2 * 16 * float64(m.T[a].NNZ())
		}
	}
	return b + float64(c.Nodes)*float64(m.NumStates())*(8*2+1+4)
}

// node sets dst[n·|S| + s] for every state s: R(s, a_τ(n)) plus, when cont,
// γ times the expectation of src over the next (node, state) pair (NaN
// when a None is reached with positive probability). w is scratch of
// length |S|.
func (f *factored) node(tau, n int, gamma float64, cont bool, src, dst, w []float64) {
	a := f.c.Action(tau, n)
	nS := f.nS
	out := dst[n*nS : (n+1)*nS]
	r := f.R[a]
	if !cont {
		copy(out, r)
		return
	}
	st := 0
	if f.c.Stages > 0 {
		st = tau
	}
	next := f.c.Next[st][n]
	z := f.m.Z[a]
	zp, zc, zv := z.RowPtr, z.Col, z.Val
	for s2 := 0; s2 < nS; s2++ {
		acc := 0.0
		for k := zp[s2]; k < zp[s2+1]; k++ {
			n2 := next[zc[k]]
			if n2 == None {
				acc = math.NaN()
				break
			}
			acc += zv[k] * src[n2*nS+s2]
		}
		w[s2] = acc
	}
	t := f.T[a]
	tp, tc, tv := t.RowPtr, t.Col, t.Val
	for s := 0; s < nS; s++ {
		acc := 0.0
		for k := tp[s]; k < tp[s+1]; k++ {
			acc += tv[k] * w[tc[k]]
		}
		out[s] = r[s] + gamma*acc
	}
}

// sweep applies node to every node at stage τ, the nodes split among the
// workers, and returns per worker nothing: dst is complete on return.
func (f *factored) sweep(tau int, gamma float64, cont bool, src, dst []float64, scratch [][]float64) {
	if f.workers == 1 {
		for n := 0; n < f.c.Nodes; n++ {
			f.node(tau, n, gamma, cont, src, dst, scratch[0])
		}
		return
	}
	var wg sync.WaitGroup
	for w := 0; w < f.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lo, hi := w*f.c.Nodes/f.workers, (w+1)*f.c.Nodes/f.workers
			for n := lo; n < hi; n++ {
				f.node(tau, n, gamma, cont, src, dst, scratch[w])
			}
		}()
	}
	wg.Wait()
}

func (f *factored) scratch() [][]float64 {
	s := make([][]float64, f.workers)
	for w := range s {
		s[w] = make([]float64, f.nS)
	}
	return s
}

// backward runs the finite-horizon recursion for T stages.
func (f *factored) backward(ctx context.Context, T int, gamma float64, progress func(done, total int)) ([][]float64, error) {
	K := f.c.Nodes * f.nS
	next, cur := make([]float64, K), make([]float64, K)
	sc := f.scratch()
	for tau := T - 1; tau >= 0; tau-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f.sweep(tau, gamma, tau < T-1, next, cur, sc)
		cur, next = next, cur
		if progress != nil {
			progress(T-tau, T)
		}
	}
	return f.split(next), nil
}

func (f *factored) split(x []float64) [][]float64 {
	V := make([][]float64, f.c.Nodes)
	for n := range V {
		V[n] = x[n*f.nS : (n+1)*f.nS : (n+1)*f.nS]
	}
	return V
}

// bad marks the pairs of a stationary controller from which a None is
// reached with positive probability: the pairs one step from a None, then
// their predecessors, breadth first over the transposed kernels.
func (f *factored) bad() []bool {
	c, m, nS := f.c, f.m, f.nS
	bad := make([]bool, c.Nodes*nS)
	var queue []int32
	mark := func(i int) {
		if !bad[i] {
			bad[i] = true
			queue = append(queue, int32(i))
		}
	}
	Tt := make([]*pomdp.Sparse, len(f.T))
	rev := make([][][2]int32, c.Nodes) // rev[n2]: (n, o) with β(n, o) = n2
	for n := 0; n < c.Nodes; n++ {
		a := c.Action(0, n)
		for o := 0; o < c.NumObs; o++ {
			n2 := c.NextNode(0, n, o)
			if n2 != None {
				rev[n2] = append(rev[n2], [2]int32{int32(n), int32(o)})
				continue
			}
			if Tt[a] == nil {
				Tt[a] = f.T[a].Transpose()
			}
			states, _ := m.ObsColumn(a, o)
			for _, s2 := range states {
				for k := Tt[a].RowPtr[s2]; k < Tt[a].RowPtr[s2+1]; k++ {
					mark(n*nS + Tt[a].Col[k])
				}
			}
		}
	}
	for len(queue) > 0 {
		j := int(queue[len(queue)-1])
		queue = queue[:len(queue)-1]
		n2, s2 := j/nS, j%nS
		for _, no := range rev[n2] {
			n, o := int(no[0]), int(no[1])
			a := c.Action(0, n)
			if m.ObsProb(s2, a, o) == 0 {
				continue
			}
			if Tt[a] == nil {
				Tt[a] = f.T[a].Transpose()
			}
			for k := Tt[a].RowPtr[s2]; k < Tt[a].RowPtr[s2+1]; k++ {
				mark(n*nS + Tt[a].Col[k])
			}
		}
	}
	return bad
}

// iterate runs value iteration (Jacobi sweeps) on a stationary
// deterministic controller until MacQueen's bound on the error meets
// tol·max(1, max|V|); pairs that reach a None are NaN.
func (f *factored) iterate(ctx context.Context, gamma, tol float64, progress func(done, total int), ev *Evaluation) ([][]float64, error) {
	bad := f.bad()
	K := len(bad)
	x, nx := make([]float64, K), make([]float64, K)
	rmax := 0.0
	for i, b := range bad {
		if b {
			x[i] = math.NaN()
			continue
		}
		rmax = math.Max(rmax, math.Abs(f.m.R[i%f.nS][f.c.Action(0, i/f.nS)]))
	}
	expect := int(math.Ceil(math.Log(tol*(1-gamma)/math.Max(rmax, 1e-300)) / math.Log(gamma)))
	sc := f.scratch()
	for sweep := 1; ; sweep++ {
		if sweep%16 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		f.sweep(0, gamma, true, x, nx, sc)
		lo, hi, norm := math.Inf(1), math.Inf(-1), 0.0
		for i, b := range bad {
			if b {
				nx[i] = math.NaN()
				continue
			}
			d := nx[i] - x[i]
			lo, hi = math.Min(lo, d), math.Max(hi, d)
			norm = math.Max(norm, math.Abs(nx[i]))
		}
		x, nx = nx, x
		if progress != nil {
			progress(sweep, max(expect, sweep))
		}
		done, bound := macQueen(x, bad, gamma, lo, hi, tol, norm)
		ev.Sweeps, ev.Bound = sweep, bound
		if done {
			return f.split(x), nil
		}
		if sweep >= MaxSweeps {
			return nil, fmt.Errorf("policy: value iteration did not reach the tolerance %g in %d sweeps (error bound %g); ask for a larger Options.Tol or use the dense solve (raise Options.MaxPairs)", tol, MaxSweeps, ev.Bound)
		}
	}
}

// macQueen applies MacQueen's bounds after a sweep x' = r + γPx that changed
// the good pairs by Δ ∈ [lo, hi]: since P is stochastic on them,
//
//	x' + γ/(1−γ)·lo ≤ V ≤ x' + γ/(1−γ)·hi
//
// componentwise. When the half width γ/(1−γ)·(hi−lo)/2 meets
// tol·max(1, norm) it moves x (the new iterate) to the midpoint and
// reports done; it returns the half width, a proven bound on the error of
// the midpoint. The width shrinks with the span of Δ, faster than the
// max-norm bound γ·max|Δ|/(1−γ) on mixing chains.
func macQueen(x []float64, bad []bool, gamma, lo, hi, tol, norm float64) (bool, float64) {
	if lo > hi { // no good pair
		return true, 0
	}
	k := gamma / (1 - gamma)
	half := k * (hi - lo) / 2
	if !(half <= tol*math.Max(1, norm)) {
		return false, half
	}
	shift := k * (lo + hi) / 2
	for i := range x {
		if bad == nil || !bad[i] {
			x[i] += shift
		}
	}
	return true, half
}
