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

// hubGraph is the product graph of O^k for the discrete metric with its
// arcs listed: a hub per line, joined to each member by an arc of cost ½
// each way (the graph hamFlow keeps implicit).
func hubGraph(nO, k int) *graphW1 {
	n := ot.SeqLen(nO, k)
	gr := &graphW1{nodes: n, nSeq: n, k: k}
	stride := 1
	for range k {
		for x := 0; x < n; x++ {
			if (x/stride)%nO != 0 {
				continue
			}
			hub := gr.nodes
			gr.nodes++
			for o := range nO {
				gr.add(x+o*stride, hub, 0.5)
				gr.add(hub, x+o*stride, 0.5)
			}
		}
		stride *= nO
	}
	return gr
}

// TestUnitFlowWide: on wider product graphs (|O| = 5 to 7, k = 3, laws
// of sparse and of full support), where the primal-dual solver of a
// uniform metric (hamFlow) runs several phases and pushes back along
// reverse arcs, it gives lib/ot's SeqW1 (the transportation problem) and
// the network simplex on the explicit hub graph.
func TestUnitFlowWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 12 {
		nO, k, density := 5+trial%3, 3, []float64{0.05, 0.3, 1}[trial%3]
		g := ot.Discrete(nO)
		n := ot.SeqLen(nO, k)
		p, q := make([]float64, n), make([]float64, n)
		for _, l := range [][]float64{p, q} {
			s := 0.0
			for x := range l {
				if rng.Float64() < density {
					l[x] = rng.Float64()
					s += l[x]
				}
			}
			if s == 0 {
				l[rng.IntN(n)], s = 1, 1
			}
			for x := range l {
				l[x] /= s
			}
		}
		want, err := ot.SeqW1(g, k, p, q)
		if err != nil {
			t.Fatal(err)
		}
		gr := newGraphW1(g, k)
		if gr.ham == nil {
			t.Fatal("discrete ground: no primal-dual solver")
		}
		got, _, err := gr.solve(p, q)
		if err != nil {
			t.Fatal(err)
		}
		hg := hubGraph(nO, k)
		supply := make([]float64, hg.nodes)
		for x := range p {
			supply[x] = p[x] - q[x]
		}
		ns := newGraphSimplex(hg.nodes, hg.src, hg.dst, hg.cost, supply)
		if !ns.run(50 * (hg.nodes + len(hg.src))) {
			t.Fatal("simplex: pivot limit")
		}
		simplex := 0.0
		for e, f := range ns.flow[:len(hg.src)] {
			simplex += f * hg.cost[e]
		}
		if math.Abs(got-want) > 1e-9 || math.Abs(got-simplex) > 1e-9 {
			t.Errorf("|O|=%d density %g: primal-dual %.12g, transport %.12g, simplex %.12g", nO, density, got, want, simplex)
		}
	}
}

// TestSeqUpper: the sequential coupling's cost is an upper bound on W1
// (lib/ot's SeqW1) on random laws, uniform and non-uniform grounds, and
// equals it for k = 1.
func TestSeqUpper(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var sol ot.Solver
	for trial := range 90 {
		nO, k := 2+trial%3, 1+trial%3
		g := []ot.Ground{ot.Discrete(nO), ot.Ordered(nO)}[trial%2]
		n := ot.SeqLen(nO, k)
		p, q := make([]float64, n), make([]float64, n)
		for _, l := range [][]float64{p, q} {
			s := 0.0
			for x := range l {
				if rng.Float64() < 0.5 {
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
		want, err := ot.SeqW1(g, k, p, q)
		if err != nil {
			t.Fatal(err)
		}
		got := seqUpper(&sol, g, k, p, q)
		if got < want-1e-12 || (k == 1 && math.Abs(got-want) > 1e-12) {
			t.Errorf("trial %d |O|=%d k=%d: sequential coupling %.12g, W1 %.12g", trial, nO, k, got, want)
		}
	}
}

// TestHamFlowEarlyStop: asked to stop below a threshold, the implicit
// solver either solves exactly (the optimum of an unbounded solve) or
// stops at a feasible cost, at least the optimum and below the
// threshold; with a generous threshold it stops early on most laws.
func TestHamFlowEarlyStop(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	early := 0
	for trial := range 30 {
		nO, k := 4+trial%3, 3
		n := ot.SeqLen(nO, k)
		supply := make([]float64, n)
		for _, sign := range []float64{1, -1} {
			s, w := 0.0, make([]float64, n)
			for x := range w {
				if rng.Float64() < 0.5 {
					w[x] = rng.Float64()
					s += w[x]
				}
			}
			for x := range w {
				supply[x] += sign * w[x] / max(s, 1e-300)
			}
		}
		f := newHamFlow(nO, k)
		opt, exact, ok := f.solve(supply, 0)
		if !ok || !exact {
			t.Fatalf("trial %d: unbounded solve not exact", trial)
		}
		for _, below := range []float64{opt * 1.01, opt + float64(2*k)} {
			v, exact, ok := f.solve(supply, below)
			switch {
			case !ok:
				t.Fatalf("trial %d: no end", trial)
			case exact && math.Abs(v-opt) > 1e-9:
				t.Errorf("trial %d below %g: exact %g, optimum %g", trial, below, v, opt)
			case !exact && (v < opt-1e-9 || v >= below):
				t.Errorf("trial %d below %g: stopped at %g, optimum %g", trial, below, v, opt)
			case !exact:
				early++
			}
		}
	}
	if early < 10 {
		t.Errorf("stopped early %d times of 60: the check is too weak", early)
	}
}
