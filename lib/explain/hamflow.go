package explain

import "math"

// hamFlow solves W1 between two laws over O^k under the cost δ·H(x, y),
// H the Hamming distance (the additive cost of a uniform ground metric),
// as an uncapacitated min-cost flow on the product graph of O^k kept
// implicit: sequence x is joined to the hub of each of its k lines (the
// |O| sequences that differ from x at position t only) by an edge of cost
// 1 each way (in units of δ/2), and an edge's flow is one signed number
// fl[x·k + t] (positive: from x to the hub). Nothing is stored per arc
// but that number and the hub of each edge, so the working set (flows,
// hubs, excesses, potentials and labels: about 75 bytes a sequence)
// stays small where the explicit graph, 3.1·10⁶ residual arcs on
// hallway's four-step suffixes, did not.
//
// The method is the primal-dual one: integer node potentials keep every
// residual arc's reduced cost non-negative; each phase raises them by the
// distances of a bucket-queue (Dial) shortest-path search from the nodes
// with excess, capped at the nearest node with a deficit, pushes flow
// greedily along the admissible paths of two arcs (twoHop), then a maximum
// flow along the arcs of reduced cost 0: Dinic's blocking flows while a
// round moves at least 1 − dinicShare of the excess left (the bulk, along
// short paths), then push-relabel (preflow) for the long tail. The
// potentials start from the dual of the marginals' problem (warm), which
// is feasible and on the models tried nearly optimal, so most mass moves
// in the first phase. The optimum is exact up to the rounding of the
// supplies; excesses of at most flowTol are left in place. lib/ot's
// unitFlow runs the same phases over explicit arc lists (ProductW1), with
// Dinic's blocking flows for the maximum flow; this form looks neighbours
// up by index, keeping the inner loop free of arc arrays and indirect
// calls.
type hamFlow struct {
	nO, k, n, nl int
	stride       []int
	// Nodes: sequences 0 … n−1, then the hub of position t and line l
	// at n + t·nl + l.
	fl     []float64
	excess []float64
	pot    []int32
	dist   []int32
	// level is a node's push-relabel label, iter its current arc.
	level  []int32
	iter   []int32
	queue  []int32
	bucket [][]int32
	// hubOf[x·k + t] is the hub of sequence x's line at position t,
	// base[h − n] the first member of hub h's line and hpos[h − n] its
	// position: neighbours are looked up, not divided out, in the inner
	// loops.
	hubOf, base []int32
	hpos        []uint8
	// Push-relabel: the highest bucket that may hold an active node,
	// the lowest label known empty (the gap), and the nodes per label.
	top, gap int32
	count    []int32
}

// flowTol is the excess or deficit below which a node counts as
// balanced.
const flowTol = 1e-15

func newHamFlow(nO, k int) *hamFlow {
	n := 1
	st := make([]int, k)
	for t := range k {
		st[t] = n
		n *= nO
	}
	nl := n / nO
	nodes := n + k*nl
	f := &hamFlow{nO: nO, k: k, n: n, nl: nl, stride: st,
		fl: make([]float64, n*k), excess: make([]float64, nodes),
		pot: make([]int32, nodes), dist: make([]int32, nodes), level: make([]int32, nodes), iter: make([]int32, nodes),
		hubOf: make([]int32, n*k), base: make([]int32, k*nl), hpos: make([]uint8, k*nl)}
	for t := range k {
		for l := range nl {
			f.hpos[t*nl+l] = uint8(t)
			f.base[t*nl+l] = int32((l/st[t])*st[t]*nO + l%st[t])
		}
	}
	for x := range n {
		for t := range k {
			f.hubOf[x*k+t] = int32(n + t*nl + (x/(st[t]*nO))*st[t] + x%st[t])
		}
	}
	return f
}

// members returns position t and the first member and stride of hub h's
// line (h ≥ n).
func (f *hamFlow) members(h int) (t, base, st int) {
	t = int(f.hpos[h-f.n])
	return t, int(f.base[h-f.n]), f.stride[t]
}

