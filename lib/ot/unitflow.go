package ot

// unitFlow (first written for lib/explain, which now keeps the graph implicit: hamFlow) solves an uncapacitated min-cost flow problem whose arcs all
// cost 1 (the product graph of a uniform ground metric, in units of
// δ/2) by the primal-dual method: integer node potentials keep every
// residual arc's reduced cost non-negative; each phase raises them by
// the distances of a bucket-queue (Dial) shortest-path search from the
// nodes with excess, capped at the nearest node with a deficit, and then
// pushes a maximum flow (Dinic's blocking flows) along the arcs of
// reduced cost 0. A path's cost in the graph is at most twice the
// sequence length, so there are few phases (five, with 20–40 rounds of
// blocking flows, on hallway's four-step suffixes: 2.5–3 s where the
// network simplex started from big-M artificial arcs took about a
// minute on the 1.6·10⁶ arcs). The optimum is exact up to
// the rounding of the supplies; excesses of at most flowTol are left in
// place.
type unitFlow struct {
	n        int
	src, dst []int
	// adj[at[u]:at[u+1]] are the residual arcs of u: the arcs leaving
	// it, then the reverses of those entering it.
	at  []int32
	adj []resArc

	flow, excess []float64
	pot, dist    []int32
	level, iter  []int32
	queue        []int32
	buckets      [][]int32
}

// resArc is a residual arc: arc e of the graph to v, or its reverse
// (cost −1, capacity its flow) when rev.
type resArc struct {
	e, v int32
	rev  bool
}

// flowTol is the excess or deficit below which a node counts as
// balanced.
const flowTol = 1e-15

func newUnitFlow(n int, src, dst []int) *unitFlow {
	f := &unitFlow{n: n, src: src, dst: dst}
	f.at = make([]int32, n+1)
	for e := range src {
		f.at[src[e]+1]++
		f.at[dst[e]+1]++
	}
	for u := range n {
		f.at[u+1] += f.at[u]
	}
	f.adj = make([]resArc, len(src)+len(dst))
	fill := append([]int32(nil), f.at[:n]...)
	for e := range src {
		u := src[e]
		f.adj[fill[u]] = resArc{e: int32(e), v: int32(dst[e])}
		fill[u]++
	}
	for e := range dst {
		u := dst[e]
		f.adj[fill[u]] = resArc{e: int32(e), v: int32(src[e]), rev: true}
		fill[u]++
	}
	f.flow = make([]float64, len(src))
	f.excess = make([]float64, n)
	f.pot, f.dist = make([]int32, n), make([]int32, n)
	f.level, f.iter = make([]int32, n), make([]int32, n)
	return f
}

// solve returns the flow on every arc of a minimum-cost flow meeting
// supply (positive: excess to send, negative: deficit to receive), and
// false if the phases did not end (they always do when the supplies sum
// to 0 and every deficit is reachable).
func (f *unitFlow) solve(supply []float64) ([]float64, bool) {
	clear(f.flow)
	clear(f.pot)
	copy(f.excess, supply)
	for range 4*f.n + 16 {
		if !f.price() {
			return f.flow, true
		}
		f.twoHop()
		for f.levels() {
			f.block()
		}
	}
	return f.flow, false
}

// rc returns the reduced cost of residual arc a of u, and false when a
// is a reverse without capacity.
func (f *unitFlow) rc(u int32, a resArc) (int32, bool) {
	if a.rev {
		return -1 + f.pot[u] - f.pot[a.v], f.flow[a.e] > 0
	}
	return 1 + f.pot[u] - f.pot[a.v], true
}

// price raises the potentials by the shortest-path distances from the
// nodes with excess, capped at the distance D of the nearest deficit,
// so that shortest paths consist of arcs of reduced cost 0. It reports
// false when no node has an excess or no deficit is reachable.
func (f *unitFlow) price() bool {
	const inf = int32(1<<31 - 1)
	for b := range f.buckets {
		f.buckets[b] = f.buckets[b][:0]
	}
	push := func(d, u int32) {
		for int32(len(f.buckets)) <= d {
			f.buckets = append(f.buckets, nil)
		}
		f.buckets[d] = append(f.buckets[d], u)
	}
	for u := range int32(f.n) {
		f.dist[u] = inf
		if f.excess[u] > flowTol {
			f.dist[u] = 0
			push(0, u)
		}
	}
	D := int32(-1)
	for d := int32(0); d < int32(len(f.buckets)) && D < 0; d++ {
		for i := 0; i < len(f.buckets[d]); i++ {
			u := f.buckets[d][i]
			if f.dist[u] != d {
				continue
			}
			if f.excess[u] < -flowTol {
				D = d
				break
			}
			for _, a := range f.adj[f.at[u]:f.at[u+1]] {
				if rc, ok := f.rc(u, a); ok {
					if nd := d + rc; nd < f.dist[a.v] {
						f.dist[a.v] = nd
						push(nd, a.v)
					}
				}
			}
		}
	}
	if D < 0 {
		return false
	}
	for u := range f.n {
		f.pot[u] += min(f.dist[u], D)
	}
	return true
}

