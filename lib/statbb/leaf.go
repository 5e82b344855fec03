package statbb

import (
	"math"

	"github.com/pomdpq/pomdpq/lib/ot"
)

// leafSlack and leafAbsSlack are the slack of the leaves' bounds:
// computed by other solvers than the exact path (and without its
// rescaling of the masses, which rounding leaves one step apart), a
// lower bound can round above a W1 that equals a listed ε, so lower
// bounds are divided by 1 + leafSlack and lowered by leafAbsSlack, and
// upper bounds raised the same way, before they decide a leaf.
const (
	leafSlack    = 1e-9
	leafAbsSlack = 1e-14
)

// shortcutCounts counts the leaves whose value a bound gave instead of
// their W1 (leafBounds) and the history pairs a probe decided (probe).
type shortcutCounts struct{ bounded, probed int64 }

// noLeafBounds makes every leaf solve its W1 exactly, and noProbes keeps
// the search from trying the constant-action controllers first (the
// tests compare both ways).
var noLeafBounds, noProbes = false, false

// leafValue returns the value of a leaf, whose two complete laws at
// level L it reads from the level L − 1 in s.cur (every action there
// assigned; each prefix's mass added in the order of the children,
// eachChild), and an upper bound on their W1. The value is the exact W1
// when it can change the search's result, and otherwise a value that
// changes it the same way (leafBounds).
func (s *searcher) leafValue() (v, ub float64) {
	p := s.p
	n := p.pow[s.L]
	for sd := range 2 {
		law := s.law[sd][:n]
		clear(law)
		if s.pm[sd] {
			law[0] = 1
			continue
		}
		nO := p.nO
		s.eachChild(s.cur[sd], func(c comp, st *stepRec, o int) { law[c.x*nO+o] += c.mass * st.p[o] })
	}
	lp, lq := s.law[0][:n], s.law[1][:n]
	if s.L == 1 && p.discrete {
		v = ot.TV(lp, lq)
		return v, v
	}
	if s.L >= 2 && !noLeafBounds {
		if v, ub, ok := s.leafBounds(lp, lq); ok {
			if v != ub {
				s.counts.bounded++
			}
			return v, ub
		}
	}
	res, err := s.solver.SeqW1(p.g, s.L, lp, lq)
	if err != nil {
		s.err, s.stopped = err, true
		return 0, 0
	}
	return res.Value, res.Value
}

// leafBounds decides a leaf of laws lp, lq over O^L without its exact
// W1 where it can (ok false: only the W1 decides it). A leaf's W1 v
// matters to the search only through update: in exact mode when v
// exceeds the search's best value own (a smaller v changes nothing: the
// leaf returns 0), in decision mode through its ε-bracket when that is
// above the best value's (a value inside a bracket at or below it
// changes no decision, and any value in v's bracket raises the best
// value's bracket as v does; the pruning threshold depends on the
// bracket only). So with bounds lo ≤ v ≤ ub the leaf is decided when ub
// is at most stop (own in exact mode, the end of the bracket of
// max(lo, lb) in decision mode; lo is returned in decision mode), and in
// decision mode also when lo exceeds the cap (the search stops, as for
// v). The bounds, cheapest first: the one-step marginals
// (ot.Solver.LowerBound), L·g_max·TV and the sequential coupling
// (ot.Solver.TreeCoupling); for L ≥ 3 the window bounds over the first
// and the last L − 1 observations (ot.Solver.WindowLowerBound); then the
// exact solve, stopped as soon as a plan below stop shows v under it
// (ot.Solver.SeqW1Below).
func (s *searcher) leafBounds(lp, lq []float64) (v, ub float64, ok bool) {
	p := s.p
	low := func(x float64) float64 { return max(0, x/(1+leafSlack)-leafAbsSlack) }
	lo := low(s.solver.LowerBound(p.g, s.L, lp, lq))
	if p.Eps != nil && lo > p.Cap {
		return lo, math.Inf(1), true
	}
	stop := s.leafStop(lo)
	ub = ot.UpperBound(p.g, s.L, lp, lq)*(1+leafSlack) + leafAbsSlack
	if ub > stop {
		ub = min(ub, s.solver.TreeCoupling(p.g, s.L, lp, lq)*(1+leafSlack)+leafAbsSlack)
	}
	if ub <= stop {
		return s.skipped(lo), ub, true
	}
	if s.L >= 3 {
		for _, from := range [2]int{0, 1} {
			w, err := s.solver.WindowLowerBound(p.g, s.L, from, s.L-1, lp, lq)
			if err != nil {
				s.err, s.stopped = err, true
				return 0, 0, true
			}
			lo = max(lo, low(w))
		}
		if p.Eps != nil && lo > p.Cap {
			return lo, ub, true
		}
		if stop = s.leafStop(lo); ub <= stop {
			return s.skipped(lo), ub, true
		}
	}
	if !(stop > 0) {
		return 0, 0, false
	}
	res, err := s.solver.SeqW1Below(p.g, s.L, lp, lq, stop)
	if err != nil {
		s.err, s.stopped = err, true
		return 0, 0, true
	}
	if res.Status == ot.Below {
		return s.skipped(lo), res.Value, true // v < stop
	}
	return res.Value, res.Value, true
}

