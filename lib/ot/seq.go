package ot

import (
	"fmt"
	"math"
)

// maxTable bounds the number of entries of a chunk cost table.
const maxTable = 4096

// SeqLen returns |O|^k, the number of sequences of length k over an
// alphabet of size o. It panics if o < 1 (unless k = 0), k < 0, or the
// result overflows an int.
func SeqLen(o, k int) int {
	if k < 0 || (o < 1 && k > 0) {
		panic(fmt.Sprintf("ot: invalid sequence space %d^%d", o, k))
	}
	n := 1
	for range k {
		if n > math.MaxInt/o {
			panic(fmt.Sprintf("ot: sequence space %d^%d overflows int", o, k))
		}
		n *= o
	}
	return n
}

// seqCost evaluates the additive sequence cost Σ_t g(x_t, y_t) from the
// base-|O| digits of two sequence indices. Digits are grouped in chunks of
// c digits (the largest c with |O|^{2c} ≤ maxTable), and a table holds the
// summed cost of every pair of chunk values, so one cost costs one lookup
// per chunk. The most significant chunk may be shorter and has its own
// table. Tables are built lazily, on the first evaluation.
type seqCost struct {
	g     Ground
	o, k  int
	ready bool

	nc             int // number of chunks, 0 when k = 0
	base, lastBase int // |O|^c, |O|^{c_last}
	full, last     []float64
	buf1, buf2     []float64
	gcopy          []float64 // the ground the tables were built from, row-major
	builds         int       // tables built so far (a reused solver builds them once)
}

// reset prepares for ground g and length k. The tables of the previous
// call are kept when g has the same entries and k is the same: a solver
// reused over many pairs of one tree builds them once.
func (sc *seqCost) reset(g Ground, k int) {
	if sc.ready && sc.k == k && sc.same(g) {
		return
	}
	sc.g, sc.o, sc.k, sc.ready = g, len(g), k, false
	sc.gcopy = sc.gcopy[:0]
	for _, row := range g {
		sc.gcopy = append(sc.gcopy, row...)
	}
}

// same reports whether g has the entries the tables were built from (a
// copy: a caller that changes g in place gets new tables).
func (sc *seqCost) same(g Ground) bool {
	if len(g) != sc.o || len(sc.gcopy) != sc.o*sc.o {
		return false
	}
	for i, row := range g {
		if len(row) != sc.o {
			return false
		}
		for j, v := range row {
			if v != sc.gcopy[i*sc.o+j] {
				return false
			}
		}
	}
	return true
}

func (sc *seqCost) setup() {
	sc.ready = true
	sc.builds++
	o, k := sc.o, sc.k
	if k == 0 {
		sc.nc = 0
		return
	}
	c := 1
	for c < k && SeqLen(o, c+1) <= maxTable/SeqLen(o, c+1) {
		c++
	}
	sc.nc = (k + c - 1) / c
	cl := k - c*(sc.nc-1)
	sc.base, sc.lastBase = SeqLen(o, c), SeqLen(o, cl)
	// T_1 = g; T_{d+1}(a·o+a', b·o+b') = T_d(a, b) + g(a', b').
	cur := growF(sc.buf1, o*o)
	for a := range o {
		copy(cur[a*o:(a+1)*o], sc.g[a])
	}
	size := o
	for d := 1; ; d++ {
		if d == cl {
			sc.last = append(sc.last[:0], cur...)
		}
		if d == c {
			sc.full = append(sc.full[:0], cur...)
			break
		}
		ns := size * o
		next := growF(sc.buf2, ns*ns)
		for a := range ns {
			ah, al := a/o, a%o
			row := next[a*ns : (a+1)*ns]
			prev := cur[ah*size : (ah+1)*size]
			ga := sc.g[al]
			for b := range ns {
				row[b] = prev[b/o] + ga[b%o]
			}
		}
		sc.buf1, sc.buf2 = next, cur
		cur, size = next, ns
	}
	sc.buf1 = cur
}

// chunks writes the nc chunk values of sequence index x into dst.
func (sc *seqCost) chunks(dst []int, x int) {
	for h := 0; h < sc.nc-1; h++ {
		dst[h] = x % sc.base
		x /= sc.base
	}
	if sc.nc > 0 {
		dst[sc.nc-1] = x
	}
}

