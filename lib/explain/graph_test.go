package explain

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/lib/ot"
)

// TestGraphW1: the min-cost flow on the product graph gives lib/ot's
// SeqW1 (the transportation problem, an independent method) on random
// laws, for uniform and non-uniform ground metrics, and its path
// decomposition moves every unit of mass at the ground cost of its ends,
// with a total equal to the distance.
func TestGraphW1(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	grounds := map[string]func(n int) ot.Ground{
		"discrete": ot.Discrete,
		"ordered":  ot.Ordered,
		"double": func(n int) ot.Ground {
			g := ot.Discrete(n)
			for a := range g {
				for b := range g[a] {
					g[a][b] *= 2
				}
			}
			return g
		},
	}
	for name, mk := range grounds {
		for trial := range 60 {
			nO, k := 2+trial%3, 1+trial%3
			g := mk(nO)
			n := ot.SeqLen(nO, k)
			p, q := make([]float64, n), make([]float64, n)
			for _, l := range [][]float64{p, q} {
				s := 0.0
				for x := range l {
					if rng.Float64() < 0.6 {
						l[x] = rng.Float64()
						s += l[x]
					}
				}
				if s == 0 {
					l[0], s = 1, 1
				}
				for x := range l {
					l[x] /= s
				}
			}
			id := fmt.Sprintf("%s |O|=%d k=%d trial %d", name, nO, k, trial)
			want, err := ot.SeqW1(g, k, p, q)
			if err != nil {
				t.Fatal(err)
			}
			gr := newGraphW1(g, k)
			got, flow, err := gr.solve(p, q)
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			if math.Abs(got-want) > 1e-9 {
				t.Errorf("%s: graph %.12g, transport %.12g", id, got, want)
			}
			moved, total := make([]float64, n), 0.0
			for _, f := range gr.moves(p, q, flow) {
				moved[f.I] += f.Mass
				total += f.Mass * seqCost(g, f.I, f.J, nO, k)
			}
			if math.Abs(total-want) > 1e-9 {
				t.Errorf("%s: moves cost %.12g, distance %.12g", id, total, want)
			}
			for x := range p {
				if ex := max(p[x]-q[x], 0); math.Abs(moved[x]-ex) > 1e-9 {
					t.Errorf("%s: sequence %d moves %g, has %g to give", id, x, moved[x], ex)
				}
			}
		}
	}
}
