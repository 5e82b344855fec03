package policy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

// signatures numbers nodes by their signature strings (first-seen order).
type signatures struct {
	ids map[string]int
	buf []byte
}

func (sg *signatures) id(parts ...[]int) int {
	sg.buf = sg.buf[:0]
	for _, p := range parts {
		for _, x := range p {
			sg.buf = strconv.AppendInt(sg.buf, int64(x), 10)
			sg.buf = append(sg.buf, ',')
		}
		sg.buf = append(sg.buf, '|')
	}
	if id, ok := sg.ids[string(sg.buf)]; ok {
		return id
	}
	id := len(sg.ids)
	sg.ids[string(sg.buf)] = id
	return id
}

// Minimize returns the smallest deterministic stationary controller with
// the same behaviour as graph c started in node start: the action it takes
// after every observation sequence, and where c has no successor ("-"),
// none. It is the minimal Moore machine of c's part reachable from start
// (Hopcroft's partition refinement of the nodes by action and successor
// classes, None a class of its own), numbered breadth first from start,
// which becomes node 0. classOf[n] is the node of the result that node n
// of c became, or -1 for a node not reachable from start.
//
// Two nodes that differ only where one of them has "-" are kept apart
// (merging them is a choice, and the smallest choice is a hard problem).
// It panics if start is not a node of c and returns an error if c is not a
// policy graph (deterministic, stationary).
//
// Cost: O(N·|O|·log N) time and O(N·|O|) memory for N nodes.
func Minimize(c *fsc.FSC, start int) (min *fsc.FSC, classOf []int, err error) {
	if err := checkGraph(c); err != nil {
		return nil, nil, err
	}
	if start < 0 || start >= c.Nodes {
		panic(fmt.Sprintf("policy: start node %d out of range (%d nodes)", start, c.Nodes))
	}
	reach := reachable(c, start)
	act, next := c.Act[0], c.Next[0]
	cls := hopcroft(c, reach)
	// Number classes breadth first from start (reach is in BFS order).
	classOf = make([]int, c.Nodes)
	for n := range classOf {
		classOf[n] = -1
	}
	num := map[int32]int{}
	var reps []int
	for e, n := range reach {
		if _, ok := num[cls[e]]; !ok {
			num[cls[e]] = len(reps)
			reps = append(reps, n)
		}
		classOf[n] = num[cls[e]]
	}
	k := len(reps)
	minAct := make([]int, k)
	minNext := make([][]int, k)
	for i, n := range reps {
		minAct[i] = act[n]
		minNext[i] = make([]int, c.NumObs)
		for o, n2 := range next[n] {
			minNext[i][o] = None
			if n2 != None {
				minNext[i][o] = classOf[n2]
			}
		}
	}
	return &fsc.FSC{Nodes: k, NumActions: c.NumActions, NumObs: c.NumObs, Act: [][]int{minAct}, Next: [][][]int{minNext}}, classOf, nil
}

