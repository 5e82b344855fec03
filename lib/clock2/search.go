package clock2

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/bb"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// problem holds what every search of one model and horizon shares
// (read-only once built).
type problem struct {
	m              *pomdp.Model
	nS, nA, nO, T  int
	w              int // 2·|S|: a joint over (node, state), node-major
	g              ot.Ground
	gmax           float64
	basis          [][][]float64 // basis[r]: orthonormal span of the continuation functionals at remaining horizon r
	full           []bool        // full[r]: basis[r] spans every joint direction
	gram           []float64     // gram[r]: gramScale(basis[r]), +Inf: do not use basis[r]
	seqc           [][]float64   // seqc[k][x·|O|^k + y]: additive cost of prefixes x, y ∈ O^k
	pow            []int
	uniform        bool // uniform stand-in (else point mass)
	bb.Decision         // the listed ε (nil: exact mode), the cap and the pruning threshold
	maxNodes       int64
	transitionRows [][][]float64 // dense T[a][s][s'] for the basis
}

// root is one side of a tail problem: a normalised joint over (node,
// state), or the point-mass stand-in.
type root struct {
	pm bool
	j  []float64
}

// searcher is one worker's branch and bound over tail stage tables. Its
// buffers are sized for the longest tail and reused.
type searcher struct {
	p   *problem
	ctx context.Context
	L   int
	pm  [2]bool
	// front[s][k]: |O|^k joints (unnormalised), mass[s][k][x] their totals.
	front, mass [2][][]float64
	// child[s][k]: per frontier x, observation o and node n the
	// unmerged successor vector (|S| entries); cmass its total.
	child, cmass [2][][]float64
	law          [2][]float64
	pred         []float64
	solver       ot.Solver
	bsolver      ot.Solver
	bp, bq, bc   []float64
	xs, ys       []int
	delta        []float64
	// Search state.
	own, lb, th float64
	// open is the largest bound of the subtrees a search stopped by an
	// error (node limit, context) left unvisited, 0 when none.
	open    float64
	stopped bool
	out     bool  // the budget of a probing pass ran out
	budget  int64 // node count at which a probing pass stops (0: none)
	nodes   int64
	base    int64   // node count at the start of the current search
	kids    [][]kid // per depth: children of the node being expanded
	root1   []float64
	root2   []float64
	err     error
	// Witness tracing (Witness only): path[k] is the choice of the tail
	// stage k being explored, tail the tables of the best leaf so far.
	// traced reports that tail holds a leaf of the current search (its
	// first leaf is traced whatever its value, so that a search stopped
	// by the node limit has a controller whose value is own).
	trace  bool
	traced bool
	path   []choice
	tail   []choice
	// progress, when set, is called with the nodes visited every 1,024
	// nodes (FindWitness with Options.Progress).
	progress func(nodes int64)
}

// choice is the assignment of one tail stage on the search path: the
// actions of the two nodes, and the next-node table given by the used
// entries ent and mask (see merge); the last stage has no table.
type choice struct {
	act  [2]int
	ent  []int
	mask int
}

func newSearcher(p *problem, ctx context.Context) *searcher {
	s := &searcher{p: p, ctx: ctx, pred: make([]float64, p.nS), delta: make([]float64, p.w),
		root1: make([]float64, p.w), root2: make([]float64, p.w)}
	for sd := 0; sd < 2; sd++ {
		s.front[sd] = make([][]float64, p.T+1)
		s.mass[sd] = make([][]float64, p.T+1)
		s.child[sd] = make([][]float64, p.T+1)
		s.cmass[sd] = make([][]float64, p.T+1)
		for k := 0; k < p.T; k++ {
			n := p.pow[k]
			s.front[sd][k] = make([]float64, n*p.w)
			s.mass[sd][k] = make([]float64, n)
			s.child[sd][k] = make([]float64, n*p.nO*2*p.nS)
			s.cmass[sd][k] = make([]float64, n*p.nO*2)
		}
		s.law[sd] = make([]float64, p.pow[p.T])
	}
	return s
}

