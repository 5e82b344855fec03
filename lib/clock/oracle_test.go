package clock

// The oracle: the full-matrix computation of NewDistances as of commit
// 7e28b3c, kept verbatim (identifiers renamed) to check that the
// class-level computation gives bit-for-bit identical results.

import (
	"testing"

	"context"
	"fmt"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// oPairKey names an unordered belief pair (b1 ≤ b2) with a remaining
// horizon k and, for constant strings, an action (−1 for all strings).
type oPairKey struct {
	b1, b2 int32
	k      int16
	a      int16
}

func oMkPair(b1, b2 int32, k, a int) oPairKey {
	if b1 > b2 {
		b1, b2 = b2, b1
	}
	return oPairKey{b1, b2, int16(k), int16(a)}
}

// metric computes belief-pair distances with memoisation.
type oMetric struct {
	ctx   context.Context
	bs    *beliefs
	g     ot.Ground
	gflat []float64
	nA    int
	nO    int
	tr    Transport
	pow   []int // pow[k] = |A|^k

	nested  map[oPairKey][]float64 // R(b1, b2, ·) over all strings of length k
	nestOp  map[oPairKey]float64   // R(b1, b2, a^k)
	clk     map[oPairKey]float64   // D^clk(b1, b2, k)
	op      map[oPairKey]float64   // D^op(b1, b2, a, k)
	solver  ot.Solver
	small   ot.Solver
	lawP    []float64
	lawQ    []float64
	acts    []int
	order   []int
	solves  int
	entries int64
	budget  float64
	err     error
}

func newOMetric(ctx context.Context, bs *beliefs, g ot.Ground, T int, tr Transport, budget float64) *oMetric {
	nA, nO := bs.nA, bs.nO
	mt := &oMetric{ctx: ctx, bs: bs, g: g, nA: nA, nO: nO, tr: tr, budget: budget,
		nested: make(map[oPairKey][]float64), nestOp: make(map[oPairKey]float64),
		clk: make(map[oPairKey]float64), op: make(map[oPairKey]float64), pow: make([]int, T+1)}
	mt.gflat = make([]float64, nO*nO)
	for i := range nO {
		copy(mt.gflat[i*nO:(i+1)*nO], g[i])
	}
	mt.pow[0] = 1
	for k := 1; k <= T; k++ {
		mt.pow[k] = mt.pow[k-1] * nA
	}
	return mt
}

// fail records the first error; later calls return 0.
func (mt *oMetric) fail(err error) {
	if mt.err == nil {
		mt.err = err
	}
}

// charge adds n units of work and fails when the budget is exceeded or
// the context is cancelled.
func (mt *oMetric) charge(n int) {
	before := mt.entries
	mt.entries += int64(n)
	if float64(mt.entries) > mt.budget {
		mt.fail(fmt.Errorf("%w: more than MaxWork = %.3g nested transport values; raise Options.MaxWork", ErrTooLarge, mt.budget))
	}
	if before>>16 != mt.entries>>16 {
		if err := mt.ctx.Err(); err != nil {
			mt.fail(err)
		}
	}
}

// smallOT returns min_γ Σ γ(o,o')·cost[o·nO+o'] over couplings of p and q
// (distributions on the observations).
func (mt *oMetric) smallOT(p, q, cost []float64) float64 {
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

// nestedVec returns R(b1, b2, s) for every string s ∈ A^k, indexed by s in
// base |A| with the first action most significant (shared; do not modify).
// It returns nil when the pair is equal (all zeros).
func (mt *oMetric) nestedVec(b1, b2 int32, k int) []float64 {
	if b1 == b2 || k == 0 || mt.err != nil {
		return nil
	}
	key := oMkPair(b1, b2, k, -1)
	if v, ok := mt.nested[key]; ok {
		return v
	}
	nA, nO, bs := mt.nA, mt.nO, mt.bs
	sub := mt.pow[k-1]
	out := make([]float64, mt.pow[k])
	mt.charge(len(out))
	p := make([]float64, nO)
	q := make([]float64, nO)
	s1 := make([]int32, nO)
	s2 := make([]int32, nO)
	child := make([][]float64, nO*nO)
	cost := make([]float64, nO*nO)
	for a := range nA {
		copy(p, bs.probs(b1, a))
		copy(q, bs.probs(b2, a))
		for o := range nO {
			s1[o], s2[o] = bs.next(b1, a, o), bs.next(b2, a, o)
		}
		for o := range nO {
			for o2 := range nO {
				child[o*nO+o2] = nil
				if p[o] > 0 && q[o2] > 0 {
					child[o*nO+o2] = mt.nestedVec(s1[o], s2[o2], k-1)
				}
			}
		}
		if mt.err != nil {
			return nil
		}
		for x := range sub {
			for c := range cost {
				cost[c] = mt.gflat[c]
				if child[c] != nil {
					cost[c] += child[c][x]
				}
			}
			out[a*sub+x] = mt.smallOT(p, q, cost)
		}
	}
	mt.nested[key] = out
	return out
}

// nestedConst returns R(b1, b2, a^k).
func (mt *oMetric) nestedConst(b1, b2 int32, a, k int) float64 {
	if b1 == b2 || k == 0 || mt.err != nil {
		return 0
	}
	key := oMkPair(b1, b2, k, a)
	if v, ok := mt.nestOp[key]; ok {
		return v
	}
	mt.charge(1)
	nO, bs := mt.nO, mt.bs
	p := slices.Clone(bs.probs(b1, a))
	q := slices.Clone(bs.probs(b2, a))
	cost := make([]float64, nO*nO)
	for o := range nO {
		for o2 := range nO {
			cost[o*nO+o2] = mt.gflat[o*nO+o2]
			if p[o] > 0 && q[o2] > 0 {
				cost[o*nO+o2] += mt.nestedConst(bs.next(b1, a, o), bs.next(b2, a, o2), a, k-1)
			}
		}
	}
	v := mt.smallOT(p, q, cost)
	mt.nestOp[key] = v
	return v
}

// law writes P(O_{1:k} = x | b, s) into dst (length |O|^k, first
// observation most significant) for the action string acts (length k).
func (mt *oMetric) law(dst []float64, b int32, acts []int) {
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
func (mt *oMetric) w1(b1, b2 int32, acts []int) float64 {
	k := len(acts)
	n := ot.SeqLen(mt.nO, k)
	if cap(mt.lawP) < n {
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

func (mt *oMetric) decode(s, k int) []int {
	mt.acts = mt.acts[:0]
	for i := k - 1; i >= 0; i-- {
		mt.acts = append(mt.acts, (s/mt.pow[i])%mt.nA)
	}
	return mt.acts
}

// clkDist returns D^clk(b1, b2, k) = max_{s ∈ A^k} D(law(b1, s), law(b2, s)).
// For TransportW1 it visits the strings in decreasing order of their
// nested upper bound and stops when the bound cannot beat the best exact
// W1 found (branch and bound; exact to within oBoundSlack).
func (mt *oMetric) clkDist(b1, b2 int32, k int) float64 {
	if b1 == b2 || k == 0 || mt.err != nil {
		return 0
	}
	key := oMkPair(b1, b2, k, -1)
	if v, ok := mt.clk[key]; ok {
		return v
	}
	ub := mt.nestedVec(b1, b2, k)
	if mt.err != nil {
		return 0
	}
	best := 0.0
	if mt.tr == TransportNested {
		best = slices.Max(ub)
	} else {
		mt.order = mt.order[:0]
		for s := range ub {
			mt.order = append(mt.order, s)
		}
		order := mt.order
		slices.SortStableFunc(order, func(x, y int) int {
			switch {
			case ub[x] > ub[y]:
				return -1
			case ub[x] < ub[y]:
				return 1
			}
			return 0
		})
		for _, s := range order {
			if ub[s] <= best+oBoundSlack || mt.err != nil {
				break
			}
			best = math.Max(best, mt.w1(b1, b2, mt.decode(s, k)))
		}
	}
	mt.clk[key] = best
	return best
}

// opDist returns D(law(b1, a^k), law(b2, a^k)).
func (mt *oMetric) opDist(b1, b2 int32, a, k int) float64 {
	if b1 == b2 || k == 0 || mt.err != nil {
		return 0
	}
	if mt.tr == TransportNested {
		return mt.nestedConst(b1, b2, a, k)
	}
	key := oMkPair(b1, b2, k, a)
	if v, ok := mt.op[key]; ok {
		return v
	}
	acts := mt.acts[:0]
	for range k {
		acts = append(acts, a)
	}
	mt.acts = acts
	v := mt.w1(b1, b2, acts)
	mt.op[key] = v
	return v
}

// NewDistances computes the m = 1 clock-aware and operational distance
// matrices of m at horizon T under the ground metric g on the observations
// and their gap δ_clk = ‖d^clk − d^op‖_∞ (cor:op-to-clk-transfer,
// tab:probe-family-comparison), without enumerating probes per pair:
//
//	d^clk(h, h') = max_{p ∈ A^t} D^clk_{T−t}(b(h, p), b(h', p)),
//	D^clk_k(b, b') = max_{s ∈ A^k} D(law(b, s), law(b', s)),
//	d^op(h, h')  = max_a D(law(b(h, a^t), a^{T−t}), law(b(h', a^t), a^{T−t})),
//
// where the outer maximum runs over the hash-consed prefix trees of the
// two histories (memoised per pair of subtrees) and D^clk is memoised per
// (belief pair, k). With TransportNested, D is the recursive transport R
// and D^clk is read off the vector s ↦ R(b, b', s), computed by a
// recursion memoised per (belief pair, k) whose steps are |O|×|O|
// transport problems (docs/algorithms.md#clock-aware-recursion). With TransportW1 the same
// vector is an upper bound (R ≥ W1): strings are tried in decreasing order
// of R and exact W1 solves (ot.Solver.SeqW1 on |O|^k-point laws) stop as
// soon as R cannot beat the best value found.
//
// Impossible (history, prefix) pairs take the point-mass stand-in, as in
// Quotients, whose result is stored in Quotients. Histories of depth T have
// empty suffixes and distance 0.
//
// Cost: Σ_t (#distinct prefix trees at depth t)² subtree-pair look-ups, one
// nested vector of |A|^k entries per belief pair met at remaining horizon
// k, and the exact solves. It returns an error wrapping ErrTooLarge when
// Work(|A|, |O|, T) or the number of history pairs Σ_t |O|^{2t}/2 exceeds
// opts.MaxWork, or when more than opts.MaxWork nested values or law atoms
// are computed; an error when g does not have |O| points or is invalid;
// and ctx.Err() when ctx is cancelled.
func oracleDistances(ctx context.Context, m *pomdp.Model, g ot.Ground, T int, opts *Options) (*oracleResult, error) {
	o := opts.get()
	if _, err := checkArgs(m, T, o); err != nil {
		return nil, err
	}
	nA, nO := m.NumActions(), m.NumObservations()
	if len(g) != nO {
		return nil, fmt.Errorf("clock: ground metric has %d points, model %s has %d observations", len(g), m.Name, nO)
	}
	if _, err := ot.NewGround(g); err != nil {
		return nil, err
	}
	pairs := 0.0
	for t := 0; t <= T; t++ {
		pairs += math.Pow(float64(nO), 2*float64(t)) / 2
	}
	if pairs > o.MaxWork {
		return nil, fmt.Errorf("%w: %s at T = %d has about %.3g history pairs, above MaxWork = %.3g; lower T or raise Options.MaxWork",
			ErrTooLarge, m, T, pairs, o.MaxWork)
	}
	e, err := newEngine(ctx, m, T, o)
	if err != nil {
		return nil, err
	}
	if err := e.build(ctx); err != nil {
		return nil, err
	}
	q, err := e.quotients(ctx)
	if err != nil {
		return nil, err
	}
	q.Work = Work(nA, nO, T)
	mt := newOMetric(ctx, e.bs, g, T, o.Transport, o.MaxWork)
	d := &oracleResult{T: T, Transport: o.Transport, Clk: make([]partition.Matrix, T+1), Op: make([]partition.Matrix, T+1),
		GapDepth: -1, GapI: -1, GapJ: -1, MaxClk: make([]float64, T+1), MaxOp: make([]float64, T+1),
		MaxGap: make([]float64, T+1), Quotients: q}
	for t := 0; t <= T; t++ {
		vec := e.vec[t]
		d.Clk[t] = partition.NewMatrix(len(vec))
		d.Op[t] = partition.NewMatrix(len(vec))
		if t == 0 || t == T {
			continue
		}
		k := T - t
		// Distances depend on laws only, so histories are grouped by
		// their exact classes and beliefs are replaced by the first belief
		// met in their class (same laws under the relevant strings).
		gc, gp := q.Clk.Labels[t], q.Op.Labels[t]
		repsC := make([]ref, q.Clk.Classes(t))
		repsP := make([]ref, q.Op.Classes(t))
		for i := len(vec) - 1; i >= 0; i-- {
			repsC[gc[i]], repsP[gp[i]] = vec[i], vec[i]
		}
		canonClk := make(map[int32]int32)
		canonOp := make([]map[int32]int32, nA)
		for a := range canonOp {
			canonOp[a] = make(map[int32]int32)
		}
		canon := func(m map[int32]int32, c, b int32) int32 {
			if r, ok := m[c]; ok {
				return r
			}
			m[c] = b
			return b
		}
		// align memoises alignMax below the top level (top-level pairs
		// are distinct by construction).
		align := make(map[uint64]float64)
		var alignMax func(u, v ref, level int) float64
		alignMax = func(u, v ref, level int) float64 {
			if u == v || mt.err != nil {
				return 0
			}
			if level == 0 {
				b1 := canon(canonClk, e.cls.clkClass(t, ^u), ^u)
				b2 := canon(canonClk, e.cls.clkClass(t, ^v), ^v)
				return mt.clkDist(b1, b2, k)
			}
			if u > v {
				u, v = v, u
			}
			key := uint64(uint32(u))<<32 | uint64(uint32(v))
			if level < t {
				if x, ok := align[key]; ok {
					return x
				}
			}
			x := 0.0
			for a := range nA {
				x = math.Max(x, alignMax(e.px.d.child(u, a), e.px.d.child(v, a), level-1))
			}
			if level < t {
				align[key] = x
			}
			return x
		}
		nC, nP := len(repsC), len(repsP)
		dc := make([]float64, nC*nC)
		for ci := range nC {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			for cj := ci + 1; cj < nC; cj++ {
				c := alignMax(repsC[ci], repsC[cj], t)
				dc[ci*nC+cj], dc[cj*nC+ci] = c, c
			}
			if mt.err != nil {
				return nil, mt.err
			}
		}
		dp := make([]float64, nP*nP)
		for pi := range nP {
			for pj := pi + 1; pj < nP; pj++ {
				p := 0.0
				for a := range nA {
					b1, b2 := e.px.at(repsP[pi], t, a), e.px.at(repsP[pj], t, a)
					b1 = canon(canonOp[a], e.cls.opClass(t, a, b1), b1)
					b2 = canon(canonOp[a], e.cls.opClass(t, a, b2), b2)
					p = math.Max(p, mt.opDist(b1, b2, a, k))
				}
				dp[pi*nP+pj], dp[pj*nP+pi] = p, p
			}
			if mt.err != nil {
				return nil, mt.err
			}
		}
		mc, mo := d.Clk[t], d.Op[t]
		for i := range vec {
			for j := i + 1; j < len(vec); j++ {
				c, p := dc[gc[i]*nC+gc[j]], dp[gp[i]*nP+gp[j]]
				pos := mc.Index(i, j)
				mc.Data[pos], mo.Data[pos] = c, p
				d.MaxClk[t] = math.Max(d.MaxClk[t], c)
				d.MaxOp[t] = math.Max(d.MaxOp[t], p)
				if gap := math.Abs(c - p); gap > d.MaxGap[t] {
					d.MaxGap[t] = gap
					if gap > d.Gap {
						d.Gap, d.GapDepth, d.GapI, d.GapJ = gap, t, i, j
					}
				}
			}
		}
	}
	if err := e.overflow(); err != nil {
		return nil, err
	}
	d.BeliefPairs = len(mt.clk)
	d.Solves, d.Entries, d.Beliefs = mt.solves, mt.entries, e.bs.len()-1
	return d, nil
}

const oBoundSlack = 1e-12

// oracleResult is the old Distances with its full history-pair matrices.
type oracleResult struct {
	T                     int
	Transport             Transport
	Clk, Op               []partition.Matrix
	Gap                   float64
	GapDepth, GapI, GapJ  int
	MaxClk, MaxOp, MaxGap []float64
	BeliefPairs           int
	Solves                int
	Entries               int64
	Beliefs               int
	Quotients             *Result
}

var _ testing.TB
