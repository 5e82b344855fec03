package ot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// checkTree verifies the spanning-tree invariants of the network after a
// pivot: the thread is a preorder of the tree, reverse thread is its
// inverse, succNum and lastSucc describe contiguous subtrees, pred arcs join
// each node to its parent in the recorded direction, tree flags match, flow
// is conserved and non-negative, and tree arcs have zero reduced cost.
func checkTree(nw *network) error {
	nodes := nw.root + 1
	order := make([]int, 0, nodes)
	pos := make([]int, nodes)
	for i := range pos {
		pos[i] = -1
	}
	u := nw.root
	for {
		if pos[u] >= 0 {
			return fmt.Errorf("thread revisits node %d", u)
		}
		pos[u] = len(order)
		order = append(order, u)
		if nw.revThread[nw.thread[u]] != u {
			return fmt.Errorf("revThread[thread[%d]] = %d", u, nw.revThread[nw.thread[u]])
		}
		u = nw.thread[u]
		if u == nw.root {
			break
		}
		if len(order) > nodes {
			return fmt.Errorf("thread longer than %d", nodes)
		}
	}
	if len(order) != nodes {
		return fmt.Errorf("thread visits %d of %d nodes", len(order), nodes)
	}
	isAnc := func(a, w int) bool {
		for ; w != -1; w = nw.parent[w] {
			if w == a {
				return true
			}
		}
		return false
	}
	size := make([]int, nodes)
	for w := range nodes {
		for a := w; a != -1; a = nw.parent[a] {
			size[a]++
		}
	}
	for w := range nodes {
		if nw.succNum[w] != size[w] {
			return fmt.Errorf("succNum[%d] = %d, subtree has %d", w, nw.succNum[w], size[w])
		}
		for t := pos[w]; t < pos[w]+size[w]; t++ {
			if !isAnc(w, order[t]) {
				return fmt.Errorf("thread segment of %d contains %d outside its subtree", w, order[t])
			}
		}
		if nw.lastSucc[w] != order[pos[w]+size[w]-1] {
			return fmt.Errorf("lastSucc[%d] = %d, want %d", w, nw.lastSucc[w], order[pos[w]+size[w]-1])
		}
	}
	inTree := 0
	for _, b := range nw.tree[:nw.m] {
		if b {
			inTree++
		}
	}
	real := 0
	net := make([]float64, nodes)
	for w := 0; w < nw.root; w++ {
		e, par := nw.pred[w], nw.parent[w]
		var src, tgt int
		if e < nw.m {
			real++
			if !nw.tree[e] {
				return fmt.Errorf("pred[%d] = %d not flagged in tree", w, e)
			}
			src, tgt = e/nw.k, nw.n+e%nw.k
		} else {
			a := e - nw.m
			if a != w || par != nw.root || nw.predDir[w] != dirUp {
				return fmt.Errorf("artificial pred %d of node %d with parent %d", e, w, par)
			}
			src, tgt = a, nw.root
		}
		switch nw.predDir[w] {
		case dirUp:
			if src != w || tgt != par {
				return fmt.Errorf("node %d: up arc %d→%d, parent %d", w, src, tgt, par)
			}
		case dirDown:
			if tgt != w || src != par {
				return fmt.Errorf("node %d: down arc %d→%d, parent %d", w, src, tgt, par)
			}
		default:
			return fmt.Errorf("node %d: direction %d", w, nw.predDir[w])
		}
		f := nw.predFlow[w]
		if !(f >= 0) {
			return fmt.Errorf("node %d: flow %v", w, f)
		}
		net[src] += f
		net[tgt] -= f
		rc := nw.arcCost(e) + nw.pi[src] - nw.pi[tgt]
		scale := max(1, math.Abs(nw.pi[src]), math.Abs(nw.pi[tgt]))
		if !(math.Abs(rc) <= 1e-9*scale) {
			return fmt.Errorf("tree arc %d (node %d) has reduced cost %v", e, w, rc)
		}
	}
	if real != inTree {
		return fmt.Errorf("%d real pred arcs, %d flagged", real, inTree)
	}
	for w := 0; w < nw.root; w++ {
		if !(math.Abs(net[w]-nw.supply[w]) <= 1e-12) {
			return fmt.Errorf("node %d: net outflow %v, supply %v", w, net[w], nw.supply[w])
		}
	}
	return nil
}

// TestNetworkInvariants pivots random transportation problems one step at
// a time and checks the tree invariants after every pivot. Integer costs
// and masses on a grid of 1/8 make many pivots degenerate.
func TestNetworkInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var nw network
	total := 0
	for trial := range 340 {
		n, k := 2+rng.IntN(7), 2+rng.IntN(7)
		if trial >= 300 {
			n, k = 10+rng.IntN(30), 10+rng.IntN(30)
		}
		nw.resize(n, k)
		degenerate := trial%2 == 0
		ps := randMasses(rng, n, degenerate)
		qs := randMasses(rng, k, degenerate)
		for i, v := range ps {
			nw.supply[i] = v
		}
		for j, v := range qs {
			nw.supply[n+j] = -v
		}
		for e := range nw.cost[:nw.m] {
			if degenerate {
				nw.cost[e] = float64(rng.IntN(4))
			} else {
				nw.cost[e] = rng.Float64()
			}
		}
		nw.init(DefaultTol)
		if err := checkTree(&nw); err != nil {
			t.Fatalf("trial %d: initial tree: %v", trial, err)
		}
		for step := 0; ; step++ {
			if step > 10000 {
				t.Fatalf("trial %d: no convergence", trial)
			}
			if !nw.findEntering() {
				nw.recomputePotentials()
				if !nw.findEntering() {
					break
				}
			}
			nw.findJoin()
			if !nw.findLeaving() {
				t.Fatalf("trial %d: no leaving arc", trial)
			}
			nw.changeFlow()
			nw.updateTree()
			nw.updatePotential()
			nw.pivots++
			if err := checkTree(&nw); err != nil {
				t.Fatalf("trial %d pivot %d: %v", trial, step, err)
			}
		}
		total += nw.pivots
		// Optimality: no real arc has a clearly negative reduced cost.
		for e := range nw.m {
			rc := nw.cost[e] + nw.pi[e/k] - nw.pi[n+e%k]
			if !(rc >= -1e-9) {
				t.Fatalf("trial %d: arc %d has reduced cost %v at the end", trial, e, rc)
			}
		}
	}
	if total < 1000 {
		t.Errorf("only %d pivots checked", total)
	}
	t.Logf("%d pivots checked", total)
}

// randMasses returns n positive masses summing to 1: small integer weights
// normalised (many equal partial sums, hence degenerate pivots) when grid
// is set, uniform random weights otherwise.
func randMasses(rng *rand.Rand, n int, grid bool) []float64 {
	w := make([]float64, n)
	if grid {
		units := make([]int, n)
		for i := range units {
			units[i] = 1
		}
		for range 8 * n {
			units[rng.IntN(n)]++
		}
		for i := range w {
			w[i] = float64(units[i])
		}
		normalize(w)
		return w
	}
	for i := range w {
		w[i] = 0.05 + rng.Float64()
	}
	normalize(w)
	return w
}

func normalize(w []float64) {
	s := 0.0
	for _, v := range w {
		s += v
	}
	for i := range w {
		w[i] /= s
	}
}
