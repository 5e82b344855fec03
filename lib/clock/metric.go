package clock

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/ot"
)

// boundSlack is the slack of the branch-and-bound over action strings: a
// string whose nested upper bound is at most best + boundSlack cannot raise
// the maximum W1 by more than boundSlack.
const boundSlack = 1e-12

// tvMargin is the relative and absolute slack of the one-step bounds
// g_min·TV ≤ W1 ≤ g_max·TV used to skip work whose result cannot be a
// maximum. It is far above the rounding error of the exact solvers
// (≈ 10⁻¹⁵), so a skipped value is below the maximum it is compared with
// and every reported value is one that the full computation also takes.
const tvMargin = 1e-8

// pairKey names an unordered belief pair (b1 ≤ b2) with a remaining
// horizon k and, for constant strings, an action (−1 for all strings).
type pairKey struct {
	b1, b2 int32
	k      int16
	a      int16
}

func mkPair(b1, b2 int32, k, a int) pairKey {
	if b1 > b2 {
		b1, b2 = b2, b1
	}
	return pairKey{b1, b2, int16(k), int16(a)}
}

// A pairRec is one memoised belief pair. Memo keys are unordered but the
// solvers are not bitwise symmetric, so every pair is evaluated in the
// orientation (b1, b2) of its first request in the sequential visiting
// order (which the planning step reproduces); values do not depend on the
// order in which pairs are later evaluated.
//
// A belief pair at remaining horizon k serves both as a nested pair
// (orientation b1, b2) and, once visited as a leaf of the clk alignment,
// as a clk pair (orientation c1, c2, which may differ).
type pairRec struct {
	b1, b2 int32
	c1, c2 int32 // clk orientation (isClk)
	k, a   int16
	isClk  bool
	done   bool      // nested pairs: vec complete
	nest   int32     // op pairs under TransportNested: the nestOp pair
	val    float64   // NaN until evaluated (clk value, op value, nestOp value)
	ub     float64   // NaN until bounded
	vec    []float64 // nested pairs: R(b1, b2, s) per string s (NaN until computed)
}

// metric plans and evaluates belief-pair distances.
//
// Planning (plan*) reproduces the visiting order of the plain recursion
// (alignment of prefix trees, memoised per pair of subtrees, and the
// nested recursion of each belief pair on its first visit) without
// solving anything: it fixes each class's representative belief and each
// pair's orientation. Evaluation (value, clkValue, opValue) then solves
// only what can still change a maximum or an order, using bounds built
// from g_min·TV ≤ W1 ≤ g_max·TV at remaining horizons 1 and 2
// (stringBounds, bound2); pairs at larger horizons are evaluated in full.
// The memo keys are unordered pairs, but values are computed in the
// recorded orientation, so they do not depend on the evaluation order.
type metric struct {
	ctx        context.Context
	bs         *beliefs
	g          ot.Ground
	gflat      []float64
	gmax, gmin float64 // largest entry, smallest off-diagonal entry of g
	nA, nO     int
	tr         Transport
	pow        []int // pow[k] = |A|^k

	pairIdx           []map[uint64]int32 // per k: belief pair → ID in pairs
	opIdx, nestOpIdx  map[pairKey]int32
	pairs, op, nestOp []pairRec
	clkPairs          int // pairs visited as clk pairs
	ticks             int

	solver   ot.Solver
	small    ot.Solver
	lawP     []float64
	lawQ     []float64
	acts     []int
	order    []int
	ubS      []float64
	costLo   []float64
	lbS      []float64
	scr      []levelScratch // per remaining horizon
	solves   int
	entries  int64
	budget   float64
	err      error
	gd       *guard  // memory meter (shared with the engine)
	lawBytes float64 // metered bytes of lawP, lawQ and the solver's matrix
}

// levelScratch is the scratch of one level of the nested recursion.
type levelScratch struct {
	p, q, cost []float64
	s1, s2     []int32
	child      [][]float64
}

