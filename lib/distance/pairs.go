package distance

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// pairWorker turns one probe's laws into pair distances. It owns the
// transport solver's scratch memory.
type pairWorker struct {
	tree   law.Tree
	metric Metric
	gmax   float64
	// uniform reports a ground metric with every off-diagonal entry equal
	// to gmax (the discrete metric, scaled): one-step W1 is then gmax·TV.
	uniform bool
	gmin    float64 // smallest off-diagonal ground distance
	g       ot.Ground
	w1      *w1Solver
	// capped is the decision threshold (Options.Eps): a pair whose value
	// is known to exceed it is settled with a lower bound above it.
	capped float64
	marg   []float64
	// lb, when set, holds per depth (nil Data: none) the maximum over the
	// family of a cheap lower bound on each pair's W1 (runner.bounds).
	lb []partition.Matrix
	// tick, when set, is told the pairs done after every row; an error
	// (the context's) stops accumulate.
	tick func(pairs int) error
	// dec, when set (Options.Compact), records the pairs' decisions in
	// place of accumulate's matrices, which then have no storage; top is
	// the largest value any worker of the pass recorded (Decisions.Max),
	// shared: a worker whose pairs other workers settled first still
	// knows how large the maximum already is (see sharedMax).
	dec *Decisions
	top *sharedMax
	// index, when set, names per representative the first probe of the
	// pass that met its law; probe is the current probe's number there.
	index   *lawIndex
	probe   int
	scratch lawScratch
	ubuf    []float64   // treeUpper's scratch
	items   []smallItem // twoMany's scratch
	fold    []float64   // marginal's scratch
	// margDone records which representatives' marginals margOf put in
	// marg; ub is the pair's treeUpper once cannotRaise computed it (< 0:
	// not yet).
	margDone []bool
	ub       float64
	// pivoted, when set, marks the depths the pivot pass (runner.pivots)
	// decided in bulk: the loop visits their undecided pairs only.
	pivoted []bool
	// settled, when set, marks the depths the pivot pass decided
	// completely (runner.settled): the loop skips them.
	settled []bool
	visited int64 // pairs the loop examined (tests count them)
	// cands are the pairs of the current depth whose bracket the bounds
	// settled but whose exact value may raise the run's largest distance
	// (bracketPair); resolve solves them, largest upper bound first.
	cands []candidate
}

func newPairWorker(g ot.Ground, tree law.Tree, metric Metric) *pairWorker {
	uniform := true
	gmax := g.Max()
	for i := range g {
		for j := range g[i] {
			if i != j && g[i][j] != gmax {
				uniform = false
			}
		}
	}
	gmin := math.Inf(1)
	for i := range g {
		for j := range g[i] {
			if i != j {
				gmin = min(gmin, g[i][j])
			}
		}
	}
	if math.IsInf(gmin, 1) {
		gmin = 0
	}
	return &pairWorker{tree: tree, metric: metric, gmax: gmax, gmin: gmin, uniform: uniform, g: g, w1: newW1Solver(g, tree.NumObs), capped: math.Inf(1)}
}