// eval returns Σ_t g(x_t, y_t) for sequence indices x and y.
func (sc *seqCost) eval(x, y int) float64 {
	if !sc.ready {
		sc.setup()
	}
	if sc.nc == 0 {
		return 0
	}
	s := 0.0
	for h := 0; h < sc.nc-1; h++ {
		s += sc.full[(x%sc.base)*sc.base+y%sc.base]
		x /= sc.base
		y /= sc.base
	}
	return s + sc.last[x*sc.lastBase+y]
}

// checkEntries validates the entries SeqW1 relies on (finite,
// non-negative, zero on the diagonal); NewGround checks the rest.
func checkEntries(g Ground) error {
	for i, row := range g {
		if len(row) != len(g) {
			panic(fmt.Sprintf("ot: ground metric row %d has %d entries, want %d", i, len(row), len(g)))
		}
		for j, v := range row {
			var kind GroundFault
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				kind = NotFinite
			case !validCost(v):
				kind = Negative
			case i == j && v != 0:
				kind = Diagonal
			default:
				continue
			}
			return &GroundError{Kind: kind, I: i, J: j, K: -1, Value: v, N: len(g)}
		}
	}
	return nil
}

// uniform reports whether every off-diagonal distance equals one value δ,
// and returns δ.
func (g Ground) uniform() (float64, bool) {
	if len(g) < 2 {
		return 0, true
	}
	d := g[0][1]
	for i, row := range g {
		for j, v := range row {
			if i != j && v != d {
				return 0, false
			}
		}
	}
	return d, true
}

// line reports whether g is a metric on a line in index order,
// g(i, j) = x_j − x_i for i < j with x non-decreasing, within 1e-12
// relative; the gaps are g(l, l+1).
func (g Ground) line() bool {
	n := len(g)
	for i := 0; i < n; i++ {
		x := 0.0
		for j := i + 1; j < n; j++ {
			x += g[j-1][j]
			if !(math.Abs(g[i][j]-x) <= 1e-12*max(1, x)) {
				return false
			}
		}
	}
	return true
}