func newMetric(ctx context.Context, bs *beliefs, g ot.Ground, T int, tr Transport, budget float64) *metric {
	nA, nO := bs.nA, bs.nO
	mt := &metric{ctx: ctx, bs: bs, g: g, nA: nA, nO: nO, tr: tr, budget: budget, gd: bs.g,
		pairIdx: make([]map[uint64]int32, T+1), opIdx: make(map[pairKey]int32),
		nestOpIdx: make(map[pairKey]int32), pow: make([]int, T+1)}
	for k := range mt.pairIdx {
		mt.pairIdx[k] = make(map[uint64]int32)
	}
	mt.gflat = make([]float64, nO*nO)
	mt.gmin = math.Inf(1)
	for i := range nO {
		copy(mt.gflat[i*nO:(i+1)*nO], g[i])
		for j, v := range g[i] {
			mt.gmax = math.Max(mt.gmax, v)
			if i != j {
				mt.gmin = math.Min(mt.gmin, v)
			}
		}
	}
	if math.IsInf(mt.gmin, 1) {
		mt.gmin = 0
	}
	mt.pow[0] = 1
	for k := 1; k <= T; k++ {
		mt.pow[k] = mt.pow[k-1] * nA
	}
	mt.costLo = make([]float64, nO*nO)
	mt.scr = make([]levelScratch, T+1)
	for k := range mt.scr {
		mt.scr[k] = levelScratch{p: make([]float64, nO), q: make([]float64, nO), cost: make([]float64, nO*nO),
			s1: make([]int32, nO), s2: make([]int32, nO), child: make([][]float64, nO*nO)}
	}
	return mt
}

// fail records the first error; later calls return 0.
func (mt *metric) fail(err error) {
	if mt.err == nil {
		mt.err = err
	}
}

// charge adds n units of work and fails when the budget is exceeded or
// the context is cancelled.
func (mt *metric) charge(n int) {
	before := mt.entries
	mt.entries += int64(n)
	if float64(mt.entries) > mt.budget {
		mt.fail(fmt.Errorf("%w: more than MaxWork = %.3g nested transport values; raise Options.MaxWork", ErrTooLarge, mt.budget))
	}
	if before>>12 != mt.entries>>12 {
		if err := mt.ctx.Err(); err != nil {
			mt.fail(err)
		}
	}
}

// pairBytes is the metered size of a pairRec in its table (grown by
// append, so up to twice its size).
const pairBytes = 2 * 80

// meter adds b bytes of belief-pair tables to the guard and fails the
// metric when the guard has stopped the computation.
func (mt *metric) meter(b float64) {
	if !mt.gd.add(termPairs, b) {
		mt.fail(mt.gd.err)
	}
}

// add appends a new record for key to tab and returns its ID.
func add(idx map[pairKey]int32, tab *[]pairRec, key pairKey, b1, b2 int32, k, a int) int32 {
	id := int32(len(*tab))
	idx[key] = id
	*tab = append(*tab, pairRec{b1: b1, b2: b2, k: int16(k), a: int16(a), nest: -1, val: math.NaN(), ub: math.NaN()})
	return id
}

// pairKey64 packs an unordered belief pair.
func pairKey64(b1, b2 int32) uint64 {
	if b1 > b2 {
		b1, b2 = b2, b1
	}
	return uint64(uint32(b1))<<32 | uint64(uint32(b2))
}

// planNested records the nested pair (b1, b2, k) and, on its first
// visit, its children in the order of the nested recursion. It returns
// the pair's ID, or −1 when the pair is equal or k = 0 (all zeros).
func (mt *metric) planNested(b1, b2 int32, k int) int32 {
	if b1 == b2 || k == 0 {
		return -1
	}
	key := pairKey64(b1, b2)
	if id, ok := mt.pairIdx[k][key]; ok {
		return id
	}
	return mt.newPair(b1, b2, k, key)
}

