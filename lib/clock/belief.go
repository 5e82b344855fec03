package clock

import (
	"encoding/binary"
	"hash/maphash"
	"math"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// roundScale is 10^12: beliefs and observation probabilities are compared
// after rounding to 12 decimals (docs/conventions.md#exact-clock-aware-quotients).
const roundScale = 1e12

// standIn is the belief ID of the impossible-history stand-in: a
// pseudo-belief that emits observation 0 surely under every action and
// stays the stand-in, so its law is the point mass on the
// all-first-observation suffix (law.PointMassStandIn).
const standIn = 0

// seed hashes rounded belief keys.
var seed = maphash.MakeSeed()

// beliefs interns beliefs and memoises their one-step behaviour. Belief 0
// is the stand-in; real beliefs are numbered from 1 in order of creation.
// The one-step rows (obs, succ) are allocated when a (belief, action) pair
// is first stepped: most beliefs (those of the last depth) never are.
type beliefs struct {
	m          *pomdp.Model
	nS, nA, nO int

	vec   [][]float64      // blocks of chunk beliefs: the representative of belief b (vecOf)
	index map[uint64]int32 // hash of the rounded key → first ID with that hash
	coll  map[string]int32 // rounded key → ID, for hash collisions
	offs  []int32          // offs[b·nA + a]: row of (b, a) in obs and succ, −1 before step
	obs   [][]float64      // blocks of chunk rows: obsRow(r)[o] = P(o | b, a) for the row r of (b, a)
	succ  [][]int32        // blocks of chunk rows: succRow(r)[o], standIn when P(o | b, a) = 0
	rows  int              // rows of obs and succ in use
	key   []byte           // scratch
	key2  []byte           // scratch
	pred  []float64        // scratch
	post  [][]float64      // scratch, one per observation
	limit int              // maximum number of beliefs
	over  bool             // limit exceeded
}

func newBeliefs(m *pomdp.Model, limit int) *beliefs {
	nS, nA, nO := m.NumStates(), m.NumActions(), m.NumObservations()
	bs := &beliefs{m: m, nS: nS, nA: nA, nO: nO, index: make(map[uint64]int32), limit: limit,
		pred: make([]float64, nS), post: make([][]float64, nO)}
	for o := range bs.post {
		bs.post[o] = make([]float64, nS)
	}
	// The stand-in: zero vector, emits observation 0 surely, stays.
	bs.addVec(make([]float64, nS))
	for a := 0; a < nA; a++ {
		r := bs.newRow()
		bs.offs = append(bs.offs, r)
		bs.obsRow(r)[0] = 1
	}
	return bs
}

// chunk is the number of beliefs (or rows) per block: blocks never move,
// so growing the tables copies nothing.
const chunk = 1 << 12

// vecOf returns the representative of belief b (shared; do not modify).
func (bs *beliefs) vecOf(b int32) []float64 {
	i := int(b&(chunk-1)) * bs.nS
	return bs.vec[b>>12][i : i+bs.nS]
}

// addVec stores the representative of the next belief.
func (bs *beliefs) addVec(b []float64) {
	n := bs.len()
	if n%chunk == 0 {
		bs.vec = append(bs.vec, make([]float64, chunk*bs.nS))
	}
	copy(bs.vec[n>>12][(n&(chunk-1))*bs.nS:], b)
}

// newRow returns a fresh row of obs and succ (observation 0 … |O|−1:
// probability 0, successor standIn).
func (bs *beliefs) newRow() int32 {
	r := bs.rows
	if r%chunk == 0 {
		bs.obs = append(bs.obs, make([]float64, chunk*bs.nO))
		bs.succ = append(bs.succ, make([]int32, chunk*bs.nO))
	}
	bs.rows++
	return int32(r)
}

// obsRow returns P(· | b, a) for the row r of (b, a).
func (bs *beliefs) obsRow(r int32) []float64 {
	i := int(r&(chunk-1)) * bs.nO
	return bs.obs[r>>12][i : i+bs.nO]
}

// succRow returns the successors of the row r of (b, a).
func (bs *beliefs) succRow(r int32) []int32 {
	i := int(r&(chunk-1)) * bs.nO
	return bs.succ[r>>12][i : i+bs.nO]
}

// len returns the number of beliefs including the stand-in.
func (bs *beliefs) len() int { return len(bs.offs) / bs.nA }

// roundKey appends the rounded entries of b to dst.
func roundKey(dst []byte, b []float64) []byte {
	for _, x := range b {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(int64(math.Round(x*roundScale))))
	}
	return dst
}

// intern returns the ID of belief b (a distribution over states), adding
// it if no belief with the same rounded entries exists.
func (bs *beliefs) intern(b []float64) int32 {
	bs.key = roundKey(bs.key[:0], b)
	h := maphash.Bytes(seed, bs.key)
	if id, ok := bs.index[h]; ok {
		bs.key2 = roundKey(bs.key2[:0], bs.vecOf(id))
		if string(bs.key2) == string(bs.key) {
			return id
		}
		if id, ok := bs.coll[string(bs.key)]; ok {
			return id
		}
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
func (bs *beliefs) step(b int32, a int) int32 {
	k := int(b)*bs.nA + a
	if r := bs.offs[k]; r >= 0 {
		return r
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
func (bs *beliefs) next(b int32, a, o int) int32 { return bs.succRow(bs.step(b, a))[o] }

// probs returns P(· | b, a) (shared; do not modify).
func (bs *beliefs) probs(b int32, a int) []float64 { return bs.obsRow(bs.step(b, a)) }

// roundProb returns p rounded to 12 decimals as an integer.
func roundProb(p float64) uint64 { return uint64(int64(math.Round(p * roundScale))) }