// run maximises W1 over the tails of length L for the roots r1, r2,
// starting from the best value lb already known for the history pair.
// It returns the best value found by this search (own, 0 if none beat
// lb's threshold) and an upper bound on the maximum (+Inf when the search
// stopped because a value exceeded the cap).
//
// A positive budget bounds the nodes of this search: when it runs out the
// search returns its best value and ub = +Inf (a probing pass).
func (s *searcher) run(r1, r2 root, L int, lb float64, budget int64) (own, ub float64, err error) {
	p := s.p
	s.L, s.own, s.lb, s.stopped, s.err, s.out, s.open, s.traced = L, 0, lb, false, nil, false, 0, false
	s.budget, s.base = 0, s.nodes
	if budget > 0 {
		s.budget = s.nodes + budget
	}
	s.th = p.Theta(lb)
	rs := [2]root{r1, r2}
	for sd := 0; sd < 2; sd++ {
		s.pm[sd] = rs[sd].pm
		clear(s.front[sd][0])
		if !rs[sd].pm {
			copy(s.front[sd][0], rs[sd].j)
		}
		s.mass[sd][0][0] = 1
		if s.pm[sd] {
			law := s.law[sd][:p.pow[L]]
			clear(law)
			law[0] = 1
		}
	}
	rootUB := s.v(0, 0, 0, L)
	if rootUB <= s.th {
		return 0, s.th, nil
	}
	s.rec(0, rootUB)
	if s.err != nil {
		return 0, 0, s.err
	}
	if s.stopped || s.out {
		return s.own, math.Inf(1), nil
	}
	return s.own, math.Min(rootUB, s.th), nil
}

// v bounds the W1 between the continuations of frontier x of side 0 and
// y of side 1 at depth k with r steps left.
func (s *searcher) v(k, x, y, r int) float64 {
	p := s.p
	if s.pm[0] || s.pm[1] {
		if s.pm[0] && s.pm[1] {
			return 0
		}
		return float64(r) * p.gmax
	}
	jx := s.front[0][k][x*p.w : (x+1)*p.w]
	jy := s.front[1][k][y*p.w : (y+1)*p.w]
	ix, iy := 1/s.mass[0][k][x], 1/s.mass[1][k][y]
	tv := 0.0
	for i := range s.delta {
		d := jx[i]*ix - jy[i]*iy
		s.delta[i] = d
		tv += math.Abs(d)
	}
	tv *= 0.5
	f := math.Min(1, tv)
	if !p.full[r] && f > 0 && !math.IsInf(p.gram[r], 1) {
		// |P Δ|₂ over the continuation span bounds the laws' TV by W/2 times it.
		n2 := 0.0
		for _, b := range p.basis[r] {
			dot := 0.0
			for i, v := range b {
				dot += v * s.delta[i]
			}
			n2 += dot * dot
		}
		f = math.Min(f, 0.5*float64(p.w)*math.Sqrt(n2)*p.gram[r]*(1+1e-9)+1e-15)
	}
	return float64(r) * p.gmax * f
}

// bound returns the glued upper bound at depth k ≥ 1.
func (s *searcher) bound(k int) float64 {
	p := s.p
	r := s.L - k
	s.xs, s.ys = s.xs[:0], s.ys[:0]
	s.bp, s.bq = s.bp[:0], s.bq[:0]
	for x, m := range s.mass[0][k][:p.pow[k]] {
		if m > 0 {
			s.xs = append(s.xs, x)
			s.bp = append(s.bp, m)
		}
	}
	for y, m := range s.mass[1][k][:p.pow[k]] {
		if m > 0 {
			s.ys = append(s.ys, y)
			s.bq = append(s.bq, m)
		}
	}
	s.bc = s.bc[:0]
	sc := p.seqc[k]
	n := p.pow[k]
	for _, x := range s.xs {
		for _, y := range s.ys {
			s.bc = append(s.bc, sc[x*n+y]+s.v(k, x, y, r))
		}
	}
	res, err := s.bsolver.W1(s.bp, s.bq, s.bc)
	if err != nil {
		// Masses are sums of model probabilities; a failure here means the
		// bound is unusable, not that the answer is wrong: do not prune.
		return math.Inf(1)
	}
	return res.Value * (1 + 1e-12)
}

// update records a probe's value.
func (s *searcher) update(v float64) {
	if v > s.own || s.trace && !s.traced {
		s.own = max(s.own, v)
		if s.trace {
			s.traced = true
			s.tail = s.tail[:0]
			for _, c := range s.path[:s.L] {
				s.tail = append(s.tail, choice{act: c.act, ent: slices.Clone(c.ent), mask: c.mask})
			}
		}
	}
	if v > s.lb {
		s.lb = v
		if v > s.p.Cap {
			s.stopped = true
			return
		}
		s.th = s.p.Theta(v)
	}
}

// kid is a child of a search node: the stage tables that lead to it and
// its bound.
type kid struct {
	a0, a1 int
	mask   int
	ub     float64
}

// maxBranchBits bounds the next-node entries one search node branches
// on: it bounds its 2^(entries−1) children one by one before it visits
// any, so above 2^maxBranchBits children (about 4 million bound
// evaluations, seconds) the search refuses instead of running for hours.
const maxBranchBits = 22