// leafStop returns the value below which a leaf with lower bound lo
// changes the search's result as lo does (leafBounds): the best value
// own of this search in exact mode (a witness search's best value lb,
// which starts at its incumbent), else the end of the ε-bracket of
// max(lo, lb).
func (s *searcher) leafStop(lo float64) float64 {
	if s.p.Eps == nil {
		if s.trace {
			// A witness search keeps only values above its incumbent lb.
			return s.lb
		}
		return s.own
	}
	return s.p.Theta(max(lo, s.lb))
}

// skipped returns the value of a leaf whose W1 lies below leafStop(lo):
// lo in decision mode, 0 (which changes nothing) in exact mode.
func (s *searcher) skipped(lo float64) float64 {
	if s.p.Eps == nil {
		return 0
	}
	return lo
}

// probe evaluates, in decision mode before the branch and bound, the
// k-node controllers that take one action a at every node and stay at
// node 0: members of the family, so their values are values the search
// may keep (update), and a pair that one of them separates by more than
// the cap is decided without branching. Otherwise the best of them is
// the incumbent the bounds prune against. It leaves act and nxt
// unassigned.
func (s *searcher) probe() {
	for a := range s.p.nA {
		for q := range s.act {
			s.act[q] = a
		}
		for e := range s.nxt {
			s.nxt[e] = 0
		}
		r := s.eval()
		if r.leaf {
			s.update(r.value)
		}
		if s.stopped || s.err != nil {
			break
		}
	}
	for q := range s.act {
		s.act[q] = -1
	}
	for e := range s.nxt {
		s.nxt[e] = -1
	}
}

// refBound bounds the search node's maximum when every unknown entry it
// reads is read only at the last level L − 1 (s.cur is that level), with
// every action assigned; +Inf when some action is not (or the bound is
// of no use against the threshold). Proof: let P0, Q0 be the complete
// laws of the reference completion that sends every unknown entry to node
// 0, and P, Q those of any completion σ of the node. The prefixes up to
// level L − 1 and the beliefs there are the same under σ and the
// reference (no entry before L − 1 is unknown), so coupling P with P0 on
// the same prefix, and then the last observations of each component c
// optimally, gives W1(P, P0) ≤ Σ_c m_c·d_c(σ) over P's unknown
// components, where d_c(σ) is the one-step W1 between the observation
// laws of c's belief under the actions of σ's node and of node 0; d_c(σ)
// ≤ D_c = max over nodes n of that W1 under act(n). Likewise for Q, and
// by the triangle inequality W1(P, Q) ≤ W1(P0, Q0) + Σ_c m_c·D_c over
// both sides' unknown components, for every σ: an upper bound on the
// maximum. (It ignores that an entry shared by several components takes
// one value for all, which can only overestimate.)
func (s *searcher) refBound() float64 {
	p := s.p
	for _, a := range s.act {
		if a < 0 {
			return math.Inf(1)
		}
	}
	n := p.pow[s.L]
	dev := 0.0
	for sd := range 2 {
		law := s.law[sd][:n]
		clear(law)
		if s.pm[sd] {
			law[0] = 1
			continue
		}
		for _, c := range s.cur[sd] {
			node := max(c.node, 0)
			st := s.step(c.b, s.act[node])
			for o, q := range st.p {
				law[c.x*p.nO+o] += c.mass * q
			}
			if c.node >= 0 {
				continue
			}
			d := 0.0
			for val := 1; val < s.k; val++ {
				if a := s.act[val]; a != st.a {
					d = max(d, s.oneW1(st.p, s.step(c.b, a).p))
				}
			}
			dev += c.mass * d
		}
	}
	dev = dev*(1+leafSlack) + leafAbsSlack
	stop := s.th - dev
	if !(stop > 0) {
		return math.Inf(1)
	}
	lp, lq := s.law[0][:n], s.law[1][:n]
	ub := ot.UpperBound(p.g, s.L, lp, lq)
	ub = min(ub, s.solver.TreeCoupling(p.g, s.L, lp, lq))
	ub = ub*(1+leafSlack) + leafAbsSlack
	if ub > stop {
		res, err := s.solver.SeqW1Below(p.g, s.L, lp, lq, stop)
		if err != nil {
			return math.Inf(1)
		}
		ub = res.Value*(1+leafSlack) + leafAbsSlack
	}
	return ub + dev
}

// oneW1 returns the W1 between two next-observation laws.
func (s *searcher) oneW1(lx, ly []float64) float64 {
	if s.p.discrete {
		return ot.TV(lx, ly)
	}
	res, err := s.w1solver.W1(lx, ly, s.p.gflat)
	if err != nil {
		return s.p.gmax
	}
	return res.Value
}
