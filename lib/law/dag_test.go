package law

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
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
		if _, err := e.DAG(context.Background(), c, limit); err == nil {
			t.Fatalf("limit %d: no error with %v nodes", limit, full.Len)
		}
	}
}