// twoHop pushes flow greedily along the admissible paths of two arcs
// x → h → y from an excess to a deficit, through every node h in turn:
// on the product graph, where most mass moves to a sequence one position
// away, this leaves Dinic's rounds little to do. Flow on arcs of reduced
// cost 0 keeps the potentials optimal for it, so the result is the same
// optimum.
func (f *unitFlow) twoHop() {
	for h := range int32(f.n) {
		arcs := f.adj[f.at[h]:f.at[h+1]]
		j := 0
		for _, in := range arcs {
			if !in.rev || f.excess[in.v] <= flowTol || 1+f.pot[in.v]-f.pot[h] != 0 {
				continue
			}
			x := in.v
			for j < len(arcs) && f.excess[x] > flowTol {
				out := arcs[j]
				if out.rev || f.excess[out.v] >= -flowTol || 1+f.pot[h]-f.pot[out.v] != 0 {
					j++
					continue
				}
				a := min(f.excess[x], -f.excess[out.v])
				f.flow[in.e] += a
				f.flow[out.e] += a
				f.excess[x] -= a
				f.excess[out.v] += a
				if f.excess[out.v] >= -flowTol {
					j++
				}
			}
		}
	}
}

// levels computes the BFS levels of the admissible graph (arcs of
// reduced cost 0) from the nodes with excess, up to the level of the
// nearest deficit, and reports whether a deficit is reachable.
func (f *unitFlow) levels() bool {
	q := f.queue[:0]
	for u := range int32(f.n) {
		f.level[u], f.iter[u] = -1, 0
		if f.excess[u] > flowTol {
			f.level[u] = 0
			q = append(q, u)
		}
	}
	sink := int32(-1)
	for i := 0; i < len(q); i++ {
		u := q[i]
		if sink >= 0 && f.level[u] >= sink {
			break
		}
		for _, a := range f.adj[f.at[u]:f.at[u+1]] {
			if rc, ok := f.rc(u, a); ok && rc == 0 && f.level[a.v] < 0 {
				f.level[a.v] = f.level[u] + 1
				q = append(q, a.v)
				if sink < 0 && f.excess[a.v] < -flowTol {
					sink = f.level[a.v]
				}
			}
		}
	}
	f.queue = q
	return sink >= 0
}

// block pushes a blocking flow along the levels.
func (f *unitFlow) block() {
	for _, u := range f.queue {
		if f.level[u] != 0 {
			break
		}
		for f.excess[u] > flowTol {
			pushed := f.augment(u, f.excess[u])
			if pushed == 0 {
				break
			}
			f.excess[u] -= pushed
		}
	}
}

// augment sends up to amount from u along level paths to deficits,
// several paths per call, and returns how much arrived.
func (f *unitFlow) augment(u int32, amount float64) float64 {
	if f.level[u] > 0 && f.excess[u] < -flowTol {
		take := min(amount, -f.excess[u])
		f.excess[u] += take
		return take
	}
	rem := amount
	base := f.at[u]
	for ; base+f.iter[u] < f.at[u+1]; f.iter[u]++ {
		a := f.adj[base+f.iter[u]]
		if f.level[a.v] != f.level[u]+1 {
			continue
		}
		rc, ok := f.rc(u, a)
		if !ok || rc != 0 {
			continue
		}
		amt := rem
		if a.rev {
			amt = min(amt, f.flow[a.e])
		}
		got := f.augment(a.v, amt)
		if a.rev {
			f.flow[a.e] -= got
		} else {
			f.flow[a.e] += got
		}
		rem -= got
		if rem <= 0 {
			return amount
		}
	}
	return amount - rem
}
