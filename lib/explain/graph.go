package explain

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/ot"
)

// graphW1 computes W1 between two laws over O^k under the additive
// sequence cost Σ_t g(x_t, y_t) as a min-cost flow on the product graph
// of O^k, whose shortest paths are that cost (g is a metric): an arc
// changes one position. Each line of the graph (the |O| sequences that
// differ at one position only) is a hub with arcs of cost δ/2 for a
// uniform metric δ·[o ≠ o′], else a complete graph with costs g. The
// problem has O(k·|O|^k) arcs where the transportation problem of lib/ot
// has one per pair of supports, so long suffixes with wide supports stay
// small. With a uniform metric every arc costs δ/2 and the problem is
// solved by the primal-dual method on the implicit graph (hamFlow); otherwise by a primal
// network simplex (graphSimplex).
type graphW1 struct {
	src, dst []int
	cost     []float64
	nodes    int
	nSeq     int
	k        int
	// ham solves the problems of a uniform metric δ·[o ≠ o′]; nil
	// otherwise.
	ham   *hamFlow
	delta float64
}

// newGraphW1 builds the product graph of O^k for ground g: implicit
// (hamFlow) for a uniform metric, arc lists for the network simplex
// otherwise.
func newGraphW1(g ot.Ground, k int) *graphW1 {
	nO := len(g)
	n := ot.SeqLen(nO, k)
	gr := &graphW1{nodes: n, nSeq: n, k: k}
	if uniform, delta := uniformGround(g); uniform {
		gr.ham, gr.delta = newHamFlow(nO, k), delta
		return gr
	}
	stride := 1
	for range k {
		// Lines of position with weight stride: sequences x with digit 0 there.
		for x := 0; x < n; x++ {
			if (x/stride)%nO != 0 {
				continue
			}
			for a := range nO {
				for b := range nO {
					if a != b {
						gr.add(x+a*stride, x+b*stride, g[a][b])
					}
				}
			}
		}
		stride *= nO
	}
	return gr
}

func (gr *graphW1) add(u, v int, c float64) {
	gr.src = append(gr.src, u)
	gr.dst = append(gr.dst, v)
	gr.cost = append(gr.cost, c)
}

// uniformGround reports whether g is δ·[o ≠ o′] and returns δ.
func uniformGround(g ot.Ground) (bool, float64) {
	delta := -1.0
	for a := range g {
		for b := range g {
			if a == b {
				continue
			}
			if delta < 0 {
				delta = g[a][b]
			}
			if g[a][b] != delta {
				return false, 0
			}
		}
	}
	return delta > 0, delta
}

// solve returns W1(p, q) and, for the network simplex, the flow on every
// arc of an optimal solution (the implicit solver keeps its own until
// the next solve).
func (gr *graphW1) solve(p, q []float64) (float64, []float64, error) {
	v, _, flow, err := gr.solveBelow(p, q, 0)
	return v, flow, err
}

// solveBelow is solve, except that the implicit solver may stop early
// with exact false and an upper bound on W1 below below (> 0).
func (gr *graphW1) solveBelow(p, q []float64, below float64) (float64, bool, []float64, error) {
	supply := make([]float64, gr.nodes)
	for x := range p {
		supply[x] = p[x] - q[x]
	}
	if gr.ham != nil {
		c, exact, ok := gr.ham.solve(supply, below/(gr.delta/2))
		if !ok {
			return 0, false, nil, fmt.Errorf("explain: the min-cost flow did not end within its phase limit")
		}
		return c * gr.delta / 2, exact, nil, nil
	}
	ns := newGraphSimplex(gr.nodes, gr.src, gr.dst, gr.cost, supply)
	if !ns.run(50 * (gr.nodes + len(gr.src))) {
		return 0, false, nil, fmt.Errorf("explain: the min-cost flow did not reach optimality within its pivot limit")
	}
	flow := ns.flow[:len(gr.src)]
	v := 0.0
	for e, f := range flow {
		v += f * gr.cost[e]
	}
	return v, true, flow, nil
}