// hopcroft returns the coarsest partition of the nodes reach of graph c
// (closed under defined successors) that separates different actions and
// is stable under every observation's successor map, as a block number
// per position of reach. A "-" successor leads to a sink element of its
// own (its own block, its successors itself). Hopcroft's algorithm:
// splitters (block, observation) on a worklist, and after a split only
// the smaller half needs to be added, so every element enters O(log N)
// splitters per observation.
func hopcroft(c *fsc.FSC, reach []int) []int32 {
	nO := c.NumObs
	R := len(reach)
	idx := make([]int32, c.Nodes)
	for e, n := range reach {
		idx[n] = int32(e)
	}
	sink := -1
	for _, n := range reach {
		for _, n2 := range c.Next[0][n] {
			if n2 == None {
				sink = R
			}
		}
	}
	M := R
	if sink >= 0 {
		M++
	}
	succ := func(e, o int) int32 {
		if e == sink {
			return int32(sink)
		}
		if n2 := c.Next[0][reach[e]][o]; n2 != None {
			return idx[n2]
		}
		return int32(sink)
	}
	inStart, in := inverseSucc(M, nO, succ)
	elems, pos, blk, bStart, bEnd := initialBlocks(M, func(e int) int {
		if e == sink {
			return -1
		}
		return c.Act[0][reach[e]]
	})
	inW := make([]bool, M*nO)
	var work []int // splitters b·nO + o
	push := func(b int32, o int) {
		if k := int(b)*nO + o; !inW[k] {
			inW[k] = true
			work = append(work, k)
		}
	}
	for b := range bStart {
		for o := 0; o < nO; o++ {
			push(int32(b), o)
		}
	}
	marked := make([]int32, M)
	var touched []int32
	var x []int32
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		inW[k] = false
		a, o := int32(k/nO), k%nO
		// X: the elements whose o-successor lies in block a.
		x = x[:0]
		for i := bStart[a]; i < bEnd[a]; i++ {
			t := int(elems[i])
			x = append(x, in[inStart[o*M+t]:inStart[o*M+t+1]]...)
		}
		// Move X's elements to the front of their blocks.
		touched = markFront(x, elems, pos, blk, bStart, marked, touched[:0])
		for _, b := range touched {
			m := marked[b]
			marked[b] = 0
			if m == bEnd[b]-bStart[b] {
				continue
			}
			nb := int32(len(bStart))
			bStart = append(bStart, bStart[b])
			bEnd = append(bEnd, bStart[b]+m)
			bStart[b] += m
			for i := bStart[nb]; i < bEnd[nb]; i++ {
				blk[elems[i]] = nb
			}
			small := nb
			if bEnd[b]-bStart[b] < m {
				small = b
			}
			for o2 := 0; o2 < nO; o2++ {
				if inW[int(b)*nO+o2] {
					push(nb, o2)
				} else {
					push(small, o2)
				}
			}
		}
	}
	return blk[:R]
}

// markFront moves the elements x to the front of their blocks (elems,
// pos, blk and bStart as in initialBlocks), counting in marked[b] the
// elements moved in block b, and returns touched with the blocks that had
// none marked before appended.
func markFront(x, elems, pos, blk, bStart, marked, touched []int32) []int32 {
	for _, p := range x {
		b := blk[p]
		if marked[b] == 0 {
			touched = append(touched, b)
		}
		i, j := pos[p], bStart[b]+marked[b]
		q := elems[j]
		elems[i], pos[q] = q, i
		elems[j], pos[p] = p, j
		marked[b]++
	}
	return touched
}

// inverseSucc returns the inverse of the successor maps succ(·, o) of M
// elements in compressed rows keyed by o·M + target: the elements whose
// o-successor is t are in[inStart[o·M+t]:inStart[o·M+t+1]].
func inverseSucc(M, nO int, succ func(e, o int) int32) ([]int, []int32) {
	inStart := make([]int, nO*M+1)
	for e := 0; e < M; e++ {
		for o := 0; o < nO; o++ {
			inStart[o*M+int(succ(e, o))+1]++
		}
	}
	for k := 0; k < nO*M; k++ {
		inStart[k+1] += inStart[k]
	}
	in := make([]int32, nO*M)
	fill := append([]int(nil), inStart[:nO*M]...)
	for e := 0; e < M; e++ {
		for o := 0; o < nO; o++ {
			k := o*M + int(succ(e, o))
			in[fill[k]] = int32(e)
			fill[k]++
		}
	}
	return inStart, in
}