// solve returns the cost of a minimum-cost flow meeting supply (one
// entry per sequence; positive: excess to send, negative: deficit to
// receive) in units of δ/2, and false if the phases did not end (they
// always do when the supplies sum to 0).
//
// With below > 0 it may stop early, after a round, with exact false: the
// flow so far plus the excess left, each unit sent along a path of at
// most 2k arcs, is a feasible flow, and when its cost is below below,
// that cost is returned as an upper bound on the optimum.
func (f *hamFlow) solve(supply []float64, below float64) (cost float64, exact, ok bool) {
	clear(f.fl)
	clear(f.excess)
	copy(f.excess, supply)
	f.warm(supply)
	for range 4*len(f.pot) + 16 {
		if !f.price() {
			return f.cost(), true, true
		}
		f.twoHop()
		// Dinic's blocking flows while a round moves much of the excess
		// left (the bulk, along short paths: the completion bound of
		// upper falls fast), push-relabel for the rest (long paths).
		reach, left := true, f.left()
		for {
			if reach = f.levels(); !reach {
				break
			}
			f.block()
			if ub, stop := f.upper(below); stop {
				return ub, false, true
			}
			now := f.left()
			if now > dinicShare*left {
				break
			}
			left = now
		}
		if !reach {
			continue
		}
		if ub, stop := f.preflow(below); stop {
			return ub, false, true
		}
	}
	return f.cost(), true, false
}

// upper returns the cost of the current flow completed by sending every
// excess left along a path of at most 2k arcs, a feasible flow, and
// whether it is below below (> 0).
func (f *hamFlow) upper(below float64) (float64, bool) {
	if below <= 0 {
		return 0, false
	}
	ub := f.cost() + f.left()*float64(2*f.k)
	return ub, ub < below
}

// left is the total excess not yet sent.
func (f *hamFlow) left() float64 {
	left := 0.0
	for _, e := range f.excess {
		if e > 0 {
			left += e
		}
	}
	return left
}

// dinicShare is the share of the excess left that a round of blocking
// flows may leave for the next round to be run (measured on hallway:
// the first two or three rounds of a phase move most mass; the later
// ones, along ever longer paths, a few per cent or less).
const dinicShare = 0.95

// cost is the cost of the current flow in units of δ/2.
func (f *hamFlow) cost() float64 {
	c := 0.0
	for _, v := range f.fl {
		if v < 0 {
			v = -v
		}
		c += v
	}
	return c
}

// warm sets the potentials to the optimal dual of the problem of the
// marginals, Σ_t W1(P_t, Q_t): 2·Σ_t [Q_t(x_t) > P_t(x_t)] on a sequence
// (a deficit of the marginal of position t costs one more step to
// reach), the smaller of its members' values plus 1 on a hub of a line
// whose members differ, their common value otherwise. It is feasible:
// two members of a line differ by at most 2.
func (f *hamFlow) warm(supply []float64) {
	marg := make([]float64, f.k*f.nO)
	for x, s := range supply {
		for t := range f.k {
			marg[t*f.nO+(x/f.stride[t])%f.nO] += s
		}
	}
	for x := range f.n {
		p := int32(0)
		for t := range f.k {
			if marg[t*f.nO+(x/f.stride[t])%f.nO] < 0 {
				p += 2
			}
		}
		f.pot[x] = p
	}
	for h := f.n; h < len(f.pot); h++ {
		_, base, st := f.members(h)
		lo, hi := int32(1<<30), int32(-1)
		for o := range f.nO {
			p := f.pot[base+o*st]
			lo, hi = min(lo, p), max(hi, p)
		}
		f.pot[h] = lo
		if hi > lo {
			f.pot[h] = lo + 1
		}
	}
}