// small returns W1(p, q) under the sequence cost when, after the common
// mass stays in place (optimal under a metric), the residual problem has
// one source, one sink, or two of either: one source or sink is a sum;
// two and two is a one-variable linear program whose optimum is at an end
// of the feasible interval; two and many a fractional knapsack (twoMany).
// ok is false for larger residual problems (and for supports above
// smallMax, not scanned).
func (pw *pairWorker) small(p, q []float64, k int) (float64, bool) {
	if len(p) > smallMax {
		return 0, false
	}
	var src, snk [2]int
	var sm, tm [2]float64
	ns, nt := 0, 0
	tp, tq := 0.0, 0.0
	for x := range p {
		tp += p[x]
		tq += q[x]
	}
	scale := 1.0
	if tq != tp && tq > 0 {
		scale = tp / tq
	}
	for x, a := range p {
		b := q[x] * scale
		switch {
		case a > b:
			if ns == 2 && nt > 2 {
				return 0, false
			}
			if ns < 2 {
				src[ns], sm[ns] = x, a-b
			}
			ns++
		case b > a:
			if nt == 2 && ns > 2 {
				return 0, false
			}
			if nt < 2 {
				snk[nt], tm[nt] = x, b-a
			}
			nt++
		}
		if ns > 2 && nt > 2 {
			return 0, false
		}
	}
	switch {
	case ns == 0 || nt == 0:
		return 0, true
	case ns == 1 || nt == 1:
		// Every residual unit goes from the one source (or to the one
		// sink): rescan for the other side, which may have many atoms.
		v := 0.0
		for x, a := range p {
			b := q[x] * scale
			switch {
			case ns == 1 && b > a:
				v += (b - a) * pw.cost(src[0], x, k)
			case ns > 1 && a > b:
				v += (a - b) * pw.cost(x, snk[0], k)
			}
		}
		return v, true
	case ns == 2 && nt == 2:
		c00, c01 := pw.cost(src[0], snk[0], k), pw.cost(src[0], snk[1], k)
		c10, c11 := pw.cost(src[1], snk[0], k), pw.cost(src[1], snk[1], k)
		lo := math.Max(0, sm[0]-tm[1])
		hi := math.Min(sm[0], tm[0])
		f := func(x float64) float64 {
			return x*c00 + (sm[0]-x)*c01 + (tm[0]-x)*c10 + (sm[1]-tm[0]+x)*c11
		}
		return math.Min(f(lo), f(hi)), true
	case ns == 2 && !noTwoMany:
		// Two sources, many sinks: source 0 sends x_j ≤ t_j to sink j
		// (Σ x_j = s_0) and source 1 the rest, at cost Σ t_j c_1j +
		// Σ x_j (c_0j − c_1j): a fractional knapsack, filled in order of
		// c_0j − c_1j.
		return pw.twoMany(p, q, scale, k, src, sm[0], true), true
	case nt == 2 && !noTwoMany:
		return pw.twoMany(p, q, scale, k, snk, tm[0], false), true
	}
	return 0, false
}

// twoMany is small's residual problem with two atoms on one side (ends,
// the sources when sources is true, with mass first on ends[0]) and any
// number on the other: the mass first of ends[0] goes, cheapest
// difference first, to the atoms of the other side, whose residual
// masses bound each shipment; ends[1] takes the rest.
func (pw *pairWorker) twoMany(p, q []float64, scale float64, k int, ends [2]int, first float64, sources bool) float64 {
	items := pw.items[:0]
	base := 0.0
	for x, a := range p {
		r := q[x]*scale - a // residual mass of a sink
		if !sources {
			r = -r // of a source
		}
		if r <= 0 {
			continue
		}
		var c0, c1 float64
		if sources {
			c0, c1 = pw.cost(ends[0], x, k), pw.cost(ends[1], x, k)
		} else {
			c0, c1 = pw.cost(x, ends[0], k), pw.cost(x, ends[1], k)
		}
		base += r * c1
		items = append(items, smallItem{d: c0 - c1, m: r})
	}
	slices.SortFunc(items, func(u, v smallItem) int { return cmp.Compare(u.d, v.d) })
	v, rem := base, first
	for _, it := range items {
		if rem <= 0 {
			break
		}
		x := min(it.m, rem)
		v += x * it.d
		rem -= x
	}
	pw.items = items
	return v
}

// smallItem is one atom of twoMany's many side: the cost difference
// between the two ends and the atom's residual mass.
type smallItem struct{ d, m float64 }

// noTwoMany keeps twoMany out of small (tests compare both ways).
var noTwoMany = false

// boundSlack is the relative slack with which an upper bound must be
// below another probe's lower bound for the probe to be skipped.
const boundSlack = 1e-9

// smallMax is the largest support small scans.
const smallMax = 256

// cost returns Σ_s g(x_s, y_s) for the length-k sequences with indices x
// and y (base |O|, first observation most significant).
func (pw *pairWorker) cost(x, y, k int) float64 {
	nO := pw.tree.NumObs
	c := 0.0
	for range k {
		c += pw.g[x%nO][y%nO]
		x /= nO
		y /= nO
	}
	return c
}

// marginals writes, for each representative of one depth, the law of each
// of the k observations of its suffix: out[a·k·|O| + s·|O| + o] =
// P(O_{t+1+s} = o | h) for the representative a.
func (pw *pairWorker) marginals(data []float64, rt []int, L, k int) []float64 {
	kn := k * pw.tree.NumObs
	size := len(rt) * kn
	if cap(pw.marg) < size {
		pw.marg = make([]float64, size)
	}
	out := pw.marg[:size]
	for a, i := range rt {
		pw.marginal(out[a*kn:(a+1)*kn], data[i*L:(i+1)*L], k)
	}
	return out
}