// newPair records the new nested pair (b1, b2, k) under key and plans its
// children.
func (mt *metric) newPair(b1, b2 int32, k int, key uint64) int32 {
	mt.meter(pairBytes + mapEntry(8, 4))
	id := int32(len(mt.pairs))
	mt.pairIdx[k][key] = id
	mt.pairs = append(mt.pairs, pairRec{b1: b1, b2: b2, k: int16(k), a: -1, nest: -1, val: math.NaN(), ub: math.NaN()})
	mt.tick()
	if k == 1 {
		return id
	}
	bs := mt.bs
	for a := range mt.nA {
		p, q := bs.probs(b1, a), bs.probs(b2, a)
		s1, s2 := bs.succRow(bs.step(b1, a)), bs.succRow(bs.step(b2, a))
		for o := range mt.nO {
			if p[o] <= 0 {
				continue
			}
			for o2 := range mt.nO {
				if q[o2] > 0 {
					mt.planNested(s1[o], s2[o2], k-1)
				}
			}
		}
	}
	return id
}

// planClk records the clk pair (b1, b2, k) and returns its ID, or −1 when
// its distance is 0.
func (mt *metric) planClk(b1, b2 int32, k int) int32 {
	if b1 == b2 || k == 0 {
		return -1
	}
	key := pairKey64(b1, b2)
	id, ok := mt.pairIdx[k][key]
	if !ok {
		id = mt.newPair(b1, b2, k, key)
	}
	r := &mt.pairs[id]
	if r.isClk {
		return id
	}
	r.isClk, r.c1, r.c2 = true, b1, b2
	mt.clkPairs++
	return id
}

// planNestConst records the pair (b1, b2) under a^k for the nested
// transport and its children on first visit.
func (mt *metric) planNestConst(b1, b2 int32, a, k int) int32 {
	if b1 == b2 || k == 0 {
		return -1
	}
	key := mkPair(b1, b2, k, a)
	if id, ok := mt.nestOpIdx[key]; ok {
		return id
	}
	mt.meter(pairBytes + mapEntry(12, 4))
	id := add(mt.nestOpIdx, &mt.nestOp, key, b1, b2, k, a)
	mt.tick()
	if k == 1 {
		return id
	}
	bs := mt.bs
	p, q := bs.probs(b1, a), bs.probs(b2, a)
	s1, s2 := bs.succRow(bs.step(b1, a)), bs.succRow(bs.step(b2, a))
	for o := range mt.nO {
		for o2 := range mt.nO {
			if p[o] > 0 && q[o2] > 0 {
				mt.planNestConst(s1[o], s2[o2], a, k-1)
			}
		}
	}
	return id
}

// planOp records the op pair (b1, b2) under a^k and returns its ID, or
// −1 when its distance is 0.
func (mt *metric) planOp(b1, b2 int32, a, k int) int32 {
	if b1 == b2 || k == 0 {
		return -1
	}
	key := mkPair(b1, b2, k, a)
	if id, ok := mt.opIdx[key]; ok {
		return id
	}
	mt.meter(pairBytes + mapEntry(12, 4))
	id := add(mt.opIdx, &mt.op, key, b1, b2, k, a)
	mt.tick()
	if mt.tr == TransportNested {
		mt.op[id].nest = mt.planNestConst(b1, b2, a, k)
	}
	return id
}

// smallOT returns min_γ Σ γ(o,o')·cost[o·nO+o'] over couplings of p and q
// (distributions on the observations).
func (mt *metric) smallOT(p, q, cost []float64) float64 {
	nO := mt.nO
	var ip, iq [2]int
	np, nq := 0, 0
	for o := range nO {
		if p[o] > 0 {
			if np < 2 {
				ip[np] = o
			}
			np++
		}
		if q[o] > 0 {
			if nq < 2 {
				iq[nq] = o
			}
			nq++
		}
	}
	switch {
	case np == 0 || nq == 0:
		return 0
	case np == 1:
		s := 0.0
		for o := range nO {
			s += q[o] * cost[ip[0]*nO+o]
		}
		return s
	case nq == 1:
		s := 0.0
		for o := range nO {
			s += p[o] * cost[o*nO+iq[0]]
		}
		return s
	case np == 2 && nq == 2:
		// γ(i0, j0) = x ∈ [lo, hi]; the cost is affine in x.
		i0, i1, j0, j1 := ip[0], ip[1], iq[0], iq[1]
		lo := math.Max(0, p[i0]-q[j1])
		hi := math.Min(p[i0], q[j0])
		f := func(x float64) float64 {
			return x*cost[i0*nO+j0] + (p[i0]-x)*cost[i0*nO+j1] + (q[j0]-x)*cost[i1*nO+j0] + (p[i1]-q[j0]+x)*cost[i1*nO+j1]
		}
		return math.Min(f(lo), f(hi))
	}
	r, err := mt.small.W1(p, q, cost)
	if err != nil {
		mt.fail(err)
		return 0
	}
	return r.Value
}

