package clock2

import (
	"context"
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
)

// TestFindWitness checks, on random models and both stand-in
// conventions, that the witness of every history pair attains the value
// Compute gives the pair in exact mode, and that the witness controller,
// re-evaluated by lib/law (not by the search), gives that distance.
func TestFindWitness(t *testing.T) {
	for _, tc := range []struct {
		name       string
		seed       uint64
		nS, nA, nO int
		T          int
		conv       law.Convention
	}{
		{"2x2x2-T3-uniform", 1, 2, 2, 2, 3, law.UniformStandIn},
		{"3x2x2-T3-pointmass", 2, 3, 2, 2, 3, law.PointMassStandIn},
		{"3x2x3-T3-uniform", 3, 3, 2, 3, 3, law.UniformStandIn},
		{"2x3x2-T4-uniform", 4, 2, 3, 2, 4, law.UniformStandIn},
		{"4x2x2-T4-pointmass", 5, 4, 2, 2, 4, law.PointMassStandIn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := randomModel(tc.seed, tc.nS, tc.nA, tc.nO)
			g := ot.Discrete(tc.nO)
			res, err := Compute(context.Background(), m, tc.T, Options{Ground: g, Convention: tc.conv})
			if err != nil {
				t.Fatal(err)
			}
			var sol ot.Solver
			positive := 0
			for d := 1; d < tc.T; d++ {
				n := res.Tree.Count(d)
				for i := 0; i < n; i++ {
					for j := i + 1; j < n; j++ {
						h1, h2 := res.Tree.History(d, i), res.Tree.History(d, j)
						w, err := FindWitness(context.Background(), m, tc.T, h1, h2, Options{Ground: g, Convention: tc.conv})
						if err != nil {
							t.Fatal(err)
						}
						if want := res.Lower[d].At(i, j); math.Abs(w.Distance-want) > 1e-9 {
							t.Fatalf("depth %d pair (%d, %d): witness distance %.12g, Compute %.12g", d, i, j, w.Distance, want)
						}
						if err := w.Controller.Validate(); err != nil {
							t.Fatalf("depth %d pair (%d, %d): witness invalid: %v", d, i, j, err)
						}
						laws, err := law.Compute(m, w.Controller, tc.T, tc.conv)
						if err != nil {
							t.Fatal(err)
						}
						r, err := sol.SeqW1(g, tc.T-d, laws.Suffix(d, i), laws.Suffix(d, j))
						if err != nil {
							t.Fatal(err)
						}
						if math.Abs(r.Value-w.Distance) > 1e-9 {
							t.Fatalf("depth %d pair (%d, %d): witness %v re-evaluated gives %.12g, the search %.12g", d, i, j, w.Controller, r.Value, w.Distance)
						}
						if w.Distance > 0 {
							positive++
						}
					}
				}
			}
			if positive == 0 {
				t.Fatal("no pair at a positive distance: the test checks nothing")
			}
		})
	}
}

// TestFindWitnessRefuses checks the refusals of bad pairs.
func TestFindWitnessRefuses(t *testing.T) {
	m := randomModel(1, 2, 2, 2)
	for _, tc := range []struct {
		name   string
		h1, h2 []int
	}{
		{"depths differ", []int{0}, []int{0, 1}},
		{"above T", []int{0, 0, 0, 0}, []int{0, 0, 0, 1}},
		{"observation out of range", []int{0, 2}, []int{0, 1}},
	} {
		if _, err := FindWitness(context.Background(), m, 3, tc.h1, tc.h2, Options{}); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestFindWitnessNodeLimit checks, on random models with node limits
// small enough to stop the search, that the witness brackets the
// brute-force maximum (lib/distance over every controller of the family):
// Distance ≤ maximum ≤ Upper, that the controller re-evaluated by lib/law
// gives Distance, and that a search stopped by the limit says so (Exact
// false), one that completes reporting Upper = Distance.
func TestFindWitnessNodeLimit(t *testing.T) {
	stopped := 0
	for _, tc := range []struct {
		seed       uint64
		nS, nA, nO int
		T          int
		conv       law.Convention
		maxNodes   float64
	}{
		{21, 3, 2, 2, 3, law.UniformStandIn, 1},
		{22, 3, 2, 3, 3, law.UniformStandIn, 2},
		{23, 3, 3, 2, 3, law.PointMassStandIn, 2},
		{24, 2, 2, 2, 4, law.UniformStandIn, 6},
	} {
		m := randomModel(tc.seed, tc.nS, tc.nA, tc.nO)
		g := ot.Discrete(tc.nO)
		want := enumerate(t, m, g, tc.T, tc.conv, nil)
		opt := Options{Ground: g, Convention: tc.conv, MaxNodes: tc.maxNodes}
		var sol ot.Solver
		for d := 0; d < tc.T; d++ {
			n := want.Tree.Count(d)
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					h1, h2 := want.Tree.History(d, i), want.Tree.History(d, j)
					w, err := FindWitness(context.Background(), m, tc.T, h1, h2, opt)
					if err != nil {
						t.Fatal(err)
					}
					max := want.At(d, i, j)
					if w.Distance > max+1e-9 || w.Upper < max-1e-9 || w.Distance > w.Upper {
						t.Fatalf("seed %d depth %d %v %v: [%.12g, %.12g] does not bracket the enumeration's %.12g", tc.seed, d, h1, h2, w.Distance, w.Upper, max)
					}
					if w.Exact && (math.Abs(w.Distance-max) > 1e-9 || w.Upper != w.Distance) {
						t.Fatalf("seed %d depth %d %v %v: exact witness %.12g (upper %.12g), enumeration %.12g", tc.seed, d, h1, h2, w.Distance, w.Upper, max)
					}
					if !w.Exact {
						stopped++
					}
					laws, err := law.Compute(m, w.Controller, tc.T, tc.conv)
					if err != nil {
						t.Fatal(err)
					}
					r, err := sol.SeqW1(g, tc.T-d, laws.Suffix(d, i), laws.Suffix(d, j))
					if err != nil {
						t.Fatal(err)
					}
					if math.Abs(r.Value-w.Distance) > 1e-9 {
						t.Fatalf("seed %d depth %d %v %v: witness re-evaluated gives %.12g, reported %.12g", tc.seed, d, h1, h2, r.Value, w.Distance)
					}
				}
			}
		}
	}
	if stopped == 0 {
		t.Fatal("no search reached its node limit: the test checks nothing")
	}
}
