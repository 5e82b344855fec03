package law

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// TestDAGLaws checks the posterior DAG against the history tree's laws on
// random models with impossible histories, deterministic and stochastic,
// stationary and clock-aware controllers, both conventions: following a
// history through the DAG (its node, or the depth's stand-in node once
// impossible) gives its suffix law (Fill) and its stand-in flag, and the
// DAG has no more nodes per depth than the histories and the stand-ins'
// subtrees.
func TestDAGLaws(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 3))
	stood := 0
	for trial := 0; trial < 60; trial++ {
		nS, nA, nO := 1+rng.IntN(4), 1+rng.IntN(3), 1+rng.IntN(3)
		T := 1 + rng.IntN(4)
		m := randomModel(rng, nS, nA, nO)
		var c *fsc.FSC
		switch trial % 4 {
		case 0:
			f, _ := fsc.NewStationary(nA, nO, 2, fsc.Options{})
			c = f.At(rng.IntN(f.Len()))
		case 1:
			f, err := fsc.NewClock(nA, nO, 1, T, fsc.Options{})
			if err != nil {
				t.Fatal(err)
			}
			c = f.At(rng.IntN(f.Len()))
		case 2:
			c = fsc.Random(rng, nA, nO, 2, 0)
		case 3:
			c = fsc.Random(rng, nA, nO, 2, T)
		}
		for _, conv := range []Convention{UniformStandIn, PointMassStandIn} {
			e, err := NewEngine(m, T, conv)
			if err != nil {
				t.Fatal(err)
			}
			l, err := e.Compute(c)
			if err != nil {
				t.Fatal(err)
			}
			d, err := e.DAG(context.Background(), c, 0)
			if err != nil {
				t.Fatal(err)
			}
			stood += l.StandIns
			tr := e.Tree()
			for tt := 0; tt < T; tt++ {
				// The histories, and the subtrees of the stand-ins of
				// depths u ≤ tt: |O|^tt + Σ_{u ≤ tt} |O|^u.
				if d.Len[tt] > tr.Count(tt)+tr.Offset(tt+1) {
					t.Fatalf("trial %d: %d nodes at depth %d, above %d", trial, d.Len[tt], tt, tr.Count(tt)+tr.Offset(tt+1))
				}
			}
			var walk func(tt, h int, v int32)
			walk = func(tt, h int, v int32) {
				node := v
				if v < 0 {
					node = d.StandIn[tt]
				}
				if l.StandIn(tt, h) != (v < 0) {
					t.Fatalf("trial %d %v: history (%d, %d): stand-in %v, DAG %v", trial, conv, tt, h, l.StandIn(tt, h), v < 0)
				}
				out := make([]float64, tr.SuffixLen(tt))
				d.Fill(out, tt, node)
				for k, x := range l.Suffix(tt, h) {
					if math.Abs(x-out[k]) > 1e-12 {
						t.Fatalf("trial %d %v: history (%d, %d): law %v, DAG %v", trial, conv, tt, h, l.Suffix(tt, h), out)
					}
				}
				if tt == T {
					return
				}
				for o := 0; o < nO; o++ {
					nv := int32(-1)
					if v >= 0 && d.Prob[tt][int(v)*nO+o] != 0 {
						nv = d.Child[tt][int(v)*nO+o]
					}
					walk(tt+1, h*nO+o, nv)
				}
			}
			walk(0, 0, 0)
		}
	}
	if stood == 0 {
		t.Fatal("no impossible history in any trial")
	}
}

// TestDAGLimit checks that a DAG above the node limit is refused with an
// error naming the depth.
func TestDAGLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	m := randomModel(rng, 4, 2, 3)
	e, err := NewEngine(m, 4, UniformStandIn)
	if err != nil {
		t.Fatal(err)
	}
	c := fsc.Random(rng, 2, 3, 1, 0)
	full, err := e.DAG(context.Background(), c, 0)
	if err != nil {
		t.Fatal(err)
	}
	for limit := 1; limit < full.Len[2]; limit++ {
		_, err := e.DAG(context.Background(), c, limit)
		if err == nil {
			t.Fatalf("limit %d: no error with %v nodes", limit, full.Len)
		}
		// Refused when the depth passes the limit, not once it is
		// complete (up to |O| times the depth before): one node's
		// expansion adds at most |O| = 3 nodes.
		var n, depth int
		if _, e := fmt.Sscanf(err.Error(), "law: the probe has %d distinct posteriors at depth %d", &n, &depth); e != nil {
			t.Fatalf("limit %d: %v (%v)", limit, err, e)
		}
		if n <= limit || n > limit+3 || n > full.Len[depth] {
			t.Fatalf("limit %d (%v nodes): %v, want the refusal within 3 nodes past the limit", limit, full.Len, err)
		}
	}
}