// vecOf returns the nested vector of pair id, allocated NaN-filled.
func (mt *metric) vecOf(id int32) []float64 {
	r := &mt.pairs[id]
	if r.vec == nil {
		mt.meter(float64(8 * mt.pow[r.k]))
		r.vec = make([]float64, mt.pow[r.k])
		for i := range r.vec {
			r.vec[i] = math.NaN()
		}
	}
	return r.vec
}

// nestedAt returns R(b1, b2, s) of the nested pair id for the string s
// (base |A|, first action most significant), computing only the entries
// it needs: entry s uses entry s mod |A|^{k−1} of the children under the
// first action of s, with the arithmetic of nestedVec.
func (mt *metric) nestedAt(id int32, s int) float64 {
	vec := mt.vecOf(id)
	if v := vec[s]; !math.IsNaN(v) {
		return v
	}
	r := mt.pairs[id]
	k := int(r.k)
	sub := mt.pow[k-1]
	a, x := s/sub, s%sub
	mt.charge(1)
	nO, bs := mt.nO, mt.bs
	sc := &mt.scr[k]
	p, q, cost := sc.p, sc.q, sc.cost
	copy(p, bs.probs(r.b1, a))
	copy(q, bs.probs(r.b2, a))
	for o := range nO {
		for o2 := range nO {
			c := o*nO + o2
			cost[c] = mt.gflat[c]
			if k > 1 && p[o] > 0 && q[o2] > 0 {
				if s1, s2 := bs.next(r.b1, a, o), bs.next(r.b2, a, o2); s1 != s2 {
					cost[c] += mt.nestedAt(mt.planNested(s1, s2, k-1), x)
				}
			}
		}
	}
	v := mt.smallOT(p, q, cost)
	vec[s] = v
	return v
}

// nestedVec returns R(b1, b2, s) for every string s ∈ A^k of the nested
// pair id, indexed by s in base |A| with the first action most
// significant (shared; do not modify), or nil for id < 0 (all zeros).
func (mt *metric) nestedVec(id int32) []float64 {
	if id < 0 || mt.err != nil {
		return nil
	}
	r := mt.pairs[id]
	if r.done {
		return r.vec
	}
	k := int(r.k)
	out := mt.vecOf(id)
	if k == 1 {
		for a := range mt.nA {
			mt.nestedAt(id, a)
		}
		mt.pairs[id].done = true
		return out
	}
	nA, nO, bs := mt.nA, mt.nO, mt.bs
	b1, b2 := r.b1, r.b2
	sub := mt.pow[k-1]
	sc := &mt.scr[k]
	p, q, s1, s2, child, cost := sc.p, sc.q, sc.s1, sc.s2, sc.child, sc.cost
	for a := range nA {
		copy(p, bs.probs(b1, a))
		copy(q, bs.probs(b2, a))
		for o := range nO {
			s1[o], s2[o] = bs.next(b1, a, o), bs.next(b2, a, o)
		}
		for o := range nO {
			for o2 := range nO {
				child[o*nO+o2] = nil
				if p[o] > 0 && q[o2] > 0 && s1[o] != s2[o2] {
					child[o*nO+o2] = mt.nestedVec(mt.planNested(s1[o], s2[o2], k-1))
				}
			}
		}
		if mt.err != nil {
			return nil
		}
		for x := range sub {
			if !math.IsNaN(out[a*sub+x]) {
				continue
			}
			mt.charge(1)
			for c := range cost {
				cost[c] = mt.gflat[c]
				if child[c] != nil {
					cost[c] += child[c][x]
				}
			}
			out[a*sub+x] = mt.smallOT(p, q, cost)
		}
	}
	mt.pairs[id].done = true
	return out
}