// marginal writes into mg (k·|O| entries) the law of each of the k
// observations of the length-k sequence law p: mg[s·|O| + o] =
// P(O_s = o). The last observation's law sums p over the atoms with that
// last digit; folding groups of |O| consecutive atoms (the law of the
// first k − 1 observations) gives the one before, and so on: O(|O|^k)
// in all.
func (pw *pairWorker) marginal(mg, p []float64, k int) {
	nO := pw.tree.NumObs
	L := len(p)
	if cap(pw.fold) < L/nO {
		pw.fold = make([]float64, L/nO)
	}
	clear(mg)
	e := p
	for s := k - 1; s >= 0; s-- {
		row := mg[s*nO : (s+1)*nO]
		n := len(e) / nO
		next := pw.fold[:n]
		for g := 0; g < n; g++ {
			sum := 0.0
			for o, v := range e[g*nO : (g+1)*nO] {
				row[o] += v
				sum += v
			}
			next[g] = sum
		}
		e = next
	}
}

// margReset forgets the marginals of margOf for a depth of n
// representatives with kn = k·|O| marginal entries each.
func (pw *pairWorker) margReset(n, kn int) {
	if cap(pw.marg) < n*kn {
		pw.marg = make([]float64, n*kn)
	}
	pw.marg = pw.marg[:n*kn]
	if cap(pw.margDone) < n {
		pw.margDone = make([]bool, n)
	}
	pw.margDone = pw.margDone[:n]
	clear(pw.margDone)
}

// margOf returns the marginals of representative a, whose law is p,
// computing them on first use since margReset.
func (pw *pairWorker) margOf(a int, p []float64, k int) []float64 {
	kn := k * pw.tree.NumObs
	mg := pw.marg[a*kn : (a+1)*kn]
	if !pw.margDone[a] {
		pw.marginal(mg, p, k)
		pw.margDone[a] = true
	}
	return mg
}

// bounds sets dst[t](a, b) = max(dst[t](a, b), lower bound of W1 between
// the representatives' laws) at the depths whose dst has storage, and
// supp[t] (when supp is not nil) to the largest support of their laws.
func (pw *pairWorker) bounds(dst []partition.Matrix, laws *law.Laws, reps [][]int, supp []int) {
	tr := pw.tree
	for t := 0; t < tr.T; t++ {
		if dst[t].Data == nil {
			continue
		}
		rt := reps[t]
		n := len(rt)
		L := tr.SuffixLen(t)
		k := tr.T - t
		data := laws.Depth(t)
		marg := pw.marginals(data, rt, L, k)
		if supp != nil {
			for _, i := range rt {
				nz := 0
				for _, v := range data[i*L : (i+1)*L] {
					if v != 0 {
						nz++
					}
				}
				supp[t] = max(supp[t], nz)
			}
		}
		kn := k * tr.NumObs
		m := dst[t]
		// Rows a in tiles of boundsTile: each law q is read once per
		// tile, not once per row (the laws of a depth, 25 MB a probe at
		// hallway T = 5's depth 2, do not stay in cache).
		for a0 := 0; a0 < n; a0 += boundsTile {
			a1 := min(a0+boundsTile, n)
			for b := a0 + 1; b < n; b++ {
				q := data[rt[b]*L : (rt[b]+1)*L]
				for a := a0; a < min(a1, b); a++ {
					p := data[rt[a]*L : (rt[a]+1)*L]
					lb := pw.lowerBound(totalVariation(p, q), marg[a*kn:(a+1)*kn], marg[b*kn:(b+1)*kn])
					if idx := m.Index(a, b); lb > m.Data[idx] {
						m.Data[idx] = lb
					}
				}
			}
		}
	}
}

// boundsTile is the number of rows whose pairs bounds computes together.
const boundsTile = 8

// lowerBound returns a lower bound on W1 under the additive sequence cost:
// max(gmin·TV(p, q), Σ_s gmin·TV(p_s, q_s)) over the one-step marginals
// p_s, q_s (every coupling of p and q couples each pair of marginals, and
// moving mass between different observations costs at least gmin).
func (pw *pairWorker) lowerBound(tv float64, mp, mq []float64) float64 {
	s := 0.0
	for o, v := range mp {
		s += math.Abs(v - mq[o])
	}
	return pw.gmin * math.Max(tv, s/2)
}