// TestDAGRareComponents plants depth-1 posteriors within 10⁻¹⁴ in L1 whose
// rare components differ in ratio or in support: a bulk state A and rare
// states B, C (prior ε each, identity transitions) whose first
// observation x or y shifts their odds; only B and C emit r, so the
// children by r have posteriors over (B, C) that differ by O(1) (1/3
// against 2/3), or, when C never emits y, the history y·r has only B.
// The two depth-1 posteriors must be two DAG nodes, and the children by
// r must be apart: their rows (next-observation laws) are computed here
// by hand from the posteriors over (B, C). Rounding-equal posteriors
// (the same prior on B and C) stay one node.
func TestDAGRareComponents(t *testing.T) {
	eps := math.Ldexp(1, -47) // 7.1·10⁻¹⁵: x and y within ε in L1
	for _, c := range []struct {
		name  string
		z     [][]float64 // Z over (x, y, r) of A, B, C
		nodes int         // distinct depth-1 nodes (x, y) besides the stand-in
		// rows: the next-observation law after x·r and after y·r,
		// from the posteriors over (B, C) after r (nil: impossible).
		xr, yr []float64
	}{
		// x: (B, C) ∝ (1/4, 1/2); y: ∝ (1/2, 1/4); r keeps the ratio.
		{"swapped odds", [][]float64{{0.5, 0.5, 0}, {0.25, 0.5, 0.25}, {0.5, 0.25, 0.25}}, 2,
			[]float64{5.0 / 12, 1.0 / 3, 1.0 / 4}, []float64{1.0 / 3, 5.0 / 12, 1.0 / 4}},
		// C never emits y: after y·r only B is left.
		{"different support", [][]float64{{0.5, 0.5, 0}, {0.25, 0.5, 0.25}, {0.75, 0, 0.25}}, 2,
			[]float64{0.25*0.25/(0.25*0.25+0.75*0.25)*0.25 + 0.75*0.25/(0.25*0.25+0.75*0.25)*0.75, 0.25 * 0.25 / (0.25*0.25 + 0.75*0.25) * 0.5, 0.25},
			[]float64{0.25, 0.5, 0.25}},
		// B and C emit x and y alike: x and y give one posterior.
		{"equal odds", [][]float64{{0.5, 0.5, 0}, {0.25, 0.25, 0.5}, {0.25, 0.25, 0.5}}, 1,
			[]float64{0.25, 0.25, 0.5}, []float64{0.25, 0.25, 0.5}},
	} {
		id := [][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
		m := pomdp.Must(pomdp.New(pomdp.Dense{Name: "rare", States: []string{"A", "B", "C"}, Actions: []string{"a"},
			Observations: []string{"x", "y", "r"}, T: [][][]float64{id}, Z: [][][]float64{c.z}, B0: []float64{1 - 2*eps, eps, eps}}))
		e, err := NewEngine(m, 3, UniformStandIn)
		if err != nil {
			t.Fatal(err)
		}
		f, err := fsc.NewStationary(1, 3, 1, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		d, err := e.DAG(context.Background(), f.At(0), 0)
		if err != nil {
			t.Fatal(err)
		}
		vx, vy := d.Child[0][0], d.Child[0][1]
		if n := map[int32]bool{vx: true, vy: true}; len(n) != c.nodes {
			t.Fatalf("%s: x and y lead to nodes %d and %d, want %d distinct", c.name, vx, vy, c.nodes)
		}
		for _, h := range []struct {
			v   int32
			row []float64
		}{{vx, c.xr}, {vy, c.yr}} {
			w := d.Child[1][int(h.v)*3+2]
			got := d.Prob[2][int(w)*3 : int(w)*3+3]
			for o, p := range h.row {
				if math.Abs(got[o]-p) > 1e-12 {
					t.Fatalf("%s: node %d then r: next-observation law %v, want %v", c.name, h.v, got, h.row)
				}
			}
		}
	}
}
