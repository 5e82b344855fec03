package ot

import (
	"fmt"
	"math"
)

// WindowLowerBound returns a lower bound on SeqW1(g, k, p, q) from the
// laws of a window of j consecutive positions, starting at position
// from (0-based), and the one-step marginals of the other positions:
//
//	LB = W1_seq(p_W, q_W) + Σ_{s ∉ W} W1_g(p_s, q_s),
//
// where p_W is the law of the window's observations (p summed over the
// other positions), a law over O^j. Every coupling π of p and q pushes
// forward to a coupling of p_W and q_W and to one of each pair of
// marginals p_s, q_s outside the window; the sequence cost is the sum of
// the window's cost and of the other positions' costs, so the cost of π
// is at least the sum of the optimal costs. With j = 1 this is the sum
// of the marginal distances (LowerBound's first term); with j = k it is
// SeqW1 itself. The window's problem is solved exactly by SeqW1 over
// |O|^j sequences instead of |O|^k.
//
// It panics if len(p) or len(q) differs from |O|^k or the window does
// not fit in [0, k). Errors are SeqW1's.
func (s *Solver) WindowLowerBound(g Ground, k, from, j int, p, q []float64) (float64, error) {
	o := len(g)
	n := SeqLen(o, k)
	if len(p) != n || len(q) != n {
		panic(fmt.Sprintf("ot: laws have lengths %d and %d, want |O|^k = %d^%d = %d", len(p), len(q), o, k, n))
	}
	if from < 0 || j < 1 || from+j > k {
		panic(fmt.Sprintf("ot: window [%d, %d) outside the %d positions", from, from+j, k))
	}
	if s.inner == nil {
		s.inner = new(Solver)
	}
	w := SeqLen(o, j)
	low := SeqLen(o, k-from-j) // positions after the window are the low digits
	s.winP, s.winQ = growF(s.winP, w), growF(s.winQ, w)
	clear(s.winP)
	clear(s.winQ)
	s.marg = growF(s.marg, 2*k*o)
	marg := s.marg
	clear(marg)
	s.digits = growI(s.digits, k)
	dig := s.digits
	clear(dig)
	for x := range n {
		a, b := p[x], q[x]
		z := (x / low) % w
		s.winP[z] += a
		s.winQ[z] += b
		for t, d := range dig {
			if t < from || t >= from+j {
				marg[2*t*o+d] += a
				marg[(2*t+1)*o+d] += b
			}
		}
		for t := k - 1; t >= 0; t-- {
			dig[t]++
			if dig[t] < o {
				break
			}
			dig[t] = 0
		}
	}
	sum := 0.0
	for t := range k {
		if t >= from && t < from+j {
			continue
		}
		v, err := s.oneStep(g, marg[2*t*o:(2*t+1)*o], marg[(2*t+1)*o:(2*t+2)*o])
		if err != nil {
			return 0, err
		}
		sum += v
	}
	v, err := s.seqW1Large(g, j, s.winP, s.winQ)
	if err != nil {
		return 0, err
	}
	return sum + v, nil
}

// DenseArcs is the largest residual transportation problem (sources ×
// sinks, after the mass two laws share in place) that WindowLowerBound
// solves by the simplex under a uniform ground: a larger one goes to a
// ProductW1, whose memory (ProductBytes) does not grow with the supports.
const DenseArcs = 250_000

// ResidualArcs returns the sources × sinks of SeqW1's residual problem
// between p and q (q rescaled to p's total).
func ResidualArcs(p, q []float64) int64 {
	tp, tq := 0.0, 0.0
	for x := range p {
		tp += p[x]
		tq += q[x]
	}
	scale := 1.0
	if tq != tp && tq > 0 {
		scale = tp / tq
	}
	var n, m int64
	for x, a := range p {
		b := q[x] * scale
		switch {
		case a > b:
			n++
		case b > a:
			m++
		}
	}
	return n * m
}