// nestedConst returns R(b1, b2, a^k) of the nested-transport op pair id.
func (mt *metric) nestedConst(id int32) float64 {
	if id < 0 || mt.err != nil {
		return 0
	}
	r := mt.nestOp[id]
	if !math.IsNaN(r.val) {
		return r.val
	}
	mt.charge(1)
	nO, bs, a, k := mt.nO, mt.bs, int(r.a), int(r.k)
	p := slices.Clone(bs.probs(r.b1, a))
	q := slices.Clone(bs.probs(r.b2, a))
	cost := make([]float64, nO*nO)
	for o := range nO {
		for o2 := range nO {
			cost[o*nO+o2] = mt.gflat[o*nO+o2]
			if p[o] > 0 && q[o2] > 0 {
				c := 0.0
				if s1, s2 := bs.next(r.b1, a, o), bs.next(r.b2, a, o2); s1 != s2 && k > 1 {
					c = mt.nestedConst(mt.planNestConst(s1, s2, a, k-1))
				}
				cost[o*nO+o2] += c
			}
		}
	}
	v := mt.smallOT(p, q, cost)
	mt.nestOp[id].val = v
	return v
}

// law writes P(O_{1:k} = x | b, s) into dst (length |O|^k, first
// observation most significant) for the action string acts (length k).
func (mt *metric) law(dst []float64, b int32, acts []int) {
	clear(dst)
	var rec func(b int32, pos, idx int, w float64)
	rec = func(b int32, pos, idx int, w float64) {
		if pos == len(acts) {
			dst[idx] += w
			return
		}
		a := acts[pos]
		for o := range mt.nO {
			p := mt.bs.probs(b, a)[o]
			if p == 0 {
				continue
			}
			rec(mt.bs.next(b, a, o), pos+1, idx*mt.nO+o, w*p)
		}
	}
	rec(b, 0, 0, 1)
}

// w1 returns the exact W1 between the laws of b1 and b2 under acts.
func (mt *metric) w1(b1, b2 int32, acts []int) float64 {
	k := len(acts)
	n := ot.SeqLen(mt.nO, k)
	if cap(mt.lawP) < n {
		// The laws and the simplex's dense cost matrix on the residual
		// supports (at most (n/2)² entries).
		need := float64(16*n) + 8*float64(n/2)*float64(n/2)
		mt.meter(need - mt.lawBytes)
		mt.lawBytes = need
		if mt.err != nil {
			return 0
		}
		mt.lawP, mt.lawQ = make([]float64, n), make([]float64, n)
	}
	p, q := mt.lawP[:n], mt.lawQ[:n]
	mt.law(p, b1, acts)
	mt.law(q, b2, acts)
	mt.solves++
	mt.charge(n)
	r, err := mt.solver.SeqW1(mt.g, k, p, q)
	if err != nil {
		mt.fail(fmt.Errorf("clock: exact W1 on %d-step suffix laws: %w", k, err))
		return 0
	}
	return r.Value
}

func (mt *metric) decode(s, k int) []int {
	mt.acts = mt.acts[:0]
	for i := k - 1; i >= 0; i-- {
		mt.acts = append(mt.acts, (s/mt.pow[i])%mt.nA)
	}
	return mt.acts
}

// tvDist returns TV(p, q) = Σ|p − q|/2.
func tvDist(p, q []float64) float64 {
	s := 0.0
	for o, x := range p {
		s += math.Abs(x - q[o])
	}
	return s / 2
}

// tvUpper returns an upper bound on W1 from a total variation distance.
func (mt *metric) tvUpper(tv float64) float64 { return mt.gmax*tv*(1+tvMargin) + tvMargin }

// tvLower returns a lower bound on W1 from a total variation distance.
func (mt *metric) tvLower(tv float64) float64 { return mt.gmin*tv*(1-tvMargin) - tvMargin }

