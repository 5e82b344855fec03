package explain

// hamFlow solves W1 between two laws over O^k under the cost δ·H(x, y),
// H the Hamming distance (the additive cost of a uniform ground metric),
// as an uncapacitated min-cost flow on the product graph of O^k kept
// implicit: sequence x is joined to the hub of each of its k lines (the
// |O| sequences that differ from x at position t only) by an edge of cost
// 1 each way (in units of δ/2), and an edge's flow is one signed number
// fl[x·k + t] (positive: from x to the hub). Nothing is stored per arc
// but that number, so the working set (flows, excesses, potentials and
// levels: about 60 bytes a sequence) stays in cache where the explicit
// graph, 3.1·10⁶ residual arcs on hallway's four-step suffixes, did not.
//
// The method is the primal-dual one: integer node potentials keep every
// residual arc's reduced cost non-negative; each phase raises them by the
// distances of a bucket-queue (Dial) shortest-path search from the nodes
// with excess, capped at the nearest node with a deficit, pushes flow
// greedily along the admissible paths of two arcs (twoHop), then a maximum
// flow (Dinic's blocking flows) along the arcs of reduced cost 0. The
// potentials start from the dual of the marginals' problem (warm), which
// is feasible and on the models tried nearly optimal, so most mass moves
// in the first phase. The optimum is exact up to the rounding of the
// supplies; excesses of at most flowTol are left in place. lib/ot's
// unitFlow runs the same phases over explicit arc lists (ProductW1); this
// form computes neighbours from the index instead, keeping the inner loop
// free of arc arrays and indirect calls.
type hamFlow struct {
	nO, k, n, nl int
	stride       []int
	// Nodes: sequences 0 … n−1, then the hub of position t and line l
	// at n + t·nl + l.
	fl     []float64
	excess []float64
	pot    []int32
	dist   []int32
	level  []int32
	iter   []int32
	queue  []int32
	bucket [][]int32
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
	return &hamFlow{nO: nO, k: k, n: n, nl: nl, stride: st,
		fl: make([]float64, n*k), excess: make([]float64, nodes),
		pot: make([]int32, nodes), dist: make([]int32, nodes), level: make([]int32, nodes), iter: make([]int32, nodes)}
}

// hub returns the hub node of sequence x's line at position t.
func (f *hamFlow) hub(x, t int) int {
	st := f.stride[t]
	return f.n + t*f.nl + (x/(st*f.nO))*st + x%st
}

// members returns position t and the first member and stride of hub h's
// line (h ≥ n).
func (f *hamFlow) members(h int) (t, base, st int) {
	t = (h - f.n) / f.nl
	l := (h - f.n) % f.nl
	st = f.stride[t]
	return t, (l/st)*st*f.nO + l%st, st
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
		for f.levels() {
			f.block()
			if ub, stop := f.upper(below); stop {
				return ub, false, true
			}
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
	left := 0.0
	for _, e := range f.excess {
		if e > 0 {
			left += e
		}
	}
	ub := f.cost() + left*float64(2*f.k)
	return ub, ub < below
}

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

// nbrs is the neighbourhood of one node: for a sequence the hubs of
// positions 0 … k−1, for a hub its members in the order of the
// observation at its position. sign is the sign of the flow from the
// node to a neighbour in fl.
type nbrs struct {
	u, deg      int
	seq         bool
	t, base, st int
	sign        float64
}

func (f *hamFlow) nbrs(u int) nbrs {
	if u < f.n {
		return nbrs{u: u, deg: f.k, seq: true, sign: 1}
	}
	t, base, st := f.members(u)
	return nbrs{u: u, deg: f.nO, t: t, base: base, st: st, sign: -1}
}

// at returns the i-th neighbour v, the index e of the edge to it in fl
// and the signed flow from the node to v.
func (f *hamFlow) at(nb *nbrs, i int) (v, e int, s float64) {
	if nb.seq {
		e = nb.u*f.k + i
		return f.hub(nb.u, i), e, f.fl[e]
	}
	v = nb.base + i*nb.st
	e = v*f.k + nb.t
	return v, e, -f.fl[e]
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
			nb := f.nbrs(u)
			for j := range nb.deg {
				v, _, s := f.at(&nb, j)
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

// capacity returns the residual capacity of the admissible arc from u to
// v (signed flow s from u to v), 0 if there is none.
func (f *hamFlow) capacity(u, v int, s float64) float64 {
	switch f.pot[v] - f.pot[u] {
	case 1:
		return 1e300
	case -1:
		if s < 0 {
			return -s
		}
	}
	return 0
}

// twoHop pushes flow greedily along the admissible paths x → h → y of two
// forward arcs from an excess to a deficit, through every hub h in turn:
// most mass moves to a sequence one position away, which leaves Dinic's
// rounds little to do. Flow on arcs of reduced cost 0 keeps the
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
	for i := 0; i < len(q); i++ {
		u := int(q[i])
		if sink >= 0 && f.level[u] >= sink {
			break
		}
		nb := f.nbrs(u)
		for j := range nb.deg {
			v, _, s := f.at(&nb, j)
			if f.level[v] >= 0 || f.capacity(u, v, s) == 0 {
				continue
			}
			f.level[v] = f.level[u] + 1
			q = append(q, int32(v))
			if sink < 0 && f.excess[v] < -flowTol {
				sink = f.level[v]
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
	nb := f.nbrs(u)
	lv := f.level[u] + 1
	for ; f.iter[u] < int32(nb.deg); f.iter[u]++ {
		v, e, s := f.at(&nb, int(f.iter[u]))
		if f.level[v] != lv {
			continue
		}
		c := f.capacity(u, v, s)
		if c == 0 {
			continue
		}
		got := f.augment(v, min(rem, c))
		f.fl[e] += nb.sign * got
		rem -= got
		if rem <= 0 {
			return amount
		}
	}
	return amount - rem
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
				nb := f.nbrs(u)
				for j := range nb.deg {
					v, e, _ := f.at(&nb, j)
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