// moves decomposes an optimal flow into paths from the sequences that
// give mass to those that take it: each path is a shortest path, so its
// cost is the ground cost of its two ends. It returns the couplings as
// ot.Flow values over sequence indices.
func (gr *graphW1) moves(p, q, flow []float64) []ot.Flow {
	if gr.ham != nil {
		var res []ot.Flow
		for _, m := range gr.ham.paths(p, q) {
			res = append(res, ot.Flow{I: int(m[0]), J: int(m[1]), Mass: m[2]})
		}
		return res
	}
	out := make([][]int, gr.nodes)
	for e, f := range flow {
		if f > 0 {
			out[gr.src[e]] = append(out[gr.src[e]], e)
		}
	}
	rest := append([]float64(nil), flow...)
	need := make([]float64, gr.nSeq)
	for x := range need {
		need[x] = q[x] - p[x]
	}
	var res []ot.Flow
	for x := 0; x < gr.nSeq; x++ {
		have := p[x] - q[x]
		for have > 1e-15 {
			path, u := []int{}, x
			amount := have
			for u >= gr.nSeq || need[u] <= 0 || u == x {
				next := -1
				for _, e := range out[u] {
					if rest[e] > 1e-15 {
						next = e
						break
					}
				}
				if next < 0 {
					break
				}
				path = append(path, next)
				amount = min(amount, rest[next])
				u = gr.dst[next]
			}
			if len(path) == 0 || u >= gr.nSeq || need[u] <= 0 {
				break
			}
			amount = min(amount, need[u])
			for _, e := range path {
				rest[e] -= amount
			}
			need[u] -= amount
			have -= amount
			res = append(res, ot.Flow{I: x, J: u, Mass: amount})
		}
	}
	return res
}

// graphSimplex is a primal network simplex for an uncapacitated min-cost
// flow problem: nodes 0 … n−1 with supplies summing to 0, arcs with
// non-negative costs, and an artificial root joined to every node by an
// arc of a cost above any path (the big-M start). Pivots pick the most
// negative reduced cost in blocks of √arcs, the leaving arc by the
// strongly feasible rule; the tree is kept as parent pointers with child
// lists, and a pivot re-hangs and re-prices only the moved subtree.
type graphSimplex struct {
	n, m, root int
	src, dst   []int
	cost       []float64
	flow       []float64
	inTree     []bool

	parent, pred       []int
	depth              []int
	pi                 []float64
	child, next, prev  []int
	block, start       int
	path, stack, oldPr []int
}

func newGraphSimplex(n int, src, dst []int, cost, supply []float64) *graphSimplex {
	m := len(src)
	ns := &graphSimplex{n: n, m: m, root: n}
	maxc := 0.0
	for _, c := range cost {
		maxc = max(maxc, c)
	}
	art := float64(n+1)*maxc + 1
	// Arcs m … m+n−1 are artificial: node u ↔ root.
	ns.src = append(append([]int(nil), src...), make([]int, n)...)
	ns.dst = append(append([]int(nil), dst...), make([]int, n)...)
	ns.cost = append(append([]float64(nil), cost...), make([]float64, n)...)
	ns.flow = make([]float64, m+n)
	ns.inTree = make([]bool, m+n)
	nodes := n + 1
	ns.parent, ns.pred, ns.depth = make([]int, nodes), make([]int, nodes), make([]int, nodes)
	ns.pi = make([]float64, nodes)
	ns.child, ns.next, ns.prev = make([]int, nodes), make([]int, nodes), make([]int, nodes)
	for u := range nodes {
		ns.child[u], ns.next[u], ns.prev[u] = -1, -1, -1
	}
	ns.parent[ns.root], ns.pred[ns.root] = -1, -1
	for u := range n {
		e := m + u
		ns.cost[e] = art
		if supply[u] >= 0 {
			ns.src[e], ns.dst[e] = u, ns.root
			ns.flow[e] = supply[u]
			ns.pi[u] = -art
		} else {
			ns.src[e], ns.dst[e] = ns.root, u
			ns.flow[e] = -supply[u]
			ns.pi[u] = art
		}
		ns.inTree[e] = true
		ns.parent[u], ns.pred[u], ns.depth[u] = ns.root, e, 1
		ns.attach(u, ns.root)
	}
	ns.block = max(int(math.Sqrt(float64(m))), 10)
	return ns
}

func (ns *graphSimplex) attach(u, par int) {
	ns.prev[u] = -1
	ns.next[u] = ns.child[par]
	if ns.child[par] >= 0 {
		ns.prev[ns.child[par]] = u
	}
	ns.child[par] = u
}

func (ns *graphSimplex) detach(u int) {
	par := ns.parent[u]
	if ns.prev[u] >= 0 {
		ns.next[ns.prev[u]] = ns.next[u]
	} else {
		ns.child[par] = ns.next[u]
	}
	if ns.next[u] >= 0 {
		ns.prev[ns.next[u]] = ns.prev[u]
	}
	ns.next[u], ns.prev[u] = -1, -1
}

