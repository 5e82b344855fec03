package distance

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
)

// TestSmallMatchesSolver checks the closed forms of pairWorker.small (one
// source, one sink, two of each) against the network simplex on random
// laws with few atoms, under discrete, ordered and random metrics.
func TestSmallMatchesSolver(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	solved := 0
	for trial := 0; trial < 3000; trial++ {
		nO, k := 2+rng.IntN(3), 1+rng.IntN(3)
		var g ot.Ground
		switch trial % 3 {
		case 0:
			g = ot.Discrete(nO)
		case 1:
			g = ot.Ordered(nO)
		default:
			pts := make([]float64, nO)
			for i := range pts {
				pts[i] = rng.Float64()
			}
			g = make(ot.Ground, nO)
			for i := range g {
				g[i] = make([]float64, nO)
				for j := range g[i] {
					g[i][j] = math.Abs(pts[i] - pts[j])
					if i != j && g[i][j] == 0 {
						g[i][j] = 1e-3
					}
				}
			}
		}
		tree, err := law.NewTree(nO, k)
		if err != nil {
			t.Fatal(err)
		}
		pw := newPairWorker(g, tree, W1)
		L := ot.SeqLen(nO, k)
		law := func() []float64 {
			v := make([]float64, L)
			atoms := 1 + rng.IntN(3)
			for range atoms {
				v[rng.IntN(L)] += rng.Float64() + 0.1
			}
			s := 0.0
			for _, x := range v {
				s += x
			}
			for i := range v {
				v[i] /= s
			}
			return v
		}
		p, q := law(), law()
		got, ok := pw.small(p, q, k)
		if !ok {
			continue
		}
		var s ot.Solver
		want, err := s.SeqW1(g, k, p, q)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want.Value) > 1e-12 {
			t.Fatalf("trial %d (|O| = %d, k = %d): small %v, solver %v\np %v\nq %v", trial, nO, k, got, want.Value, p, q)
		}
		solved++
	}
	if solved < 1000 {
		t.Fatalf("only %d trials had a small residual problem", solved)
	}
}