// price raises the potentials by the shortest-path distances from the
// nodes with excess, capped at the distance D of the nearest deficit,
// so that shortest paths consist of arcs of reduced cost 0. It reports
// false when no node has an excess or no deficit is reachable.
func (f *hamFlow) price() bool {
	const inf = int32(1<<31 - 1)
	for b := range f.bucket {
		f.bucket[b] = f.bucket[b][:0]
	}
	add := func(d int32, u int) {
		for int32(len(f.bucket)) <= d {
			f.bucket = append(f.bucket, nil)
		}
		f.bucket[d] = append(f.bucket[d], int32(u))
	}
	for u := range f.pot {
		f.dist[u] = inf
		if f.excess[u] > flowTol {
			f.dist[u] = 0
			add(0, u)
		}
	}
	D := int32(-1)
	for d := int32(0); d < int32(len(f.bucket)) && D < 0; d++ {
		for i := 0; i < len(f.bucket[d]); i++ {
			u := int(f.bucket[d][i])
			if f.dist[u] != d {
				continue
			}
			if f.excess[u] < -flowTol {
				D = d
				break
			}
			for j := range f.degree(u) {
				v, _, s := f.edge(u, j)
				rc := 1 + f.pot[u] - f.pot[v]
				if s < 0 {
					rc -= 2 // the reverse arc, cost −1, has capacity
				}
				if nd := d + rc; nd < f.dist[v] {
					f.dist[v] = nd
					add(nd, v)
				}
			}
		}
	}
	if D < 0 {
		return false
	}
	for u := range f.pot {
		f.pot[u] += min(f.dist[u], D)
	}
	return true
}

// twoHop pushes flow greedily along the admissible paths x → h → y of two
// forward arcs from an excess to a deficit, through every hub h in turn:
// most mass moves to a sequence one position away, which leaves the
// maximum flow little to do. Flow on arcs of reduced cost 0 keeps the
// potentials optimal for it, so the result is the same optimum.
func (f *hamFlow) twoHop() {
	for h := f.n; h < len(f.pot); h++ {
		t, base, st := f.members(h)
		ph := f.pot[h]
		j := 0
		for i := range f.nO {
			x := base + i*st
			if f.excess[x] <= flowTol || f.pot[x]+1 != ph {
				continue
			}
			for j < f.nO && f.excess[x] > flowTol {
				y := base + j*st
				if f.excess[y] >= -flowTol || ph+1 != f.pot[y] {
					j++
					continue
				}
				a := min(f.excess[x], -f.excess[y])
				f.fl[x*f.k+t] += a
				f.fl[y*f.k+t] -= a
				f.excess[x] -= a
				f.excess[y] += a
				if f.excess[y] >= -flowTol {
					j++
				}
			}
		}
	}
}

// levels computes the BFS levels of the admissible graph (arcs of
// reduced cost 0 with capacity) from the nodes with excess, up to the
// level of the nearest deficit, and reports whether a deficit is
// reachable.
func (f *hamFlow) levels() bool {
	q := f.queue[:0]
	for u := range f.pot {
		f.level[u], f.iter[u] = -1, 0
		if f.excess[u] > flowTol {
			f.level[u] = 0
			q = append(q, int32(u))
		}
	}
	sink := int32(-1)
	k, n := f.k, f.n
	level, pot, fl := f.level, f.pot, f.fl
	for i := 0; i < len(q); i++ {
		u := int(q[i])
		lu := level[u]
		if sink >= 0 && lu >= sink {
			break
		}
		pu := pot[u]
		if u < n {
			for e := u * k; e < (u+1)*k; e++ {
				v := f.hubOf[e]
				if level[v] >= 0 {
					continue
				}
				// Forward arcs cost 1; the reverse of a flow into u, −1.
				if d := pot[v] - pu; d != 1 && (d != -1 || fl[e] >= 0) {
					continue
				}
				level[v] = lu + 1
				q = append(q, v)
				if sink < 0 && f.excess[v] < -flowTol {
					sink = lu + 1
				}
			}
			continue
		}
		t := (u - n) / f.nl
		st := f.stride[t]
		for o, v := 0, int(f.base[u-n]); o < f.nO; o, v = o+1, v+st {
			if level[v] >= 0 {
				continue
			}
			// The flow from the hub u to v is −fl[v·k + t].
			if d := pot[v] - pu; d != 1 && (d != -1 || fl[v*k+t] <= 0) {
				continue
			}
			level[v] = lu + 1
			q = append(q, int32(v))
			if sink < 0 && f.excess[v] < -flowTol {
				sink = lu + 1
			}
		}
	}
	f.queue = q
	return sink >= 0
}

