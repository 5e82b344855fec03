package distance

import (
	"cmp"
	"context"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// The pivot pass decides, before any pair is compared, most pairs of the
// depths with many classes: those whose laws are far apart under some
// probe. It works in coordinates that no probe's W1 can stretch: for a
// law p of total mass m over length-k suffixes, its one-step marginal p_s
// and an observation o,
//
//	x_{s,o}(p) = gmin·(p_s(o) − m/2)
//
// is 1-Lipschitz, |x(p) − x(q)| ≤ gmin·TV(p_s, q_s) ≤ gmin·TV(p, q) ≤
// W1(p, q), gmin the smallest off-diagonal ground distance (moving any
// mass costs at least gmin; the p_s(o) − m/2 = (p_s(o) − p_s(¬o))/2 form
// keeps the bound for laws of unequal mass). A pair with one coordinate,
// of one probe, farther apart than the largest threshold is apart at
// every listed ε: its d^Π, the maximum over the probes, exceeds it.
//
// The pass computes every probe's coordinates of every representative
// (one law pass per probe, no pair), marks every pair of the depth apart
// at every ε in bulk, then clears the pairs within the threshold in every
// coordinate, the candidates, found by a recursive join that cuts the
// representatives along their widest coordinate (joiner) and never
// compares two rows on either side of a cut farther apart than the
// threshold. The pair loop then visits the candidates only
// (pairWorker.undecidedPairs), with the same per-pair logic: a candidate
// ends with the decision it would have had, and every other pair is apart
// at every ε, as the loop would have found. At the last depth under a
// uniform ground metric the join decides the candidates itself
// (settleLast, joiner.settle) and the loop skips the depth. The
// partitions are those of the full loop, bit for bit
// (TestPivotsKeepDecisions).

// pivotMinClasses is the smallest class count of a depth at which the
// pivot pass applies: below it the pair loop is cheap.
var pivotMinClasses = 1024 // a variable so that tests can apply the pass everywhere

// noPivots turns the pivot pass off (tests compare both ways).
var noPivots = false

// pivotMargin is the absolute slack by which a coordinate gap must exceed
// the threshold for a pair to be settled without a visit: it absorbs the
// rounding of the coordinates and of the pair loop's own values.
const pivotMargin = 1e-9

// groundMin returns the smallest off-diagonal entry of g (0 when there is
// none).
func groundMin(g ot.Ground) float64 {
	gmin := math.Inf(1)
	for i := range g {
		for j := range g[i] {
			if i != j {
				gmin = min(gmin, g[i][j])
			}
		}
	}
	if math.IsInf(gmin, 1) {
		return 0
	}
	return gmin
}

// pivotDepths returns, per depth, whether the pivot pass applies: a
// decision-mode W1 run (Decisions, a finite threshold) and at least
// pivotMinClasses classes; nil when no depth qualifies.
func (r *runner) pivotDepths() []bool {
	if noPivots || r.dec == nil || math.IsInf(r.capped, 1) || r.opt.Metric != W1 || r.opt.Tensor || groundMin(r.g) <= 0 {
		return nil
	}
	var on []bool
	for t := 0; t < r.T; t++ {
		if n := len(r.reps[t]); n >= 2 && n >= pivotMinClasses {
			if on == nil {
				on = make([]bool, r.T+1)
			}
			on[t] = true
		}
	}
	return on
}

// pivotCoordBytes returns the memory of the pivot pass's coordinates over
// the given class counts: per depth it applies to, a coordinate per
// representative, probe, suffix position and observation (float64, and at
// most as many in the join's float32 copy), and the row lists of the
// join; at the last depth also the laws the join decides its pairs from
// (settleLast: a float64 per representative, probe and observation,
// counted whether or not the ground metric lets it apply).
func pivotCoordBytes(classes []int, T, nO, probes int) int64 {
	var b int64
	for t := 0; t < T && t < len(classes); t++ {
		n := int64(classes[t])
		if n < 2 || n < int64(pivotMinClasses) {
			continue
		}
		b += 12*n*int64(probes)*int64(T-t)*int64(nO) + 64*n
		if t == T-1 {
			b += 8 * n * int64(probes) * int64(nO)
		}
	}
	return b
}

// pivots runs the pivot pass over the family members idx at the depths
// of pivotDepths and returns those depths (nil: none). Their decisions
// then hold every pair apart at every ε except the candidates, clear.
func (r *runner) pivots(ctx context.Context, idx []int) ([]bool, error) {
	on := r.pivotDepths()
	if on == nil {
		return nil, nil
	}
	P, nO, gmin := len(idx), r.tree.NumObs, groundMin(r.g)
	coords := make([][]float64, r.T)
	for t, ok := range on[:r.T] {
		if ok {
			coords[t] = make([]float64, len(r.reps[t])*P*(r.T-t)*nO)
		}
	}
	// The last depth's laws, every probe's side by side, when the join
	// decides its pairs itself (settleLast).
	var last []float64
	if r.settleLast(on) {
		last = make([]float64, len(r.reps[r.T-1])*P*nO)
	}
	pws := make([]*pairWorker, r.workers)
	err := r.pool(ctx, idx, func(w int) {
		pws[w] = newPairWorker(r.g, r.tree, r.opt.Metric)
	}, func(w, p int, laws *law.Laws) error {
		for t, x := range coords {
			if x != nil {
				pws[w].coordinates(x, laws, r.reps[t], t, p, P, gmin)
			}
		}
		if last != nil {
			copyLaws(last, laws.Depth(r.T-1), r.reps[r.T-1], p, P, nO)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The pool's law buffers (one set per worker, the largest term of the
	// estimate after the decisions) are garbage now: collect them before
	// the join allocates and the distances pass takes new ones, or the
	// collector's headroom (twice the live heap) lets both sets and the
	// join's row lists stand at once, above the estimate.
	pws = nil
	runtime.GC()
	defer runtime.GC()
	held := 8 * int64(len(last))
	for _, x := range coords {
		held += 8 * int64(len(x))
	}
	defer func() { r.pivotBytes = held + r.pivotSweep }()
	for t, x := range coords {
		if x != nil {
			dim := P * (r.T - t) * nO
			coords[t] = nil
			var lt []float64
			if t == r.T-1 {
				lt = last
			}
			if err := r.sweep(ctx, t, x, dim, lt); err != nil {
				return nil, err
			}
		}
	}
	return on, nil
}

// settleLast reports whether the pivot pass decides the pairs of the
// last depth (t = T − 1, one observation left) itself, given the depths
// it applies to: under a uniform ground metric the pair loop's distance
// there is max d_O·TV (pairWorker.pair), which the join computes from
// the laws of every probe at once, for the candidates only. The bounds
// pass must have left that depth alone (its lower bounds come first in
// the pair loop).
func (r *runner) settleLast(on []bool) bool {
	t := r.T - 1
	if t < 0 || !on[t] || noSettleLast || !evenGround(r.g) {
		return false
	}
	return r.lb == nil || r.lb[t].Data == nil
}

// noSettleLast keeps the pivot pass from deciding the last depth itself
// (tests compare both ways).
var noSettleLast = false

// evenGround reports whether every off-diagonal entry of g equals its
// largest entry (the discrete metric, scaled), as pairWorker.uniform.
func evenGround(g ot.Ground) bool {
	gmax := g.Max()
	for i := range g {
		for j := range g[i] {
			if i != j && g[i][j] != gmax {
				return false
			}
		}
	}
	return true
}

// copyLaws writes probe p's laws of the representatives rt (one
// observation left: nO atoms each in data) into dst, row a holding the
// P probes' laws side by side, probe p's at p·nO.
func copyLaws(dst, data []float64, rt []int, p, P, nO int) {
	for a, i := range rt {
		copy(dst[(a*P+p)*nO:(a*P+p+1)*nO], data[i*nO:(i+1)*nO])
	}
}

// coordinates writes probe p's coordinates of depth t's representatives
// into x: row a (dim = P·k·|O| entries) holds the P probes' blocks of k·|O|
// coordinates x_{s,o}, probe p's at p·k·|O|.
func (pw *pairWorker) coordinates(x []float64, laws *law.Laws, rt []int, t, p, P int, gmin float64) {
	k := pw.tree.T - t
	L := pw.tree.SuffixLen(t)
	kn := k * pw.tree.NumObs
	data := laws.Depth(t)
	marg := pw.marginals(data, rt, L, k)
	for a, i := range rt {
		m := 0.0
		for _, v := range data[i*L : (i+1)*L] {
			m += v
		}
		dst := x[(a*P+p)*kn : (a*P+p+1)*kn]
		for j, v := range marg[a*kn : (a+1)*kn] {
			dst[j] = gmin * (v - m/2)
		}
	}
}

// sweep decides depth t from the coordinates x (n rows of dim): every
// pair apart at every ε, except the pairs within the threshold (plus
// pivotMargin) in every coordinate, cleared. The candidates are found by
// a recursive self-join (joiner): split the rows at the middle of their
// widest coordinate, join each half with itself and the two halves'
// rows near the cut with each other. Coordinates whose whole range is
// within the threshold separate no pair and are left out; the join runs
// on the others in float32, with a slack above their rounding, and every
// pair it keeps is confirmed on the float64 coordinates.
//
// With last (the laws of every probe at the last depth, copyLaws), the
// join also decides each candidate as the pair loop would (joiner.code)
// and marks the depth settled: the pair loop skips it.
func (r *runner) sweep(ctx context.Context, t int, x []float64, dim int, last []float64) error {
	n := len(r.reps[t])
	win := r.capped + pivotMargin
	var active []int
	maxAbs := 0.0
	los, his := columnBounds(x, n, dim)
	for c := 0; c < dim; c++ {
		lo, hi := los[c], his[c]
		// x_a − x_b ≤ hi − lo in floating point too (rounding is
		// monotone): such a coordinate keeps every pair within win.
		if hi-lo > win {
			active = append(active, c)
			maxAbs = max(maxAbs, math.Abs(lo), math.Abs(hi))
		}
	}
	// Widest columns first: the comparisons of a pair stop at the
	// first coordinate apart, which a wide column finds sooner.
	slices.SortStableFunc(active, func(c, e int) int { return cmp.Compare(his[e]-los[e], his[c]-los[c]) })
	pairs := int64(n) * int64(n-1) / 2
	if len(active) == 0 {
		r.pivotCandidates += pairs // every pair is a candidate: bits stay clear
		return nil
	}
	planes := r.dec.Apart[t]
	for _, pl := range planes {
		for w := range pl.Bits {
			pl.Bits[w] = ^uint64(0)
		}
		if tail := pairs & 63; tail != 0 {
			pl.Bits[len(pl.Bits)-1] = 1<<tail - 1
		}
	}
	da := len(active)
	z := make([]float32, n*da)
	r.pivotSweep = max(r.pivotSweep, 4*int64(len(z)))
	for a := 0; a < n; a++ {
		for i, c := range active {
			z[a*da+i] = float32(x[a*dim+c])
		}
	}
	j := &joiner{ctx: ctx, z: z, dim: da, win: float32(win + 1e-6*(maxAbs+win)),
		x: x, xdim: dim, active: active, xwin: win,
		planes: planes, limit: int32(max(1, r.workers))}
	j.busy.Store(1) // the caller
	if last != nil {
		// Some coordinate spreads beyond the threshold (active): the
		// pass's maximum is above it (below), so the pair loop would
		// record every candidate's bracket and no exact maximum.
		j.laws, j.nO, j.probes, j.gmax, j.thr = last, r.tree.NumObs, dim/r.tree.NumObs, r.g.Max(), r.dec.thr
	}
	j.scratch.New = func() any {
		b := make([]float32, 2*da)
		return &b
	}
	rows := make([]int32, n)
	for a := range rows {
		rows[a] = int32(a)
	}
	j.self(rows)
	j.busy.Add(-1) // the caller only waits now
	j.wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	cand := j.found.Load()
	r.pivotCandidates += cand
	if last != nil {
		if r.settled == nil {
			r.settled = make([]bool, r.T+1)
		}
		r.settled[t] = true
	}
	if cand < pairs {
		// Some pair is apart at every ε: a coordinate's range, a lower
		// bound on the distance of its two end rows, exceeds the
		// threshold; it stands for the maximum (reported as the
		// threshold, MaxDistanceExact false, as the pair loop would).
		r.dec.Max = max(r.dec.Max, columnRange(x, n, dim))
	}
	return nil
}

// joiner finds the pairs of rows of z (dim coordinates each, float32)
// within win of each other in every coordinate, confirms them on the
// float64 coordinates x (xdim each, the columns active, within xwin) and
// clears their bits in planes. It cuts the rows by a coordinate: a pair
// with a row on each side of the cut is within win only if both rows are
// within win of the other side's nearest row, so only those rows are
// joined across the cut.
type joiner struct {
	ctx    context.Context
	z      []float32
	dim    int
	win    float32
	x      []float64
	xdim   int
	active []int
	xwin   float64
	planes []partition.Apart
	// laws, when set, are the last depth's laws (probes rows of nO atoms
	// per row, copyLaws): keep then decides each candidate (code) with
	// the thresholds thr under the uniform ground max gmax.
	laws       []float64
	nO, probes int
	gmax       float64
	thr        []float64
	found      atomic.Int64
	// busy counts the goroutines of the join at work (not waiting for
	// another), at most limit (the workers) but for the moment one
	// stops waiting: a goroutine starts another only below it.
	busy  atomic.Int32
	limit int32
	wg    sync.WaitGroup
	// scratch holds widest's buffers (2·dim floats): the join allocates
	// nothing per node but self's row lists, so that the collector's
	// headroom does not double the heap of decisions it runs beside.
	scratch sync.Pool
}

// joinLeaf is the size (rows, or pairs of rows across a cut) below which
// the joiner compares every pair.
const joinLeaf = 32

func (j *joiner) row(a int32) []float32 { return j.z[int(a)*j.dim : (int(a)+1)*j.dim] }

// keep confirms the pair (a, b) on the float64 coordinates and clears its
// bits: it is a candidate.
func (j *joiner) keep(a, b int32) bool {
	if j.laws != nil {
		return j.settle(a, b)
	}
	xa, xb := j.x[int(a)*j.xdim:], j.x[int(b)*j.xdim:]
	for _, c := range j.active {
		if math.Abs(xa[c]-xb[c]) > j.xwin {
			return false
		}
	}
	k := j.planes[0].Index(int(a), int(b))
	m := ^(uint64(1) << (k & 63))
	for _, pl := range j.planes {
		atomic.AndUint64(&pl.Bits[k>>6], m)
	}
	return true
}

// settle is keep at a depth the join decides itself (laws set): it
// clears the pair's bits above its code, and reports whether the code
// is below the top (a pair within the largest threshold). A pair whose
// code is the top keeps every bit, as keep leaves a pair the float64
// coordinates put beyond the threshold; no confirmation is needed: a
// coordinate gap is at most min d_O·TV ≤ max d_O·TV, and the margin
// between them (pivotMargin) is far above the rounding of either, so
// every pair keep would reject has the top code here.
func (j *joiner) settle(a, b int32) bool {
	from := j.code(a, b)
	if from == len(j.planes) {
		return false
	}
	k := j.planes[0].Index(int(a), int(b))
	m := ^(uint64(1) << (k & 63))
	for _, pl := range j.planes[from:] {
		atomic.AndUint64(&pl.Bits[k>>6], m)
	}
	return true
}

// code returns the decision code the pair loop gives the pair (a, b) of
// the last depth (pairWorker.pair, one observation left, uniform
// ground): the bracket of the largest max d_O·TV over the probes,
// computed as there (the same expression on the same laws, so the same
// bits).
func (j *joiner) code(a, b int32) int {
	w := j.probes * j.nO
	la, lb := j.laws[int(a)*w:(int(a)+1)*w], j.laws[int(b)*w:(int(b)+1)*w]
	c := 0
	for p := 0; p < j.probes && c < len(j.thr); p++ {
		v := j.gmax * totalVariation(la[p*j.nO:(p+1)*j.nO], lb[p*j.nO:(p+1)*j.nO])
		for c < len(j.thr) && v > j.thr[c] {
			c++
		}
	}
	return c
}

// widestSample is the number of rows from which widest picks the
// coordinate of a large set: scanning every row in every coordinate at
// every node of the join cost more than the comparisons (hallway T = 5:
// 19 of 96 CPU s; 8 of 59 s sampling 128 rows above 256).
const widestSample = 32

// widest returns the coordinate, outside excl, of largest spread over the
// rows of a and b, with its smallest and largest value (c < 0: no
// coordinate left). Over more than twice widestSample rows it picks the
// coordinate of largest spread over widestSample of them, evenly
// spaced, and returns its spread over all rows; when that is within win,
// which would end the join's cutting, it scans every row after all. The
// coordinate only steers the cuts: the pairs found are the same.
func (j *joiner) widest(a, b []int32, excl []int) (c int, lo, hi float32) {
	n := len(a) + len(b)
	if n <= 2*widestSample {
		return j.widestOf(a, b, excl, 1)
	}
	c, _, _ = j.widestOf(a, b, excl, n/widestSample)
	if c < 0 {
		return c, 0, 0
	}
	lo, hi = float32(math.Inf(1)), float32(math.Inf(-1))
	for _, set := range [2][]int32{a, b} {
		for _, r := range set {
			v := j.z[int(r)*j.dim+c]
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi-lo <= j.win {
		return j.widestOf(a, b, excl, 1)
	}
	return c, lo, hi
}

// widestOf is widest over every step-th row of a and b (a's first).
func (j *joiner) widestOf(a, b []int32, excl []int, step int) (c int, lo, hi float32) {
	buf := j.scratch.Get().(*[]float32)
	defer j.scratch.Put(buf)
	mins, maxs := (*buf)[:j.dim], (*buf)[j.dim:2*j.dim]
	for i := range mins {
		mins[i], maxs[i] = float32(math.Inf(1)), float32(math.Inf(-1))
	}
	for _, set := range [2][]int32{a, b} {
		for x := 0; x < len(set); x += step {
			for i, v := range j.row(set[x]) {
				mins[i] = min(mins[i], v)
				maxs[i] = max(maxs[i], v)
			}
		}
	}
	c, lo, hi = -1, 0, float32(math.Inf(-1))
	for i := range mins {
		if maxs[i]-mins[i] > hi-lo && !slices.Contains(excl, i) {
			c, lo, hi = i, mins[i], maxs[i]
		}
	}
	return c, lo, hi
}

// acquire reports whether a new goroutine may start (busy is then
// counted up for it).
func (j *joiner) acquire() bool {
	if j.busy.Add(1) <= j.limit {
		return true
	}
	j.busy.Add(-1)
	return false
}

// spawn runs f on a new goroutine when fewer than limit are at work,
// or here.
func (j *joiner) spawn(f func()) {
	if !j.acquire() {
		f()
		return
	}
	j.wg.Add(1)
	go func() {
		defer j.wg.Done()
		defer j.busy.Add(-1)
		f()
	}()
}

// self joins the rows s with themselves.
func (j *joiner) self(s []int32) {
	if len(s) < 2 || j.ctx.Err() != nil {
		return
	}
	if len(s) <= joinLeaf {
		j.brute(s, s, true)
		return
	}
	c, lo, hi := j.widest(s, nil, nil)
	if hi-lo <= j.win {
		j.brute(s, s, true)
		return
	}
	mid := lo + (hi-lo)/2
	// Partition in place: the rows at most mid first (lo's row among
	// them, hi's row after: both halves are smaller).
	k := 0
	for x, r := range s {
		if j.row(r)[c] <= mid {
			s[k], s[x] = s[x], s[k]
			k++
		}
	}
	left, right := s[:k], s[k:]
	// Copies: the halves are joined with themselves meanwhile, perhaps
	// on another goroutine, and reorder their rows.
	a, b := j.nearCut(slices.Clone(left), slices.Clone(right), c)
	if len(s) >= 4096 {
		j.spawn(func() { j.self(left) })
	} else {
		j.self(left)
	}
	j.self(right)
	j.cross(a, b, []int{c})
}

// nearCut returns the rows of left (at most the cut in coordinate c) and
// of right (above it) that can be within win of a row on the other side:
// prefixes of left and right, whose rows it reorders.
func (j *joiner) nearCut(left, right []int32, c int) ([]int32, []int32) {
	lmax, rmin := float32(math.Inf(-1)), float32(math.Inf(1))
	for _, r := range left {
		lmax = max(lmax, j.row(r)[c])
	}
	for _, r := range right {
		rmin = min(rmin, j.row(r)[c])
	}
	a := j.front(left, func(v float32) bool { return rmin-v <= j.win }, c)
	b := j.front(right, func(v float32) bool { return v-lmax <= j.win }, c)
	return a, b
}

// front moves the rows of s whose coordinate c satisfies keep to its
// front and returns them.
func (j *joiner) front(s []int32, keep func(float32) bool, c int) []int32 {
	k := 0
	for x, r := range s {
		if keep(j.row(r)[c]) {
			s[k], s[x] = s[x], s[k]
			k++
		}
	}
	return s[:k]
}

// cross joins the rows of a with those of b (disjoint sets). excl lists
// coordinates a cut already used for these two sets. It reorders the
// rows of a and b in place (no goroutine shares them).
func (j *joiner) cross(a, b []int32, excl []int) {
	if len(a) == 0 || len(b) == 0 || j.ctx.Err() != nil {
		return
	}
	if len(a)*len(b) <= joinLeaf*joinLeaf {
		j.brute(a, b, false)
		return
	}
	c, lo, hi := j.widest(a, b, excl)
	if c < 0 || hi-lo <= j.win {
		j.brute(a, b, false)
		return
	}
	mid := lo + (hi-lo)/2
	below := func(v float32) bool { return v <= mid }
	alo := j.front(a, below, c)
	ahi := a[len(alo):]
	blo := j.front(b, below, c)
	bhi := b[len(blo):]
	// Same side of the cut: smaller sets (the spread's ends are on
	// either side), free to cut by c again.
	big := int64(len(a))*int64(len(b)) >= crossSplit
	j.both(big, func() { j.cross(alo, blo, nil) }, func() { j.cross(ahi, bhi, nil) })
	// Across the cut: the rows near it, cut by another coordinate next.
	// (The two joins share no rows: each may run on its own goroutine.)
	more := append(slices.Clip(excl), c)
	j.both(big, func() {
		x, y := j.nearCut(alo, bhi, c)
		j.cross(x, y, more)
	}, func() {
		x, y := j.nearCut(blo, ahi, c)
		j.cross(x, y, more)
	})
}

// crossSplit is the size (pairs of rows) from which cross runs its two
// independent halves on two goroutines when one is free: a single
// cross of the root's halves can be most of the join.
const crossSplit = 1 << 20

// both runs f and g, f on a new goroutine when par is set and fewer
// than limit are at work, and returns when both are done; while it
// waits for f it does not count as busy, so that f's own joins may use
// its core. f and g must share no rows.
func (j *joiner) both(par bool, f, g func()) {
	if !par || !j.acquire() {
		f()
		g()
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer j.busy.Add(-1)
		f()
	}()
	g()
	j.busy.Add(-1)
	<-done
	j.busy.Add(1)
}

// brute compares every pair of a × b (of a with itself, a's pairs once,
// when self).
func (j *joiner) brute(a, b []int32, self bool) {
	var found int64
	for x, r := range a {
		zr := j.row(r)
		if self {
			b = a[x+1:]
		}
	next:
		for _, q := range b {
			zq := j.row(q)
			for i, v := range zr {
				if d := v - zq[i]; d > j.win || d < -j.win {
					continue next
				}
			}
			if j.keep(r, q) {
				found++
			}
		}
	}
	j.found.Add(found)
}

// within reports whether every |u_c − v_c| ≤ win.
func within(u, v []float64, win float64) bool {
	for c, a := range u {
		if math.Abs(a-v[c]) > win {
			return false
		}
	}
	return true
}

// columnRange returns the largest max − min of a column of x (n rows of
// dim).
func columnRange(x []float64, n, dim int) float64 {
	best := 0.0
	los, his := columnBounds(x, n, dim)
	for c := range los {
		best = max(best, his[c]-los[c])
	}
	return best
}

// columnBounds returns the smallest and largest value of each column of
// x (n rows of dim), in one pass over the rows.
func columnBounds(x []float64, n, dim int) (los, his []float64) {
	los, his = make([]float64, dim), make([]float64, dim)
	for c := range los {
		los[c], his[c] = math.Inf(1), math.Inf(-1)
	}
	for a := 0; a < n; a++ {
		for c, v := range x[a*dim : (a+1)*dim] {
			los[c], his[c] = min(los[c], v), max(his[c], v)
		}
	}
	return los, his
}