// maxBoundK is the largest remaining horizon with string bounds.
const maxBoundK = 2

// stringBounds fills ub[s] ≥ R(b1, b2, s) ≥ W1(law(b1, s), law(b2, s))
// and lb[s] ≤ W1(law(b1, s), law(b2, s)) for every s ∈ A^k, k ≤ maxBoundK
// (both with margins covering rounding):
//
//	R(b, b', a·s') ≤ Σ_o min(p_o, q_o)·R(b_ao, b'_ao, s') + TV(p, q)·k·g_max
//
// (couple equal observations first; R ≤ (k−1)·g_max), and W1 of the laws
// is at least Σ_τ g_min·TV of the τ-th marginals (the sequence cost is
// additive), here τ ≤ 2.
func (mt *metric) stringBounds(b1, b2 int32, k int, ub, lb []float64) {
	nA, nO, bs := mt.nA, mt.nO, mt.bs
	if k == 1 {
		for a := range nA {
			tv := tvDist(bs.probs(b1, a), bs.probs(b2, a))
			ub[a], lb[a] = mt.tvUpper(tv), mt.tvLower(tv)
		}
		return
	}
	m1, m2 := mt.scr[0].p, mt.scr[0].q
	for a := range nA {
		p, q := bs.probs(b1, a), bs.probs(b2, a)
		tv1 := tvDist(p, q)
		for a2 := range nA {
			diag := 0.0
			clear(m1)
			clear(m2)
			for o := range nO {
				c1, c2 := bs.next(b1, a, o), bs.next(b2, a, o)
				if w := min(p[o], q[o]); w > 0 && c1 != c2 {
					diag += w * tvDist(bs.probs(c1, a2), bs.probs(c2, a2))
				}
				if p[o] > 0 {
					for o2, x := range bs.probs(c1, a2) {
						m1[o2] += p[o] * x
					}
				}
				if q[o] > 0 {
					for o2, x := range bs.probs(c2, a2) {
						m2[o2] += q[o] * x
					}
				}
			}
			s := a*nA + a2
			ub[s] = (mt.gmax*diag+tv1*2*mt.gmax)*(1+tvMargin) + tvMargin
			lb[s] = mt.tvLower(tv1) + mt.tvLower(tvDist(m1, m2))
		}
	}
}

// tighten narrows the bounds lo[s] ≤ R(b1, b2, s) ≤ hi[s] of the strings
// s ∈ A² with hi[s] ≥ lmax to the one-step transports with the child
// distances R(b_ao, b'_ao', a2) = W1 replaced by their bounds g·TV:
//
//	min_γ Σ γ(o,o')·[d_O(o,o') + g_min·TV(P(·|b_ao, a2), P(·|b'_ao', a2))] ≤ R(b, b', a·a2)
//	  ≤ min_γ Σ γ(o,o')·[d_O(o,o') + g_max·TV(P(·|b_ao, a2), P(·|b'_ao', a2))]
//
// (equal bounds, up to the margins, under a uniform ground metric).
func (mt *metric) tighten(b1, b2 int32, hi, lo []float64, lmax float64) {
	nA := mt.nA
	for a := range nA {
		for a2 := range nA {
			if s := a*nA + a2; hi[s] >= lmax {
				h, l := mt.bound2(b1, b2, a, a2)
				hi[s], lo[s] = min(hi[s], h), max(lo[s], l)
			}
		}
	}
}

// bound2 returns the bounds of tighten on R(b1, b2, a·a2).
func (mt *metric) bound2(b1, b2 int32, a, a2 int) (hi, lo float64) {
	nO, bs := mt.nO, mt.bs
	sc := &mt.scr[0]
	p, q, cost := sc.p, sc.q, sc.cost
	cLo := mt.costLo
	copy(p, bs.probs(b1, a))
	copy(q, bs.probs(b2, a))
	for o := range nO {
		for o2 := range nO {
			c := o*nO + o2
			cost[c], cLo[c] = mt.gflat[c], mt.gflat[c]
			if p[o] > 0 && q[o2] > 0 {
				if c1, c2 := bs.next(b1, a, o), bs.next(b2, a, o2); c1 != c2 {
					tv := tvDist(bs.probs(c1, a2), bs.probs(c2, a2))
					cost[c] += mt.tvUpper(tv)
					cLo[c] += max(0, mt.tvLower(tv))
				}
			}
		}
	}
	return mt.smallOT(p, q, cost)*(1+tvMargin) + tvMargin, mt.smallOT(p, q, cLo)*(1-tvMargin) - tvMargin
}

