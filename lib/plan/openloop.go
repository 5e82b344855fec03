package plan

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// MaxOpenLoop bounds |A|^T for OpenLoop unless raised.
const MaxOpenLoop = 20_000_000

// Objective is what OpenLoop can evaluate: the model's latent reward R(s,a)
// (value.LatentReward, undiscounted) or a per-step objective on the
// observation–action trace (value.StepObjective).
type Objective = value.Objective

// OpenLoopResult holds the values of every open-loop string, indexed like
// fsc.Clock with m = 1: string u has index Σ_τ u_τ·|A|^{T−1−τ}.
type OpenLoopResult struct {
	T int
	// Quotient[i] is the value of string i on the quotient seen by it;
	// Original[i] its value on the original model.
	Quotient, Original []float64
}

// Best returns the index of the first string whose value in vals is within
// tol of the maximum, the maximum, and the number of strings within tol.
func Best(vals []float64, tol float64) (index int, best float64, ties int) {
	best = math.Inf(-1)
	for _, v := range vals {
		best = math.Max(best, v)
	}
	index = -1
	for i, v := range vals {
		if v >= best-tol {
			if index < 0 {
				index = i
			}
			ties++
		}
	}
	return index, best, ties
}

// Decode returns the action string of index i.
func Decode(i, nA, T int) []int {
	u := make([]int, T)
	for k := T - 1; k >= 0; k-- {
		u[k] = i % nA
		i /= nA
	}
	return u
}

// OpenLoop returns the value of every open-loop string of length q.T on
// the quotient q (as seen by that string, quotient.ForProbe) and on the
// original model, for a latent reward or a per-step objective. Impossible
// member histories take the uniform belief, as in quotient.ClassBeliefs.
func OpenLoop(ctx context.Context, q *quotient.Quotient, obj Objective, limit int) (*OpenLoopResult, error) {
	m := q.M
	nA, T := m.NumActions(), q.T
	if limit == 0 {
		limit = MaxOpenLoop
	}
	if float64(T)*math.Log(float64(nA)) > math.Log(float64(limit)) {
		return nil, fmt.Errorf("plan: %d^%d open-loop strings exceed the limit %d", nA, T, limit)
	}
	var step value.StepObjective
	switch o := obj.(type) {
	case value.LatentReward:
		if o.Discount != 0 && o.Discount != 1 {
			return nil, fmt.Errorf("plan: OpenLoop evaluates undiscounted latent rewards only")
		}
	case value.StepObjective:
		step = o
	default:
		return nil, fmt.Errorf("plan: OpenLoop needs a latent reward or a per-step objective, not %T", obj)
	}
	n := 1
	for range T {
		n *= nA
	}
	res := &OpenLoopResult{T: T, Quotient: make([]float64, n), Original: make([]float64, n)}
	if T == 0 {
		return res, nil
	}
	// One worker per first action.
	var wg sync.WaitGroup
	errs := make([]error, nA)
	for a := 0; a < nA; a++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newWalker(q, step)
			w.root()
			errs[a] = w.descend(ctx, 0, a, 0, 0, 0, res)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}

// walker owns per-depth buffers for the prefix-tree pass.
type walker struct {
	q     *quotient.Quotient
	m     *pomdp.Model
	step  value.StepObjective
	nS    int
	nO    int
	bel   [][]float64 // bel[t]: beliefs of depth-t histories, Count(t)·|S|
	imp   [][]bool    // impossible flags
	cbel  [][]float64 // class beliefs at depth t, classes·|S|
	size  [][]int     // class sizes at depth t
	pq    [][]float64 // quotient class distribution at depth t
	borig [][]float64 // original model's state distribution at depth t (open loop)
	pred  []float64
	obs   []float64
	tmp   []float64
}

func newWalker(q *quotient.Quotient, step value.StepObjective) *walker {
	m := q.M
	w := &walker{q: q, m: m, step: step, nS: m.NumStates(), nO: m.NumObservations(),
		pred: make([]float64, m.NumStates()), obs: make([]float64, m.NumObservations()), tmp: make([]float64, m.NumStates())}
	for t := 0; t <= q.T; t++ {
		c := q.Tree.Count(t)
		k := q.Partition.Classes(t)
		w.bel = append(w.bel, make([]float64, c*w.nS))
		w.imp = append(w.imp, make([]bool, c))
		w.cbel = append(w.cbel, make([]float64, k*w.nS))
		w.pq = append(w.pq, make([]float64, k))
		w.borig = append(w.borig, make([]float64, w.nS))
		sz := make([]int, k)
		for _, c := range q.Partition.Labels[t] {
			sz[c]++
		}
		w.size = append(w.size, sz)
	}
	return w
}