// block pushes a blocking flow along the levels.
func (f *hamFlow) block() {
	for _, u := range f.queue {
		if f.level[u] != 0 {
			break
		}
		for f.excess[u] > flowTol {
			pushed := f.augment(int(u), f.excess[u])
			if pushed == 0 {
				break
			}
			f.excess[u] -= pushed
		}
	}
}

// augment sends up to amount from u along level paths to deficits,
// several paths per call, and returns how much arrived.
func (f *hamFlow) augment(u int, amount float64) float64 {
	if f.level[u] > 0 && f.excess[u] < -flowTol {
		take := min(amount, -f.excess[u])
		f.excess[u] += take
		return take
	}
	rem := amount
	lv := f.level[u] + 1
	pu := f.pot[u]
	if u < f.n {
		for ; f.iter[u] < int32(f.k); f.iter[u]++ {
			e := u*f.k + int(f.iter[u])
			v := int(f.hubOf[e])
			if f.level[v] != lv {
				continue
			}
			c := 1e300
			if d := f.pot[v] - pu; d != 1 {
				if d != -1 || f.fl[e] >= 0 {
					continue
				}
				c = -f.fl[e]
			}
			got := f.augment(v, min(rem, c))
			f.fl[e] += got
			rem -= got
			if rem <= 0 {
				return amount
			}
		}
		return amount - rem
	}
	t := (u - f.n) / f.nl
	st, base := f.stride[t], int(f.base[u-f.n])
	for ; f.iter[u] < int32(f.nO); f.iter[u]++ {
		v := base + int(f.iter[u])*st
		if f.level[v] != lv {
			continue
		}
		e := v*f.k + t
		c := 1e300
		if d := f.pot[v] - pu; d != 1 {
			if d != -1 || f.fl[e] <= 0 {
				continue
			}
			c = f.fl[e]
		}
		got := f.augment(v, min(rem, c))
		f.fl[e] -= got
		rem -= got
		if rem <= 0 {
			return amount
		}
	}
	return amount - rem
}

// noLabel is the label of a node from which no deficit is reachable
// along admissible arcs.
const noLabel = int32(1<<31 - 1)

// preflow pushes a maximum preflow along the admissible arcs (reduced
// cost 0 with residual capacity) from the nodes with excess to those
// with a deficit, by push-relabel: a node's label is a lower bound on the
// number of admissible arcs from it to a deficit, exact after relabelAll
// (run again after about prWork arc scans per arc of the graph); the
// active node of highest label is discharged first; and when a relabel
// empties a label, the nodes above it, which no longer reach a deficit,
// are dropped (the gap rule). Excess that cannot reach a deficit stays
// where it is: flow on arcs of reduced cost 0 keeps the potentials
// optimal wherever it ends, and the next price starts from every node
// with excess. Where Dinic's blocking flows took one pass over the graph
// per length of augmenting path (44–54 on the argmax of hallway's
// four-step suffixes, paths of up to 42 arcs), this takes a few passes
// per phase.
//
// With below > 0 it stops, reporting true and the cost of a feasible
// completion, when that cost is below below (checked after every quarter
// pass's worth of arc scans, about as often as after Dinic's rounds).
func (f *hamFlow) preflow(below float64) (float64, bool) {
	size := len(f.fl) + len(f.pot)
	for {
		if ub, stop := f.upper(below); stop {
			return ub, true
		}
		if !f.relabelAll() {
			return 0, false
		}
		for work, check := 0, size/4; work < prWork*size; {
			u := f.nextActive()
			if u < 0 {
				break
			}
			work += f.discharge(u)
			if below > 0 && work >= check {
				if ub, stop := f.upper(below); stop {
					return ub, true
				}
				check += size / 4
			}
		}
	}
}