// SeqW1 returns the exact W1 distance between two laws p and q over the
// sequences O^k, under the paper's additive sequence cost (docs/conventions.md#distances)
//
//	d((o_1…o_k), (o'_1…o'_k)) = Σ_t g(o_t, o'_t),
//
// where a sequence is indexed by its base-|O| integer with o_1 the most
// significant digit, index = Σ_t o_t·|O|^{k−t}, so len(p) = len(q) = |O|^k.
// The cost is evaluated lazily from digits, only for pairs of the supports
// actually transported.
//
// g must be a pseudometric (NewGround checks one); the fast paths below rely
// on it, and each is exact:
//
//   - identical laws: W1 = 0 (MethodIdentical);
//   - mass shared in place: since the cost is a metric, an optimal plan may
//     leave min(p_x, q_x) at x for free, so W1(p, q) = W1(p − m, q − m) with
//     m = min(p, q); the residual laws have disjoint supports and are what
//     the remaining steps solve (if a residual is empty, MethodIdentical);
//   - a residual side with one atom x0: W1 = Σ_x r_x d(x, x0) (MethodPointMass);
//   - k = 1 with a uniform ground δ·[o≠o']: W1 = δ·TV(p, q) (MethodTV);
//   - k = 1 with a line metric: W1 = Σ_l gap_l·|F_p(l) − F_q(l)| (MethodLine);
//   - otherwise the network simplex on the residual supports (MethodSimplex).
//
// SeqW1 panics if len(p) or len(q) differs from |O|^k or g is not square.
// It returns a *GroundError for a negative, non-finite or non-zero-diagonal
// ground entry, and otherwise the errors of W1. Complexity: O(|O|^k) for the
// fast paths, plus the simplex on the residual supports (see W1).
func (s *Solver) SeqW1(g Ground, k int, p, q []float64) (Result, error) {
	n := SeqLen(len(g), k)
	if len(p) != n || len(q) != n {
		panic(fmt.Sprintf("ot: laws have lengths %d and %d, want |O|^k = %d^%d = %d", len(p), len(q), len(g), k, n))
	}
	s.ok = false
	if err := checkEntries(g); err != nil {
		return Result{}, err
	}
	tp, tq, err := checkMasses(p, q)
	if err != nil {
		return Result{}, err
	}
	s.kind, s.flat, s.fn = costSeq, nil, nil
	s.seq.reset(g, k)
	s.begin(n, n)

	identical := true
	for x, v := range p {
		if v != q[x] {
			identical = false
			break
		}
	}
	if tp == 0 || identical {
		for x, v := range p {
			if v > 0 {
				s.flows = append(s.flows, Flow{I: x, J: x, Mass: v})
				s.actI = append(s.actI, x)
				s.actU = append(s.actU, 0)
			}
		}
		s.ok = true
		return Result{Status: Optimal, Method: MethodIdentical}, nil
	}
	scale := 1.0
	if tq != tp {
		scale = tp / tq
	}
	s.srcIdx, s.srcMass = s.srcIdx[:0], s.srcMass[:0]
	s.snkIdx, s.snkMass = s.snkIdx[:0], s.snkMass[:0]
	for x, a := range p {
		b := q[x] * scale
		if m := min(a, b); m > 0 {
			s.flows = append(s.flows, Flow{I: x, J: x, Mass: m})
		}
		switch {
		case a > b:
			s.srcIdx = append(s.srcIdx, x)
			s.srcMass = append(s.srcMass, a-b)
		case b > a:
			s.snkIdx = append(s.snkIdx, x)
			s.snkMass = append(s.snkMass, b-a)
		}
	}
	nr, kr := len(s.srcIdx), len(s.snkIdx)
	if nr == 0 || kr == 0 {
		// Equal up to rounding: nothing left to move. Dual u = 0 on the
		// support of p is optimal (see Potentials).
		for x, v := range p {
			if v > 0 {
				s.actI = append(s.actI, x)
				s.actU = append(s.actU, 0)
			}
		}
		s.ok = true
		return Result{Status: Optimal, Method: MethodIdentical, Sources: nr, Sinks: kr}, nil
	}
	if nr == 1 || kr == 1 {
		return s.pointMass()
	}
	if k == 1 {
		if d, ok := g.uniform(); ok {
			return s.finite(s.seqTV(d))
		}
		if g.line() {
			return s.finite(s.seqLine())
		}
	}
	if !s.seq.ready {
		s.seq.setup() // once per ground and length: reset keeps the tables
	}
	nc := s.seq.nc
	s.chS = growI(s.chS, nr*nc)
	s.chT = growI(s.chT, kr*nc)
	for a, x := range s.srcIdx {
		s.seq.chunks(s.chS[a*nc:(a+1)*nc], x)
	}
	for b, y := range s.snkIdx {
		s.seq.chunks(s.chT[b*nc:(b+1)*nc], y)
	}
	s.nw.resize(nr, kr)
	s.seq.fill(s.nw.cost, s.chS, s.chT, nr, kr)
	return s.simplex()
}

// SeqW1Below is SeqW1 that may stop early: when a transport plan costing
// less than stop is found (stop > 0), it returns Status Below with Value
// that plan's cost, an upper bound on W1 below stop, and no plan,
// potentials or dual values; otherwise the result of SeqW1. Callers that
// only need W1 when it reaches stop — the largest of several distances,
// say — save the simplex pivots after the plan drops below it.
func (s *Solver) SeqW1Below(g Ground, k int, p, q []float64, stop float64) (Result, error) {
	s.stop = stop
	r, err := s.SeqW1(g, k, p, q)
	s.stop = 0
	if r.Status == Below {
		s.ok = false
	}
	return r, err
}

// fill writes the nr×kr cost matrix between the chunk values chS and chT.
func (sc *seqCost) fill(dst []float64, chS, chT []int, nr, kr int) {
	nc, base, lb := sc.nc, sc.base, sc.lastBase
	full, last := sc.full, sc.last
	switch nc {
	case 1:
		for a := range nr {
			row := last[chS[a]*lb : (chS[a]+1)*lb]
			out := dst[a*kr : (a+1)*kr]
			for b := range out {
				out[b] = row[chT[b]]
			}
		}
	case 2:
		for a := range nr {
			r0 := full[chS[2*a]*base : (chS[2*a]+1)*base]
			r1 := last[chS[2*a+1]*lb : (chS[2*a+1]+1)*lb]
			out := dst[a*kr : (a+1)*kr]
			for b := range out {
				out[b] = r0[chT[2*b]] + r1[chT[2*b+1]]
			}
		}
	default:
		for a := range nr {
			xs := chS[a*nc : (a+1)*nc]
			out := dst[a*kr : (a+1)*kr]
			for b := range out {
				ys := chT[b*nc : (b+1)*nc]
				v := 0.0
				for h := 0; h < nc-1; h++ {
					v += full[xs[h]*base+ys[h]]
				}
				out[b] = v + last[xs[nc-1]*lb+ys[nc-1]]
			}
		}
	}
}

