package statbb

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// belief is one entry of the shared belief table: the belief reached
// along one (action, observation) path from a root, and its steps by
// action. Beliefs are keyed by the path that reached them (not interned
// by value): a belief's step under an action is computed once per
// generation of the table, and a posterior only when a search reads past
// it (the last level of a law needs only the observation probabilities).
type belief struct {
	v     []float64
	steps []atomic.Pointer[stepRec] // by action; nil: not computed yet
}

// stepRec is one belief step: the observation probabilities under an
// action, the predicted state distribution, and the normalised posterior
// after each observation, built when first asked for (nil: not yet,
// impossible: probability 0).
type stepRec struct {
	a    int
	p    []float64
	pred []float64
	next []atomic.Pointer[belief] // by observation
}

// impossible is the posterior of an observation of probability 0.
var impossible = &belief{}

// bytesPerBelief and bytesPerStep are the per-item costs of the belief
// table beside the vectors (headers, pointers, the allocator's rounding).
const (
	bytesPerBelief = 64
	bytesPerStep   = 128
)

// beliefBytes and stepBytes return the estimated bytes of one belief and
// one step of a model with nS states, nA actions and nO observations.
func beliefBytes(nS, nA int) int64 { return bytesPerBelief + 8*int64(nS) + 8*int64(nA) }
func stepBytes(nS, nO int) int64   { return bytesPerStep + 8*int64(nS) + 16*int64(nO) }

// generation is one fill of the table from its two roots: the model's
// initial belief and the uniform belief (the uniform stand-in's state
// part). A search holds one generation for a whole history pair, so its
// entries stay fixed while it reads them.
type generation struct {
	initial, uniform *belief
	bytes            int64 // guarded by table.mu
	refs             int   // the searches holding it, guarded by table.mu
}

// table is the belief table that every worker of one run shares. Reads
// are lock-free (atomic pointers, never changed once set); a miss builds
// the entry under mu, so every entry is computed once per generation
// whatever the number of workers, and is read-only once published. When
// a generation holds more than limit bytes, the next history pair starts
// a new one (built again lazily: recomputation, never a different value,
// since every entry is a deterministic function of its path); the old one
// is freed once the searches holding it finish their pairs.
type table struct {
	m          *pomdp.Model
	nS, nA, nO int
	limit      int64 // bytes above which a new generation starts (≤ 0: never)

	mu  sync.Mutex
	tmp []float64 // scratch of misses, guarded by mu
	gen *generation

	live    atomic.Int64 // bytes of the generations still held
	peak    atomic.Int64 // the largest live
	beliefs atomic.Int64 // belief vectors computed, every generation
	steps   atomic.Int64 // steps computed, every generation
	resets  atomic.Int64 // generations started after the first
}

// newTable returns the shared belief table of model m whose generations
// are renewed past limit bytes (≤ 0: never).
func newTable(m *pomdp.Model, limit int64) *table {
	t := &table{m: m, nS: m.NumStates(), nA: m.NumActions(), nO: m.NumObservations(), limit: limit}
	t.tmp = make([]float64, t.nS)
	t.gen = t.newGen()
	return t
}

// newGen returns a generation holding only the two roots; mu is held or
// the table is not shared yet.
func (t *table) newGen() *generation {
	g := &generation{}
	g.initial = t.add(g, slices.Clone(t.m.B0))
	u := make([]float64, t.nS)
	for i := range u {
		u[i] = 1 / float64(t.nS)
	}
	g.uniform = t.add(g, u)
	return g
}

// grow counts d more bytes held by generation g; mu is held.
func (t *table) grow(g *generation, d int64) {
	g.bytes += d
	if v := t.live.Add(d); v > t.peak.Load() {
		t.peak.Store(v)
	}
}

// add returns a new belief of g with vector v; mu is held.
func (t *table) add(g *generation, v []float64) *belief {
	t.beliefs.Add(1)
	t.grow(g, beliefBytes(t.nS, t.nA))
	return &belief{v: v, steps: make([]atomic.Pointer[stepRec], t.nA)}
}

// acquire returns the current generation, held until release.
func (t *table) acquire() *generation {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.gen.refs++
	return t.gen
}

// release ends a search's hold on g. Past the limit the current
// generation is replaced; a replaced generation's bytes stop counting
// when its last search releases it.
func (t *table) release(g *generation) {
	t.mu.Lock()
	defer t.mu.Unlock()
	g.refs--
	if g == t.gen && t.limit > 0 && g.bytes > t.limit {
		t.gen = t.newGen()
		t.resets.Add(1)
	}
	if g != t.gen && g.refs == 0 {
		t.live.Add(-g.bytes)
		g.bytes = 0
	}
}

// step returns the step of belief b (of generation g) under action a.
func (t *table) step(g *generation, b *belief, a int) *stepRec {
	if st := b.steps[a].Load(); st != nil {
		return st
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if st := b.steps[a].Load(); st != nil {
		return st // built by another worker meanwhile
	}
	st := &stepRec{a: a, p: make([]float64, t.nO), pred: make([]float64, t.nS), next: make([]atomic.Pointer[belief], t.nO)}
	t.m.Predict(st.pred, b.v, a)
	for o := 0; o < t.nO; o++ {
		st.p[o] = t.m.Observe(t.tmp, st.pred, a, o)
		if st.p[o] == 0 {
			st.next[o].Store(impossible)
		}
	}
	t.steps.Add(1)
	t.grow(g, stepBytes(t.nS, t.nO))
	b.steps[a].Store(st)
	return st
}

// child returns the posterior after observation o of step st (of
// generation g): impossible at probability 0.
func (t *table) child(g *generation, st *stepRec, o int) *belief {
	if b := st.next[o].Load(); b != nil {
		return b
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if b := st.next[o].Load(); b != nil {
		return b
	}
	mass := t.m.Observe(t.tmp, st.pred, st.a, o)
	v := slices.Clone(t.tmp)
	for i := range v {
		v[i] /= mass
	}
	b := t.add(g, v)
	st.next[o].Store(b)
	return b
}
