package law

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

// TestDAGGrowth checks the cheap prefix of the posterior DAG against the
// whole DAG on random models, both conventions: the counts returned are
// DAG's Len on the depths built, every depth built but the last has at
// most maxNodes nodes, and the build stops only at a depth above
// maxNodes or at depth T; with no posterior entries allowed it stops
// after depth 0 (T ≥ 2).
func TestDAGGrowth(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 9))
	for trial := 0; trial < 40; trial++ {
		nS, nA, nO := 1+rng.IntN(5), 1+rng.IntN(3), 1+rng.IntN(4)
		T := 1 + rng.IntN(5)
		m := randomModel(rng, nS, nA, nO)
		f, err := fsc.NewStationary(nA, nO, 1+trial%2, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := f.At(rng.IntN(f.Len()))
		maxNodes := 1 + rng.IntN(12)
		for _, conv := range []Convention{UniformStandIn, PointMassStandIn} {
			e, err := NewEngine(m, T, conv)
			if err != nil {
				t.Fatal(err)
			}
			d, err := e.DAG(context.Background(), c, 0)
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.DAGGrowth(context.Background(), c, maxNodes, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			k := len(got) - 1
			if k < 0 || k > T || !slices.Equal(got, d.Len[:k+1]) {
				t.Fatalf("trial %d %v: DAGGrowth %v, DAG Len %v", trial, conv, got, d.Len)
			}
			for u, n := range got[:k] {
				if n > maxNodes {
					t.Errorf("trial %d %v: depth %d has %d nodes, above %d, and was expanded (%v)", trial, conv, u, n, maxNodes, got)
				}
			}
			// No posterior entries allowed: depth 0 alone, or at T = 1
			// (whose children are the single depth-T node) the DAG.
			want := d.Len[:1]
			if T == 1 {
				want = d.Len
			}
			if short, err := e.DAGGrowth(context.Background(), c, 1<<30, 0); err != nil || !slices.Equal(short, want) {
				t.Errorf("trial %d %v: no entries allowed: %v, %v (want %v)", trial, conv, short, err, want)
			}
			if k < T && got[k] <= maxNodes {
				t.Errorf("trial %d %v: stopped at depth %d with %d ≤ %d nodes (%v)", trial, conv, k, got[k], maxNodes, got)
			}
		}
	}
}
