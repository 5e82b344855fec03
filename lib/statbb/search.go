package statbb

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/bb"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// maxOptions bounds the assignments of unknown entries a bound term
// enumerates; past it the term is the trivial r·g_max.
const maxOptions = 512

// noRefBound turns refBound off (the tests compare both ways), and
// checkRef, when set (tests only), is given every refBound computed,
// with the searcher at the search node it bounds.
var (
	noRefBound = false
	checkRef   func(s *searcher, ref float64)
)

// problem holds what every search of one model and horizon shares
// (read-only once built).
type problem struct {
	m             *pomdp.Model
	nS, nA, nO, T int
	g             ot.Ground
	gflat         []float64 // g row-major, for one-step W1 solves
	gmax          float64
	discrete      bool // g is the discrete metric: one-step W1 = TV
	uniform       bool // uniform stand-in (else point mass)
	bb.Decision        // the listed ε (nil: exact mode), the cap and the pruning threshold
	maxNodes      int64
	pow           []int
}

// seqCost returns Σ_i g(x_i, y_i) for the prefixes x, y ∈ O^K.
func (p *problem) seqCost(K, x, y int) float64 {
	v := 0.0
	for range K {
		v += p.g[x%p.nO][y%p.nO]
		x /= p.nO
		y /= p.nO
	}
	return v
}

// comp is one component of a law's level: the observation prefix x, the
// belief b and node (−1: not yet known) reached, its probability mass,
// and the next-node entry that placed it (src = n·|O| + o, −1 at the root).
type comp struct {
	x    int
	b    *belief
	node int
	src  int
	mass float64
}

// varRef names a controller entry: an action α(n) (isAct) or a next-node
// entry β(n, o) at index n·|O| + o.
type varRef struct {
	isAct bool
	idx   int
}

// evalRes is what a search node's simulation found: a leaf's value, or
// the entry to branch on and the bound of the subtree.
type evalRes struct {
	leaf  bool
	value float64 // leaf: W1 or a value in its bracket (leafValue); else the bound
	ub    float64 // leaf: an upper bound on its W1
	v     varRef
	// last: v is a next-node entry read only at the last level L − 1,
	// where a node is read only through its action (rec, sameAction).
	last bool
}

// searcher is one worker's branch and bound over the controllers of one
// node count, for one history pair at a time. Its buffers are reused.
type searcher struct {
	p   *problem
	ctx context.Context
	tab *table
	g   *generation // the table's generation held for the current pair
	k   int         // nodes
	L   int
	h   [2][]int
	act []int // −1: not assigned
	nxt []int // [n·|O| + o], −1: not assigned
	// Simulation scratch.
	cur, nxtL [2][]comp
	pm        [2]bool
	weight    []float64 // [n·|O| + o]: mass reaching an unknown entry
	isTouched []bool
	touched   []int // the entries of weight set, in the order first set
	stps      []*stepRec
	law       [2][]float64
	solver    ot.Solver
	bsolver   ot.Solver
	w1solver  ot.Solver
	bp, bq    []float64
	bc        []float64
	gx, gy    [][2]int // groups: [start, end) in a level's comps
	lx, ly    []float64
	jx, jy    []float64
	asg, acts []int    // option assignments (cont, oneStep)
	seenKeys  []oneKey // the one-step keys one cont call has bounded
	// Search state.
	own, lb, th float64
	// open is the largest bound of the subtrees a stopped search left
	// unvisited (node limit or context), 0 when none.
	open        float64
	stopped     bool
	nodes, base int64
	counts      shortcutCounts
	err         error
	// Witness tracing (FindWitness only): the tables of the best leaf of
	// the current search, unread entries −1.
	trace          bool
	bestAct, bestN []int
	// progress, when set, is called with the nodes visited every 1,024
	// nodes (FindWitness with Options.Progress).
	progress func(nodes int64)
}

func newSearcher(p *problem, ctx context.Context, tab *table) *searcher {
	s := &searcher{p: p, ctx: ctx, tab: tab, lx: make([]float64, p.nO), ly: make([]float64, p.nO)}
	for sd := range 2 {
		s.law[sd] = make([]float64, p.pow[p.T])
	}
	return s
}