// initialBlocks returns the partition of M elements by out(e), as
// initial blocks for hopcroft: elems ordered by block, pos[e] the position
// of e in elems, blk[e] its block, block b holding positions bStart[b] …
// bEnd[b]−1.
func initialBlocks(M int, out func(e int) int) (elems, pos, blk, bStart, bEnd []int32) {
	elems = make([]int32, M)
	pos = make([]int32, M)
	blk = make([]int32, M)
	bStart = make([]int32, 0, M)
	bEnd = make([]int32, 0, M)
	first := map[int]int32{}
	var size []int32
	for e := 0; e < M; e++ {
		b, ok := first[out(e)]
		if !ok {
			b = int32(len(size))
			first[out(e)] = b
			size = append(size, 0)
		}
		blk[e] = b
		size[b]++
	}
	at := int32(0)
	for _, n := range size {
		bStart = append(bStart, at)
		at += n
		bEnd = append(bEnd, at)
	}
	fillAt := append([]int32(nil), bStart...)
	for e := 0; e < M; e++ {
		b := blk[e]
		elems[fillAt[b]], pos[e] = int32(e), fillAt[b]
		fillAt[b]++
	}
	return elems, pos, blk, bStart, bEnd
}

// reachable returns the nodes of graph c reachable from start along
// defined successors, in breadth-first order.
func reachable(c *fsc.FSC, start int) []int {
	seen := make([]bool, c.Nodes)
	seen[start] = true
	out := []int{start}
	for k := 0; k < len(out); k++ {
		for _, n2 := range c.Next[0][out[k]] {
			if n2 != None && !seen[n2] {
				seen[n2] = true
				out = append(out, n2)
			}
		}
	}
	return out
}

// Layered is the smallest clock-aware controller that behaves as a given
// deterministic controller for T steps (see MinimizeUpTo).
type Layered struct {
	// FSC is clock-aware with T stages and max(Widths) nodes; at stage τ
	// only nodes 0 … Widths[τ]−1 are used (the others copy node 0).
	FSC *fsc.FSC
	// Widths[τ] is the number of behaviours c can be in at stage τ: its
	// nodes reachable at τ, merged when they take the same actions for
	// the remaining T − τ steps after every observation sequence.
	Widths []int
	// NodeClass[τ][n] is the node at stage τ that node n of c becomes, or
	// -1 when n is not reachable at stage τ.
	NodeClass [][]int
}

// Nodes returns the node count max_τ Widths[τ]: the fewest nodes any
// controller, stationary or clock-aware, needs to behave as c for T steps.
func (l *Layered) Nodes() int { return l.FSC.Nodes }

// String describes the widths, e.g. "T=3 widths [1 3 3] (3 nodes)".
func (l *Layered) String() string {
	parts := make([]string, len(l.Widths))
	for i, w := range l.Widths {
		parts[i] = strconv.Itoa(w)
	}
	return fmt.Sprintf("T=%d widths [%s] (%d nodes)", len(l.Widths), strings.Join(parts, " "), l.FSC.Nodes)
}