// accumulate sets dst[t](a, b) = max(dst[t](a, b), dist(law_{reps[t][a]},
// law_{reps[t][b]})) for every depth t < T and pair of representatives
// a < b. With prune, a pair whose upper bound k·max d_O·TV cannot exceed
// the current entry is not solved. At the depths of the pivot pass
// (runner.pivots) it visits only the pairs the pass left undecided. It
// checks for nothing but the laws: cancellation is the caller's, between
// probes.
func (pw *pairWorker) accumulate(dst []partition.Matrix, laws *law.Laws, reps [][]int, prune bool) error {
	tr := pw.tree
	for t := 0; t < tr.T; t++ {
		rt := reps[t]
		n := len(rt)
		if n < 2 {
			continue
		}
		if pw.settled != nil && pw.settled[t] {
			if pw.tick != nil {
				if err := pw.tick(n * (n - 1) / 2); err != nil {
					return err
				}
			}
			continue
		}
		d := &depthPass{t: t, rt: rt, L: tr.SuffixLen(t), k: tr.T - t, data: laws.Depth(t), m: dst[t], prune: prune}
		d.decide = !math.IsInf(pw.capped, 1) && pw.metric == W1 && prune
		d.kn = d.k * tr.NumObs
		if pw.lb != nil && prune {
			d.lbt = pw.lb[t].Data
		}
		// This probe's own lower bounds, unless the bounds pass already
		// took their maximum over the family at this depth (a pair whose
		// bound exceeds the threshold is then settled before any probe).
		// They are computed when a pair first needs them (few do).
		d.ownBounds = d.decide && d.lbt == nil
		if d.decide {
			pw.margReset(n, d.kn) // also for solvePair's brackets
		}
		// first[a]: the probe that first met representative a's law.
		// With probe sets (sets > 0), pairs whose laws an earlier probe
		// met together, not only first.
		if pw.index != nil && prune {
			d.indexed = true
			d.first = pw.index.canon(&pw.scratch, pw.probe, t, d.data, rt, d.L)
			d.sets = pw.index.words
		}
		var err error
		pw.cands = pw.cands[:0]
		if pw.pivoted != nil && pw.pivoted[t] {
			err = pw.undecidedPairs(d)
		} else {
			err = pw.allPairs(d)
		}
		if err == nil {
			err = pw.resolve(d)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// depthPass is what the pair loop of one depth and probe reads.
type depthPass struct {
	t, L, k, kn   int
	rt            []int     // the depth's representatives
	data          []float64 // the probe's laws at depth t
	m             partition.Matrix
	decide, prune bool
	lbt           []float64 // lower bounds over the family (runner.bounds), or nil
	ownBounds     bool      // this probe's own lower bounds apply (margOf)
	indexed       bool      // the law index applies: first, and sets words of probe sets
	first         []int32   // the law index's first probe per representative, or nil
	sets          int
}

// allPairs runs the pair loop over every pair of the depth.
func (pw *pairWorker) allPairs(d *depthPass) error {
	n := len(d.rt)
	idx := 0
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if err := pw.pair(d, a, b, idx); err != nil {
				return err
			}
			idx++
		}
		// Report the row's pairs and stop if the run was cancelled.
		if pw.tick != nil {
			if err := pw.tick(n - a - 1); err != nil {
				return err
			}
		}
	}
	return nil
}

// undecidedPairs runs the pair loop over the pairs of the depth not yet
// settled above the largest threshold (the last plane of the decisions
// clear), a machine word of pairs at a time: after the pivot pass, the
// only pairs that can be within a listed ε.
func (pw *pairWorker) undecidedPairs(d *depthPass) error {
	n := len(d.rt)
	planes := pw.dec.Apart[d.t]
	top := planes[len(planes)-1].Bits
	for a := 0; a < n-1; a++ {
		lo := d.m.Index(a, a+1)
		hi := lo + n - a - 1
		for pos := lo; pos < hi; {
			off := pos & 63
			span := min(64-off, hi-pos)
			w := ^atomic.LoadUint64(&top[pos>>6]) >> off
			if span < 64 {
				w &= 1<<span - 1
			}
			for w != 0 {
				z := bits.TrailingZeros64(w)
				idx := pos + z
				if err := pw.pair(d, a, a+1+idx-lo, idx); err != nil {
					return err
				}
				w &= w - 1
			}
			pos += span
		}
		if pw.tick != nil {
			if err := pw.tick(n - a - 1); err != nil {
				return err
			}
		}
	}
	return nil
}

// pair settles pair idx = (a, b) of the depth for this probe: it raises
// the pair's value (or decision) to this probe's distance when that can
// change it.
func (pw *pairWorker) pair(d *depthPass, a, b, idx int) error {
	pw.visited++
	first, m, t, k := d.first, d.m, d.t, d.k
	if d.indexed && (d.sets > 0 && pw.scratch.metBefore(a, b, d.sets) || d.sets == 0 && first[a] == first[b] && int(first[a]) != pw.probe) {
		// An earlier probe met these very two laws: it settles the pair
		// with the same number.
		return nil
	}
	pw.ub = -1 // treeUpper not computed for this pair yet
	cur, settled := pw.known(m, t, idx)
	if d.decide && settled {
		return nil // settled above the largest ε by an earlier probe
	}
	lbv := 0.0 // a lower bound on the pair's d^Π over the family
	if d.lbt != nil {
		lbv = d.lbt[idx]
		if d.decide && lbv > pw.capped {
			pw.record(m, t, idx, max(cur, lbv))
			return nil
		}
	}
	L, prune, decide := d.L, d.prune, d.decide
	p := d.data[d.rt[a]*L : (d.rt[a]+1)*L]
	q := d.data[d.rt[b]*L : (d.rt[b]+1)*L]
	tv := totalVariation(p, q)
	var w float64
	switch {
	case tv == 0:
		w = 0
	case prune && float64(k)*pw.gmax*tv*(1+boundSlack) < lbv:
		// This probe's W1 is below another probe's lower bound: it
		// cannot be the maximum (the probe attaining the bound has an
		// upper bound at least as large, and is solved). The slack
		// absorbs rounding: the bound and the upper bound of the
		// attaining probe may be equal.
		w = cur
	case pw.metric == TV:
		w = tv
	case k == 1 && pw.uniform && prune:
		// One observation under a uniform ground metric: the optimal
		// coupling keeps min(p, q) in place and moves the rest at cost
		// gmax, so W1 = gmax·TV exactly. (Not in tensor mode: certify's
		// greedy subsets break ties between probes on the solver's last
		// bits, and their goldens pin those choices.)
		w = pw.gmax * tv
	case float64(k)*pw.gmax*tv <= negligible:
		// Laws equal up to rounding: W1 ≤ k·max d_O·TV is far below
		// partition.ZeroTol; use the bound rather than solve a
		// degenerate problem on residual masses ~1e-17.
		w = float64(k) * pw.gmax * tv
	case prune && float64(k)*pw.gmax*tv <= cur:
		w = cur
	case prune && k > 1 && pw.cannotRaise(p, q, k, cur, lbv):
		w = cur
	case decide && float64(k)*pw.gmax*tv > pw.capped:
		// The exact value matters only up to the threshold: a lower
		// bound above it settles the pair.
		if d.ownBounds { // else the family-wide bound did not settle it
			if lb := pw.lowerBound(tv, pw.margOf(a, p, k), pw.margOf(b, q, k)); lb > pw.capped {
				w = lb
				break
			}
		}
		if v, ok := pw.small(p, q, k); ok && !noSmallDecide {
			w = v // prune holds: decide implies it
			break
		}
		var err error
		if w, err = pw.solvePair(d, idx, a, b, p, q, tv, cur, lbv); err != nil {
			return err
		}
	default:
		if v, ok := pw.small(p, q, k); ok && prune {
			w = v
			break
		}
		var err error
		if w, err = pw.solvePair(d, idx, a, b, p, q, tv, cur, lbv); err != nil {
			return err
		}
	}
	if w > cur {
		pw.record(m, t, idx, w)
	}
	return nil
}

// known returns what the pair loop knows of pair idx of depth t: cur, a
// value such that a probe whose distance is at most cur changes nothing
// (the entry of m, or with decisions the smaller of the pair's threshold
// and the pass's largest value so far, which keeps Decisions.Max exact),
// and
// whether the pair is settled above the decision threshold.
func (pw *pairWorker) known(m partition.Matrix, t, idx int) (cur float64, settled bool) {
	if pw.dec == nil {
		cur = m.Data[idx]
		return cur, cur > pw.capped
	}
	c := pw.dec.code(t, idx)
	return min(pw.dec.upper(c), pw.top.load()), c == len(pw.dec.Eps)
}

// record raises pair idx of depth t to w: the entry of m, or with
// decisions the pair's code and the pass's largest value.
func (pw *pairWorker) record(m partition.Matrix, t, idx int, w float64) {
	if pw.dec == nil {
		m.Data[idx] = w
		return
	}
	pw.top.raise(w)
	pw.dec.mark(t, idx, w)
}

// exact returns W1(p, q), or cur once the simplex has a plan that shows
// this probe cannot raise the pair's maximum (with prune): cheaper than
// cur, or than lbv, another probe's lower bound, with the slack of
// cannotRaise.
func (pw *pairWorker) exact(p, q []float64, k int, cur, lbv float64, prune bool) (float64, error) {
	stop := 0.0
	if prune && !noEarlyStop {
		stop = max(cur, lbv) / (1 + boundSlack)
	}
	if stop <= 0 {
		return pw.w1.solve(p, q, k)
	}
	w, below, err := pw.w1.solveBelow(p, q, k, stop)
	if below {
		return cur, err
	}
	return w, err
}

// solvePair returns W1(p, q) for representatives a and b at this depth
// (tv their total variation), or a value that records the same decisions:
// cur when this probe cannot raise the pair (as exact), or, once the
// decisions need no exact value (brackets), a lower bound in the same
// bracket between listed ε as W1 itself.
func (pw *pairWorker) solvePair(d *depthPass, idx, a, b int, p, q []float64, tv, cur, lbv float64) (float64, error) {
	k, prune := d.k, d.prune
	if pw.dec != nil && prune && !noSeqBounds && !noBrackets {
		return pw.bracketPair(d, idx, a, b, p, q, tv, cur, lbv)
	}
	if !pw.brackets() || !prune {
		return pw.exact(p, q, k, cur, lbv, prune)
	}
	lb := pw.lowerBound(tv, pw.margOf(a, p, k), pw.margOf(b, q, k))
	if !(lb > cur) {
		return pw.exact(p, q, k, cur, lbv, prune)
	}
	// W1 ≥ lb lies above the thresholds below j: it is decided once it
	// is known to be at most the next one.
	j := pw.dec.bracket(lb)
	if j == len(pw.dec.thr) {
		return lb, nil // above the largest ε
	}
	next := pw.dec.thr[j]
	if pw.ub < 0 {
		pw.ub = pw.treeUpper(p, q, k)
	}
	ub := math.Min(float64(k)*pw.gmax*tv, pw.ub) * (1 + boundSlack)
	if ub <= next {
		return lb, nil
	}
	stop := max(next, lbv/(1+boundSlack))
	w, below, err := pw.w1.solveBelow(p, q, k, stop)
	if below {
		// W1 < next (in bracket j), or W1 < lbv: this probe is not the
		// family's maximum, and the bracket of lb holds for it.
		return lb, err
	}
	return w, err
}

// brackets reports whether the pair loop may record a lower bound in
// W1's bracket between the listed ε instead of W1: with decisions, once
// some worker recorded a value above the largest ε (the run's largest
// distance is then reported as the threshold, Result.MaxDistance, and no
// value below it needs to be exact).
func (pw *pairWorker) brackets() bool {
	return pw.dec != nil && pw.top.load() > pw.capped && !noBrackets
}

// noBrackets keeps solvePair to exact values (tests compare both ways).
var noBrackets = false

// noSmallDecide keeps small out of the decision branch (tests compare
// both ways).
var noSmallDecide = false

// noProbeSets keeps the law index's probe sets out of accumulate, which
// then skips only pairs whose two laws one probe met first (tests compare
// both ways).
var noProbeSets = false

// noEarlyStop turns exact's early stop off (tests compare both ways).
var noEarlyStop = false

// cannotRaise reports whether this probe's W1(p, q) cannot raise the
// pair's maximum over the family: an upper bound from couplings along
// shared prefixes and shared suffixes (treeUpper) is at most cur, the
// maximum so far, or below lbv, another probe's lower bound (the probe
// attaining it is solved, as in accumulate). The slack absorbs the
// rounding of the bound, so a skipped probe's value is below cur, never
// equal to it up to rounding.
func (pw *pairWorker) cannotRaise(p, q []float64, k int, cur, lbv float64) bool {
	if noTreeUpper || (cur <= 0 && lbv <= 0) {
		return false
	}
	pw.ub = pw.treeUpper(p, q, k)
	ub := pw.ub * (1 + boundSlack)
	return ub <= cur || ub < lbv
}

// treeUpper returns an upper bound on W1(p, q) under the additive
// sequence cost over length-k sequences: the smaller of the costs of two
// couplings. The first keeps mass within the longest shared prefix it
// can: two sequences that first differ at position k − r + 1 are at most
// r·max d_O apart, a tree (ultra)metric above the sequence cost, under
// which W1 is the greedy matching from the leaves up (at each node the
// surplus of p and the deficit of its children are matched, the rest
// passed up). The second does the same with shared suffixes. Each is
// O(|O|^k).
func (pw *pairWorker) treeUpper(p, q []float64, k int) float64 {
	nO := pw.tree.NumObs
	L := len(p)
	if cap(pw.ubuf) < L {
		pw.ubuf = make([]float64, L)
	}
	e := pw.ubuf[:L]
	tp, tq := 0.0, 0.0
	for x := range p {
		tp += p[x]
		tq += q[x]
	}
	scale := 1.0
	if tq != tp && tq > 0 {
		scale = tp / tq // as the solver: q is rescaled to p's total
	}
	fill := func() {
		for x, v := range p {
			e[x] = v - q[x]*scale
		}
	}
	// Shared prefixes: groups of |O| consecutive atoms differ in the
	// last position only.
	fill()
	prefix := 0.0
	n := L
	for r := 1; n > 1; r++ {
		m := 0.0
		for g := 0; g < n/nO; g++ {
			pos, neg := 0.0, 0.0
			for _, v := range e[g*nO : (g+1)*nO] {
				if v > 0 {
					pos += v
				} else {
					neg -= v
				}
			}
			m += float64(r) * min(pos, neg)
			e[g] = pos - neg
		}
		prefix += m
		n /= nO
	}
	prefix += float64(k) * math.Abs(e[0]) // rounding dust of the totals
	// Shared suffixes: atoms x + j·stride differ in the first position
	// only.
	fill()
	suffix := 0.0
	for r, stride := 1, L/nO; stride >= 1; r, stride = r+1, stride/nO {
		m := 0.0
		for y := 0; y < stride; y++ {
			pos, neg := 0.0, 0.0
			for j := 0; j < nO; j++ {
				if v := e[y+j*stride]; v > 0 {
					pos += v
				} else {
					neg -= v
				}
			}
			m += float64(r) * min(pos, neg)
			e[y] = pos - neg
		}
		suffix += m
		if stride == 1 {
			break
		}
	}
	suffix += float64(k) * math.Abs(e[0])
	return pw.gmax * min(prefix, suffix)
}

// noTreeUpper turns cannotRaise off (tests compare both ways).
var noTreeUpper = false

// negligible is the upper bound on W1 below which a pair is not solved.
const negligible = 1e-14

func totalVariation(p, q []float64) float64 {
	s := 0.0
	q = q[:len(p)] // one bounds check, not one per atom
	for i, x := range p {
		s += math.Abs(x - q[i])
	}
	return s / 2
}

// sharedMax is the largest value the workers of one distances pass
// recorded (and the pivot pass's lower bound on the largest distance),
// float64 bits raised atomically. It is shared, not kept per worker: a
// worker that meets only pairs other workers already settled records
// nothing, and with a maximum of its own stuck at 0 it could neither
// stop a solve early (known) nor record brackets (brackets), and solved
// every later pair exactly. Which worker settles a pair depends on the
// schedule; with a private maximum, so did the work (two workers on a
// model with 28 observations, T = 4: 25× one worker's time, 35× apart
// between identical runs).
type sharedMax struct{ bits atomic.Uint64 }

// newSharedMax returns a sharedMax holding v (≥ 0).
func newSharedMax(v float64) *sharedMax {
	m := &sharedMax{}
	m.bits.Store(math.Float64bits(v))
	return m
}

// load returns the largest value raised so far.
func (m *sharedMax) load() float64 { return math.Float64frombits(m.bits.Load()) }

// raise sets the value to max(value, w).
func (m *sharedMax) raise(w float64) {
	for {
		old := m.bits.Load()
		if !(w > math.Float64frombits(old)) || m.bits.CompareAndSwap(old, math.Float64bits(w)) {
			return
		}
	}
}
