package clock

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"runtime"
	"slices"
	"sync"

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
//
// A belief is stored sparse, as its support (increasing states) and the
// masses there: a model with many states reaches beliefs on few of them
// (RockSample 11×11 has 247,809 states and beliefs on at most 2,048), so
// memory and the cost of a step follow the supports met, not |S|. The
// arithmetic of a step is that of the dense update (pomdp.Model.Predict
// and Observe) term for term, in the same order, so every belief, and
// every observation probability, is bitwise the one the dense update
// gives (TestSparseBeliefsMatchDense).
//
// Most beliefs (those of the last depth) are never stepped: they are only
// told apart. So a belief is interned with its rounded key, compressed
// (packKey), and how it was reached (the belief, action and observation
// of the step that first met it); its masses are stored only when it is
// first stepped, recomputed from that step, which gives them bitwise
// again. At RockSample 11×11, T = 4, 5,526 of the 73,821 beliefs are
// stepped, and a packed key takes about 2 bytes a state where the masses
// take 12.
//
// The one-step rows (obs, succ) are allocated when a (belief, action) pair
// is first stepped.
type beliefs struct {
	m          *pomdp.Model
	nS, nA, nO int

	spans []span           // spans[b]: where the masses of belief b lie in the arena, n < 0 until stored
	arena arena            // supports and masses of the stepped beliefs
	keys  [][]byte         // blocks of packed keys
	kspan []span           // kspan[b]: the packed key of belief b in keys
	from  []origin         // from[b]: the step that first met belief b
	pk    packer           // scratch of packKey (internDense)
	index map[uint64]int32 // hash of the rounded key → first ID with that hash
	coll  map[string]int32 // rounded key → ID, for hash collisions
	offs  []int32          // offs[b·nA + a]: row of (b, a) in obs and succ, −1 before step
	obs   [][]float64      // blocks of 2^rshift rows: obsRow(r)[o] = P(o | b, a) for the row r of (b, a)
	succ  [][]int32        // blocks of 2^rshift rows: succRow(r)[o], standIn when P(o | b, a) = 0
	rows  int              // rows of obs and succ in use
	key   []byte           // scratch of internDense
	wk    []*worker        // wk[0] for sequential updates, all of them for batches
	seq   *update          // the last sequential update
	st    *update          // scratch of store
	bat   [nBatches]batch  // updates computed ahead, in parallel
	nbat  int              // batches started (the next one replaces bat[nbat % nBatches])
	dense bool             // some kernel is not a *pomdp.Sparse
	limit int              // maximum number of beliefs
	over  bool             // limit exceeded
	g     *guard           // memory meter and context
	// rshift is log2 of the rows per block of obs and succ (see
	// blockShift).
	rshift uint
}

// A worker holds the dense scratch of one belief update: the predicted
// mass (kept zero between updates), the states it touched, and the belief
// scattered for kernels that are not *pomdp.Sparse.
type worker struct {
	pred    []float64
	mark    []bool
	dense   []float64
	touched []int32
	pk      packer
}

func newWorker(nS int, dense bool) *worker {
	w := &worker{pred: make([]float64, nS), mark: make([]bool, nS)}
	if dense {
		w.dense = make([]float64, nS)
	}
	return w
}

// An update is the result of one (belief, action) update: the
// observation probabilities and the normalised posterior of each
// possible observation (sparse, increasing states), with its packed key
// and the key's hash when asked for.
type update struct {
	obs   []float64
	postS [][]int32
	postV [][]float64
	keys  [][]byte
	hash  []uint64
}

func newUpdate(nO int) *update {
	return &update{obs: make([]float64, nO), postS: make([][]int32, nO), postV: make([][]float64, nO),
		keys: make([][]byte, nO), hash: make([]uint64, nO)}
}

// bytes returns the capacity held by the posteriors of u.
func (u *update) bytes() float64 {
	n := 0
	for o := range u.postS {
		n += 4*cap(u.postS[o]) + 8*cap(u.postV[o]) + cap(u.keys[o])
	}
	return float64(n)
}

