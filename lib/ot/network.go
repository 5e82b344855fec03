package ot

import "math"

// Directions of a tree arc relative to the child node u: dirUp means the arc
// goes from u to its parent, dirDown from the parent to u.
const (
	dirUp   = 1
	dirDown = -1
)

// network is the primal network simplex for a transportation problem with n
// sources and k sinks, laid out as in LEMON's NetworkSimplex (and POT's
// floating-point port of it): flat parallel arrays for the arcs and for the
// spanning tree, block-search pivoting and the strongly feasible
// leaving-arc rule (which excludes cycling in exact arithmetic). Unlike
// LEMON it starts from a feasible tree of real arcs (see init) rather than
// big-M artificial arcs.
//
// Nodes 0…n−1 are the sources, n…n+k−1 the sinks, n+k an artificial root.
// The real arc e = i·k + j goes from source i to sink j with cost cost[e];
// the root's only child, source 0, hangs from it by the artificial arc m
// (m = n·k) of cost 0. Arcs are uncapacitated, so non-tree arcs carry no
// flow and the flow of the tree arc pred[u] is stored per node in
// predFlow[u]. Reduced costs are
// cost + pi[source] − pi[target]; the dual values of the transportation
// problem are u_i = −pi[i], v_j = pi[n+j].
type network struct {
	n, k, m int
	root    int
	eps     float64 // relative tolerance on reduced costs

	cost []float64 // m real arc costs, row-major
	tree []bool    // m: arc is in the spanning tree

	// Node arrays, length n+k+1.
	supply    []float64
	pi        []float64
	parent    []int
	pred      []int
	predDir   []int
	predFlow  []float64
	thread    []int
	revThread []int
	succNum   []int
	lastSucc  []int
	dirty     []int

	// Scratch for building the initial tree.
	arcs     []int
	flows    []float64
	adjStart []int
	fillPos  []int
	adj      []int
	order    []int
	stack    []int
	uf       []int
	rem      []float64

	block, next int
	pivots      int

	// stop, when positive, ends solve as soon as the plan costs less
	// (below is then set); obj tracks the plan's cost between checks.
	stop  float64
	below bool
	obj   float64
	inRC  float64 // reduced cost of the entering arc

	// State of the current pivot.
	in, join, uIn, vIn, uOut int
	delta                    float64
}

// resize prepares the arrays for n sources and k sinks, reusing memory.
func (nw *network) resize(n, k int) {
	nw.n, nw.k, nw.m = n, k, n*k
	nw.root = n + k
	nodes := n + k + 1
	nw.cost = growF(nw.cost, nw.m)
	nw.tree = growB(nw.tree, nw.m)
	nw.supply = growF(nw.supply, nodes)
	nw.pi = growF(nw.pi, nodes)
	nw.predFlow = growF(nw.predFlow, nodes)
	nw.parent = growI(nw.parent, nodes)
	nw.pred = growI(nw.pred, nodes)
	nw.predDir = growI(nw.predDir, nodes)
	nw.thread = growI(nw.thread, nodes)
	nw.revThread = growI(nw.revThread, nodes)
	nw.succNum = growI(nw.succNum, nodes)
	nw.lastSucc = growI(nw.lastSucc, nodes)
	if cap(nw.dirty) < nodes {
		nw.dirty = make([]int, 0, nodes)
		nw.arcs = make([]int, 0, nodes)
		nw.flows = make([]float64, 0, nodes)
		nw.order = make([]int, 0, nodes)
		nw.stack = make([]int, 0, nodes)
	}
	nw.adjStart = growI(nw.adjStart, nodes)
	nw.fillPos = growI(nw.fillPos, nodes)
	nw.adj = growI(nw.adj, 2*nodes)
	nw.uf = growI(nw.uf, nodes)
	nw.rem = growF(nw.rem, k)
}