// MinimizeUpTo returns the smallest clock-aware controller that takes the
// same actions as deterministic controller c (stationary or clock-aware,
// started in node start) at stages 0 … T−1 after every observation
// sequence on which c's successors are defined. At stage τ two reachable
// nodes merge when they agree for the remaining T − τ steps:
//
//	cls_{T−1}(n) = α_{T−1}(n),  cls_τ(n) = (α_τ(n), (cls_{τ+1}(β_τ(n, o)))_o)
//
// a "-" successor being a class of its own. Any controller that behaves as
// c for T steps has at least Widths[τ] nodes at stage τ, so the result's
// max_τ Widths[τ] nodes are the fewest possible, for clock-aware and
// stationary controllers alike. Where c has "-" the result moves to node
// 0 (its tables are complete).
//
// It panics if start is not a node of c and returns an error for T < 1, a
// stochastic controller, or a clock-aware one with fewer than T stages.
//
// Cost: O(T·N·|O|).
func MinimizeUpTo(c *fsc.FSC, start, T int) (*Layered, error) {
	if c == nil || !c.Deterministic() {
		return nil, fmt.Errorf("policy: MinimizeUpTo needs a deterministic controller")
	}
	if T < 1 {
		return nil, fmt.Errorf("policy: MinimizeUpTo needs a horizon T ≥ 1 (got %d)", T)
	}
	if c.Clock() && c.Stages < T {
		return nil, fmt.Errorf("policy: a clock-aware controller with %d stages has no behaviour at stage %d", c.Stages, T-1)
	}
	if !c.Clock() {
		if err := checkGraph(c); err != nil {
			return nil, err
		}
	} else if err := c.Validate(); err != nil {
		return nil, err
	}
	if start < 0 || start >= c.Nodes {
		panic(fmt.Sprintf("policy: start node %d out of range (%d nodes)", start, c.Nodes))
	}
	next := func(tau, n, o int) int { return c.NextNode(tau, n, o) }
	reach := stageReach(c, start, T)
	cls := stageClasses(c, T)
	// Number the reachable classes per stage in BFS order.
	l := &Layered{Widths: make([]int, T), NodeClass: make([][]int, T)}
	reps := make([][]int, T)
	width := 0
	for tau := 0; tau < T; tau++ {
		l.NodeClass[tau] = make([]int, c.Nodes)
		for n := range l.NodeClass[tau] {
			l.NodeClass[tau][n] = -1
		}
		num := map[int]int{}
		for _, n := range reach[tau] {
			if _, ok := num[cls[tau][n]]; !ok {
				num[cls[tau][n]] = len(reps[tau])
				reps[tau] = append(reps[tau], n)
			}
			l.NodeClass[tau][n] = num[cls[tau][n]]
		}
		l.Widths[tau] = len(reps[tau])
		width = max(width, l.Widths[tau])
	}
	out := &fsc.FSC{Nodes: width, Stages: T, NumActions: c.NumActions, NumObs: c.NumObs,
		Act: make([][]int, T), Next: make([][][]int, max(T-1, 0))}
	for tau := 0; tau < T; tau++ {
		// Unused nodes copy node 0; at a stage that no defined successor
		// reaches (Widths[τ] = 0, every successor before it "-"), every
		// node takes start's action and moves to node 0.
		repOf := func(i int) int {
			switch {
			case i < len(reps[tau]):
				return reps[tau][i]
			case len(reps[tau]) > 0:
				return reps[tau][0]
			}
			return -1
		}
		out.Act[tau] = make([]int, width)
		for i := range out.Act[tau] {
			if rep := repOf(i); rep >= 0 {
				out.Act[tau][i] = c.Action(tau, rep)
			} else {
				out.Act[tau][i] = c.Action(tau, start)
			}
		}
		if tau == T-1 {
			continue
		}
		out.Next[tau] = make([][]int, width)
		for i := range out.Next[tau] {
			rep := repOf(i)
			out.Next[tau][i] = make([]int, c.NumObs)
			if rep < 0 {
				continue
			}
			for o := range out.Next[tau][i] {
				if n2 := next(tau, rep, o); n2 != None {
					out.Next[tau][i][o] = l.NodeClass[tau+1][n2]
				}
			}
		}
	}
	l.FSC = out
	return l, nil
}

// stageReach returns the nodes of c reachable at each stage τ < T from
// start, breadth first.
func stageReach(c *fsc.FSC, start, T int) [][]int {
	next := func(tau, n, o int) int { return c.NextNode(tau, n, o) }
	reach := make([][]int, T)
	reach[0] = []int{start}
	for tau := 0; tau+1 < T; tau++ {
		seen := make([]bool, c.Nodes)
		for _, n := range reach[tau] {
			for o := 0; o < c.NumObs; o++ {
				if n2 := next(tau, n, o); n2 != None && !seen[n2] {
					seen[n2] = true
					reach[tau+1] = append(reach[tau+1], n2)
				}
			}
		}
	}
	return reach
}

