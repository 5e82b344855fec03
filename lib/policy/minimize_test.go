package policy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

// actionsAlong returns the actions a deterministic controller takes along
// every observation sequence of length < T from node start, in tree order
// ("x" where a "-" was met): the behaviour, by enumeration.
func actionsAlong(c *fsc.FSC, start, T int) string {
	var b strings.Builder
	var rec func(t, n int)
	rec = func(t, n int) {
		if n == None {
			b.WriteString("x")
			return
		}
		b.WriteByte(byte('0' + c.Action(t, n)))
		if t+1 == T {
			return
		}
		for o := 0; o < c.NumObs; o++ {
			rec(t+1, c.NextNode(t, n, o))
		}
	}
	rec(0, start)
	return b.String()
}

// randomPartialGraph is randomGraph with about a tenth of the successors
// "-" and the actions drawn from few values (so that nodes merge).
func randomPartialGraph(rng *rand.Rand, nA, nO, n int) *fsc.FSC {
	c := randomGraph(rng, nA, nO, n)
	for i := range c.Next[0] {
		for o := range c.Next[0][i] {
			if rng.IntN(10) == 0 {
				c.Next[0][i][o] = None
			}
		}
	}
	return c
}

// TestMinimize: the minimised graph behaves as the original along every
// observation sequence (enumerated to depth N + 2, past which Moore
// machines with N states that agree agree forever), its nodes are
// pairwise distinguishable (by enumeration to depth k + 1 for k nodes,
// which suffices for a k-state machine), and minimising it again changes
// nothing.
func TestMinimize(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 200; trial++ {
		nA, nO, n := 1+rng.IntN(2), 1+rng.IntN(3), 1+rng.IntN(7)
		c := randomPartialGraph(rng, nA, nO, n)
		start := rng.IntN(n)
		min, classOf, err := Minimize(c, start)
		if err != nil {
			t.Fatal(err)
		}
		depth := n + 2
		if got, want := actionsAlong(min, 0, depth), actionsAlong(c, start, depth); got != want {
			t.Fatalf("trial %d: minimised %v behaves as %s, original %v from %d as %s", trial, min, got, c, start, want)
		}
		for i := 0; i < min.Nodes; i++ {
			for j := i + 1; j < min.Nodes; j++ {
				if actionsAlong(min, i, min.Nodes+1) == actionsAlong(min, j, min.Nodes+1) {
					t.Fatalf("trial %d: minimised nodes %d and %d behave alike: %v", trial, i, j, min)
				}
			}
		}
		for k, cl := range classOf {
			if cl >= 0 && actionsAlong(c, k, depth) != actionsAlong(min, cl, depth) {
				t.Fatalf("trial %d: node %d mapped to %d of a different behaviour", trial, k, cl)
			}
		}
		again, _, err := Minimize(min, 0)
		if err != nil || again.String() != min.String() {
			t.Fatalf("trial %d: minimising again gives %v, want %v (%v)", trial, again, min, err)
		}
	}
}

// TestMinimizeUpTo: the layered controller behaves as the original for T
// steps, its widths equal the number of distinct remaining behaviours of
// the nodes reachable at each stage (by enumeration), and it is valid.
func TestMinimizeUpTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 200; trial++ {
		nA, nO, n, T := 1+rng.IntN(2), 1+rng.IntN(3), 1+rng.IntN(6), 1+rng.IntN(5)
		c := randomGraph(rng, nA, nO, n)
		start := rng.IntN(n)
		l, err := MinimizeUpTo(c, start, T)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.FSC.Validate(); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if got, want := actionsAlong(l.FSC, 0, T), actionsAlong(c, start, T); got != want {
			t.Fatalf("trial %d: layered %v behaves as %s, original as %s", trial, l.FSC, got, want)
		}
		// Reachable nodes per stage and their remaining behaviours.
		level := map[int]bool{start: true}
		for tau := 0; tau < T; tau++ {
			behaviours := map[string]bool{}
			for k := range level {
				behaviours[residual(c, tau, k, T)] = true
			}
			if l.Widths[tau] != len(behaviours) {
				t.Fatalf("trial %d: width %d at stage %d, %d distinct behaviours", trial, l.Widths[tau], tau, len(behaviours))
			}
			next := map[int]bool{}
			for k := range level {
				for o := 0; o < nO; o++ {
					next[c.NextNode(tau, k, o)] = true
				}
			}
			level = next
		}
		if min, _, _ := Minimize(c, start); l.Nodes() > min.Nodes {
			t.Fatalf("trial %d: %d nodes up to T, more than the stationary minimum %d", trial, l.Nodes(), min.Nodes)
		}
	}
}

