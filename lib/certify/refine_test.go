package certify

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// line returns the distance matrix of points on a line.
func line(x ...float64) partition.Matrix {
	m := partition.NewMatrix(len(x))
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			m.Data[m.Index(i, j)] = math.Abs(x[i] - x[j])
		}
	}
	return m
}

func TestRefineHand(t *testing.T) {
	// Hand computation: points 0, 0.9, −0.9 in history order, ε = 1.
	// Clique: {0, 0.9} then {−0.9}; leader: the ball of 0 holds all three
	// (diameter 1.8 = 2ε − 0.2).
	d := []partition.Matrix{line(0), line(0, 0.9, -0.9), {N: 3}} // depth 2: no distances, one class
	tests := []struct {
		rule           SplitRule
		classes        int
		passes, splits int
		diam, radius   float64
	}{
		{SplitClique, 1 + 2 + 1, 2, 1, 0.9, 0.9},
		{SplitLeader, 1 + 1 + 1, 1, 0, 1.8, 0.9},
	}
	for _, tc := range tests {
		r := Refine(d, 1, tc.rule)
		if r.Partition.Total() != tc.classes || r.Passes != tc.passes || r.Splits != tc.splits ||
			!(math.Abs(r.Diameter-tc.diam) <= 1e-12) || !(math.Abs(r.Radius-tc.radius) <= 1e-12) {
			t.Errorf("%v: classes %d passes %d splits %d diam %v radius %v; want %d %d %d %v %v",
				tc.rule, r.Partition.Total(), r.Passes, r.Splits, r.Diameter, r.Radius, tc.classes, tc.passes, tc.splits, tc.diam, tc.radius)
		}
	}
}

// TestRefineCliqueIsGreedy checks that alg:approx-partition with the
// clique rule reproduces greedy complete linkage (the argument in Refine's
// documentation) on random matrices and on benchmark distances, and that
// the leader rule keeps every class within ε of its leader.
func TestRefineCliqueIsGreedy(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	for trial := range 200 {
		n := 2 + rng.IntN(12)
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.Float64()
		}
		m := line(x...)
		if trial%2 == 1 { // a non-metric random matrix too
			for k := range m.Data {
				m.Data[k] = rng.Float64()
			}
		}
		d := []partition.Matrix{m}
		eps := rng.Float64() * 0.6
		if got, want := Refine(d, eps, SplitClique).Partition, partition.Greedy(d, eps); !got.Equal(want) {
			t.Fatalf("trial %d ε=%v: clique refinement %v, greedy %v", trial, eps, got, want)
		}
		if r := Refine(d, eps, SplitLeader); !(r.Radius <= eps+partition.ZeroTol) {
			t.Fatalf("trial %d: leader radius %v > ε = %v", trial, r.Radius, eps)
		}
	}
	for _, c := range []struct {
		model string
		m, T  int
	}{{"tiger", 2, 4}, {"gridworld:3", 2, 2}, {"gridworld:3", 1, 3}} {
		r := distances(t, c.model, c.m, c.T)
		for _, eps := range partition.Grid(0, 1, 0.05) {
			cl := Refine(r.D, eps, SplitClique)
			if !cl.Partition.Equal(r.Partition(eps)) {
				t.Errorf("%s m=%d T=%d ε=%v: clique refinement differs from greedy linkage", c.model, c.m, c.T, eps)
			}
			if !(cl.Diameter <= eps+partition.ZeroTol) || !(math.Abs(cl.Diameter-Diameter(r.D, cl.Partition)) <= 0) {
				t.Errorf("%s ε=%v: diameter %v (Diameter %v)", c.model, eps, cl.Diameter, Diameter(r.D, cl.Partition))
			}
		}
	}
}

// TestRefineLeaderDiffers pins where the literal leader rule departs from
// greedy linkage (our computation): GridWorld 3×3, m = 1, T = 3, ε = 0.3.
func TestRefineLeaderDiffers(t *testing.T) {
	r := distances(t, "gridworld:3", 1, 3)
	g := r.Partition(0.3)
	l := Refine(r.D, 0.3, SplitLeader)
	if g.Total() != 9 || l.Partition.Total() != 8 || !(math.Abs(l.Diameter-0.549) <= 0.0005) || !(l.Radius <= 0.3+1e-12) {
		t.Errorf("greedy %d classes, leader %d (diameter %.4f, radius %.4f); want 9, 8, 0.549, ≤ 0.3", g.Total(), l.Partition.Total(), l.Diameter, l.Radius)
	}
	// On the paper's partition-agreement settings the two rules agree.
	for _, c := range []struct {
		model string
		T     int
		eps   float64
	}{{"tiger", 4, 0}, {"gridworld:3", 2, 0.3}} {
		r := distances(t, c.model, 2, c.T)
		if !Refine(r.D, c.eps, SplitLeader).Partition.Equal(r.Partition(c.eps)) {
			t.Errorf("%s T=%d ε=%v: leader rule differs from greedy linkage", c.model, c.T, c.eps)
		}
	}
}

func distances(t testing.TB, model string, m, T int) *distance.Result {
	t.Helper()
	return distancesOpt(t, model, m, T, false)
}

// distancesOpt computes d^Π for the deterministic stationary family with
// ≤ m nodes under the benchmark's ground metric, with or without tensor.
func distancesOpt(t testing.TB, model string, m, T int, tensor bool) *distance.Result {
	t.Helper()
	b, err := bench.Lookup(model)
	if err != nil {
		t.Fatal(err)
	}
	fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), m, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := distance.Compute(context.Background(), b.Model, fam, T, distance.Options{Ground: b.Ground, Tensor: tensor})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func BenchmarkRefine(b *testing.B) {
	r := distances(b, "gridworld:3", 1, 3)
	for _, rule := range []SplitRule{SplitClique, SplitLeader} {
		b.Run(rule.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Refine(r.D, 0.3, rule)
			}
		})
	}
}