// step returns the step of belief b under action a (the shared table).
func (s *searcher) step(b *belief, a int) *stepRec { return s.tab.step(s.g, b, a) }

// child returns the posterior after observation o of step st.
func (s *searcher) child(st *stepRec, o int) *belief { return s.tab.child(s.g, st, o) }

// run maximises W1 over the k-node controllers for the depth-t histories
// h0, h1 (L = T − t steps left), starting from the best value lb already
// known for the pair. It returns the best value this search found (0 if
// none beat lb's threshold) and an upper bound on the maximum (+Inf when
// the search stopped because a value exceeded the cap).
func (s *searcher) run(h0, h1 []int, k, L int, lb float64) (own, ub float64, err error) {
	p := s.p
	s.k, s.L, s.h = k, L, [2][]int{h0, h1}
	s.act = resetInts(s.act, k)
	s.nxt = resetInts(s.nxt, k*p.nO)
	s.own, s.lb, s.stopped, s.err, s.open = 0, lb, false, nil, 0
	s.base = s.nodes
	s.th = p.Theta(lb)
	if p.Eps != nil && k > 1 && !noProbes {
		s.probe()
		if s.err != nil {
			return 0, 0, s.err
		}
		if s.stopped {
			s.counts.probed++
			return s.own, math.Inf(1), nil
		}
	}
	r := s.eval()
	if r.leaf {
		s.update(r.value)
	} else if r.value > s.th {
		s.rec(r)
	}
	if s.err != nil {
		return 0, 0, s.err
	}
	if s.stopped {
		return s.own, math.Inf(1), nil
	}
	if r.leaf {
		return s.own, r.ub, nil
	}
	return s.own, math.Min(s.th, r.value), nil
}

func resetInts(v []int, n int) []int {
	v = slices.Grow(v[:0], n)[:n]
	for i := range v {
		v[i] = -1
	}
	return v
}

