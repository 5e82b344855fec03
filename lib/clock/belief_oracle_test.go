package clock

// The dense belief store of commit b8ef424, kept verbatim (identifiers
// renamed, block sizing kept, metering kept) as the oracle of the sparse
// store: TestSparseBeliefsMatchDense drives both in lockstep and checks
// that they intern the same beliefs in the same order, with bitwise equal
// vectors, observation probabilities and successors.

import (
	"encoding/binary"
	"hash/maphash"
	"math"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// dBeliefs interns dBeliefs and memoises their one-step behaviour. Belief 0
// is the stand-in; real dBeliefs are numbered from 1 in order of creation.
// The one-step rows (obs, succ) are allocated when a (belief, action) pair
// is first stepped: most dBeliefs (those of the last depth) never are.
type dBeliefs struct {
	m          *pomdp.Model
	nS, nA, nO int

	vec   [][]float64      // blocks of 2^vshift dBeliefs: the representative of belief b (vecOf)
	index map[uint64]int32 // hash of the rounded key → first ID with that hash
	coll  map[string]int32 // rounded key → ID, for hash collisions
	offs  []int32          // offs[b·nA + a]: row of (b, a) in obs and succ, −1 before step
	obs   [][]float64      // blocks of 2^rshift rows: obsRow(r)[o] = P(o | b, a) for the row r of (b, a)
	succ  [][]int32        // blocks of 2^rshift rows: succRow(r)[o], standIn when P(o | b, a) = 0
	rows  int              // rows of obs and succ in use
	key   []byte           // scratch
	key2  []byte           // scratch
	pred  []float64        // scratch
	post  [][]float64      // scratch, one per observation
	limit int              // maximum number of dBeliefs
	over  bool             // limit exceeded
	g     *guard           // memory meter and context
	// vshift and rshift are log2 of the dBeliefs per block of vec and of
	// the rows per block of obs and succ (see blockShift).
	vshift, rshift uint
}

func newDBeliefs(m *pomdp.Model, limit int, g *guard) *dBeliefs {
	nS, nA, nO := m.NumStates(), m.NumActions(), m.NumObservations()
	bs := &dBeliefs{m: m, nS: nS, nA: nA, nO: nO, index: make(map[uint64]int32), limit: limit, g: g,
		pred: make([]float64, nS), post: make([][]float64, nO),
		vshift: blockShift(8 * nS), rshift: blockShift(12 * nO)}
	for o := range bs.post {
		bs.post[o] = make([]float64, nS)
	}
	g.add(termBeliefs, float64(8*nS*(nO+1))+bs.vecCost())
	// The stand-in: zero vector, emits observation 0 surely, stays.
	bs.addVec(make([]float64, nS))
	for a := 0; a < nA; a++ {
		r := bs.newRow()
		bs.offs = append(bs.offs, r)
		bs.obsRow(r)[0] = 1
	}
	return bs
}

// vecOf returns the representative of belief b (shared; do not modify).
func (bs *dBeliefs) vecOf(b int32) []float64 {
	i := int(b&(1<<bs.vshift-1)) * bs.nS
	return bs.vec[b>>bs.vshift][i : i+bs.nS]
}

// addVec stores the representative of the next belief. The caller has
// metered its block (dBeliefs.blockCost).
func (bs *dBeliefs) addVec(b []float64) {
	n := bs.len()
	per := 1 << bs.vshift
	if n%per == 0 {
		bs.vec = append(bs.vec, make([]float64, per*bs.nS))
	}
	copy(bs.vec[n>>bs.vshift][(n&(per-1))*bs.nS:], b)
}

// vecCost returns the bytes metered for adding the next belief: its block
// when it starts one, and its share of offs and of the index.
func (bs *dBeliefs) vecCost() float64 {
	c := float64(5*bs.nA) + mapEntry(8, 4)
	if n, per := bs.len(), 1<<bs.vshift; n%per == 0 {
		c += float64(8 * per * bs.nS)
	}
	return c
}

// newRow returns a fresh row of obs and succ (observation 0 … |O|−1:
// probability 0, successor standIn).
func (bs *dBeliefs) newRow() int32 {
	r := bs.rows
	if per := 1 << bs.rshift; r%per == 0 {
		bs.g.add(termSteps, float64(12*per*bs.nO))
		bs.obs = append(bs.obs, make([]float64, per*bs.nO))
		bs.succ = append(bs.succ, make([]int32, per*bs.nO))
	}
	bs.rows++
	return int32(r)
}

// obsRow returns P(· | b, a) for the row r of (b, a).
func (bs *dBeliefs) obsRow(r int32) []float64 {
	i := int(r&(1<<bs.rshift-1)) * bs.nO
	return bs.obs[r>>bs.rshift][i : i+bs.nO]
}

// succRow returns the successors of the row r of (b, a).
func (bs *dBeliefs) succRow(r int32) []int32 {
	i := int(r&(1<<bs.rshift-1)) * bs.nO
	return bs.succ[r>>bs.rshift][i : i+bs.nO]
}

// len returns the number of dBeliefs including the stand-in.
func (bs *dBeliefs) len() int { return len(bs.offs) / bs.nA }

// dRoundKey appends the rounded entries of b to dst.
func dRoundKey(dst []byte, b []float64) []byte {
	for _, x := range b {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(int64(math.Round(x*roundScale))))
	}
	return dst
}

