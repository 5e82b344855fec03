package policy

import (
	"bytes"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"testing"
)

// counterByHand returns the exact value vectors, node by node (state
// tiger-left, then tiger-right), of the counter graph of testdata/counter.pg
// on Tiger (γ = 0.95, listening accuracy p = 0.85, rewards −1, +10, −100),
// with their actions. The derivation, by hand:
//
// The graph is symmetric under swapping left and right (nodes 1 ↔ 2 and
// 3 ↔ 4), so node 0 has one value V₀ for both tiger positions; opening a
// door resets the tiger uniformly and returns to node 0, so node 3 is
// (10 + γV₀, −100 + γV₀) and node 4 the same swapped. From node 0 with the
// tiger on the left, two listens (−1 − γ) end two ahead towards the tiger
// with probability p² (open the other door: +10), two away with q² (−100),
// or back at node 0 with 2pq:
//
//	V₀ = −1 − γ + γ²(2pq·V₀ + p²(10 + γV₀) + q²(−100 + γV₀)),
//	V₀ = (−1 − γ + γ²(10p² − 100q²)) / (1 − 2pqγ² − γ³(p² + q²)) = 4063900/209789.
//
// Node 1 (one tiger-left ahead) listens once: with the tiger on the left
// it hears left with p (node 3) else right (node 0), and on the right the
// reverse: (−1 + γ(p(10 + γV₀) + qV₀), −1 + γ(q(−100 + γV₀) + pV₀)).
// Node 2 is node 1 swapped. The function also checks node 0's equation
// one step at a time, V₀ = −1 + γ(p·V₁(L) + q·V₂(L)).
func counterByHand(t *testing.T) ([5][2]*big.Rat, [5]int) {
	t.Helper()
	r := func(a, b int64) *big.Rat { return big.NewRat(a, b) }
	add := func(xs ...*big.Rat) *big.Rat {
		s := new(big.Rat)
		for _, x := range xs {
			s.Add(s, x)
		}
		return s
	}
	mul := func(xs ...*big.Rat) *big.Rat {
		s := r(1, 1)
		for _, x := range xs {
			s.Mul(s, x)
		}
		return s
	}
	g, p, q := r(95, 100), r(85, 100), r(15, 100)
	g2, g3 := mul(g, g), mul(g, g, g)
	num := add(r(-1, 1), new(big.Rat).Neg(g), mul(g2, add(mul(r(10, 1), p, p), mul(r(-100, 1), q, q))))
	den := add(r(1, 1), new(big.Rat).Neg(mul(r(2, 1), p, q, g2)), new(big.Rat).Neg(mul(g3, add(mul(p, p), mul(q, q)))))
	v0 := new(big.Rat).Quo(num, den)
	if v0.Cmp(r(4063900, 209789)) != 0 {
		t.Fatalf("V₀ = %v, want 4063900/209789", v0)
	}
	win, lose := add(r(10, 1), mul(g, v0)), add(r(-100, 1), mul(g, v0))
	v1 := [2]*big.Rat{
		add(r(-1, 1), mul(g, add(mul(p, win), mul(q, v0)))),
		add(r(-1, 1), mul(g, add(mul(q, lose), mul(p, v0)))),
	}
	if step := add(r(-1, 1), mul(g, add(mul(p, v1[0]), mul(q, v1[1])))); step.Cmp(v0) != 0 {
		t.Fatalf("node 0's one-step equation gives %v, not V₀ = %v", step, v0)
	}
	return [5][2]*big.Rat{{v0, v0}, v1, {v1[1], v1[0]}, {win, lose}, {lose, win}}, [5]int{0, 0, 0, 2, 1}
}

// pomdpSolveTiger holds values pomdp-solve printed for tiger.95
// (cassandra/pomdp-solve @ 4f5d399, incremental pruning run to
// convergence): the vectors of the five nodes of its 9-node graph that its
// best node reaches, listed here against the counter node they correspond
// to (its nodes 4, 6, 2, 8, 0), rounded to 12 significant digits, and its
// value at b0 = (½, ½), 19.3713683744.
var pomdpSolveTiger = struct {
	vectors [5][2]float64
	value   float64
}{
	vectors: [5][2]float64{
		{19.3713683744, 19.3713683744},
		{24.6956809575, 3.01477895598},
		{3.01477895598, 24.6956809575},
		{28.4027999557, -81.5972000443},
		{-81.5972000443, 28.4027999557},
	},
	value: 19.3713683744,
}

// sarsopTiger is the bracket SARSOP (AdaCompNUS/sarsop @ d914110, pomdpsol
// --precision 1e-4) printed for the optimal value of the same Tiger at b0:
// lower bound 19.3713, upper bound 19.3714.
var sarsopTiger = [2]float64{19.3713, 19.3714}