func (ns *graphSimplex) reduced(e int) float64 {
	return ns.cost[e] + ns.pi[ns.src[e]] - ns.pi[ns.dst[e]]
}

// entering returns a real arc of negative reduced cost, or −1.
func (ns *graphSimplex) entering() int {
	tol := 1e-12 * (1 + ns.cost[ns.m]) // relative to the big-M scale of the potentials
	best, bestRC, seen := -1, -tol, 0
	for cnt := 0; cnt < ns.m; cnt++ {
		e := ns.start
		ns.start++
		if ns.start == ns.m {
			ns.start = 0
		}
		if !ns.inTree[e] {
			if rc := ns.reduced(e); rc < bestRC {
				best, bestRC = e, rc
			}
		}
		seen++
		if seen == ns.block {
			if best >= 0 {
				return best
			}
			seen = 0
		}
	}
	return best
}

// run pivots until optimal (true) or maxPivots pivots (false).
func (ns *graphSimplex) run(maxPivots int) bool {
	for range maxPivots {
		e := ns.entering()
		if e < 0 {
			return true
		}
		ns.pivot(e)
	}
	return false
}

func (ns *graphSimplex) up(u int) bool { return ns.src[ns.pred[u]] == u }

func (ns *graphSimplex) pivot(in int) {
	first, second := ns.src[in], ns.dst[in]
	a, b := first, second
	for a != b {
		if ns.depth[a] >= ns.depth[b] {
			a = ns.parent[a]
		} else {
			b = ns.parent[b]
		}
	}
	join := a
	delta, uOut, side := math.Inf(1), -1, 0
	for u := first; u != join; u = ns.parent[u] {
		if ns.up(u) {
			if d := ns.flow[ns.pred[u]]; d < delta {
				delta, uOut, side = d, u, 1
			}
		}
	}
	for u := second; u != join; u = ns.parent[u] {
		if !ns.up(u) {
			if d := ns.flow[ns.pred[u]]; d <= delta {
				delta, uOut, side = d, u, 2
			}
		}
	}
	if delta > 0 {
		ns.flow[in] += delta
		for u := first; u != join; u = ns.parent[u] {
			if ns.up(u) {
				ns.flow[ns.pred[u]] -= delta
			} else {
				ns.flow[ns.pred[u]] += delta
			}
		}
		for u := second; u != join; u = ns.parent[u] {
			if ns.up(u) {
				ns.flow[ns.pred[u]] += delta
			} else {
				ns.flow[ns.pred[u]] -= delta
			}
		}
	}
	x, y := first, second
	if side == 2 {
		x, y = second, first
	}
	ns.inTree[ns.pred[uOut]] = false
	ns.inTree[in] = true
	ns.rehang(x, y, uOut, in)
}

// rehang makes y the parent of x through arc in, reversing the tree path
// from x up to uOut (whose arc to its parent leaves), and re-prices the
// moved subtree.
func (ns *graphSimplex) rehang(x, y, uOut, in int) {
	path := ns.path[:0]
	for u := x; ; u = ns.parent[u] {
		path = append(path, u)
		if u == uOut {
			break
		}
	}
	oldPred := ns.oldPr[:0]
	for _, u := range path {
		oldPred = append(oldPred, ns.pred[u])
	}
	for i := len(path) - 1; i >= 0; i-- {
		ns.detach(path[i])
	}
	ns.parent[path[0]], ns.pred[path[0]] = y, in
	ns.attach(path[0], y)
	for i := 1; i < len(path); i++ {
		ns.parent[path[i]], ns.pred[path[i]] = path[i-1], oldPred[i-1]
		ns.attach(path[i], path[i-1])
	}
	ns.path, ns.oldPr = path, oldPred
	// Re-price the subtree of x.
	stack := append(ns.stack[:0], x)
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		par, e := ns.parent[u], ns.pred[u]
		ns.depth[u] = ns.depth[par] + 1
		if ns.src[e] == par {
			ns.pi[u] = ns.pi[par] + ns.cost[e]
		} else {
			ns.pi[u] = ns.pi[par] - ns.cost[e]
		}
		for c := ns.child[u]; c >= 0; c = ns.next[c] {
			stack = append(stack, c)
		}
	}
	ns.stack = stack
}