// A batch holds the updates of one belief under the actions not yet
// stepped when it was computed, by several goroutines at once; step
// interns each when it is asked for, so beliefs are numbered as if they
// were computed one by one.
type batch struct {
	b     int32
	ok    []bool // ok[a]: u[a] is computed and not yet used
	u     []*update
	bytes float64 // metered capacity of u
}

// nBatches is the number of batches kept: a belief's actions are usually
// asked for one after the other, but classes and distances may step other
// beliefs in between.
const nBatches = 2

// batchMin is the least work (states of the support × actions to step)
// for which the updates of a belief are computed in parallel (a variable
// for the tests, which set it to 0 to batch every update).
var batchMin = 1 << 14

// allSparse reports whether every transition kernel of m is a
// *pomdp.Sparse (whose rows a sparse step reads directly).
func allSparse(m *pomdp.Model) bool {
	for _, k := range m.T {
		if _, ok := k.(*pomdp.Sparse); !ok {
			return false
		}
	}
	return true
}

// A span locates a belief in the arena: n entries from off in block blk.
// It holds no pointer, so the collector does not scan the table of spans.
type span struct{ blk, off, n int32 }

// An origin is the step (belief, action, observation) that first met a
// belief, from which its masses are recomputed (b = −1: the initial
// belief, stored at once).
type origin struct{ b, a, o int32 }

// keyBlock is the size of a block of packed keys.
const keyBlock = 1 << 16

// addKey stores the packed key k and returns its span, or false when the
// meter refused a new block.
func (bs *beliefs) addKey(k []byte) (span, bool) {
	last := len(bs.keys) - 1
	if last < 0 || cap(bs.keys[last])-len(bs.keys[last]) < len(k) {
		c := max(len(k), keyBlock)
		if !bs.g.add(termBeliefs, float64(c)) {
			return span{}, false
		}
		bs.keys = append(bs.keys, make([]byte, 0, c))
		last++
	}
	sp := span{blk: int32(last), off: int32(len(bs.keys[last])), n: int32(len(k))}
	bs.keys[last] = append(bs.keys[last], k...)
	return sp, true
}

// keyOf returns the packed key of belief b (shared; do not modify).
func (bs *beliefs) keyOf(b int32) []byte {
	sp := bs.kspan[b]
	return bs.keys[sp.blk][sp.off : sp.off+sp.n]
}

// arena stores the supports (increasing states) and masses (never 0) of
// the beliefs in large blocks, so that many small beliefs cost few
// allocations. Blocks never move.
type arena struct {
	idx [][]int32
	val [][]float64
}

// arenaBlock is the number of entries of a block of the arena (a belief
// with a larger support gets a block of its own).
const arenaBlock = 1 << 15

// add appends a belief of support sup and masses val and returns its span
// and the bytes newly allocated (0 when the last block has room). It
// allocates nothing when ok is false (the caller's meter refused grown).
func (ar *arena) add(sup []int32, val []float64, meter func(grown float64) bool) (span, bool) {
	n := len(sup)
	last := len(ar.idx) - 1
	if last < 0 || cap(ar.idx[last])-len(ar.idx[last]) < n {
		c := max(n, arenaBlock)
		if !meter(float64(12 * c)) {
			return span{}, false
		}
		ar.idx, ar.val = append(ar.idx, make([]int32, 0, c)), append(ar.val, make([]float64, 0, c))
		last++
	}
	sp := span{blk: int32(last), off: int32(len(ar.idx[last])), n: int32(n)}
	ar.idx[last], ar.val[last] = append(ar.idx[last], sup...), append(ar.val[last], val...)
	return sp, true
}

// get returns the support and masses of span sp (shared; do not modify).
func (ar *arena) get(sp span) ([]int32, []float64) {
	lo, hi := sp.off, sp.off+sp.n
	return ar.idx[sp.blk][lo:hi:hi], ar.val[sp.blk][lo:hi:hi]
}

