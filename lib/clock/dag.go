package clock

import "encoding/binary"

// A ref names a function from action prefixes p ∈ A^k to beliefs, stored as
// a hash-consed |A|-ary tree whose top level branches on the first action:
// a negative ref ^b is the leaf "belief b" (k = 0), a non-negative ref is
// an interned node whose |A| children are refs of level k − 1.
type ref = int32

func leaf(b int32) ref { return ^b }

// dag interns the nodes of prefix trees.
type dag struct {
	nA    int
	kids  []ref // node n owns kids[n·nA : (n+1)·nA]
	index map[string]ref
	key   []byte
	limit int
	over  bool
	g     *guard
	cost  float64 // metered bytes of one node
}

func newDAG(nA, limit int, g *guard) *dag {
	// kids (grown by append), the key string and the index entry.
	return &dag{nA: nA, index: make(map[string]ref), limit: limit, g: g, cost: float64(5*nA+4*nA) + mapEntry(16, 4)}
}

// len returns the number of interned nodes.
func (d *dag) len() int { return len(d.kids) / d.nA }

// node returns the interned node with children k (len nA).
func (d *dag) node(k []ref) ref {
	d.key = d.key[:0]
	for _, r := range k {
		d.key = binary.LittleEndian.AppendUint32(d.key, uint32(r))
	}
	if id, ok := d.index[string(d.key)]; ok {
		return id
	}
	id := ref(d.len())
	if int(id) >= d.limit {
		d.over = true
	}
	// Past the budget the node is still made (callers walk its children)
	// but no longer indexed: the guard's error ends the computation at its
	// next check, and expand stops at once.
	if !d.g.add(termNodes, d.cost) {
		d.kids = append(d.kids, k...)
		return id
	}
	d.index[string(d.key)] = id
	d.kids = append(d.kids, k...)
	return id
}

// child returns child a of node r.
func (d *dag) child(r ref, a int) ref { return d.kids[int(r)*d.nA+a] }

// prefixes extends prefix trees by one observation:
//
//	vec(h·o)(p·a) = next(vec(h)(p), a, o),
//
// computed once per distinct subtree and observation.
type prefixes struct {
	bs      *beliefs
	d       *dag
	nO      int
	expMemo map[int64]ref
	scratch [][]ref // per level
}

func newPrefixes(bs *beliefs, limit int, g *guard) *prefixes {
	return &prefixes{bs: bs, d: newDAG(bs.nA, limit, g), nO: bs.nO, expMemo: make(map[int64]ref)}
}

// expand returns the tree of h·o from the tree r of h; level is r's level.
// Once the guard has stopped the computation it returns the stand-in leaf
// at once (the result is never used).
func (x *prefixes) expand(r ref, level, o int) ref {
	key := int64(r)*int64(x.nO) + int64(o)
	if v, ok := x.expMemo[key]; ok {
		return v
	}
	if !x.d.g.add(termNodes, mapEntry(8, 4)) {
		return leaf(standIn)
	}
	for len(x.scratch) <= level {
		x.scratch = append(x.scratch, make([]ref, x.bs.nA))
	}
	var out ref
	if r < 0 {
		b := ^r
		k := x.scratch[0]
		for a := range k {
			k[a] = leaf(x.bs.next(b, a, o))
		}
		out = x.d.node(k)
	} else {
		k := x.scratch[level]
		for a := range k {
			k[a] = x.expand(x.d.child(r, a), level-1, o)
		}
		out = x.d.node(k)
	}
	x.expMemo[key] = out
	return out
}

// at returns the belief at the constant prefix a^level of tree r.
func (x *prefixes) at(r ref, level, a int) int32 {
	for ; level > 0; level-- {
		r = x.d.child(r, a)
	}
	return ^r
}
