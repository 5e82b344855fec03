package distance

import (
	"cmp"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/ot"
)

// candidate is a pair whose bracket between listed ε the bounds settled
// (its decisions are marked) but whose W1 may exceed the run's largest
// distance so far, which must stay exact below the largest ε: ub is its
// upper bound.
type candidate struct {
	a, b, idx int
	ub        float64
}

// noSeqBounds keeps bracketPair out of the pair loop: every pair that
// reaches solvePair is solved as before (tests compare both ways).
// bracketPair extends the brackets, so noBrackets keeps it out too.
var noSeqBounds = false

// bracketPair is solvePair in a compact decision-mode run
// (docs/algorithms.md#suffix-laws-without-the-full-support). A probe's W1
// matters through its bracket between consecutive listed ε (the bits it
// marks) and, while the run's largest distance is below the largest ε,
// through that maximum. It brackets W1 between a lower bound (the
// one-step marginals; then, for k ≥ 3, the laws of the first and of the
// last k − 1 observations with the remaining marginal,
// ot.Solver.WindowLowerBound) and an upper bound (the smallest of
// k·max d_O·TV, the ultrametric treeUpper and the sequential coupling
// ot.Solver.TreeCoupling). When both ends lie in one bracket the pair is
// decided: the lower bound is returned (it marks the same bits as W1)
// when W1 cannot raise the maximum, and otherwise the bits are marked
// now and the pair is kept for resolve. Only pairs the bounds leave
// undecided are solved here, stopping early below the bracket's end.
func (pw *pairWorker) bracketPair(d *depthPass, idx, a, b int, p, q []float64, tv, cur, lbv float64) (float64, error) {
	k := d.k
	// The lower bounds come from other solvers than the exact path's and
	// can round one step above a W1 that equals a listed ε: they are
	// lowered by the slack the upper bounds are raised by.
	lo := pw.lowerBound(tv, pw.margOf(a, p, k), pw.margOf(b, q, k)) / (1 + boundSlack)
	if pw.ub < 0 {
		pw.ub = pw.treeUpper(p, q, k)
	}
	ub := math.Min(float64(k)*pw.gmax*tv, pw.ub) * (1 + boundSlack)
	// A bracket at or below the pair's code (what earlier probes
	// showed) changes no bit: j is the larger of the two.
	code := pw.dec.code(d.t, idx)
	j := max(pw.dec.bracket(lo), code)
	next := pw.dec.upper(j)
	// The bounds from the cheapest up, each only when the ones before
	// leave the pair open. The tree coupling and the windows cost up to
	// (2|O|)^{k−1}·|O| and two solves over |O|^{k−1} sequences: they are
	// tried only on problems larger than denseArcs, which the solver
	// would send to the product graph (on hallway T = 5 they made the
	// distances phase 40 % slower on problems the simplex solves at once).
	big := k > 1 && ot.ResidualArcs(p, q) > max(denseArcs, 0)
	for step := 0; ; step++ {
		if ub <= cur || ub < lbv {
			return cur, nil // cannot change the pair's bits or the maximum
		}
		if ub <= next {
			if pw.brackets() || lo > pw.capped || ub <= pw.top.load() {
				return lo, nil // the bits of W1; lo ≤ W1 raises no maximum wrongly
			}
			if step == 2 || k == 1 {
				pw.dec.mark(d.t, idx, lo)
				pw.cands = append(pw.cands, candidate{a: a, b: b, idx: idx, ub: ub})
				return cur, nil
			}
		}
		switch {
		case step == 0 && big:
			ub = math.Min(ub, pw.w1.s.TreeCoupling(pw.g, k, p, q)*(1+boundSlack))
			continue
		case step == 1 && big && k >= 3 && ub > next && pw.windowsPay(k):
			for _, from := range [2]int{0, 1} {
				v, err := pw.w1.s.WindowLowerBound(pw.g, k, from, k-1, p, q)
				if err != nil {
					return 0, err
				}
				lo = max(lo, v/(1+boundSlack))
			}
			j = max(pw.dec.bracket(lo), code)
			next = pw.dec.upper(j)
			continue
		case step < 2:
			continue
		}
		break
	}
	// Undecided: W1 is needed up to the bracket's end, and up to the
	// maximum while that must stay exact.
	stop := next
	if !pw.brackets() {
		stop = math.Min(stop, pw.top.load())
	}
	stop = max(stop, lbv/(1+boundSlack))
	if !(stop > 0) || noEarlyStop {
		return pw.w1.solve(p, q, k)
	}
	w, below, err := pw.w1.solveBelow(p, q, k, stop)
	if below {
		// W1 < next: in lo's bracket, and below the maximum (or below
		// lbv: not the pair's largest probe).
		return lo, err
	}
	return w, err
}

// windowsPay reports whether the window bounds are worth their solves
// at suffix length k: under a uniform ground (large window problems go
// to the product graph) or when a window problem is small.
func (pw *pairWorker) windowsPay(k int) bool {
	if pw.w1.uniform {
		return true
	}
	side := int64(pw.tree.SuffixLen(pw.tree.T-k+1)) / 2
	return side*side <= max(denseArcs, 0)
}

// resolve solves the candidates of one depth (bracketPair), largest
// upper bound first, while they can raise the run's largest distance:
// each exact value raises it, and a candidate whose upper bound is below
// it needs nothing. The pairs' bits were marked when they were deferred.
func (pw *pairWorker) resolve(d *depthPass) error {
	if len(pw.cands) == 0 {
		return nil
	}
	slices.SortFunc(pw.cands, func(x, y candidate) int { return cmp.Compare(y.ub, x.ub) })
	for _, c := range pw.cands {
		top := pw.top.load()
		if pw.brackets() || c.ub <= top {
			break // sorted: no later candidate can raise it either
		}
		p := d.data[d.rt[c.a]*d.L : (d.rt[c.a]+1)*d.L]
		q := d.data[d.rt[c.b]*d.L : (d.rt[c.b]+1)*d.L]
		var w float64
		var below bool
		var err error
		if top > 0 && !noEarlyStop {
			w, below, err = pw.w1.solveBelow(p, q, d.k, top)
		} else {
			w, err = pw.w1.solve(p, q, d.k)
		}
		if err != nil {
			return err
		}
		if !below {
			pw.record(d.m, d.t, c.idx, w)
		}
	}
	pw.cands = pw.cands[:0]
	return nil
}