// intern returns the ID of belief b (a distribution over states), adding
// it if no belief with the same rounded entries exists.
func (bs *dBeliefs) intern(b []float64) int32 {
	bs.key = dRoundKey(bs.key[:0], b)
	h := maphash.Bytes(seed, bs.key)
	if id, ok := bs.index[h]; ok {
		bs.key2 = dRoundKey(bs.key2[:0], bs.vecOf(id))
		if string(bs.key2) == string(bs.key) {
			return id
		}
		if id, ok := bs.coll[string(bs.key)]; ok {
			return id
		}
	}
	// Past the memory budget (or once cancelled) nothing more is
	// interned: the stand-in takes the belief's place and the computation
	// returns the guard's error at its next check.
	if !bs.g.add(termBeliefs, bs.vecCost()) {
		return standIn
	}
	id := int32(bs.len())
	if int(id) >= bs.limit {
		bs.over = true
	}
	if _, ok := bs.index[h]; ok {
		if bs.coll == nil {
			bs.coll = make(map[string]int32)
		}
		bs.coll[string(bs.key)] = id
	} else {
		bs.index[h] = id
	}
	bs.addVec(b)
	for range bs.nA {
		bs.offs = append(bs.offs, -1)
	}
	return id
}

// step fills the row of (b, a) if needed and returns it. Cost
// O(nnz(T_a) + nnz(Z_a)) plus interning.
func (bs *dBeliefs) step(b int32, a int) int32 {
	k := int(b)*bs.nA + a
	if r := bs.offs[k]; r >= 0 {
		return r
	}
	// A step reads the belief and the model's rows of a: work about |S|.
	if !bs.g.work(float64(bs.nS)/4 + 1) {
		return 0 // the stand-in's row, never read: the computation stops
	}
	r := bs.newRow()
	bs.offs[k] = r
	obs, succ := bs.obsRow(r), bs.succRow(r)
	bs.m.Predict(bs.pred, bs.vecOf(b), a)
	for o := 0; o < bs.nO; o++ {
		post := bs.post[o]
		p := bs.m.Observe(post, bs.pred, a, o)
		obs[o] = p
		if p == 0 {
			succ[o] = standIn
			continue
		}
		for i := range post {
			post[i] /= p
		}
	}
	// Intern after all observations (intern does not move rows).
	for o := 0; o < bs.nO; o++ {
		if obs[o] == 0 {
			continue
		}
		succ[o] = bs.intern(bs.post[o])
	}
	return r
}

// next returns the successor of belief b after action a and observation o.
func (bs *dBeliefs) next(b int32, a, o int) int32 { return bs.succRow(bs.step(b, a))[o] }

// probs returns P(· | b, a) (shared; do not modify).
func (bs *dBeliefs) probs(b int32, a int) []float64 { return bs.obsRow(bs.step(b, a)) }