// seqW1Large is SeqW1 on the inner solver, or on a ProductW1 when the
// ground is uniform and the residual problem has more than DenseArcs
// arcs.
func (s *Solver) seqW1Large(g Ground, k int, p, q []float64) (float64, error) {
	if _, ok := g.uniform(); ok && len(g) >= 2 && ResidualArcs(p, q) > DenseArcs {
		if s.prod == nil || s.prod.k != k || len(s.prodG) != len(g) || s.prodG[0][1] != g[0][1] {
			pf, err := NewProductW1(g, k)
			if err != nil {
				return 0, err
			}
			s.prod, s.prodG = pf, g
		}
		return s.prod.W1(p, q)
	}
	r, err := s.inner.SeqW1(g, k, p, q)
	return r.Value, err
}

// oneStep returns W1_g(a, b) between two laws over O: δ·TV for a uniform
// ground, the CDF formula on a line, the simplex otherwise.
func (s *Solver) oneStep(g Ground, a, b []float64) (float64, error) {
	if d, ok := g.uniform(); ok {
		return d * TV(a, b), nil
	}
	if g.line() {
		v, cum := 0.0, 0.0
		for l := 0; l+1 < len(g); l++ {
			cum += a[l] - b[l]
			v += g[l][l+1] * math.Abs(cum)
		}
		return v, nil
	}
	if s.inner == nil {
		s.inner = new(Solver)
	}
	o := len(g)
	s.gflat = growF(s.gflat, o*o)
	for i, row := range g {
		copy(s.gflat[i*o:(i+1)*o], row)
	}
	r, err := s.inner.W1(a, b, s.gflat)
	return r.Value, err
}

// TreeCoupling returns an upper bound on SeqW1(g, k, p, q): the cost of
// a sequential coupling. It couples the laws of the first observation
// optimally under g (the mass both give an observation stays on it;
// the rest is paired in index order, optimal for a uniform ground and on
// a line, and by the simplex otherwise), then, for every pair (o, o′) of
// that coupling with mass m, couples recursively the conditional laws of
// the remaining observations given o under p and given o′ under q, with
// mass m. Gluing the couplings gives a coupling of p and q (its first
// observations have the laws of p and q, and given them the rest have
// the conditional laws), whose cost is
//
//	U(p, q) = Σ_{o,o′} m(o, o′)·(g(o, o′) + U(p | o, q | o′)),
//
// so W1 ≤ U. A level has at most 2|O| − 1 pairs; past maxPairs calls in
// all, the remaining subproblems are bounded by (k − r)·max g·TV of their
// conditional laws (r the level), also the cost of a coupling. q is
// rescaled to p's total. It panics if len(p) or len(q) differs from
// |O|^k. Inputs are not validated (see LowerBound).
func (s *Solver) TreeCoupling(g Ground, k int, p, q []float64) float64 {
	o := len(g)
	n := SeqLen(o, k)
	if len(p) != n || len(q) != n {
		panic(fmt.Sprintf("ot: laws have lengths %d and %d, want |O|^k = %d^%d = %d", len(p), len(q), o, k, n))
	}
	tp, tq := 0.0, 0.0
	for x := range p {
		tp += p[x]
		tq += q[x]
	}
	if !(tp > 0) || !(tq > 0) || k == 0 {
		return 0
	}
	tc := &s.tc
	if tc.g == nil || len(tc.g) != o || &tc.g[0] != &g[0] {
		tc.g, tc.o, tc.gmax = g, o, g.Max()
		_, tc.uniform = g.uniform()
		tc.line = !tc.uniform && g.line()
	}
	tc.calls = 0
	if len(tc.levels) < k {
		tc.levels = make([]tcLevel, k)
	}
	return tp * s.couple(p, q, tp, tq, k, 0)
}

// maxPairs bounds the recursive calls of TreeCoupling.
const maxPairs = 1 << 16

// tcLevel is TreeCoupling's scratch for one level of the recursion.
type tcLevel struct {
	a, b  []float64 // first-observation laws, unit mass
	pairs []Flow    // the level's coupling, unit mass
}