// TestCounterTwinFiles is the twin of TestSampleRoundTrip on files typed by
// hand in pomdp-solve's layouts (testdata/README.md): they read and write
// back byte for byte, and the vectors are the hand derivation's fractions
// rounded to float64.
func TestCounterTwinFiles(t *testing.T) {
	m := tiger95(t)
	pg, err := os.ReadFile(filepath.Join("testdata", "counter.pg"))
	if err != nil {
		t.Fatal(err)
	}
	alpha, err := os.ReadFile(filepath.Join("testdata", "counter.alpha"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ReadPG(bytes.NewReader(pg), "counter.pg", m)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WritePG(&buf, c); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), pg) {
		t.Errorf("WritePG differs from testdata/counter.pg:\n%s\nwant\n%s", buf.Bytes(), pg)
	}
	vs, err := ReadAlpha(bytes.NewReader(alpha), "counter.alpha", m)
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := WriteAlpha(&buf, vs); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), alpha) {
		t.Errorf("WriteAlpha differs from testdata/counter.alpha:\n%s\nwant\n%s", buf.Bytes(), alpha)
	}
	exact, acts := counterByHand(t)
	if len(vs) != 5 {
		t.Fatalf("%d vectors, want 5", len(vs))
	}
	for n := range vs {
		if vs[n].Action != acts[n] || vs[n].Action != c.Action(0, n) {
			t.Errorf("vector %d: action %d, want %d (node %d acts %d)", n, vs[n].Action, acts[n], n, c.Action(0, n))
		}
		for s, v := range vs[n].V {
			if want, _ := exact[n][s].Float64(); v != want {
				t.Errorf("vector %d, state %d: %v in the file, the derivation rounds to %v", n, s, v, want)
			}
		}
	}
}

// TestCounterTwinValue is the twin of TestSampleValue: the exact
// evaluation of our counter graph against the hand derivation (within
// 1e-13 relative: a dense LU solve of 10 unknowns), against the values
// pomdp-solve printed for the same problem (within 1e-9 relative: its
// vectors carry the error of a converged iterative solver, 2.6e-11 at b0),
// and within SARSOP's printed bracket of the optimal value.
func TestCounterTwinValue(t *testing.T) {
	m := tiger95(t)
	c, err := LoadPG(filepath.Join("testdata", "counter.pg"), m)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := Evaluate(m, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	exact, _ := counterByHand(t)
	for n := range exact {
		for s := range exact[n] {
			want, _ := exact[n][s].Float64()
			if got := ev.V[n][s]; !(math.Abs(got-want) <= 1e-13*math.Max(1, math.Abs(want))) {
				t.Errorf("V[%d][%d] = %.17g, by hand %.17g (%s)", n, s, got, want, exact[n][s].RatString())
			}
			if ps := pomdpSolveTiger.vectors[n][s]; !(math.Abs(ev.V[n][s]-ps) <= 1e-9*math.Abs(ps)) {
				t.Errorf("V[%d][%d] = %.12g, pomdp-solve printed %.12g", n, s, ev.V[n][s], ps)
			}
		}
	}
	if ev.StartNode != 0 || !(math.Abs(ev.Value-pomdpSolveTiger.value) <= 1e-9*pomdpSolveTiger.value) {
		t.Errorf("value %.12g from node %d; pomdp-solve printed %.12g (from its node for our node 0)", ev.Value, ev.StartNode, pomdpSolveTiger.value)
	}
	if !(sarsopTiger[0] <= ev.Value && ev.Value <= sarsopTiger[1]) {
		t.Errorf("value %.12g outside SARSOP's printed bracket %v of the optimum", ev.Value, sarsopTiger)
	}
	vs, err := LoadAlpha(filepath.Join("testdata", "counter.alpha"), m)
	if err != nil {
		t.Fatal(err)
	}
	want, arg := Value(vs, m.B0)
	if !(math.Abs(ev.Value-want) <= 1e-13*want) || arg != ev.StartNode {
		t.Errorf("value %.17g from node %d; the hand-derived vectors give %.17g from node %d", ev.Value, ev.StartNode, want, arg)
	}
}

// TestCounterTwinMinimize is the twin of TestMinimizeSample: the counter is
// already minimal, and needs 3 nodes for 4 steps (widths 1, 2, 3, 1 by
// hand: node 0 listens; nodes 1 and 2, one observation ahead either way;
// nodes 3, 0 and 4 open right, listen, open left; then nodes 0, 1 and 2
// all listen at the last step).
func TestCounterTwinMinimize(t *testing.T) {
	m := tiger95(t)
	c, err := LoadPG(filepath.Join("testdata", "counter.pg"), m)
	if err != nil {
		t.Fatal(err)
	}
	min, _, err := Minimize(c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if min.Nodes != 5 {
		t.Errorf("minimal graph %v, want 5 nodes", min)
	}
	l, err := MinimizeUpTo(c, 0, 4)
	if err != nil {
		t.Fatal(err)
	}
	if l.String() != "T=4 widths [1 2 3 1] (3 nodes)" {
		t.Errorf("up to 4 steps: %v", l)
	}
}
