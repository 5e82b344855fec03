package law

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

// DAG is the forward graph of one probe's distinct joint posteriors over
// (state, node), depth by depth (docs/algorithms.md#classes-not-histories):
// node v of depth t < T stands for every history whose normalised
// posterior is v's (to MergeRel; at depth T − 1 ≥ 1, whose
// next-observation probabilities are v's, its whole law), with the next-observation
// probabilities P^π(o | v) and the node each observation leads to. The
// suffix law of a node is the recursion
//
//	P^π(o·y | v) = P^π(o | v) · P^π(y | child(v, o)),
//
// so a node's law needs no history tree. Depth T has one node (0): every
// empty suffix law is the point mass on the empty sequence.
//
// StandIn[t] is the node whose law the convention gives an impossible
// depth-t history: under UniformStandIn the (interned) uniform posterior
// over (state, node), under PointMassStandIn a node of its own whose only
// observation is o_0 (probability 1) leading to StandIn[t+1]. Node 0 of
// depth 0 is the root (b0 at controller node 0).
type DAG struct {
	T, NumObs int
	// Len[t] is the number of nodes of depth t (Len[T] = 1).
	Len []int
	// Prob[t][v·|O| + o] = P^π(o | v) for t < T.
	Prob [][]float64
	// Child[t][v·|O| + o] is the depth-(t+1) node reached by o, or −1
	// where Prob is 0; at depth T − 1 it is 0 (the single depth-T node).
	Child [][]int32
	// StandIn[t] is the stand-in node of depth t.
	StandIn []int32
}

// MergeRel is the default largest relative difference, state by state,
// at which two posteriors are one DAG node: |b(s) − b′(s)| ≤
// MergeRel·max(b(s), b′(s)) for every (state, node) s, so that merged
// posteriors have the same support and, after any observations, children
// within about 2·MergeRel of each other, state by state: their suffix
// laws, and those of all their descendants, differ by about that much
// relative to each entry. A tolerance in L1 (10⁻¹⁴ before) merged
// posteriors whose rare components differ in ratio or support, whose
// children after a rare observation are far apart (TestDAGRareComponents).
// Posteriors equal up to rounding (the same belief reached along
// different histories) still merge: on the built-ins the DAGs have as
// many nodes as under the L1 tolerance.
const MergeRel = 1e-14

// mergeGrid is the quantisation step of the posteriors' hash: two
// posteriors within MergeRel usually fall on the same grid point; those
// that straddle a grid line stay two nodes, which costs space, not
// correctness.
const mergeGrid = 1 << 40

// dagLevel interns the posteriors of one depth.
type dagLevel struct {
	width int
	rel   float64   // the merge tolerance (MergeRel or DAGMerge's)
	post  []float64 // node v's posterior: post[v·width:(v+1)·width]
	// index maps a hash to the last node with it; chain[v] is the
	// previous node with v's hash (−1: none).
	index map[uint64]int32
	chain []int32
	n     int
}

func newDagLevel(width int, rel float64) *dagLevel {
	return &dagLevel{width: width, rel: rel, index: map[uint64]int32{}}
}

// intern returns the node of posterior b (normalised), adding it if new.
func (l *dagLevel) intern(b []float64) int32 {
	h := uint64(14695981039346656037)
	for _, x := range b {
		h ^= uint64(int64(math.Round(x * mergeGrid)))
		h *= 1099511628211
		h ^= h >> 29
	}
	last, ok := l.index[h]
	if !ok {
		last = -1
	}
	// The oldest node first, as a list in order of creation would.
	var match int32 = -1
	for v := last; v >= 0; v = l.chain[v] {
		if l.close(b, l.post[int(v)*l.width:(int(v)+1)*l.width]) {
			match = v
		}
	}
	if match >= 0 {
		return match
	}
	v := int32(l.n)
	l.n++
	l.post = append(l.post, b...)
	l.chain = append(l.chain, last)
	l.index[h] = v
	return v
}

// close reports whether b and p agree state by state to the level's
// relative tolerance (so also in their zeros).
func (l *dagLevel) close(b, p []float64) bool {
	for k, x := range b {
		if !(math.Abs(x-p[k]) <= l.rel*max(x, p[k])) {
			return false
		}
	}
	return true
}