// branchable reports whether a node of stage k with n used next-node
// entries has few enough children to bound; otherwise it sets the
// search's error, an ErrTooLarge that says why and what would help.
func (s *searcher) branchable(k, n int) bool {
	if n-1 <= maxBranchBits {
		return true
	}
	p := s.p
	s.err = fmt.Errorf("%w: %s at T = %d: a two-node clock controller's next-node table at step %d has %d entries that the histories' observations reach, "+
		"so one search node has 2^%d children, above the 2^%d the search bounds one by one; "+
		"what would help: a shorter horizon (fewer reachable entries), m = 1, or the stationary family",
		ErrTooLarge, p.m.Name, p.T, k+1, n, n-1, maxBranchBits)
	s.stopped = true
	return false
}

// rec branches on the tables of stage k, the frontier at depth k known
// and its bound ub above the threshold. Children are bounded first and
// visited best bound first, so that large values are found early.
func (s *searcher) rec(k int, ub float64) {
	p := s.p
	s.nodes++
	if s.budget > 0 && s.nodes > s.budget {
		s.out, s.stopped = true, true
		return
	}
	if p.maxNodes > 0 && s.nodes > p.maxNodes+s.base && (!s.trace || s.traced) {
		s.err, s.stopped, s.open = errNodes, true, max(s.open, ub)
		return
	}
	if s.nodes&1023 == 0 {
		if err := s.ctx.Err(); err != nil {
			s.err, s.stopped, s.open = err, true, max(s.open, ub)
			return
		}
		if s.progress != nil {
			s.progress(s.nodes)
		}
	}
	na0, na1 := s.actionCounts(k)
	if s.trace && len(s.path) < s.L {
		s.path = make([]choice, s.L)
	}
	if k == s.L-1 {
		for a0 := 0; a0 < na0; a0++ {
			for a1 := 0; a1 < na1; a1++ {
				if s.trace {
					s.path[k] = choice{act: [2]int{a0, a1}}
				}
				s.expand(k, [2]int{a0, a1})
				s.leaf(k)
				if s.stopped {
					return
				}
			}
		}
		return
	}
	for len(s.kids) <= k {
		s.kids = append(s.kids, nil)
	}
	kids := s.kids[k][:0]
	var ent []int
	for a0 := 0; a0 < na0; a0++ {
		for a1 := 0; a1 < na1; a1++ {
			s.expand(k, [2]int{a0, a1})
			ent = s.entries(k, ent[:0])
			if len(ent) == 0 {
				continue // both sides point masses: nothing to branch on
			}
			if !s.branchable(k, len(ent)) {
				return
			}
			for mask := 0; mask < 1<<(len(ent)-1); mask++ {
				if mask&4095 == 4095 && s.ctx.Err() != nil {
					s.err, s.stopped, s.open = s.ctx.Err(), true, max(s.open, ub)
					return
				}
				s.merge(k, ent, mask)
				if ub := s.bound(k + 1); ub > s.th {
					kids = append(kids, kid{a0, a1, mask, ub})
				}
			}
		}
	}
	slices.SortStableFunc(kids, func(a, b kid) int { return cmp.Compare(b.ub, a.ub) })
	s.kids[k] = kids
	last := [2]int{-1, -1}
	for i := range kids {
		kd := s.kids[k][i]
		if kd.ub <= s.th {
			continue // the threshold rose since the child was bounded
		}
		if act := [2]int{kd.a0, kd.a1}; act != last {
			s.expand(k, act)
			ent = s.entries(k, ent[:0])
			last = act
		}
		s.merge(k, ent, kd.mask)
		if s.trace {
			s.path[k] = choice{act: last, ent: ent, mask: kd.mask}
		}
		s.rec(k+1, kd.ub)
		if s.stopped {
			if s.err != nil && i+1 < len(s.kids[k]) {
				// Unvisited siblings (sorted by bound): the first bounds them all.
				s.open = max(s.open, s.kids[k][i+1].ub)
			}
			return
		}
	}
}

// actionCounts returns the number of actions branched on for nodes 0
// and 1 at stage k: |A| for a node carrying mass at this depth (on either
// side), else 1.
func (s *searcher) actionCounts(k int) (na0, na1 int) {
	p := s.p
	var rel [2]bool
	for sd := 0; sd < 2; sd++ {
		if s.pm[sd] {
			continue
		}
		fr := s.front[sd][k]
		for x := 0; x < p.pow[k]; x++ {
			if s.mass[sd][k][x] == 0 {
				continue
			}
			j := fr[x*p.w : (x+1)*p.w]
			for n := 0; n < 2; n++ {
				if !rel[n] && sum(j[n*p.nS:(n+1)*p.nS]) > 0 {
					rel[n] = true
				}
			}
		}
	}
	na0, na1 = 1, 1
	if rel[0] {
		na0 = p.nA
	}
	if rel[1] {
		na1 = p.nA
	}
	return na0, na1
}