// stageClasses returns the behaviour class of every node at each stage
// τ < T, numbered backwards from the last stage: two nodes share a class
// when they act alike and their successors share classes.
func stageClasses(c *fsc.FSC, T int) [][]int {
	next := func(tau, n, o int) int { return c.NextNode(tau, n, o) }
	cls := make([][]int, T)
	row := make([]int, c.NumObs)
	for tau := T - 1; tau >= 0; tau-- {
		sg := signatures{ids: map[string]int{}}
		cls[tau] = make([]int, c.Nodes)
		for n := 0; n < c.Nodes; n++ {
			a := []int{c.Action(tau, n)}
			if tau == T-1 {
				cls[tau][n] = sg.id(a)
				continue
			}
			for o := range row {
				row[o] = None
				if n2 := next(tau, n, o); n2 != None {
					row[o] = cls[tau+1][n2]
				}
			}
			cls[tau][n] = sg.id(a, row)
		}
	}
	return cls
}

// Unroll returns graph c started in node start unrolled into a policy tree
// of the given depth: node 0 is the root, the nodes of depths 1 … depth−1
// follow in breadth-first (observation) order, one per observation
// sequence, and the nodes of the tree's last level lead into a copy of c
// (c's node n becomes node treeNodes + n). The result behaves as c from
// start, so Minimize gives back Minimize(c, start): unrolling is what a
// finite-horizon solver's policy tree looks like, and it shows what
// minimisation removes. A "-" stays "-" (and its subtree is not built).
// It panics if start is not a node of c; it returns an error if c is not a
// policy graph, depth < 1, or the tree would have more than MaxNodes
// nodes.
func Unroll(c *fsc.FSC, start, depth int) (*fsc.FSC, error) {
	if err := checkGraph(c); err != nil {
		return nil, err
	}
	if start < 0 || start >= c.Nodes {
		panic(fmt.Sprintf("policy: start node %d out of range (%d nodes)", start, c.Nodes))
	}
	if depth < 1 {
		return nil, fmt.Errorf("policy: Unroll needs a depth ≥ 1 (got %d)", depth)
	}
	// level holds the tree nodes of one depth as (graph node) entries.
	var orig []int // orig[k]: the graph node tree node k stands for
	level := []int{0}
	orig = append(orig, start)
	var next [][]int
	for d := 1; d <= depth; d++ {
		var nextLevel []int
		for _, k := range level {
			row := make([]int, c.NumObs)
			for o := range row {
				n2 := c.Next[0][orig[k]][o]
				switch {
				case n2 == None:
					row[o] = None
				case d == depth:
					row[o] = -2 - n2 // into the copy of c, resolved below
				default:
					if len(orig) >= MaxNodes {
						return nil, fmt.Errorf("policy: unrolling to depth %d needs more than %d nodes", depth, MaxNodes)
					}
					row[o] = len(orig)
					orig = append(orig, n2)
					nextLevel = append(nextLevel, row[o])
				}
			}
			for len(next) <= k {
				next = append(next, nil)
			}
			next[k] = row
		}
		level = nextLevel
	}
	tree := len(orig)
	if tree+c.Nodes > MaxNodes {
		return nil, fmt.Errorf("policy: unrolling to depth %d needs more than %d nodes", depth, MaxNodes)
	}
	N := tree + c.Nodes
	act := make([]int, N)
	tab := make([][]int, N)
	for k := 0; k < tree; k++ {
		act[k] = c.Act[0][orig[k]]
		tab[k] = next[k]
		for o, x := range tab[k] {
			if x <= -2 {
				tab[k][o] = tree + (-2 - x)
			}
		}
	}
	for n := 0; n < c.Nodes; n++ {
		act[tree+n] = c.Act[0][n]
		tab[tree+n] = make([]int, c.NumObs)
		for o, n2 := range c.Next[0][n] {
			tab[tree+n][o] = None
			if n2 != None {
				tab[tree+n][o] = tree + n2
			}
		}
	}
	return &fsc.FSC{Nodes: N, NumActions: c.NumActions, NumObs: c.NumObs, Act: [][]int{act}, Next: [][][]int{tab}}, nil
}