// synthetic adds a node without posterior (the point-mass stand-in).
func (l *dagLevel) synthetic() int32 {
	v := int32(l.n)
	l.n++
	l.post = append(l.post, make([]float64, l.width)...)
	l.chain = append(l.chain, -1)
	return v
}

// DAG builds controller c's posterior DAG. Its cost is one joint step per
// node of depths < T (each O(nodes·|A|·(nnz(T_a) + |S|·|O|))), instead
// of one per history of the tree; maxNodes (> 0) bounds the nodes of one
// depth, and a larger DAG is refused with an error naming the depth.
func (e *Engine) DAG(ctx context.Context, c *fsc.FSC, maxNodes int) (*DAG, error) {
	return e.DAGMerge(ctx, c, maxNodes, MergeRel)
}

// newDagBuild returns the scratch of one DAG build of controller c into
// d, posteriors of width entries (nodes × states).
func (e *Engine) newDagBuild(c *fsc.FSC, d *DAG, width int) *dagBuild {
	nO, nS := e.tree.NumObs, e.nS
	b := &dagBuild{e: e, c: c, d: d, width: width, pointMass: e.conv == PointMassStandIn,
		kids: make([][]float64, nO), kids2: make([][]float64, nO), pred: make([]float64, nS), rowBuf: make([]float64, nO)}
	for o := range b.kids {
		b.kids[o], b.kids2[o] = make([]float64, width), make([]float64, width)
	}
	b.uniform = make([]float64, width)
	for k := range b.uniform {
		b.uniform[k] = 1 / float64(width)
	}
	return b
}

// DAGMerge is DAG with the merge tolerance rel in place of MergeRel: a
// caller whose equality of laws is tighter than MergeRel (long horizons,
// wide ground distances) passes a smaller one; 0 merges equal posteriors
// only.
func (e *Engine) DAGMerge(ctx context.Context, c *fsc.FSC, maxNodes int, rel float64) (*DAG, error) {
	if err := e.Check(c); err != nil {
		return nil, err
	}
	T, nO, nS := e.tree.T, e.tree.NumObs, e.nS
	width := c.Nodes * nS
	d := &DAG{T: T, NumObs: nO, Len: make([]int, T+1), Prob: make([][]float64, T), Child: make([][]int32, T), StandIn: make([]int32, T+1)}
	d.Len[T] = 1
	if T == 0 {
		return d, nil
	}
	b := e.newDagBuild(c, d, width)
	cur := newDagLevel(width, rel)
	root := make([]float64, width)
	copy(root, e.m.B0)
	cur.intern(root)
	// The limit is checked as nodes are added, not once a depth is
	// complete: a depth can hold |O| times the nodes of the one before.
	over := func(l *dagLevel, t int) error {
		if l != nil && maxNodes > 0 && l.n > maxNodes {
			return fmt.Errorf("law: the probe has %d distinct posteriors at depth %d already, above the limit %d", l.n, t, maxNodes)
		}
		return nil
	}
	for t := 0; t < T; t++ {
		b.standIn(cur, t)
		if err := over(cur, t); err != nil {
			return nil, err
		}
		var next *dagLevel
		if t+1 < T {
			next = newDagLevel(b.levelWidth(t+1), rel)
		}
		d.Len[t] = cur.n
		d.Prob[t], d.Child[t] = make([]float64, cur.n*nO), make([]int32, cur.n*nO)
		for v := 0; v < cur.n; v++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			b.expand(cur, next, t, v)
			if err := over(next, t+1); err != nil {
				return nil, err
			}
		}
		if next != nil {
			cur = next
		}
	}
	if b.pointMass {
		// The point-mass node of depth t leads by o_0 to that of t+1.
		for t := 0; t < T; t++ {
			d.Child[t][int(d.StandIn[t])*nO] = d.StandIn[t+1]
		}
	}
	return d, nil
}

// dagBuild is the state of one DAG construction. The nodes of depth
// T − 1 (the most numerous) are interned by their next-observation
// probabilities, their whole law, not by their posteriors: a row of |O|
// floats in place of |S|·nodes.
type dagBuild struct {
	e             *Engine
	c             *fsc.FSC
	d             *DAG
	width         int
	pointMass     bool
	uniform, pred []float64
	kids, kids2   [][]float64 // per observation, width
	rowBuf        []float64
}

// rowLevel reports whether depth t's nodes are interned by their rows.
func (b *dagBuild) rowLevel(t int) bool { return t == b.d.T-1 && t >= 1 }