// prWork is the number of arc scans per arc of the graph between two
// relabelAll (measured on hallway: 2–4 fastest, 0.25 twice as slow).
const prWork = 3

// arc returns the i-th neighbour v of u, the index e of the edge to it in
// fl, and the residual capacity of the arc u → v if it is admissible
// (reduced cost 0), else 0: a forward arc (cost 1, from a potential to
// the next) is uncapacitated, the reverse of a flow (cost −1) carries
// that flow back.
func (f *hamFlow) arc(u, i int) (v, e int, c float64) {
	v, e, s := f.edge(u, i)
	switch f.pot[v] - f.pot[u] {
	case 1:
		return v, e, math.MaxFloat64
	case -1:
		if s < 0 {
			return v, e, -s
		}
	}
	return v, e, 0
}

// edge returns the i-th neighbour v of u, the index e of the edge to it
// in fl and the flow s on it from u to v.
func (f *hamFlow) edge(u, i int) (v, e int, s float64) {
	if u < f.n {
		e = u*f.k + i
		return int(f.hubOf[e]), e, f.fl[e]
	}
	h := u - f.n
	t := int(f.hpos[h])
	v = int(f.base[h]) + i*f.stride[t]
	e = v*f.k + t
	return v, e, -f.fl[e]
}

// degree is the number of neighbours of u.
func (f *hamFlow) degree(u int) int {
	if u < f.n {
		return f.k
	}
	return f.nO
}

// relabelAll sets every label to the exact number of admissible arcs
// from the node to the nearest deficit (noLabel if none is reachable),
// fills the buckets of active nodes (excess and a label), and reports
// whether there is any.
func (f *hamFlow) relabelAll() bool {
	q := f.queue[:0]
	for u := range f.pot {
		f.level[u], f.iter[u] = noLabel, 0
		if f.excess[u] < -flowTol {
			f.level[u] = 0
			q = append(q, int32(u))
		}
	}
	for i := 0; i < len(q); i++ {
		v := int(q[i])
		for j := range f.degree(v) {
			u, _, s := f.edge(v, j)
			if f.level[u] != noLabel {
				continue
			}
			// Is u → v admissible: a forward arc, or the reverse of a
			// flow s from v to u?
			if d := f.pot[v] - f.pot[u]; d != 1 && (d != -1 || s <= 0) {
				continue
			}
			f.level[u] = f.level[v] + 1
			q = append(q, int32(u))
		}
	}
	f.queue = q
	for b := range f.bucket {
		f.bucket[b] = f.bucket[b][:0]
	}
	f.count = f.count[:0]
	for _, u := range q {
		f.countAt(f.level[u], 1)
	}
	f.gap, f.top = noLabel, -1
	active := false
	for u, e := range f.excess {
		if e > flowTol && f.level[u] != noLabel {
			f.activate(u)
			active = true
		}
	}
	return active
}

// countAt adds d to the number of nodes of label l.
func (f *hamFlow) countAt(l int32, d int32) {
	for int32(len(f.count)) <= l {
		f.count = append(f.count, 0)
	}
	f.count[l] += d
}

// activate puts u in the bucket of its label.
func (f *hamFlow) activate(u int) {
	d := f.level[u]
	for int32(len(f.bucket)) <= d {
		f.bucket = append(f.bucket, nil)
	}
	f.bucket[d] = append(f.bucket[d], int32(u))
	f.top = max(f.top, d)
}

