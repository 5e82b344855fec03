package plan

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"

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
	// Vectors is the number of distinct belief vectors met (all depths).
	Vectors int
}

// Best returns the index of the first string whose value in vals is within
// tol of the maximum, the maximum, and the number of strings within tol.
func Best(vals []float64, tol float64) (index int, best float64, ties int) {
	return BestOf(len(vals), func(i int) float64 { return vals[i] }, tol)
}

// BestOf is Best over the n values val(0), …, val(n−1) (a family's
// controllers valued on demand): the first index within tol of the
// maximum, the maximum, and how many are within tol. For n = 0 it
// returns −1, −Inf and 0.
func BestOf(n int, val func(int) float64, tol float64) (index int, best float64, ties int) {
	best = math.Inf(-1)
	for i := range n {
		best = math.Max(best, val(i))
	}
	index = -1
	for i := range n {
		if val(i) >= best-tol {
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
// original model, for a latent reward or a per-step objective. Class beliefs
// follow quotient.ClassBeliefs (quotient.AggregateDepth): the average over
// the members possible under the string, impossible members weightless.
//
// Under an open-loop prefix the beliefs of all depth-t histories form one
// vector that depends only on the prefix; many prefixes share it (Tiger's
// beliefs depend only on listen counts since the last opening). Vectors are
// interned (rounded to 12 decimals, docs/conventions.md#tolerances) with their successor
// per action and their classes' one-step kernels, so each prefix costs only
// the propagation of the quotient's class distribution.
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
	w := newWalker(q, step)
	root := w.intern(0, append([]float64(nil), m.B0...), make([]bool, 1))
	w.pq[0][0] = 1
	copy(w.borig[0], m.B0)
	for a := 0; a < nA; a++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		w.descend(0, root, a, 0, 0, 0, res)
	}
	for _, v := range w.vecs {
		res.Vectors += len(v)
	}
	return res, nil
}

// vec is an interned belief vector of one depth with what depends on it.
type vec struct {
	bel  []float64 // Count(t)·|S|
	imp  []bool
	obs  []float64 // classes·|A|·|O|: P̄(c, a, z)
	rew  []float64 // classes·|A|: the stage reward Σ_s b̄_c(s) R(s, a), or Σ_z P̄(c,a,z)·r_t(a, z)
	next []int     // per action: successor vector at depth t+1 (−1: not yet)
}

// walker owns the interned vectors and per-depth buffers.
type walker struct {
	q     *quotient.Quotient
	m     *pomdp.Model
	step  value.StepObjective
	nS    int
	nO    int
	nA    int
	vecs  [][]*vec
	index []map[string]int
	pq    [][]float64 // quotient class distribution at depth t
	borig [][]float64 // original model's state distribution at depth t
	pred  []float64
	obs   []float64
	key   []byte
}

func newWalker(q *quotient.Quotient, step value.StepObjective) *walker {
	m := q.M
	w := &walker{q: q, m: m, step: step, nS: m.NumStates(), nO: m.NumObservations(), nA: m.NumActions(),
		pred: make([]float64, m.NumStates()), obs: make([]float64, m.NumObservations())}
	for t := 0; t <= q.T; t++ {
		w.vecs = append(w.vecs, nil)
		w.index = append(w.index, map[string]int{})
		w.pq = append(w.pq, make([]float64, q.Partition.Classes(t)))
		w.borig = append(w.borig, make([]float64, w.nS))
	}
	return w
}

// intern returns the ID of the depth-t vector bel (taking ownership).
func (w *walker) intern(t int, bel []float64, imp []bool) int {
	w.key = w.key[:0]
	for i, x := range bel {
		if imp[i/w.nS] {
			x = -1
		}
		r := math.Round(x*1e12) / 1e12
		w.key = binary.LittleEndian.AppendUint64(w.key, math.Float64bits(r))
	}
	if id, ok := w.index[t][string(w.key)]; ok {
		return id
	}
	v := &vec{bel: bel, imp: imp, next: make([]int, w.nA)}
	for a := range v.next {
		v.next[a] = -1
	}
	if t < w.q.T {
		w.kernels(t, v)
	}
	id := len(w.vecs[t])
	w.vecs[t] = append(w.vecs[t], v)
	w.index[t][string(w.key)] = id
	return id
}

// kernels fills the class one-step kernels and rewards of a depth-t vector.
func (w *walker) kernels(t int, v *vec) {
	m, nS, nA, nO := w.m, w.nS, w.nA, w.nO
	cb, _ := w.q.AggregateDepth(t, nS, func(i int) []float64 { return v.bel[i*nS : (i+1)*nS] }, func(i int) bool { return v.imp[i] })
	k := len(cb) / nS
	v.obs = make([]float64, k*nA*nO)
	v.rew = make([]float64, k*nA)
	for c := 0; c < k; c++ {
		b := cb[c*nS : (c+1)*nS]
		for a := 0; a < nA; a++ {
			r := 0.0
			for s, p := range b {
				r += p * m.R[s][a]
			}
			v.rew[c*nA+a] = r
			m.Predict(w.pred, b, a)
			m.ObsProbs(w.obs, w.pred, a)
			tot := 0.0
			for _, p := range w.obs {
				tot += p
			}
			for z, p := range w.obs {
				v.obs[(c*nA+a)*nO+z] = p / tot
			}
			if w.step != nil {
				r = 0
				for z, p := range w.obs {
					if p != 0 {
						r += p / tot * w.step.Step(t, a, z)
					}
				}
				v.rew[c*nA+a] = r
			}
		}
	}
}

// successor returns the depth-(t+1) vector after action a.
func (w *walker) successor(t, id, a int) int {
	v := w.vecs[t][id]
	if v.next[a] >= 0 {
		return v.next[a]
	}
	m, nS, nO := w.m, w.nS, w.nO
	cnt := w.q.Tree.Count(t)
	nb := make([]float64, cnt*nO*nS)
	ni := make([]bool, cnt*nO)
	for i := 0; i < cnt; i++ {
		if v.imp[i] {
			for o := 0; o < nO; o++ {
				j := i*nO + o
				ni[j] = true
				uniform(nb[j*nS : (j+1)*nS])
			}
			continue
		}
		m.Predict(w.pred, v.bel[i*nS:(i+1)*nS], a)
		for o := 0; o < nO; o++ {
			j := i*nO + o
			dst := nb[j*nS : (j+1)*nS]
			mass := m.Observe(dst, w.pred, a, o)
			if mass == 0 {
				ni[j] = true
				uniform(dst)
				continue
			}
			for s := range dst {
				dst[s] /= mass
			}
		}
	}
	next := w.intern(t+1, nb, ni)
	v.next[a] = next
	return next
}

// descend takes action a at depth t from vector id (prefix index idx),
// accumulating the quotient value vq and the original value vm.
func (w *walker) descend(t, id, a, idx int, vq, vm float64, res *OpenLoopResult) {
	m, q := w.m, w.q
	nA, nO := w.nA, w.nO
	v := w.vecs[t][id]
	k := len(w.pq[t])
	last := t+1 == q.T
	next := w.pq[t+1]
	if !last {
		clear(next)
	}
	for c := 0; c < k; c++ {
		pc := w.pq[t][c]
		if pc == 0 {
			continue
		}
		vq += pc * v.rew[c*nA+a]
		if last {
			continue
		}
		row := v.obs[(c*nA+a)*nO : (c*nA+a+1)*nO]
		succ := q.Next[t][c]
		for z, p := range row {
			if p != 0 {
				next[succ[z]] += pc * p
			}
		}
	}
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
	idx = idx*nA + a
	if last {
		res.Quotient[idx] = vq
		res.Original[idx] = vm
		return
	}
	nid := w.successor(t, id, a)
	for a2 := 0; a2 < nA; a2++ {
		w.descend(t+1, nid, a2, idx, vq, vm, res)
	}
}

func uniform(b []float64) {
	for s := range b {
		b[s] = 1 / float64(len(b))
	}
}
