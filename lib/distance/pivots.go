package distance

import (
	"context"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
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
// at every ε in bulk, then sorts the representatives along the most
// selective coordinate and, sweeping a window of the threshold's width,
// clears the pairs within the threshold in every coordinate: the
// candidates. The pair loop then visits the candidates only
// (pairWorker.undecidedPairs), with the same per-pair logic: a candidate
// ends with the decision it would have had, and every other pair is apart
// at every ε, as the loop would have found. The partitions are those of
// the full loop, bit for bit (TestPivotsKeepDecisions).

// pivotMinClasses is the smallest class count of a depth at which the
// pivot pass applies: below it the pair loop is cheap.
var pivotMinClasses = 1024 // a variable so that tests can apply the pass everywhere

// noPivots turns the pivot pass off (tests compare both ways).
var noPivots = false

// pivotMargin is the absolute slack by which a coordinate gap must exceed
// the threshold for a pair to be settled without a visit: it absorbs the
// rounding of the coordinates and of the pair loop's own values.
const pivotMargin = 1e-9

// pivotLanes is the number of checking columns the sweep keeps in
// float32, column by column, for its scan of the window.
const pivotLanes = 4

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
// representative, probe, suffix position and observation, twice (the
// sweep sorts a copy), and the sweep's order, primary column and float32
// checking columns.
func pivotCoordBytes(classes []int, T, nO, probes int) int64 {
	var b int64
	for t := 0; t < T && t < len(classes); t++ {
		n := int64(classes[t])
		if n < 2 || n < int64(pivotMinClasses) {
			continue
		}
		b += 2*8*n*int64(probes)*int64(T-t)*int64(nO) + (12+4*pivotLanes)*n
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
	pws := make([]*pairWorker, r.workers)
	err := r.pool(ctx, idx, func(w int) {
		pws[w] = newPairWorker(r.g, r.tree, r.opt.Metric)
	}, func(w, p int, laws *law.Laws) error {
		for t, x := range coords {
			if x != nil {
				pws[w].coordinates(x, laws, r.reps[t], t, p, P, gmin)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The pass's peak: every depth's coordinates, and one sweep's copy.
	var held, sweepMax int64
	for t, x := range coords {
		n := int64(len(r.reps[t]))
		held += 8 * int64(len(x))
		if x != nil {
			sweepMax = max(sweepMax, 8*int64(len(x))+(12+4*pivotLanes)*n)
		}
	}
	r.pivotBytes = held + sweepMax
	for t, x := range coords {
		if x != nil {
			dim := P * (r.T - t) * nO
			coords[t] = nil
			if err := r.sweep(ctx, t, x, dim); err != nil {
				return nil, err
			}
		}
	}
	return on, nil
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
// pivotMargin) in every coordinate, cleared. The rows are sorted along
// the coordinate with the fewest pairs within the window, the others
// checked most selective first; the sorted range is split between the
// workers.
func (r *runner) sweep(ctx context.Context, t int, x []float64, dim int) error {
	n := len(r.reps[t])
	win := r.capped + pivotMargin
	order := pivotColumns(x, n, dim, win)
	// Rows with the columns in checking order, sorted along the first.
	rows := make([]int32, n)
	for a := range rows {
		rows[a] = int32(a)
	}
	slices.SortFunc(rows, func(a, b int32) int {
		u, v := x[int(a)*dim+order[0]], x[int(b)*dim+order[0]]
		switch {
		case u < v:
			return -1
		case u > v:
			return 1
		}
		return int(a - b)
	})
	z := make([]float64, n*dim)
	for i, a := range rows {
		src, dst := x[int(a)*dim:(int(a)+1)*dim], z[i*dim:(i+1)*dim]
		for c, col := range order {
			dst[c] = src[col]
		}
	}
	x = nil // the caller holds no other reference: the copy replaces it
	// Every pair apart at every ε, then the candidates cleared.
	planes := r.dec.Apart[t]
	pairs := int64(n) * int64(n-1) / 2
	for _, pl := range planes {
		for w := range pl.Bits {
			pl.Bits[w] = ^uint64(0)
		}
		if tail := pairs & 63; tail != 0 {
			pl.Bits[len(pl.Bits)-1] = 1<<tail - 1
		}
	}
	// The first checking columns again, column by column in float32: the
	// window's scan streams through them, and the rows it keeps are
	// checked in full (z, float64). The float32 test is looser by more
	// than its rounding, so it never drops a pair the full check keeps.
	lanes := min(pivotLanes, dim-1)
	pri := make([]float64, n)
	f := make([][]float32, lanes)
	for c := range f {
		f[c] = make([]float32, n)
	}
	maxAbs := 0.0
	for i := 0; i < n; i++ {
		pri[i] = z[i*dim]
		for c := range f {
			f[c][i] = float32(z[i*dim+1+c])
		}
		for _, v := range z[i*dim : (i+1)*dim] {
			maxAbs = max(maxAbs, math.Abs(v))
		}
	}
	w32 := float32(win + 1e-6*(maxAbs+win))
	var cand atomic.Int64
	var wg sync.WaitGroup
	workers := max(1, r.workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var c int64
			fi := make([]float32, lanes)
			end := 0 // the window's end: rows j with pri[j] − pri[i] ≤ win before it
			// Interleaved rows balance the triangle's work.
			for i := w; i < n; i += workers {
				if (i/workers)%1024 == 0 && ctx.Err() != nil {
					return
				}
				for end < n && pri[end]-pri[i] <= win {
					end++
				}
				for l := range fi {
					fi[l] = f[l][i]
				}
				zi := z[i*dim+1 : (i+1)*dim]
			next:
				for j := i + 1; j < end; j++ {
					for l, v := range fi {
						if d := f[l][j] - v; d > w32 || d < -w32 {
							continue next
						}
					}
					if !within(zi, z[j*dim+1:(j+1)*dim], win) {
						continue
					}
					a, b := int(rows[i]), int(rows[j])
					k := planes[0].Index(a, b)
					m := ^(uint64(1) << (k & 63))
					for _, pl := range planes {
						atomic.AndUint64(&pl.Bits[k>>6], m)
					}
					c++
				}
			}
			cand.Add(c)
		}(w)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	r.pivotCandidates += cand.Load()
	if cand.Load() < pairs {
		// Some pair is apart at every ε: a coordinate's range, a lower
		// bound on the distance of its two end rows, exceeds the
		// threshold; it stands for the maximum (reported as the
		// threshold, MaxDistanceExact false, as the pair loop would).
		r.dec.Max = max(r.dec.Max, columnRange(z, n, dim))
	}
	return nil
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
	for c := 0; c < dim; c++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for a := 0; a < n; a++ {
			lo, hi = min(lo, x[a*dim+c]), max(hi, x[a*dim+c])
		}
		best = max(best, hi-lo)
	}
	return best
}

// pivotColumns returns the columns of x (n rows of dim) by increasing
// number of row pairs within win of each other: the first is the one to
// sort along, the rest the order in which to check them.
func pivotColumns(x []float64, n, dim int, win float64) []int {
	count := make([]int64, dim)
	col := make([]float64, n)
	for c := range count {
		for a := range col {
			col[a] = x[a*dim+c]
		}
		slices.Sort(col)
		j := 0
		for i := range col {
			for j < n && col[j]-col[i] <= win {
				j++
			}
			count[c] += int64(j - i - 1)
		}
	}
	order := make([]int, dim)
	for c := range order {
		order[c] = c
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case count[a] < count[b]:
			return -1
		case count[a] > count[b]:
			return 1
		}
		return 0
	})
	return order
}