// nextActive returns an active node of highest label below the gap, −1
// if none is left.
func (f *hamFlow) nextActive() int {
	for f.top >= 0 {
		b := f.bucket[f.top]
		if len(b) == 0 || f.top >= f.gap {
			f.bucket[f.top] = b[:0]
			f.top--
			continue
		}
		u := int(b[len(b)-1])
		f.bucket[f.top] = b[:len(b)-1]
		if f.level[u] == f.top && f.excess[u] > flowTol {
			return u
		}
	}
	return -1
}

// discharge pushes u's excess along admissible arcs to neighbours one
// label lower, relabelling u when none is left, until u is balanced or
// no deficit is reachable from it; it returns the arcs scanned.
func (f *hamFlow) discharge(u int) int {
	deg, sign := f.degree(u), 1.0
	if u >= f.n {
		sign = -1
	}
	work := 0
	for f.excess[u] > flowTol {
		if int(f.iter[u]) == deg {
			work += deg
			if !f.relabel(u) {
				return work
			}
		}
		v, e, c := f.arc(u, int(f.iter[u]))
		work++
		if c > 0 && f.level[v] == f.level[u]-1 {
			a := min(f.excess[u], c)
			f.fl[e] += sign * a
			f.excess[u] -= a
			was := f.excess[v]
			f.excess[v] += a
			if was <= flowTol && f.excess[v] > flowTol {
				f.activate(v)
			}
			if f.excess[u] <= flowTol {
				break
			}
		}
		f.iter[u]++
	}
	return work
}

// relabel raises u's label to one above the lowest label among the
// heads of its admissible arcs, or drops it (noLabel, false) when there
// is none or that label is at or above the gap; a label it leaves empty
// becomes the gap.
func (f *hamFlow) relabel(u int) bool {
	lo := noLabel
	for j := range f.degree(u) {
		v, _, c := f.arc(u, j)
		if c > 0 && f.level[v] < lo {
			lo = f.level[v]
		}
	}
	f.iter[u] = 0
	old := f.level[u]
	f.countAt(old, -1)
	if f.count[old] == 0 && old > 0 {
		f.gap = min(f.gap, old)
	}
	if lo == noLabel || lo+1 >= f.gap {
		f.level[u] = noLabel
		return false
	}
	f.level[u] = lo + 1
	f.countAt(lo+1, 1)
	return true
}

// paths decomposes the optimal flow into paths from the sequences that
// give mass (p > q) to those that take it: each path is a shortest path,
// so its cost is the Hamming distance of its two ends. It returns the
// couplings over sequence indices.
func (f *hamFlow) paths(p, q []float64) [][3]float64 {
	rest := append([]float64(nil), f.fl...)
	need := make([]float64, f.n)
	for x := range need {
		need[x] = q[x] - p[x]
	}
	var res [][3]float64
	var path []int
	for x := range f.n {
		have := p[x] - q[x]
		for have > 1e-15 {
			path = path[:0]
			u, amount := x, have
			for u >= f.n || need[u] <= 0 || u == x {
				next := -1
				for j := range f.degree(u) {
					v, e, _ := f.edge(u, j)
					if r := rest[e]; (u < f.n && r > 1e-15) || (u >= f.n && r < -1e-15) {
						next = e
						amount = min(amount, max(r, -r))
						u = v
						break
					}
				}
				if next < 0 {
					break
				}
				path = append(path, next)
			}
			if len(path) == 0 || u >= f.n || need[u] <= 0 {
				break
			}
			amount = min(amount, need[u])
			for i, e := range path {
				if i%2 == 0 {
					rest[e] -= amount // sequence → hub
				} else {
					rest[e] += amount // hub → sequence
				}
			}
			need[u] -= amount
			have -= amount
			res = append(res, [3]float64{float64(x), float64(u), amount})
		}
	}
	return res
}