// levelWidth is the length of the vectors depth t interns.
func (b *dagBuild) levelWidth(t int) int {
	if b.rowLevel(t) {
		return b.d.NumObs
	}
	return b.width
}

// standIn adds (or finds) depth t's stand-in node.
func (b *dagBuild) standIn(cur *dagLevel, t int) {
	switch {
	case b.pointMass:
		b.d.StandIn[t] = cur.synthetic()
	case b.rowLevel(t):
		b.row(b.rowBuf, t, b.uniform, b.kids2)
		b.d.StandIn[t] = cur.intern(b.rowBuf)
	default:
		b.d.StandIn[t] = cur.intern(b.uniform)
	}
}

// row sets out to the next-observation probabilities of posterior joint
// at depth t, normalised by their own total as the tree's laws are (leaf
// masses over their sum: a posterior sums to 1 only up to rounding,
// 10⁻¹² over 10⁵ states); kids receive the unnormalised children.
func (b *dagBuild) row(out []float64, t int, joint []float64, kids [][]float64) {
	b.e.jointStep(b.c, t, joint, kids, b.pred)
	total := 0.0
	for o := range out {
		out[o] = sum(kids[o][:b.width])
		total += out[o]
	}
	if total > 0 {
		for o := range out {
			out[o] /= total
		}
	}
}

// expand sets node v of depth t's row and children, interning them in
// next.
func (b *dagBuild) expand(cur, next *dagLevel, t, v int) {
	nO := b.d.NumObs
	row, ch := b.d.Prob[t][v*nO:(v+1)*nO], b.d.Child[t][v*nO:(v+1)*nO]
	for o := range ch {
		ch[o] = -1
	}
	if b.pointMass && int32(v) == b.d.StandIn[t] {
		row[0], ch[0] = 1, 0 // the next depth's stand-in, set at the end
		return
	}
	if b.rowLevel(t) {
		copy(row, cur.post[v*nO:(v+1)*nO])
		for o, p := range row {
			if p != 0 {
				ch[o] = 0 // depth T: the single node 0
			}
		}
		return
	}
	w := b.width
	b.row(row, t, cur.post[v*w:(v+1)*w], b.kids)
	for o, p := range row {
		if p == 0 {
			continue
		}
		if next == nil {
			ch[o] = 0 // depth T: the single node 0
			continue
		}
		post := b.kids[o][:w]
		m := sum(post)
		for k := range post {
			post[k] /= m
		}
		if b.rowLevel(t + 1) {
			b.row(b.rowBuf, t+1, post, b.kids2)
			ch[o] = next.intern(b.rowBuf)
		} else {
			ch[o] = next.intern(post)
		}
	}
}

// Fill writes the suffix law P^π(O_{t+1:T} | v) of depth-t node v into
// out (length |O|^{T−t}, indexed like Laws.Suffix), by the recursion over
// the DAG.
func (d *DAG) Fill(out []float64, t int, v int32) {
	clear(out)
	d.fill(out, t, v, 1)
}

func (d *DAG) fill(out []float64, t int, v int32, scale float64) {
	if t == d.T {
		out[0] = scale
		return
	}
	nO := d.NumObs
	span := len(out) / nO
	row, ch := d.Prob[t][int(v)*nO:(int(v)+1)*nO], d.Child[t][int(v)*nO:(int(v)+1)*nO]
	for o, p := range row {
		if p == 0 {
			continue
		}
		d.fill(out[o*span:(o+1)*span], t+1, ch[o], scale*p)
	}
}

// NewBlocks returns a Laws value that holds, per depth t, n[t] suffix
// laws of length |O|^{T−t} (Block, Depth) and nothing else: the laws of
// class representatives (docs/algorithms.md#classes-not-histories). Its
// Leaf and Mass are nil; StandIn reports false.
func NewBlocks(tree Tree, n []int) *Laws {
	l := &Laws{Tree: tree, data: make([][]float64, tree.T+1)}
	for t := range l.data {
		l.data[t] = make([]float64, n[t]*tree.SuffixLen(t))
	}
	return l
}

// Block returns block j of depth t of a Laws value from NewBlocks, to be
// written (the suffix law Suffix(t, j) reads).
func (l *Laws) Block(t, j int) []float64 {
	n := l.Tree.SuffixLen(t)
	return l.data[t][j*n : (j+1)*n]
}