// clkUB returns an upper bound on clkValue(id) (+∞ beyond maxBoundK).
func (mt *metric) clkUB(id int32) float64 {
	r := &mt.pairs[id]
	if !math.IsNaN(r.ub) {
		return r.ub
	}
	ub := math.Inf(1)
	if k := int(r.k); k <= maxBoundK {
		u, l := mt.bounds(k)
		mt.stringBounds(r.c1, r.c2, k, u, l)
		ub = slices.Max(u)
	}
	mt.pairs[id].ub = ub
	return ub
}

// bounds returns scratch for the string bounds of horizon k.
func (mt *metric) bounds(k int) (ub, lb []float64) {
	n := mt.pow[k]
	if cap(mt.ubS) < n {
		mt.ubS, mt.lbS = make([]float64, n), make([]float64, n)
	}
	return mt.ubS[:n], mt.lbS[:n]
}

// clkValue returns D^clk(b1, b2, k) = max_{s ∈ A^k} D(law(b1, s), law(b2, s))
// of clk pair id. For TransportW1 it visits the strings in decreasing
// order of their nested upper bound R and stops when R cannot beat the
// best exact W1 found (branch and bound; exact to within boundSlack).
//
// For k ≤ maxBoundK, strings whose bound on R is below the largest lower
// bound on W1 (less the slack) are dropped first. That changes nothing:
// such a string has R below the final maximum, so in the full order it
// comes after the string attaining that maximum and the search stops
// before it (or, for TransportNested, it is not the maximum).
func (mt *metric) clkValue(id int32) float64 {
	if id < 0 || mt.err != nil {
		return 0
	}
	r := mt.pairs[id]
	if !math.IsNaN(r.val) {
		return r.val
	}
	k := int(r.k)
	var best float64
	if k <= maxBoundK {
		best = mt.clkBounded(id)
	} else {
		best = mt.clkFull(id)
	}
	mt.pairs[id].val = best
	return best
}

// clkFull is clkValue from the full nested vector.
func (mt *metric) clkFull(id int32) float64 {
	r := mt.pairs[id]
	k := int(r.k)
	ub := mt.nestedVec(id)
	if mt.err != nil {
		return 0
	}
	order := mt.order[:0]
	for s := range ub {
		order = append(order, s)
	}
	mt.order = order
	if mt.tr == TransportNested {
		return slices.Max(ub)
	}
	slices.SortStableFunc(order, func(x, y int) int {
		switch {
		case ub[x] > ub[y]:
			return -1
		case ub[x] < ub[y]:
			return 1
		}
		return 0
	})
	best := 0.0
	for _, s := range order {
		if ub[s] <= best+boundSlack || mt.err != nil {
			break
		}
		best = math.Max(best, mt.w1(r.c1, r.c2, mt.decode(s, k)))
	}
	return best
}