func growF(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

func growI(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

func growB(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	return s[:n]
}

// init builds the initial spanning tree from a basic feasible plan of real
// arcs: the row-minimum rule (each source in turn ships to its cheapest
// sinks with demand left) gives a forest, which zero-flow arcs join into a
// spanning tree of the n+k real nodes. The root is joined to source 0 by an
// inert artificial arc of cost 0 and flow 0 that never lies on a pivot
// cycle (the root has a single child, so no join is the root). Starting
// from a cheap feasible plan takes far fewer pivots than LEMON's big-M
// start, and with no big-M costs every potential is a short alternating sum
// of real costs, so reduced costs keep nearly full relative precision.
// Rounding of the masses leaves a few ulps of imbalance at the last nodes.
// supply[0:n] must be positive, supply[n:n+k] negative, cost filled.
// Complexity O((n+k)·k).
func (nw *network) init(eps float64) {
	nw.eps = eps
	clear(nw.tree[:nw.m])
	nw.greedyPlan()
	nw.joinComponents()
	nw.buildAdjacency()
	nw.buildThread()
	nw.recomputePotentials()
	nw.block = max(int(math.Sqrt(float64(nw.m))), 10)
	nw.next = 0
	nw.pivots = 0
}

// greedyPlan sets arcs and flows to the row-minimum greedy plan and
// leaves in uf the components of the forest it forms.
// Each source in turn ships to its cheapest sinks with remaining demand.
// Each shipment but the last of a row exhausts its sink, so the arcs form
// a forest.
func (nw *network) greedyPlan() {
	n, k := nw.n, nw.k
	nodes := n + k
	nw.arcs = nw.arcs[:0]
	nw.flows = nw.flows[:0]
	uf := nw.uf
	for u := range nodes {
		uf[u] = u
	}
	rem := nw.rem
	for j := range k {
		rem[j] = -nw.supply[n+j]
	}
	for i := range n {
		ra := nw.supply[i]
		row := nw.cost[i*k : (i+1)*k]
		for ra > 0 {
			best, bc := -1, math.Inf(1)
			for j, c := range row {
				if rem[j] > 0 && c < bc {
					best, bc = j, c
				}
			}
			if best < 0 {
				break
			}
			f := min(ra, rem[best])
			nw.arcs = append(nw.arcs, i*k+best)
			nw.flows = append(nw.flows, f)
			ra -= f
			rem[best] -= f
			uf[find(uf, i)] = find(uf, n+best)
		}
	}
}

// joinComponents adds zero-flow arcs that join the forest of greedyPlan
// into one spanning tree and marks the tree's arcs in tree.
func (nw *network) joinComponents() {
	n, k := nw.n, nw.k
	nodes := n + k
	uf := nw.uf
	// Join the other components to the component of source 0 by zero-flow
	// arcs: source 0 → a sink of the component, or a source of the
	// component → t0, a sink that source 0 ships to (source 0 ships first,
	// so it has one).
	hub := find(uf, 0)
	t0 := nw.arcs[0] % k
	for u := range nodes {
		r := find(uf, u)
		if r == hub {
			continue
		}
		if u >= n {
			nw.arcs = append(nw.arcs, u-n)
		} else {
			nw.arcs = append(nw.arcs, u*k+t0)
		}
		nw.flows = append(nw.flows, 0)
		uf[r] = hub
	}
	for _, e := range nw.arcs {
		nw.tree[e] = true
	}
}

// buildAdjacency fills adjStart and adj with the tree's adjacency in
// compressed rows: adj holds positions in arcs.
func (nw *network) buildAdjacency() {
	n, k := nw.n, nw.k
	nodes := n + k
	start := nw.adjStart
	clear(start)
	for _, e := range nw.arcs {
		start[e/k+1]++
		start[n+e%k+1]++
	}
	for u := range nodes {
		start[u+1] += start[u]
	}
	fill := nw.fillPos
	copy(fill, start[:nodes])
	for x, e := range nw.arcs {
		i, j := e/k, n+e%k
		nw.adj[fill[i]] = x
		fill[i]++
		nw.adj[fill[j]] = x
		fill[j]++
	}
}

// buildThread sets parent, pred, predDir and predFlow by a depth-first
// preorder from the root through source 0, and from that order the
// thread, its reverse, the subtree sizes and the last successors.
func (nw *network) buildThread() {
	n, k, m := nw.n, nw.k, nw.m
	root := nw.root
	start := nw.adjStart
	// Depth-first preorder from the root through source 0.
	c := 0
	nw.parent[root] = -1
	nw.pred[root] = -1
	nw.predDir[root] = 0
	nw.predFlow[root] = 0
	nw.parent[c] = root
	nw.pred[c] = m + c
	nw.predDir[c] = dirUp
	nw.predFlow[c] = 0
	order := append(nw.order[:0], root)
	stack := append(nw.stack[:0], c)
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		order = append(order, u)
		for _, x := range nw.adj[start[u]:start[u+1]] {
			e := nw.arcs[x]
			if e == nw.pred[u] {
				continue
			}
			// The child w is the other end of e.
			w, dir := e/k, dirUp
			if w == u {
				w, dir = n+e%k, dirDown
			}
			nw.parent[w] = u
			nw.pred[w] = e
			nw.predDir[w] = dir
			nw.predFlow[w] = nw.flows[x]
			stack = append(stack, w)
		}
	}
	nw.order, nw.stack = order, stack
	for t, u := range order {
		next := order[(t+1)%len(order)]
		nw.thread[u] = next
		nw.revThread[next] = u
		nw.succNum[u] = 1
	}
	for t := len(order) - 1; t > 0; t-- {
		u := order[t]
		nw.succNum[nw.parent[u]] += nw.succNum[u]
	}
	for t, u := range order {
		nw.lastSucc[u] = order[t+nw.succNum[u]-1]
	}
}

// arcCost returns the cost of arc e; the artificial arc costs 0.
func (nw *network) arcCost(e int) float64 {
	if e < nw.m {
		return nw.cost[e]
	}
	return 0
}

// solve pivots until no arc has a negative reduced cost (returns true) or
// maxPivots pivots have been made (returns false). The potentials are
// recomputed from the tree every few pivots and before optimality is
// declared, so that rounding drift cannot decide the outcome.
func (nw *network) solve(maxPivots int) bool {
	recompute := max(64, nw.root)
	nw.below = false
	if nw.stop > 0 {
		nw.obj = nw.value()
		if nw.obj < nw.stop {
			nw.below = true
			return false
		}
	}
	for {
		if !nw.findEntering() {
			nw.recomputePotentials()
			if !nw.findEntering() {
				return true
			}
		}
		if nw.pivots >= maxPivots {
			return false
		}
		nw.findJoin()
		if !nw.findLeaving() {
			// Unreachable: every cycle of a transportation network has
			// an arc whose flow decreases. Reported as non-optimal.
			return false
		}
		nw.changeFlow()
		nw.updateTree()
		nw.updatePotential()
		nw.pivots++
		if nw.stop > 0 {
			// The plan's cost falls by delta·|reduced cost|; confirm a
			// crossing on the plan itself (the running sum drifts).
			nw.obj += nw.delta * nw.inRC
			if nw.obj < nw.stop {
				if nw.obj = nw.value(); nw.obj < nw.stop {
					nw.below = true
					return false
				}
			}
		}
		if nw.pivots%recompute == 0 {
			nw.recomputePotentials()
		}
	}
}

// findEntering runs one block search (LEMON's BlockSearchPivotRule): scan
// arcs cyclically from next in blocks of nw.block, and stop at the end of
// the first block that contains an eligible arc, choosing the most negative
// reduced cost seen. An arc is eligible when its reduced cost c satisfies
// c < −eps·max(|cost|, |pi_s|, |pi_t|), a tolerance relative to the
// magnitudes that enter the subtraction.
func (nw *network) findEntering() bool {
	k, m := nw.k, nw.m
	eps := nw.eps
	piT := nw.pi[nw.n : nw.n+k]
	minC := 0.0
	in := -1
	e := nw.next
	cnt := nw.block
	for left := m; left > 0; {
		// Scan a segment that stays within one row and one block.
		i, j := e/k, e%k
		seg := min(k-j, cnt, left)
		pii := nw.pi[i]
		costs := nw.cost[e : e+seg]
		tree := nw.tree[e : e+seg]
		pt := piT[j : j+seg]
		for x, c := range costs {
			rc := c + (pii - pt[x])
			if rc < minC && !tree[x] && rc < -eps*max(c, math.Abs(pii), math.Abs(pt[x])) {
				minC = rc
				in = e + x
			}
		}
		e += seg
		if e == m {
			e = 0
		}
		left -= seg
		cnt -= seg
		if cnt == 0 {
			if in >= 0 {
				break
			}
			cnt = nw.block
		}
	}
	if in < 0 {
		return false
	}
	nw.in = in
	nw.inRC = minC
	nw.next = e
	return true
}

// findJoin finds the lowest common ancestor of the ends of the entering arc.
func (nw *network) findJoin() {
	u := nw.in / nw.k
	v := nw.n + nw.in%nw.k
	for u != v {
		if nw.succNum[u] < nw.succNum[v] {
			u = nw.parent[u]
		} else {
			v = nw.parent[v]
		}
	}
	nw.join = u
}

// findLeaving finds the leaving arc of the cycle closed by the entering arc:
// the blocking arc (flow decreasing to zero) met last when the cycle is
// traversed in its orientation from the join node, which keeps the tree
// strongly feasible. It reports false when no arc blocks (impossible for a
// transportation problem).
func (nw *network) findLeaving() bool {
	first := nw.in / nw.k
	second := nw.n + nw.in%nw.k
	join := nw.join
	delta := math.Inf(1)
	result := 0
	for u := first; u != join; u = nw.parent[u] {
		if nw.predDir[u] == dirUp {
			if d := nw.predFlow[u]; d < delta {
				delta = d
				nw.uOut = u
				result = 1
			}
		}
	}
	for u := second; u != join; u = nw.parent[u] {
		if nw.predDir[u] == dirDown {
			if d := nw.predFlow[u]; d <= delta {
				delta = d
				nw.uOut = u
				result = 2
			}
		}
	}
	if result == 1 {
		nw.uIn, nw.vIn = first, second
	} else {
		nw.uIn, nw.vIn = second, first
	}
	nw.delta = delta
	return result != 0
}

// changeFlow augments delta units around the cycle and updates the tree
// membership of the entering and leaving arcs.
func (nw *network) changeFlow() {
	delta := nw.delta
	if delta > 0 {
		for u := nw.in / nw.k; u != nw.join; u = nw.parent[u] {
			nw.predFlow[u] -= float64(nw.predDir[u]) * delta
		}
		for u := nw.n + nw.in%nw.k; u != nw.join; u = nw.parent[u] {
			nw.predFlow[u] += float64(nw.predDir[u]) * delta
		}
	}
	nw.predFlow[nw.uOut] = 0
	nw.tree[nw.in] = true
	if out := nw.pred[nw.uOut]; out < nw.m {
		nw.tree[out] = false
	}
}

// updateTree re-hangs the subtree cut off by the leaving arc below the
// entering arc, updating parent, pred, thread, reverse thread, successor
// counts and last successors (LEMON's updateTreeStructure, transcribed).
func (nw *network) updateTree() {
	parent, thread, rev := nw.parent, nw.thread, nw.revThread
	succ, last := nw.succNum, nw.lastSucc
	uIn, vIn, uOut := nw.uIn, nw.vIn, nw.uOut
	in := nw.in
	srcIn := in / nw.k

	oldRevThread := rev[uOut]
	oldSuccNum := succ[uOut]
	oldLastSucc := last[uOut]
	vOut := parent[uOut]

	inDir := dirDown
	if uIn == srcIn {
		inDir = dirUp
	}

	if uIn == uOut {
		parent[uIn] = vIn
		nw.pred[uIn] = in
		nw.predDir[uIn] = inDir
		nw.predFlow[uIn] = nw.delta
		if thread[vIn] != uOut {
			after := thread[oldLastSucc]
			thread[oldRevThread] = after
			rev[after] = oldRevThread
			after = thread[vIn]
			thread[vIn] = uOut
			rev[uOut] = vIn
			thread[oldLastSucc] = after
			rev[after] = oldLastSucc
		}
	} else {
		nw.reverseStem(inDir, oldRevThread, oldSuccNum, oldLastSucc)
	}
	nw.fixSuccessors(vOut, oldRevThread, oldSuccNum, oldLastSucc)
}

// reverseStem is updateTree's case uIn ≠ uOut: it reverses the stem
// from uIn up to uOut, hangs it under vIn, and repairs the thread, its
// reverse, parent, pred, predDir, predFlow and the subtree sizes on the
// stem. old* are uOut's reverse thread, subtree size and last successor
// before the pivot.
func (nw *network) reverseStem(inDir int, oldRevThread, oldSuccNum, oldLastSucc int) {
	parent, thread, rev := nw.parent, nw.thread, nw.revThread
	succ, last := nw.succNum, nw.lastSucc
	uIn, vIn, uOut := nw.uIn, nw.vIn, nw.uOut
	in := nw.in
	threadContinue := thread[vIn]
	if oldRevThread == vIn {
		threadContinue = thread[oldLastSucc]
	}
	stem := uIn
	parStem := vIn
	lst := last[uIn]
	after := thread[lst]
	thread[vIn] = uIn
	dirty := nw.dirty[:0]
	dirty = append(dirty, vIn)
	for stem != uOut {
		nextStem := parent[stem]
		thread[lst] = nextStem
		dirty = append(dirty, lst)

		before := rev[stem]
		thread[before] = after
		rev[after] = before

		parent[stem] = parStem
		parStem = stem
		stem = nextStem

		if last[stem] == last[parStem] {
			lst = rev[parStem]
		} else {
			lst = last[stem]
		}
		after = thread[lst]
	}
	parent[uOut] = parStem
	thread[lst] = threadContinue
	rev[threadContinue] = lst
	last[uOut] = lst

	if oldRevThread != vIn {
		thread[oldRevThread] = after
		rev[after] = oldRevThread
	}
	for _, u := range dirty {
		rev[thread[u]] = u
	}
	nw.dirty = dirty

	tmpSc := 0
	tmpLs := last[uOut]
	for u, p := uOut, parent[uOut]; u != uIn; u, p = p, parent[p] {
		nw.pred[u] = nw.pred[p]
		nw.predDir[u] = -nw.predDir[p]
		nw.predFlow[u] = nw.predFlow[p]
		tmpSc += succ[u] - succ[p]
		succ[u] = tmpSc
		last[p] = tmpLs
	}
	nw.pred[uIn] = in
	nw.predDir[uIn] = inDir
	nw.predFlow[uIn] = nw.delta
	succ[uIn] = oldSuccNum
}

// fixSuccessors repairs lastSucc and succNum on the paths from vIn and
// vOut up to the join after the subtree of uOut moved under vIn.
func (nw *network) fixSuccessors(vOut, oldRevThread, oldSuccNum, oldLastSucc int) {
	parent, succ, last := nw.parent, nw.succNum, nw.lastSucc
	uOut, vIn, join := nw.uOut, nw.vIn, nw.join
	upLimitOut := -1
	if last[join] == vIn {
		upLimitOut = join
	}
	lastSuccOut := last[uOut]
	for u := vIn; u != -1 && last[u] == vIn; u = parent[u] {
		last[u] = lastSuccOut
	}
	if join != oldRevThread && vIn != oldRevThread {
		for u := vOut; u != upLimitOut && last[u] == oldLastSucc; u = parent[u] {
			last[u] = oldRevThread
		}
	} else if lastSuccOut != oldLastSucc {
		for u := vOut; u != upLimitOut && last[u] == oldLastSucc; u = parent[u] {
			last[u] = lastSuccOut
		}
	}
	for u := vIn; u != join; u = parent[u] {
		succ[u] += oldSuccNum
	}
	for u := vOut; u != join; u = parent[u] {
		succ[u] -= oldSuccNum
	}
}

// updatePotential restores zero reduced cost on the entering arc by
// shifting the potentials of the re-hung subtree of u_in by σ, or, when
// that subtree holds more than half of the nodes, the potentials of every
// other node by −σ (reduced costs only depend on differences; the root
// moves with its single child).
func (nw *network) updatePotential() {
	uIn := nw.uIn
	sigma := nw.pi[nw.vIn] - nw.pi[uIn] - float64(nw.predDir[uIn])*nw.cost[nw.in]
	end := nw.thread[nw.lastSucc[uIn]]
	if 2*nw.succNum[uIn] <= nw.root+1 {
		for u := uIn; u != end; u = nw.thread[u] {
			nw.pi[u] += sigma
		}
		return
	}
	for u := end; u != uIn; u = nw.thread[u] {
		nw.pi[u] -= sigma
	}
}

// recomputePotentials recomputes every potential from the tree arcs (zero
// reduced cost on each), visiting nodes in thread (preorder) order from the
// root, which removes the rounding drift of incremental updates.
func (nw *network) recomputePotentials() {
	root := nw.root
	nw.pi[root] = 0
	for u := nw.thread[root]; u != root; u = nw.thread[u] {
		nw.pi[u] = nw.pi[nw.parent[u]] - float64(nw.predDir[u])*nw.arcCost(nw.pred[u])
	}
}

// value returns Σ flow·cost over the real tree arcs.
func (nw *network) value() float64 {
	v := 0.0
	for u := 0; u < nw.root; u++ {
		if e := nw.pred[u]; e < nw.m {
			v += nw.predFlow[u] * nw.cost[e]
		}
	}
	return v
}

// find returns the representative of u in the union-find forest uf,
// halving paths on the way.
func find(uf []int, u int) int {
	for uf[u] != u {
		uf[u] = uf[uf[u]]
		u = uf[u]
	}
	return u
}