// entries appends the next-node entries n·|O| + o of stage k that move
// mass under the actions just expanded.
func (s *searcher) entries(k int, ent []int) []int {
	for n := 0; n < 2; n++ {
		for o := 0; o < s.p.nO; o++ {
			if s.entryUsed(k, n, o) {
				ent = append(ent, n*s.p.nO+o)
			}
		}
	}
	return ent
}

// maxObs bounds |O| for the on-stack next-node tables.
const maxObs = 64

// entryUsed reports whether next-node entry (n, o) of stage k moves mass.
func (s *searcher) entryUsed(k, n, o int) bool {
	p := s.p
	for sd := 0; sd < 2; sd++ {
		if s.pm[sd] {
			continue
		}
		cm := s.cmass[sd][k]
		for x := 0; x < p.pow[k]; x++ {
			if cm[(x*p.nO+o)*2+n] > 0 {
				return true
			}
		}
	}
	return false
}

// expand computes the unmerged successors of the depth-k frontier under
// the stage-k actions act.
func (s *searcher) expand(k int, act [2]int) {
	p := s.p
	nS, nO := p.nS, p.nO
	for sd := 0; sd < 2; sd++ {
		if s.pm[sd] {
			continue
		}
		fr, ms := s.front[sd][k], s.mass[sd][k]
		ch, cm := s.child[sd][k], s.cmass[sd][k]
		for x := 0; x < p.pow[k]; x++ {
			if ms[x] == 0 {
				for o := 0; o < nO; o++ {
					cm[(x*nO+o)*2] = 0
					cm[(x*nO+o)*2+1] = 0
				}
				continue
			}
			for n := 0; n < 2; n++ {
				seg := fr[x*p.w+n*nS : x*p.w+(n+1)*nS]
				if sum(seg) == 0 {
					for o := 0; o < nO; o++ {
						cm[(x*nO+o)*2+n] = 0
					}
					continue
				}
				p.m.Predict(s.pred, seg, act[n])
				for o := 0; o < nO; o++ {
					i := (x*nO+o)*2 + n
					cm[i] = p.m.Observe(ch[i*nS:(i+1)*nS], s.pred, act[n], o)
				}
			}
		}
	}
}

// merge builds the depth-(k+1) frontier from the unmerged successors and
// the next-node table given by the used entries ent and mask: entry
// ent[0] goes to node 0 (relabelling symmetry), ent[b+1] to bit b of mask,
// unused entries to node 0.
func (s *searcher) merge(k int, ent []int, mask int) {
	p := s.p
	var beta [2][maxObs]uint8
	for b, e := range ent[1:] {
		if mask>>b&1 == 1 {
			beta[e/p.nO][e%p.nO] = 1
		}
	}
	nS, nO := p.nS, p.nO
	for sd := 0; sd < 2; sd++ {
		if s.pm[sd] {
			s.mass[sd][k+1][0] = 1
			for x := 1; x < p.pow[k+1]; x++ {
				s.mass[sd][k+1][x] = 0
			}
			continue
		}
		ch, cm := s.child[sd][k], s.cmass[sd][k]
		fr, ms := s.front[sd][k+1], s.mass[sd][k+1]
		for x := 0; x < p.pow[k]; x++ {
			for o := 0; o < nO; o++ {
				xo := x*nO + o
				dst := fr[xo*p.w : (xo+1)*p.w]
				clear(dst)
				tot := 0.0
				for n := 0; n < 2; n++ {
					i := xo*2 + n
					if cm[i] == 0 {
						continue
					}
					tot += cm[i]
					off := int(beta[n][o]) * nS
					for q, v := range ch[i*nS : (i+1)*nS] {
						dst[off+q] += v
					}
				}
				ms[xo] = tot
			}
		}
	}
}

// leaf evaluates the complete controller whose last actions were just
// expanded at depth k = L − 1.
func (s *searcher) leaf(k int) {
	p := s.p
	n := p.pow[s.L]
	for sd := 0; sd < 2; sd++ {
		if s.pm[sd] {
			continue
		}
		law := s.law[sd][:n]
		cm := s.cmass[sd][k]
		for xo := range law {
			law[xo] = cm[xo*2] + cm[xo*2+1]
		}
	}
	res, err := s.solver.SeqW1(p.g, s.L, s.law[0][:n], s.law[1][:n])
	if err != nil {
		s.err, s.stopped = err, true
		return
	}
	s.update(res.Value)
}

func sum(v []float64) float64 {
	t := 0.0
	for _, x := range v {
		t += x
	}
	return t
}