// clkBounded is clkValue for k ≤ maxBoundK. It runs the branch and bound
// of clkFull (or the maximum, for TransportNested) over the strings in
// decreasing order of R without computing R where bounds decide: a string
// whose bound on R is below a lower bound on the result is dropped (it
// comes after the string attaining the result, where the search has
// stopped); the next string in the order is found from the intervals
// [lo, hi] ∋ R and R is computed only for the strings whose intervals
// overlap the leader's; the test R > best + boundSlack is decided by the
// interval when it can be. The visited strings, their order and hence the
// result are those of clkFull.
func (mt *metric) clkBounded(id int32) float64 {
	r := mt.pairs[id]
	k := int(r.k)
	hi, lo := mt.bounds(k)
	mt.stringBounds(r.c1, r.c2, k, hi, lo)
	lmax := slices.Max(lo)
	top, wtop := -1, 0.0
	if k > 1 && mt.tr == TransportW1 {
		// The string of largest bound: its exact W1 is a lower bound on
		// the result (one solve instead of a nested vector), and it is
		// usually the first string visited.
		top = 0
		for s, x := range hi {
			if x > hi[top] {
				top = s
			}
		}
		wtop = mt.w1(r.c1, r.c2, mt.decode(top, k))
		lo[top] = math.Max(lo[top], wtop-tvMargin)
		lmax = math.Max(lmax, lo[top])
	}
	lmax -= boundSlack + 2*tvMargin
	if k == 2 {
		mt.tighten(r.c1, r.c2, hi, lo, lmax)
	}
	rest := mt.order[:0]
	for s, x := range hi {
		if x >= lmax {
			rest = append(rest, s)
		}
	}
	mt.order = rest
	exact := func(s int) float64 {
		v := mt.nestedAt(id, s)
		lo[s], hi[s] = v, v
		return v
	}
	// next removes and returns the first string of rest in decreasing
	// order of R (ties: lower index first).
	next := func() int {
		lead := math.Inf(-1)
		for _, s := range rest {
			lead = math.Max(lead, lo[s])
		}
		n := 0
		for _, s := range rest {
			if hi[s] >= lead {
				n++
			}
		}
		if n > 1 {
			for _, s := range rest {
				if hi[s] >= lead && lo[s] != hi[s] {
					exact(s)
				}
			}
		}
		at := -1
		for i, s := range rest {
			if hi[s] < lead {
				continue
			}
			if at < 0 || lo[s] > lo[rest[at]] {
				at = i
			}
		}
		s := rest[at]
		rest = append(rest[:at], rest[at+1:]...)
		return s
	}
	if mt.tr == TransportNested {
		s := next()
		if lo[s] != hi[s] {
			exact(s)
		}
		return hi[s]
	}
	best := 0.0
	for len(rest) > 0 && mt.err == nil {
		s := next()
		switch {
		case lo[s] > best+boundSlack:
		case hi[s] <= best+boundSlack:
			return best
		default:
			if exact(s) <= best+boundSlack {
				return best
			}
		}
		w := wtop
		if s != top {
			w = mt.w1(r.c1, r.c2, mt.decode(s, k))
		}
		best = math.Max(best, w)
	}
	return best
}

// opUB returns an upper bound on opValue(id).
func (mt *metric) opUB(id int32) float64 {
	r := &mt.op[id]
	if !math.IsNaN(r.ub) {
		return r.ub
	}
	ub := math.Inf(1)
	switch r.k {
	case 1:
		ub = mt.tvUpper(tvDist(mt.bs.probs(r.b1, int(r.a)), mt.bs.probs(r.b2, int(r.a))))
	case 2:
		// W1 ≤ R (TransportW1), and R itself (TransportNested).
		ub, _ = mt.bound2(r.b1, r.b2, int(r.a), int(r.a))
	}
	mt.op[id].ub = ub
	return ub
}

// opValue returns D(law(b1, a^k), law(b2, a^k)) of op pair id.
func (mt *metric) opValue(id int32) float64 {
	if id < 0 || mt.err != nil {
		return 0
	}
	r := mt.op[id]
	if !math.IsNaN(r.val) {
		return r.val
	}
	var v float64
	if mt.tr == TransportNested {
		v = mt.nestedConst(r.nest)
	} else {
		acts := mt.acts[:0]
		for range r.k {
			acts = append(acts, int(r.a))
		}
		mt.acts = acts
		v = mt.w1(r.b1, r.b2, acts)
	}
	mt.op[id].val = v
	return v
}

// tick counts a planning step and polls the context every 4096 steps.
func (mt *metric) tick() {
	mt.ticks++
	if mt.ticks&4095 == 0 {
		if err := mt.ctx.Err(); err != nil {
			mt.fail(err)
		}
	}
}