func newBeliefs(m *pomdp.Model, limit int, g *guard) *beliefs {
	nS, nA, nO := m.NumStates(), m.NumActions(), m.NumObservations()
	dense := !allSparse(m)
	bs := &beliefs{m: m, nS: nS, nA: nA, nO: nO, index: make(map[uint64]int32), limit: limit, g: g,
		wk: []*worker{newWorker(nS, dense)}, seq: newUpdate(nO), st: newUpdate(nO), dense: dense, rshift: blockShift(12 * nO)}
	g.add(termBeliefs, scratchBytes(nS, dense))
	for i := range bs.bat {
		bs.bat[i].b = -1
	}
	// The stand-in: empty support, emits observation 0 surely, stays.
	bs.spans, bs.kspan, bs.from = append(bs.spans, span{}), append(bs.kspan, span{}), append(bs.from, origin{b: -1})
	for a := 0; a < nA; a++ {
		r := bs.newRow()
		bs.offs = append(bs.offs, r)
		bs.obsRow(r)[0] = 1
	}
	return bs
}

// scratchBytes is the metered size of the dense scratch of a worker over
// nS states (the predicted mass and its marks, and the scattered belief
// for kernels read densely).
func scratchBytes(nS int, dense bool) float64 {
	b := float64(9 * nS)
	if dense {
		b += float64(8 * nS)
	}
	return b
}

// maxChunk is the largest number of rows per block, and blockBytes the
// size a block is kept under when one row is smaller: blocks never move,
// so growing the tables copies nothing, and a block is metered when it is
// allocated.
const (
	maxChunk   = 1 << 12
	blockBytes = 1 << 20
)

// blockShift returns log2 of the items per block for items of size bytes:
// the largest power of two ≤ maxChunk whose block stays under blockBytes
// (at least one item).
func blockShift(size int) uint {
	var s uint
	for 1<<(s+1) <= maxChunk && (1<<(s+1))*size <= blockBytes {
		s++
	}
	return s
}

// beliefBytes is the metered size of a belief besides its packed key and
// its masses: its spans and origin (twice, for append), its share of offs
// and its index entry.
func (bs *beliefs) beliefBytes() float64 { return 2*(12+12+12) + float64(8*bs.nA) + mapEntry(8, 4) }

// belief returns the support (increasing) and masses of belief b (shared;
// do not modify), storing them first if b was never read. It returns an
// empty belief once the guard has stopped the computation.
func (bs *beliefs) belief(b int32) ([]int32, []float64) {
	if bs.spans[b].n < 0 {
		bs.store(b)
	}
	if bs.spans[b].n < 0 {
		return nil, nil
	}
	return bs.arena.get(bs.spans[b])
}

// store recomputes the masses of belief b from the step that first met it
// (the same arithmetic on the same stored belief: bitwise the masses it
// had then) and stores them.
func (bs *beliefs) store(b int32) {
	f := bs.from[b]
	sup, val := bs.belief(f.b)
	bs.compute(bs.wk[0], bs.st, sup, val, int(f.a), false)
	o := int(f.o)
	sp, ok := bs.arena.add(bs.st.postS[o], bs.st.postV[o], func(grown float64) bool { return bs.g.add(termBeliefs, grown) })
	if ok {
		bs.spans[b] = sp
	}
}