// update records a leaf's value.
func (s *searcher) update(v float64) {
	if v > s.own {
		s.own = v
		if s.trace {
			s.bestAct = append(s.bestAct[:0], s.act...)
			s.bestN = append(s.bestN[:0], s.nxt...)
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

// child is a child of a search node: the value given to the branched
// entry and the child's evaluation.
type child struct {
	val int
	res evalRes
}

// sameAction reports whether a node below val has val's action, both
// assigned. A next-node entry read only at the last level L − 1 (no path
// entry: those are assigned first; no earlier level: eval branches on the
// first level with an unknown entry) places a component whose node is
// read there only for its action: the step of the component's belief
// under it gives the last observation (leafValue, and the bounds at that
// level through oneKey), and the node reached after it is never read. So
// the completions with the entry at val and at that lower node pair one
// to one (every other entry equal) with bit-identical laws, and the
// branch at val can be skipped: the maximum over the children is kept.
func (s *searcher) sameAction(val int) bool {
	a := s.act[val]
	return a >= 0 && slices.Contains(s.act[:val], a)
}

func (s *searcher) set(v varRef, val int) {
	if v.isAct {
		s.act[v.idx] = val
	} else {
		s.nxt[v.idx] = val
	}
}

// rec branches on the entry r names; r's bound is above the threshold.
func (s *searcher) rec(r evalRes) {
	p := s.p
	s.nodes++
	if p.maxNodes > 0 && s.nodes > p.maxNodes+s.base {
		s.err, s.stopped, s.open = errNodes, true, max(s.open, r.value)
		return
	}
	if s.nodes&63 == 0 { // a node bounds up to max(|A|, m) children
		if err := s.ctx.Err(); err != nil {
			s.err, s.stopped, s.open = err, true, max(s.open, r.value)
			return
		}
		if s.progress != nil && s.nodes&1023 == 0 {
			s.progress(s.nodes)
		}
	}
	n := s.k
	if r.v.isAct {
		n = p.nA
	}
	kids := make([]child, 0, n)
	for val := 0; val < n; val++ {
		if r.last && s.sameAction(val) {
			continue
		}
		s.set(r.v, val)
		c := s.eval()
		if c.leaf {
			s.update(c.value)
			if s.stopped {
				s.set(r.v, -1)
				return
			}
			continue
		}
		if c.value > s.th {
			kids = append(kids, child{val, c})
		}
	}
	slices.SortStableFunc(kids, func(a, b child) int { return cmp.Compare(b.res.value, a.res.value) })
	for i, c := range kids {
		if c.res.value <= s.th {
			continue // the threshold rose since the child was bounded
		}
		s.set(r.v, c.val)
		s.rec(c.res)
		if s.stopped {
			if s.err != nil && i+1 < len(kids) {
				// Unvisited siblings (sorted by bound): the first bounds them all.
				s.open = max(s.open, kids[i+1].res.value)
			}
			break
		}
	}
	s.set(r.v, -1)
}

// eval simulates both laws under the current partial assignment.
func (s *searcher) eval() evalRes {
	p := s.p
	nO := p.nO
	inf := float64(s.L) * p.gmax * (1 + 1e-12)
	for sd := range 2 {
		b, n, dead := s.g.initial, 0, false
		for _, o := range s.h[sd] {
			a := s.act[n]
			if a < 0 {
				return evalRes{value: inf, v: varRef{true, n}}
			}
			nb := s.child(s.step(b, a), o)
			if nb == impossible {
				dead = true
				break
			}
			b = nb
			e := n*nO + o
			if s.nxt[e] < 0 {
				return evalRes{value: inf, v: varRef{false, e}}
			}
			n = s.nxt[e]
		}
		s.pm[sd] = false
		s.cur[sd] = s.cur[sd][:0]
		switch {
		case !dead:
			s.cur[sd] = append(s.cur[sd], comp{x: 0, b: b, node: n, src: -1, mass: 1})
		case p.uniform:
			for q := 0; q < s.k; q++ {
				s.cur[sd] = append(s.cur[sd], comp{x: 0, b: s.g.uniform, node: q, src: -1, mass: 1 / float64(s.k)})
			}
		default:
			s.pm[sd] = true
		}
	}
	if s.pm[0] && s.pm[1] {
		return evalRes{leaf: true}
	}
	for K := 0; K < s.L; K++ {
		for sd := range 2 {
			for _, c := range s.cur[sd] {
				if s.act[c.node] < 0 {
					return evalRes{value: s.bound(K, s.L-K), v: varRef{true, c.node}}
				}
			}
		}
		if K+1 == s.L {
			v, ub := s.leafValue()
			return evalRes{leaf: true, value: v, ub: ub}
		}
		s.clearWeights()
		for sd := range 2 {
			s.nxtL[sd] = s.expand(s.nxtL[sd][:0], s.cur[sd])
		}
		s.cur, s.nxtL = s.nxtL, s.cur
		if len(s.touched) > 0 {
			best, bw := -1, -1.0
			for _, e := range s.touched {
				if w := s.weight[e]; w > bw || (w == bw && e < best) {
					best, bw = e, w
				}
			}
			r := evalRes{value: s.bound(K+1, s.L-K-1), v: varRef{false, best}, last: K+2 == s.L}
			if r.last && p.Eps != nil && r.value > s.th && !noRefBound {
				ref := s.refBound()
				if checkRef != nil {
					checkRef(s, ref)
				}
				r.value = min(r.value, ref)
			}
			return r
		}
	}
	panic("statbb: eval ran past the last level") // the loop returns at K = L − 1
}

// clearWeights empties the weights of the unknown next-node entries.
func (s *searcher) clearWeights() {
	if len(s.weight) != s.k*s.p.nO { // the node count changed (m ≥ 3)
		s.weight = make([]float64, s.k*s.p.nO)
		s.isTouched = make([]bool, s.k*s.p.nO)
		s.touched = s.touched[:0]
		return
	}
	for _, e := range s.touched {
		s.weight[e], s.isTouched[e] = 0, false
	}
	s.touched = s.touched[:0]
}

// expand appends to nx the components of the level after cur (sorted by
// prefix x), in the order of prefix x and, for equal x, of cur: the order
// a stable sort by x of cur's children listed component by component
// would give (cur is sorted by x, and the children of the components of
// one prefix interleave by observation). It adds the mass reaching each
// unknown next-node entry to its weight (in cur's order for each entry)
// (the last level is not expanded: leafValue reads it from the level
// before).
func (s *searcher) expand(nx, cur []comp) []comp {
	nO := s.p.nO
	emit := func(c comp, st *stepRec, o int) []comp {
		q := st.p[o]
		e := c.node*nO + o
		node := s.nxt[e]
		if node < 0 {
			if !s.isTouched[e] {
				s.isTouched[e] = true
				s.touched = append(s.touched, e)
			}
			s.weight[e] += c.mass * q
		}
		return append(nx, comp{x: c.x*nO + o, b: s.child(st, o), node: node, src: e, mass: c.mass * q})
	}
	s.eachChild(cur, func(c comp, st *stepRec, o int) { nx = emit(c, st, o) })
	return nx
}

// eachChild calls f for every child (component c, its step st under its
// node's action, observation o of positive probability) of the level cur
// (sorted by x), in the order of the child's prefix c.x·|O| + o and, for
// equal prefixes, of cur.
func (s *searcher) eachChild(cur []comp, f func(c comp, st *stepRec, o int)) {
	nO := s.p.nO
	for i := 0; i < len(cur); {
		j := i + 1
		for j < len(cur) && cur[j].x == cur[i].x {
			j++
		}
		s.stps = s.stps[:0]
		for _, c := range cur[i:j] {
			s.stps = append(s.stps, s.step(c.b, s.act[c.node]))
		}
		for o := 0; o < nO; o++ {
			for ci, c := range cur[i:j] {
				if st := s.stps[ci]; st.p[o] != 0 {
					f(c, st, o)
				}
			}
		}
		i = j
	}
}

// groups returns the [start, end) ranges of equal x in comps (sorted by x).
func groups(dst [][2]int, comps []comp) [][2]int {
	dst = dst[:0]
	for i := 0; i < len(comps); {
		j := i + 1
		for j < len(comps) && comps[j].x == comps[i].x {
			j++
		}
		dst = append(dst, [2]int{i, j})
		i = j
	}
	return dst
}

// bound returns the glued upper bound at level K (masses of both laws
// known at K) with r steps left after it (see the package comment).
func (s *searcher) bound(K, r int) float64 {
	p := s.p
	s.gx = s.sideGroups(s.gx, 0)
	s.gy = s.sideGroups(s.gy, 1)
	s.bp, s.bq, s.bc = s.bp[:0], s.bq[:0], s.bc[:0]
	for _, gx := range s.gx {
		s.bp = append(s.bp, s.groupMass(0, gx))
	}
	for _, gy := range s.gy {
		s.bq = append(s.bq, s.groupMass(1, gy))
	}
	for _, gx := range s.gx {
		for _, gy := range s.gy {
			c := p.seqCost(K, s.groupX(0, gx), s.groupX(1, gy))
			s.bc = append(s.bc, c+s.cont(gx, gy, r))
		}
	}
	res, err := s.bsolver.W1(s.bp, s.bq, s.bc)
	if err != nil {
		return math.Inf(1) // an unusable bound: do not prune
	}
	return res.Value * (1 + 1e-12)
}

// sideGroups returns the groups of side sd's current level: one pseudo
// group (x = 0) for a point-mass side.
func (s *searcher) sideGroups(dst [][2]int, sd int) [][2]int {
	if s.pm[sd] {
		return append(dst[:0], [2]int{-1, -1})
	}
	return groups(dst, s.cur[sd])
}

func (s *searcher) groupMass(sd int, g [2]int) float64 {
	if g[0] < 0 {
		return 1
	}
	m := 0.0
	for _, c := range s.cur[sd][g[0]:g[1]] {
		m += c.mass
	}
	return m
}

func (s *searcher) groupX(sd int, g [2]int) int {
	if g[0] < 0 {
		return 0 // the point mass's prefix is all first observations
	}
	return s.cur[sd][g[0]].x
}

// cont bounds the W1 of the continuations (r steps) of groups gx of side
// 0 and gy of side 1, maximised over the values of the unknown entries
// they involve.
func (s *searcher) cont(gx, gy [2]int, r int) float64 {
	p := s.p
	if r == 0 {
		return 0
	}
	triv := float64(r) * p.gmax
	if s.pm[0] && s.pm[1] {
		return 0
	}
	if r >= 2 && (s.pm[0] || s.pm[1]) {
		return triv
	}
	var cx, cy []comp
	if !s.pm[0] {
		cx = s.cur[0][gx[0]:gx[1]]
	}
	if !s.pm[1] {
		cy = s.cur[1][gy[0]:gy[1]]
	}
	// The unknown next-node entries involved (distinct).
	var unk [8]int
	nu := 0
	for _, cs := range [2][]comp{cx, cy} {
		for _, c := range cs {
			if c.node >= 0 || slices.Contains(unk[:nu], c.src) {
				continue
			}
			if nu == len(unk) {
				return triv
			}
			unk[nu] = c.src
			nu++
		}
	}
	best := 0.0
	total := 1
	for range nu {
		total *= s.k
		if total > maxOptions {
			return triv
		}
	}
	nodeOf := func(c comp, asg []int) int {
		if c.node >= 0 {
			return c.node
		}
		return asg[slices.Index(unk[:nu], c.src)]
	}
	s.asg = slices.Grow(s.asg[:0], nu)[:nu]
	asg := s.asg
	for o := 0; o < total; o++ {
		v := o
		for i := range asg {
			asg[i] = v % s.k
			v /= s.k
		}
		var d float64
		switch {
		case r == 1 && p.discrete && len(cx)+len(cy) <= len(oneKey{}.v) && p.nA < 128:
			// The laws depend on the nodes only through their actions:
			// assignments that leave the same actions fixed and the same
			// pattern of free nodes give the same value (oneKey).
			key := s.oneKeyOf(cx, cy, func(c comp) int { return nodeOf(c, asg) })
			if o == 0 {
				s.seenKeys = s.seenKeys[:0]
			} else if slices.Contains(s.seenKeys, key) {
				continue
			}
			s.seenKeys = append(s.seenKeys, key)
			if len(cx) == 1 && len(cy) == 1 {
				d = s.oneStepTV(cx[0].b, cy[0].b, key)
			} else {
				d = s.oneStep(cx, cy, func(c comp) int { return nodeOf(c, asg) })
			}
		case r == 1:
			d = s.oneStep(cx, cy, func(c comp) int { return nodeOf(c, asg) })
		default:
			d = triv * s.jointTV(cx, cy, func(c comp) int { return nodeOf(c, asg) })
		}
		best = max(best, d)
		if best >= triv {
			return triv
		}
	}
	return best
}

// jointTV returns the total variation between the joints over (node,
// state) of components cx and cy (each normalised).
func (s *searcher) jointTV(cx, cy []comp, nodeOf func(comp) int) float64 {
	p := s.p
	w := s.k * p.nS
	s.jx = fillJoint(s.jx, w, p.nS, cx, nodeOf)
	s.jy = fillJoint(s.jy, w, p.nS, cy, nodeOf)
	tv := 0.0
	for i := range s.jx {
		tv += math.Abs(s.jx[i] - s.jy[i])
	}
	return math.Min(1, tv/2)
}

func fillJoint(dst []float64, w, nS int, cs []comp, nodeOf func(comp) int) []float64 {
	dst = slices.Grow(dst[:0], w)[:w]
	clear(dst)
	tot := 0.0
	for _, c := range cs {
		tot += c.mass
	}
	for _, c := range cs {
		off := nodeOf(c) * nS
		f := c.mass / tot
		for i, v := range c.b.v {
			dst[off+i] += f * v
		}
	}
	return dst
}

// oneKey is what the one-step bound of the components cx, cy reads of
// their nodes: for each component (cx's, then cy's) the action of its
// node, or −(1 + i) when the node's action is not assigned and the node
// is the i-th such node met in that order (oneStep enumerates the actions
// of those nodes in that order). Equal keys give equal bounds.
type oneKey struct {
	n int
	v [8]int8
}

// oneKeyOf returns the oneKey of cx, cy (at most 8 components in all)
// with the nodes nodeOf gives.
func (s *searcher) oneKeyOf(cx, cy []comp, nodeOf func(comp) int) oneKey {
	var key oneKey
	var free [8]int
	nf := 0
	for _, cs := range [2][]comp{cx, cy} {
		for _, c := range cs {
			n := nodeOf(c)
			v := s.act[n]
			if v < 0 {
				i := slices.Index(free[:nf], n)
				if i < 0 {
					i, free[nf] = nf, n
					nf++
				}
				v = -1 - i
			}
			key.v[key.n] = int8(v)
			key.n++
		}
	}
	return key
}

// oneStepTV is oneStep for one component on each side (beliefs bx, by)
// under the discrete metric, from their oneKey: the same maximum of the
// same total variations, without building the laws.
func (s *searcher) oneStepTV(bx, by *belief, key oneKey) float64 {
	p := s.p
	kx, ky := int(key.v[0]), int(key.v[1])
	free := 0
	for _, v := range [2]int{kx, ky} {
		free = max(free, -v)
	}
	total := 1
	for range free {
		total *= p.nA
		if total > maxOptions {
			return p.gmax
		}
	}
	best := 0.0
	for ax := range p.nA {
		if kx >= 0 && ax != kx {
			continue
		}
		lx := s.step(bx, ax).p
		for ay := range p.nA {
			if (ky >= 0 && ay != ky) || (ky < 0 && ky == kx && ay != ax) {
				continue
			}
			best = max(best, ot.TV(lx, s.step(by, ay).p))
		}
	}
	return best
}

// oneStep returns the maximum, over the unknown actions of the nodes
// involved, of the W1 between the next-observation laws of components cx
// and cy (nil: the point mass, whose next observation is the first).
func (s *searcher) oneStep(cx, cy []comp, nodeOf func(comp) int) float64 {
	p := s.p
	var nodes [8]int
	nn := 0
	for _, cs := range [2][]comp{cx, cy} {
		for _, c := range cs {
			n := nodeOf(c)
			if s.act[n] >= 0 || slices.Contains(nodes[:nn], n) {
				continue
			}
			if nn == len(nodes) {
				return p.gmax
			}
			nodes[nn] = n
			nn++
		}
	}
	total := 1
	for range nn {
		total *= p.nA
		if total > maxOptions {
			return p.gmax
		}
	}
	best := 0.0
	s.acts = slices.Grow(s.acts[:0], s.k)[:s.k]
	acts := s.acts
	for o := 0; o < total; o++ {
		copy(acts, s.act)
		v := o
		for _, n := range nodes[:nn] {
			acts[n] = v % p.nA
			v /= p.nA
		}
		lx := s.stepLaw(s.lx, cx, nodeOf, acts)
		ly := s.stepLaw(s.ly, cy, nodeOf, acts)
		var d float64
		if p.discrete {
			d = ot.TV(lx, ly)
		} else {
			res, err := s.w1solver.W1(lx, ly, p.gflat)
			if err != nil {
				return p.gmax
			}
			d = res.Value
		}
		best = max(best, d)
	}
	return best
}

// stepLaw returns the normalised next-observation law of cs under the
// actions acts (nil cs: the point mass on the first observation), in dst
// unless cs is one component (its step's own probabilities).
func (s *searcher) stepLaw(dst []float64, cs []comp, nodeOf func(comp) int, acts []int) []float64 {
	if len(cs) == 1 {
		return s.step(cs[0].b, acts[nodeOf(cs[0])]).p
	}
	clear(dst)
	if cs == nil {
		dst[0] = 1
		return dst
	}
	tot := 0.0
	for _, c := range cs {
		tot += c.mass
	}
	for _, c := range cs {
		st := s.step(c.b, acts[nodeOf(c)])
		f := c.mass / tot
		for o, q := range st.p {
			dst[o] += f * q
		}
	}
	return dst
}