// residual is the behaviour of node k entered at stage τ for the stages
// τ … T−1.
func residual(c *fsc.FSC, tau, k, T int) string {
	var b strings.Builder
	var rec func(t, n int)
	rec = func(t, n int) {
		b.WriteByte(byte('0' + c.Action(t, n)))
		if t+1 == T {
			return
		}
		for o := 0; o < c.NumObs; o++ {
			rec(t+1, c.NextNode(t, n, o))
		}
	}
	rec(tau, k)
	return b.String()
}

// TestMinimizeSample: pomdp-solve's 9-node Tiger graph started in its best
// node 4 is 5 nodes for every horizon, evaluates to the same value, and
// needs 3 nodes for 4 steps (widths 1, 2, 3, 1 by hand from the file:
// node 4 listens; nodes 6 and 2, one observation ahead either way; nodes
// 8, 4 and 0 open right, listen, open left; then nodes 4, 6 and 2 all
// listen at the last step). Twin: TestCounterTwinMinimize.
func TestMinimizeSample(t *testing.T) {
	m, pg, _ := samplePair(t, "TestCounterTwinMinimize")
	c, err := ReadPG(strings.NewReader(string(pg)), "tiger.95.pg", m)
	if err != nil {
		t.Fatal(err)
	}
	min, _, err := Minimize(c, 4)
	if err != nil {
		t.Fatal(err)
	}
	if min.Nodes != 5 {
		t.Errorf("minimal graph %v, want 5 nodes", min)
	}
	a, _ := Evaluate(m, c, 0)
	b, _ := Evaluate(m, min, 0)
	if !(math.Abs(a.Value-b.Start[0]) <= 1e-9) {
		t.Errorf("minimal graph's value from node 0 %.12g, the original's %.12g", b.Start[0], a.Value)
	}
	l, err := MinimizeUpTo(c, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	if l.String() != "T=4 widths [1 2 3 1] (3 nodes)" {
		t.Errorf("up to 4 steps: %v", l)
	}
}

// TestUnroll: an unrolled graph behaves as the original and minimises to
// the same graph; its tree has Σ_{d<depth} |O|^d nodes without "-".
func TestUnroll(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for trial := 0; trial < 100; trial++ {
		nA, nO, n, depth := 1+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(5), 1+rng.IntN(4)
		c := randomPartialGraph(rng, nA, nO, n)
		start := rng.IntN(n)
		u, err := Unroll(c, start, depth)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkGraph(u); err != nil {
			t.Fatal(err)
		}
		if got, want := actionsAlong(u, 0, depth+n+2), actionsAlong(c, start, depth+n+2); got != want {
			t.Fatalf("trial %d: unrolled behaves as %s, original %s", trial, got, want)
		}
		a, _, _ := Minimize(u, 0)
		b, _, _ := Minimize(c, start)
		if a.String() != b.String() {
			t.Fatalf("trial %d: unrolled minimises to %v, original to %v", trial, a, b)
		}
	}
	c := randomGraph(rand.New(rand.NewPCG(1, 1)), 2, 3, 4)
	u, _ := Unroll(c, 0, 3)
	if u.Nodes != 1+3+9+4 {
		t.Errorf("%d nodes, want 1 + 3 + 9 tree nodes and the 4 of the graph", u.Nodes)
	}
}

// TestMinimizeUpToPartial: graphs with "-" successors, including stages
// that no defined successor reaches (every successor of the stage before
// is "-"), give valid layered controllers that behave as the graph
// wherever it is defined. A graph whose only node has no successor used to
// panic (index out of range) for T ≥ 2.
func TestMinimizeUpToPartial(t *testing.T) {
	// defined reports whether the layered controller l takes the graph's
	// actions along every observation sequence on which c is defined.
	defined := func(l, c *fsc.FSC, start, T int) bool {
		var rec func(t, n, k int) bool
		rec = func(t, n, k int) bool {
			if n == None {
				return true
			}
			if l.Action(t, k) != c.Action(0, n) {
				return false
			}
			if t+1 == T {
				return true
			}
			for o := 0; o < c.NumObs; o++ {
				if !rec(t+1, c.NextNode(0, n, o), l.NextNode(t, k, o)) {
					return false
				}
			}
			return true
		}
		return rec(0, start, 0)
	}
	dead := &fsc.FSC{Nodes: 1, NumActions: 2, NumObs: 2, Act: [][]int{{1}}, Next: [][][]int{{{None, None}}}}
	for T := 1; T <= 3; T++ {
		l, err := MinimizeUpTo(dead, 0, T)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.FSC.Validate(); err != nil || l.Nodes() != 1 || l.Widths[0] != 1 || (T > 1 && l.Widths[1] != 0) || l.FSC.Action(0, 0) != 1 {
			t.Errorf("T=%d: %v (widths %v, %v)", T, l.FSC, l.Widths, err)
		}
	}
	rng := rand.New(rand.NewPCG(15, 16))
	for trial := 0; trial < 300; trial++ {
		nA, nO, n, T := 1+rng.IntN(2), 1+rng.IntN(3), 1+rng.IntN(6), 1+rng.IntN(5)
		c := randomPartialGraph(rng, nA, nO, n)
		start := rng.IntN(n)
		l, err := MinimizeUpTo(c, start, T)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.FSC.Validate(); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if !defined(l.FSC, c, start, T) {
			t.Fatalf("trial %d: layered %v does not behave as %v from %d", trial, l.FSC, c, start)
		}
	}
}

// mooreClasses is the textbook oracle for Minimize: Moore's refinement of
// the nodes reachable from start by (class, action-free successor
// classes) rounds until the class count stops growing, "-" a class of its
// own; classes numbered by first occurrence in breadth-first order from
// start, -1 for unreachable nodes. O(N²·|O|) in the worst case.
func mooreClasses(c *fsc.FSC, start int) []int {
	reach := reachable(c, start)
	cls := make([]int, c.Nodes)
	ids := map[string]int{}
	for _, n := range reach {
		key := fmt.Sprint(c.Act[0][n])
		if _, ok := ids[key]; !ok {
			ids[key] = len(ids)
		}
		cls[n] = ids[key]
	}
	for count := len(ids); ; {
		ids = map[string]int{}
		next := make([]int, c.Nodes)
		for _, n := range reach {
			key := fmt.Sprint(cls[n])
			for _, n2 := range c.Next[0][n] {
				if n2 == None {
					key += " -"
				} else {
					key += fmt.Sprint(" ", cls[n2])
				}
			}
			if _, ok := ids[key]; !ok {
				ids[key] = len(ids)
			}
			next[n] = ids[key]
		}
		cls = next
		if len(ids) == count {
			break
		}
		count = len(ids)
	}
	out := make([]int, c.Nodes)
	for n := range out {
		out[n] = -1
	}
	num := map[int]int{}
	for _, n := range reach {
		if _, ok := num[cls[n]]; !ok {
			num[cls[n]] = len(num)
		}
		out[n] = num[cls[n]]
	}
	return out
}

// TestMinimizeOracle: Minimize's classes equal Moore's refinement's on
// random partial graphs too large for TestMinimize's enumeration, and on
// chains, where Moore needs a round per node.
func TestMinimizeOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	var graphs []*fsc.FSC
	for trial := 0; trial < 300; trial++ {
		graphs = append(graphs, randomPartialGraph(rng, 1+rng.IntN(3), 1+rng.IntN(4), 1+rng.IntN(80)))
	}
	for _, n := range []int{1, 2, 50, 200} {
		graphs = append(graphs, chain(n, 2))
	}
	for i, c := range graphs {
		start := rng.IntN(c.Nodes)
		min, classOf, err := Minimize(c, start)
		if err != nil {
			t.Fatal(err)
		}
		want := mooreClasses(c, start)
		if fmt.Sprint(classOf) != fmt.Sprint(want) {
			t.Fatalf("graph %d (%v) from %d: classes %v, Moore's refinement %v", i, c, start, classOf, want)
		}
		if err := checkGraph(min); err != nil || min.Nodes != max(slices.Max(want), 0)+1 {
			t.Fatalf("graph %d: minimal graph %v (%v) for %d classes", i, min, err, slices.Max(want)+1)
		}
	}
}