// newRow returns a fresh row of obs and succ (observation 0 … |O|−1:
// probability 0, successor standIn).
func (bs *beliefs) newRow() int32 {
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
func (bs *beliefs) obsRow(r int32) []float64 {
	i := int(r&(1<<bs.rshift-1)) * bs.nO
	return bs.obs[r>>bs.rshift][i : i+bs.nO]
}

// succRow returns the successors of the row r of (b, a).
func (bs *beliefs) succRow(r int32) []int32 {
	i := int(r&(1<<bs.rshift-1)) * bs.nO
	return bs.succ[r>>bs.rshift][i : i+bs.nO]
}

// len returns the number of beliefs including the stand-in.
func (bs *beliefs) len() int { return len(bs.spans) }

// packer is the scratch of packKey: a small open-addressing table from
// rounded masses to their code in the key being packed, reset by
// generation.
type packer struct {
	val  [packSlots]int64
	code [packSlots]uint8
	gen  [packSlots]uint32
	cur  uint32
	n    int // codes given in the key being packed
}

// packSlots is the size of the packer's table (twice the codes a key
// gives, packCodes).
const (
	packSlots = 512
	packCodes = 254
	packNew   = 0xFE // a mass not coded: 8 bytes follow
)

// packKey appends the key of the sparse belief (sup, val) to dst: for each
// state whose mass does not round to 0 at 12 decimals, the gap to the
// previous such state (uvarint) and the rounded mass, as the code of an
// earlier equal mass (one byte, codes given in order of first appearance,
// at most packCodes of them) or packNew and its 8 bytes. The encoding is a
// function of the states and rounded masses and can be decoded, so two
// beliefs have equal keys exactly when their dense vectors have equal
// rounded entries; beliefs of few distinct masses (RockSample's are
// products over the rocks) take about 2 bytes a state.
func packKey(dst []byte, pk *packer, sup []int32, val []float64) []byte {
	pk.cur++
	if pk.cur == 0 {
		pk.gen = [packSlots]uint32{}
		pk.cur = 1
	}
	pk.n = 0
	prev := int32(-1)
	lastR, lastCode := int64(0), -1
	for i, x := range val {
		r := int64(math.Round(x * roundScale))
		if r == 0 {
			continue
		}
		dst = binary.AppendUvarint(dst, uint64(sup[i]-prev-1))
		prev = sup[i]
		if r == lastR && lastCode >= 0 {
			dst = append(dst, uint8(lastCode)) // what the table gives, faster
			continue
		}
		h := uint64(r) * 0x9E3779B97F4A7C15 >> 55 // 9 bits: packSlots
		for pk.gen[h] == pk.cur && pk.val[h] != r {
			h = (h + 1) & (packSlots - 1)
		}
		lastR, lastCode = r, -1
		switch {
		case pk.gen[h] == pk.cur:
			dst = append(dst, pk.code[h])
			lastCode = int(pk.code[h])
		default:
			if pk.n < packCodes {
				pk.gen[h], pk.val[h], pk.code[h] = pk.cur, r, uint8(pk.n)
				lastCode = pk.n
				pk.n++
			}
			dst = append(dst, packNew)
			dst = binary.LittleEndian.AppendUint64(dst, uint64(r))
		}
	}
	return dst
}

// internDense returns the ID of the dense belief b.
func (bs *beliefs) internDense(b []float64) int32 {
	var sup []int32
	var val []float64
	for s, x := range b {
		if x != 0 {
			sup, val = append(sup, int32(s)), append(val, x)
		}
	}
	bs.key = packKey(bs.key[:0], &bs.pk, sup, val)
	return bs.intern(bs.key, maphash.Bytes(seed, bs.key), sup, val, origin{b: -1})
}

// intern returns the ID of the belief with support sup (increasing),
// masses val (non-zero), packed key key (packKey) of hash h, met by the
// step from, adding it if no belief with the same rounded entries exists. The masses are stored at once for
// the initial belief (from.b < 0), otherwise when the belief is first
// read (belief).
func (bs *beliefs) intern(key []byte, h uint64, sup []int32, val []float64, from origin) int32 {
	if id, ok := bs.index[h]; ok {
		if string(bs.keyOf(id)) == string(key) {
			return id
		}
		if id, ok := bs.coll[string(key)]; ok {
			return id
		}
	}
	// Past the memory budget (or once cancelled) nothing more is
	// interned: the stand-in takes the belief's place and the computation
	// returns the guard's error at its next check.
	if !bs.g.add(termBeliefs, bs.beliefBytes()) {
		return standIn
	}
	ks, ok := bs.addKey(key)
	if !ok {
		return standIn
	}
	sp := span{n: -1}
	if from.b < 0 {
		if sp, ok = bs.arena.add(sup, val, func(grown float64) bool { return bs.g.add(termBeliefs, grown) }); !ok {
			return standIn
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
		bs.coll[string(key)] = id
	} else {
		bs.index[h] = id
	}
	bs.spans, bs.kspan, bs.from = append(bs.spans, sp), append(bs.kspan, ks), append(bs.from, from)
	for range bs.nA {
		bs.offs = append(bs.offs, -1)
	}
	return id
}

// predict accumulates the predicted mass of the belief (sup, val) under
// action a into w.pred and lists the states it touched, increasing, in
// w.touched. A *pomdp.Sparse kernel is read row by row over the support,
// adding the terms in the order of its dense Push; any other kernel
// pushes the scattered belief densely.
func (bs *beliefs) predict(w *worker, sup []int32, val []float64, a int) {
	w.touched = w.touched[:0]
	k, ok := bs.m.T[a].(*pomdp.Sparse)
	if !ok {
		for i, s := range sup {
			w.dense[s] = val[i]
		}
		bs.m.Predict(w.pred, w.dense, a)
		for _, s := range sup {
			w.dense[s] = 0
		}
		for s, x := range w.pred {
			if x != 0 {
				w.touched = append(w.touched, int32(s))
			}
		}
		return
	}
	for i, s := range sup {
		x := val[i]
		cols, vals := k.Row(int(s))
		for j, c := range cols {
			if !w.mark[c] {
				w.mark[c] = true
				w.touched = append(w.touched, int32(c))
			}
			w.pred[c] += x * vals[j]
		}
	}
	slices.Sort(w.touched)
}

// compute fills u with the update of the belief (sup, val) under action
// a, and the posteriors' keys when keys is set, with the scratch of w. It
// reads only the model and its arguments, so updates with distinct workers
// and results may run at once.
func (bs *beliefs) compute(w *worker, u *update, sup []int32, val []float64, a int, keys bool) {
	bs.predict(w, sup, val, a)
	clear(u.obs)
	for o := range bs.nO {
		u.postS[o], u.postV[o] = u.postS[o][:0], u.postV[o][:0]
	}
	// The posterior of each observation over the touched states, in
	// increasing state order: the terms and order of Observe's total.
	z := bs.m.Z[a]
	for _, s := range w.touched {
		p := w.pred[s]
		w.pred[s], w.mark[s] = 0, false
		cols, vals := z.Row(int(s))
		for j, o := range cols {
			v := p * vals[j]
			u.obs[o] += v
			if v != 0 {
				u.postS[o], u.postV[o] = append(u.postS[o], s), append(u.postV[o], v)
			}
		}
	}
	for o, p := range u.obs {
		if p == 0 {
			continue
		}
		for i := range u.postV[o] {
			u.postV[o][i] /= p
		}
		if keys {
			u.keys[o] = packKey(u.keys[o][:0], &w.pk, u.postS[o], u.postV[o])
			u.hash[o] = maphash.Bytes(seed, u.keys[o])
		}
	}
}

// pending returns the update of (b, a) computed ahead by a batch, or nil.
func (bs *beliefs) pending(b int32, a int) *update {
	for i := range bs.bat {
		if bt := &bs.bat[i]; bt.b == b && bt.ok[a] {
			bt.ok[a] = false
			return bt.u[a]
		}
	}
	return nil
}

// runBatch computes the updates of belief b = (sup, val) under every
// action not yet stepped, spread over the workers, into the oldest batch,
// and returns that of action a; it returns nil when the memory meter
// refuses the workers.
func (bs *beliefs) runBatch(b int32, a int, sup []int32, val []float64) *update {
	nW := min(runtime.GOMAXPROCS(0), bs.nA)
	for len(bs.wk) < nW {
		if !bs.g.add(termBeliefs, scratchBytes(bs.nS, bs.dense)) {
			return nil
		}
		bs.wk = append(bs.wk, newWorker(bs.nS, bs.dense))
	}
	bt := &bs.bat[bs.nbat%nBatches]
	bs.nbat++
	if bt.u == nil {
		bt.ok, bt.u = make([]bool, bs.nA), make([]*update, bs.nA)
		for x := range bt.u {
			bt.u[x] = newUpdate(bs.nO)
		}
	}
	bt.b = b
	var acts []int
	for x := range bs.nA {
		bt.ok[x] = bs.offs[int(b)*bs.nA+x] < 0
		if bt.ok[x] {
			acts = append(acts, x)
		}
	}
	var wg sync.WaitGroup
	for i := range nW {
		wg.Go(func() {
			for j := i; j < len(acts); j += nW {
				bs.compute(bs.wk[i], bt.u[acts[j]], sup, val, acts[j], true)
			}
		})
	}
	wg.Wait()
	grown := 0.0
	for _, u := range bt.u {
		grown += u.bytes()
	}
	if !bs.g.add(termSteps, grown-bt.bytes) {
		bt.b = -1
		return nil
	}
	bt.bytes = grown
	bt.ok[a] = false
	return bt.u[a]
}

// step fills the row of (b, a) if needed and returns it. Cost about
// O(Σ_{s ∈ supp b} nnz(T_a(s, ·)) + touched·nnz(Z_a row)) plus interning.
// When the belief's support is large and several goroutines may run, its
// updates under all the actions not yet stepped are computed at once
// (runBatch); the rows are still filled, and their successors interned,
// in the order step is called.
func (bs *beliefs) step(b int32, a int) int32 {
	k := int(b)*bs.nA + a
	if r := bs.offs[k]; r >= 0 {
		return r
	}
	// A step reads the belief and the model's rows of a.
	if !bs.g.work(float64(bs.kspan[b].n)/8 + 1) {
		return 0 // the stand-in's row, never read: the computation stops
	}
	u := bs.pending(b, a)
	if u == nil {
		sup, val := bs.belief(b)
		if len(sup) >= batchMin/bs.nA && runtime.GOMAXPROCS(0) > 1 && len(sup)*bs.unstepped(b) >= batchMin {
			u = bs.runBatch(b, a, sup, val)
		}
		if u == nil {
			bs.compute(bs.wk[0], bs.seq, sup, val, a, true)
			u = bs.seq
		}
	}
	r := bs.newRow()
	bs.offs[k] = r
	obs, succ := bs.obsRow(r), bs.succRow(r)
	copy(obs, u.obs)
	// Intern after all observations (intern does not move rows).
	for o := range bs.nO {
		if obs[o] == 0 {
			succ[o] = standIn
			continue
		}
		succ[o] = bs.intern(u.keys[o], u.hash[o], u.postS[o], u.postV[o], origin{b: b, a: int32(a), o: int32(o)})
	}
	return r
}

// unstepped returns the number of actions under which b has no row.
func (bs *beliefs) unstepped(b int32) int {
	n := 0
	for _, r := range bs.offs[int(b)*bs.nA : int(b+1)*bs.nA] {
		if r < 0 {
			n++
		}
	}
	return n
}

// next returns the successor of belief b after action a and observation o.
func (bs *beliefs) next(b int32, a, o int) int32 { return bs.succRow(bs.step(b, a))[o] }

// probs returns P(· | b, a) (shared; do not modify).
func (bs *beliefs) probs(b int32, a int) []float64 { return bs.obsRow(bs.step(b, a)) }

// roundProb returns p rounded to 12 decimals as an integer.
func roundProb(p float64) uint64 { return uint64(int64(math.Round(p * roundScale))) }