func (w *walker) root() {
	copy(w.bel[0], w.m.B0)
	copy(w.borig[0], w.m.B0)
	w.pq[0][0] = 1
	w.classBeliefs(0)
}

// classBeliefs sets cbel[t] to the uniform average of member beliefs.
func (w *walker) classBeliefs(t int) {
	labels := w.q.Partition.Labels[t]
	cb := w.cbel[t]
	clear(cb)
	for i, c := range labels {
		b := w.bel[t][i*w.nS : (i+1)*w.nS]
		dst := cb[c*w.nS : (c+1)*w.nS]
		for s, v := range b {
			dst[s] += v
		}
	}
	for c, n := range w.size[t] {
		dst := cb[c*w.nS : (c+1)*w.nS]
		for s := range dst {
			dst[s] /= float64(n)
		}
	}
}

// descend takes action a at depth t (prefix index idx), accumulating the
// quotient value vq and the original value vm, and recurses.
func (w *walker) descend(ctx context.Context, t, a, idx int, vq, vm float64, res *OpenLoopResult) error {
	if t == 0 && ctx.Err() != nil {
		return ctx.Err()
	}
	m, q := w.m, w.q
	nS, nO := w.nS, w.nO
	// Stage reward on the quotient and on the original.
	k := len(w.pq[t])
	next := w.pq[t+1]
	clear(next)
	for c := 0; c < k; c++ {
		pc := w.pq[t][c]
		if pc == 0 {
			continue
		}
		b := w.cbel[t][c*nS : (c+1)*nS]
		m.Predict(w.pred, b, a)
		m.ObsProbs(w.obs, w.pred, a)
		tot := 0.0
		for _, p := range w.obs {
			tot += p
		}
		if w.step == nil {
			r := 0.0
			for s, p := range b {
				r += p * m.R[s][a]
			}
			vq += pc * r
		}
		for z, p := range w.obs {
			if p == 0 {
				continue
			}
			p /= tot
			if w.step != nil {
				vq += pc * p * w.step.Step(t, a, z)
			}
			next[q.Next[t][c][z]] += pc * p
		}
	}
	// Original model: open-loop state distribution.
	bo := w.borig[t]
	if w.step == nil {
		for s, p := range bo {
			vm += p * m.R[s][a]
		}
	}
	m.Predict(w.borig[t+1], bo, a)
	if w.step != nil {
		m.ObsProbs(w.obs, w.borig[t+1], a)
		for z, p := range w.obs {
			if p != 0 {
				vm += p * w.step.Step(t, a, z)
			}
		}
	}
	idx = idx*m.NumActions() + a
	if t+1 == q.T {
		res.Quotient[idx] = vq
		res.Original[idx] = vm
		return nil
	}
	// Beliefs of the depth t+1 histories under the prefix.
	cnt := q.Tree.Count(t)
	nb, ni := w.bel[t+1], w.imp[t+1]
	for i := 0; i < cnt; i++ {
		if w.imp[t][i] {
			for o := 0; o < nO; o++ {
				j := i*nO + o
				ni[j] = true
				uniform(nb[j*nS : (j+1)*nS])
			}
			continue
		}
		m.Predict(w.pred, w.bel[t][i*nS:(i+1)*nS], a)
		for o := 0; o < nO; o++ {
			j := i*nO + o
			dst := nb[j*nS : (j+1)*nS]
			mass := m.Observe(dst, w.pred, a, o)
			if mass == 0 {
				ni[j] = true
				uniform(dst)
				continue
			}
			ni[j] = false
			for s := range dst {
				dst[s] /= mass
			}
		}
	}
	w.classBeliefs(t + 1)
	for a2 := 0; a2 < m.NumActions(); a2++ {
		if err := w.descend(ctx, t+1, a2, idx, vq, vm, res); err != nil {
			return err
		}
	}
	return nil
}

func uniform(b []float64) {
	for s := range b {
		b[s] = 1 / float64(len(b))
	}
}