// chain is an n-node graph in which every node listens (action 0) and
// moves to the next node whatever it observes, and the last node acts
// (action 1) and returns to node 0: no two nodes behave alike, and node i
// differs from node i+1 only n−1−i steps ahead.
func chain(n, nO int) *fsc.FSC {
	act := make([]int, n)
	next := make([][]int, n)
	for i := range next {
		next[i] = make([]int, nO)
		for o := range next[i] {
			next[i][o] = (i + 1) % n
		}
	}
	act[n-1] = 1
	return &fsc.FSC{Nodes: n, NumActions: 2, NumObs: nO, Act: [][]int{act}, Next: [][][]int{next}}
}

// TestMinimizeLongChain: a chain of 65536 nodes is already minimal. Moore's
// refinement, which Minimize used before, needs a round per node here
// (about N²·|O| = 10¹⁰ steps: over ten minutes, past go test's default
// timeout); Hopcroft's takes O(N·|O|·log N).
func TestMinimizeLongChain(t *testing.T) {
	const n = 1 << 16
	c := chain(n, 3)
	min, classOf, err := Minimize(c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if min.Nodes != n {
		t.Fatalf("%d nodes, want %d", min.Nodes, n)
	}
	for i, k := range classOf {
		if k != i {
			t.Fatalf("node %d became %d", i, k)
		}
	}
	// A chain of 2n nodes that acts at nodes n−1 and 2n−1 is the n-chain
	// run twice round: node i and node i+n merge.
	twice := chain(2*n, 3)
	twice.Act[0][n-1] = 1
	min, _, err = Minimize(twice, 0)
	if err != nil || min.Nodes != n {
		t.Fatalf("two chained copies: %d nodes (%v), want %d", min.Nodes, err, n)
	}
}
