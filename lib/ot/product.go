package ot

import (
	"errors"
	"fmt"
)

// ProductW1 computes SeqW1 under a uniform ground metric δ·[o ≠ o′] (the
// discrete metric, scaled) as a min-cost flow on the product graph of
// O^k: a node per sequence and a hub per line (the |O| sequences that
// differ at one position only), joined by arcs of cost δ/2 both ways.
// The shortest path between two sequences changes each differing
// position once, through its line's hub, and costs δ per position: the
// additive sequence cost. W1 under a graph's shortest-path metric is the
// min-cost flow from the surplus of p to that of q, so the problem has
// 2·k·|O|^k arcs whatever the supports, where the transportation problem
// of Solver.SeqW1 has one per pair of residual atoms (10⁸ for two laws
// over 28³ sequences). It is solved by the primal-dual method (every arc
// costs one unit of δ/2): exact up to the rounding of the supplies, with
// excesses of at most 10⁻¹⁵ left in place.
//
// A ProductW1 owns its graph and scratch (ProductBytes); it is not safe
// for concurrent use.
type ProductW1 struct {
	k, nSeq int
	delta   float64
	flow    *unitFlow
	supply  []float64
}

// ErrNotUniform is returned by NewProductW1 for a ground metric whose
// off-diagonal entries are not all equal.
var ErrNotUniform = errors.New("ot: the product-graph flow needs a uniform ground metric")

// NewProductW1 builds the product graph of O^k for the uniform ground g.
// It returns ErrNotUniform when g is not uniform.
func NewProductW1(g Ground, k int) (*ProductW1, error) {
	delta, ok := g.uniform()
	if !ok || len(g) < 2 || !(delta > 0) {
		return nil, ErrNotUniform
	}
	nO := len(g)
	n := SeqLen(nO, k)
	nodes := n
	src := make([]int, 0, 2*k*n)
	dst := make([]int, 0, 2*k*n)
	stride := 1
	for range k {
		for x := 0; x < n; x++ {
			if (x/stride)%nO != 0 {
				continue
			}
			hub := nodes
			nodes++
			for o := range nO {
				y := x + o*stride
				src, dst = append(src, y, hub), append(dst, hub, y)
			}
		}
		stride *= nO
	}
	return &ProductW1{k: k, nSeq: n, delta: delta, flow: newUnitFlow(nodes, src, dst), supply: make([]float64, nodes)}, nil
}

// ProductBytes returns the memory of a ProductW1 over O^k with nO
// observations: per arc its ends, flow and two residual entries, per node
// its excess, potentials, levels and queue.
func ProductBytes(nO, k int) int64 {
	n := int64(SeqLen(nO, k))
	arcs := 2 * int64(k) * n
	nodes := n + int64(k)*n/int64(nO)
	return 48*arcs + 40*nodes
}

// W1 returns SeqW1(g, k, p, q) for the ground and length of the graph; q
// is rescaled to p's total, as SeqW1 does. It panics if len(p) or len(q)
// is not |O|^k.
func (pf *ProductW1) W1(p, q []float64) (float64, error) {
	if len(p) != pf.nSeq || len(q) != pf.nSeq {
		panic(fmt.Sprintf("ot: laws have lengths %d and %d, want %d", len(p), len(q), pf.nSeq))
	}
	tp, tq, err := checkMasses(p, q)
	if err != nil {
		return 0, err
	}
	scale := 1.0
	if tq != tp && tq > 0 {
		scale = tp / tq
	}
	clear(pf.supply)
	for x := range p {
		pf.supply[x] = p[x] - q[x]*scale
	}
	flow, ok := pf.flow.solve(pf.supply)
	if !ok {
		return 0, fmt.Errorf("ot: the product-graph flow over %d sequences did not end within its phase limit", pf.nSeq)
	}
	v := 0.0
	for _, f := range flow {
		v += f
	}
	return v * pf.delta / 2, nil
}