// treeCoupler is TreeCoupling's state.
type treeCoupler struct {
	g             Ground
	o             int
	gmax          float64
	uniform, line bool
	calls         int
	levels        []tcLevel
	tmp           []Flow // the simplex's residual coupling
	src, snk      []tcAtom
}

// tcAtom is an observation and its residual mass (pairUp).
type tcAtom struct {
	i int
	m float64
}

// couple returns the cost per unit mass of the sequential coupling of the
// blocks p (mass mp) and q (mass mq) over O^k, at recursion level r.
func (s *Solver) couple(p, q []float64, mp, mq float64, k, r int) float64 {
	tc := &s.tc
	tc.calls++
	o := tc.o
	if tc.calls > maxPairs {
		tv := 0.0
		for x := range p {
			tv += math.Abs(p[x]/mp - q[x]/mq)
		}
		return float64(k) * tc.gmax * tv / 2
	}
	lv := &tc.levels[r]
	lv.a, lv.b = growF(lv.a, o), growF(lv.b, o)
	a, b := lv.a, lv.b
	bl := len(p) / o
	for c := range o {
		sa, sb := 0.0, 0.0
		for _, v := range p[c*bl : (c+1)*bl] {
			sa += v
		}
		for _, v := range q[c*bl : (c+1)*bl] {
			sb += v
		}
		a[c], b[c] = sa/mp, sb/mq
	}
	lv.pairs = s.pairUp(lv.pairs[:0], a, b)
	v := 0.0
	for i := range lv.pairs {
		f := lv.pairs[i]
		v += f.Mass * tc.g[f.I][f.J]
		if k > 1 {
			pc, qc := p[f.I*bl:(f.I+1)*bl], q[f.J*bl:(f.J+1)*bl]
			v += f.Mass * s.couple(pc, qc, a[f.I]*mp, b[f.J]*mq, k-1, r+1)
		}
	}
	return v
}

// pairUp appends an optimal coupling of the laws a and b over O under
// the ground of the tree coupler: the common mass stays in place, and
// the residual is paired in index order (optimal for a uniform ground or
// a line) or by the simplex.
func (s *Solver) pairUp(dst []Flow, a, b []float64) []Flow {
	tc := &s.tc
	o := tc.o
	src, snk := tc.src[:0], tc.snk[:0]
	defer func() { tc.src, tc.snk = src[:0], snk[:0] }()
	for c := range o {
		if m := min(a[c], b[c]); m > 0 {
			dst = append(dst, Flow{I: c, J: c, Mass: m})
		}
		switch {
		case a[c] > b[c]:
			src = append(src, tcAtom{c, a[c] - b[c]})
		case b[c] > a[c]:
			snk = append(snk, tcAtom{c, b[c] - a[c]})
		}
	}
	if len(src) == 0 || len(snk) == 0 {
		return dst
	}
	if !tc.uniform && !tc.line {
		if s.inner == nil {
			s.inner = new(Solver)
		}
		s.gflat = growF(s.gflat, o*o)
		for i, row := range tc.g {
			copy(s.gflat[i*o:(i+1)*o], row)
		}
		ra, rb := make([]float64, o), make([]float64, o)
		for _, x := range src {
			ra[x.i] = x.m
		}
		for _, x := range snk {
			rb[x.i] = x.m
		}
		if _, err := s.inner.W1(ra, rb, s.gflat); err == nil {
			tc.tmp = s.inner.Flows(tc.tmp)
			return append(dst, tc.tmp...)
		}
	}
	i, j := 0, 0
	for i < len(src) && j < len(snk) {
		m := min(src[i].m, snk[j].m)
		if m > 0 {
			dst = append(dst, Flow{I: src[i].i, J: snk[j].i, Mass: m})
		}
		src[i].m -= m
		snk[j].m -= m
		if src[i].m <= 0 {
			i++
		} else {
			j++
		}
	}
	return dst
}
