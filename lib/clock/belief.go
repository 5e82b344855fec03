package clock

import (
	"encoding/binary"
	"hash/maphash"
	"math"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// roundScale is 10^12: beliefs and observation probabilities are compared
// after rounding to 12 decimals (CONVENTIONS.md, "Exact clock-aware m = 1").
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

	vec   []float64        // vec[b·nS : (b+1)·nS], representative of belief b
	index map[uint64]int32 // hash of the rounded key → first ID with that hash
	coll  map[string]int32 // rounded key → ID, for hash collisions
	offs  []int            // offs[b·nA + a]: offset of the row of (b, a) in obs and succ, −1 before step
	obs   []float64        // obs[offs[b·nA+a] + o] = P(o | b, a)
	succ  []int32          // succ[offs[b·nA+a] + o], standIn when P(o | b, a) = 0
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
	bs.vec = append(bs.vec, make([]float64, nS)...)
	for a := 0; a < nA; a++ {
		bs.offs = append(bs.offs, len(bs.obs))
		for o := 0; o < nO; o++ {
			p := 0.0
			if o == 0 {
				p = 1
			}
			bs.obs = append(bs.obs, p)
			bs.succ = append(bs.succ, standIn)
		}
	}
	return bs
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
		bs.key2 = roundKey(bs.key2[:0], bs.vec[int(id)*bs.nS:(int(id)+1)*bs.nS])
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
	bs.vec = append(bs.vec, b...)
	for range bs.nA {
		bs.offs = append(bs.offs, -1)
	}
	return id
}

// step fills obs and succ of (b, a) if needed and returns their offset.
// Cost O(nnz(T_a) + nnz(Z_a)) plus interning.
func (bs *beliefs) step(b int32, a int) int {
	k := int(b)*bs.nA + a
	if off := bs.offs[k]; off >= 0 {
		return off
	}
	off := len(bs.obs)
	bs.offs[k] = off
	for range bs.nO {
		bs.obs = append(bs.obs, 0)
		bs.succ = append(bs.succ, standIn)
	}
	bv := bs.vec[int(b)*bs.nS : (int(b)+1)*bs.nS]
	bs.m.Predict(bs.pred, bv, a)
	for o := 0; o < bs.nO; o++ {
		post := bs.post[o]
		p := bs.m.Observe(post, bs.pred, a, o)
		bs.obs[off+o] = p
		if p == 0 {
			bs.succ[off+o] = standIn
			continue
		}
		for i := range post {
			post[i] /= p
		}
	}
	// Intern after all observations: intern may grow vec (not obs).
	for o := 0; o < bs.nO; o++ {
		if bs.obs[off+o] == 0 {
			continue
		}
		id := bs.intern(bs.post[o])
		bs.succ[off+o] = id
	}
	return off
}

// next returns the successor of belief b after action a and observation o.
func (bs *beliefs) next(b int32, a, o int) int32 { return bs.succ[bs.step(b, a)+o] }

// probs returns P(· | b, a) (shared; do not modify).
func (bs *beliefs) probs(b int32, a int) []float64 {
	off := bs.step(b, a)
	return bs.obs[off : off+bs.nO]
}

// roundProb returns p rounded to 12 decimals as an integer.
func roundProb(p float64) uint64 { return uint64(int64(math.Round(p * roundScale))) }