// seqTV handles k = 1 under the uniform ground δ·[o≠o'] on the residual
// laws r_p, r_q (disjoint supports): every unit of residual mass moves at
// cost δ, so W1 = δ·½(Σr_p + Σr_q) = δ·TV(p, q). The plan pairs the
// residual atoms greedily (north-west corner); the dual u = 0 on the
// residual sources is optimal (f = δ off them is δ-Lipschitz).
func (s *Solver) seqTV(d float64) Result {
	tp, tq := 0.0, 0.0
	for _, v := range s.srcMass {
		tp += v
	}
	for _, v := range s.snkMass {
		tq += v
	}
	s.northWest()
	for _, x := range s.srcIdx {
		s.actI = append(s.actI, x)
		s.actU = append(s.actU, 0)
	}
	s.ok = true
	return Result{Status: Optimal, Method: MethodTV, Value: d * (0.5*tp + 0.5*tq), Sources: len(s.srcIdx), Sinks: len(s.snkIdx)}
}

// seqLine handles k = 1 under a metric on a line in index order: with
// F(l) = Σ_{x ≤ l} (p_x − q_x), W1 = Σ_l g(l, l+1)·|F(l)|. The north-west
// corner plan in index order is monotone, hence optimal; the dual is the
// 1-Lipschitz f with f(0) = 0, f(l+1) = f(l) + g(l, l+1)·sign(F(l)),
// u_x = −f(x) on the residual sources.
func (s *Solver) seqLine() Result {
	g := s.seq.g
	o := len(g)
	var a, b int
	f, cum, v := 0.0, 0.0, 0.0
	for x := range o {
		// Residual mass at x: sources and sinks are disjoint and sorted.
		if a < len(s.srcIdx) && s.srcIdx[a] == x {
			cum += s.srcMass[a]
			s.actI = append(s.actI, x)
			s.actU = append(s.actU, -f)
			a++
		} else if b < len(s.snkIdx) && s.snkIdx[b] == x {
			cum -= s.snkMass[b]
			b++
		}
		if x+1 < o {
			gap := g[x][x+1]
			v += gap * math.Abs(cum)
			switch {
			case cum > 0:
				f += gap
			case cum < 0:
				f -= gap
			}
		}
	}
	s.northWest()
	s.ok = true
	return Result{Status: Optimal, Method: MethodLine, Value: v, Sources: len(s.srcIdx), Sinks: len(s.snkIdx)}
}

// northWest appends the north-west corner plan between srcMass and
// snkMass (in index order) to s.flows.
func (s *Solver) northWest() {
	a, b := 0, 0
	var ra, rb float64
	if len(s.srcMass) > 0 && len(s.snkMass) > 0 {
		ra, rb = s.srcMass[0], s.snkMass[0]
	}
	for a < len(s.srcMass) && b < len(s.snkMass) {
		m := min(ra, rb)
		if m > 0 {
			s.flows = append(s.flows, Flow{I: s.srcIdx[a], J: s.snkIdx[b], Mass: m})
		}
		ra -= m
		rb -= m
		if ra <= 0 {
			a++
			if a < len(s.srcMass) {
				ra = s.srcMass[a]
			}
		} else {
			b++
			if b < len(s.snkMass) {
				rb = s.snkMass[b]
			}
		}
	}
}

// SeqW1 returns the exact W1 distance between the laws p and q over O^k
// under the additive sequence cost built from g, using a fresh Solver (see
// Solver.SeqW1).
func SeqW1(g Ground, k int, p, q []float64) (float64, error) {
	var s Solver
	r, err := s.SeqW1(g, k, p, q)
	return r.Value, err
}
