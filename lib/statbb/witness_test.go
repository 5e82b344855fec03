package statbb

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
)

// TestFindWitness checks, on random models, both stand-in conventions and
// m = 1 … 3, that the witness of every history pair attains the value
// Compute gives the pair in exact mode, has at most m nodes, and,
// re-evaluated by lib/law (not by the search), gives that distance.
func TestFindWitness(t *testing.T) {
	for _, tc := range []struct {
		name          string
		seed          uint64
		nS, nA, nO, M int
		T             int
		conv          law.Convention
	}{
		{"3x2x2-m2-T3-uniform", 1, 3, 2, 2, 2, 3, law.UniformStandIn},
		{"3x2x2-m2-T3-pointmass", 2, 3, 2, 2, 2, 3, law.PointMassStandIn},
		{"2x3x2-m1-T4-uniform", 3, 2, 3, 2, 1, 4, law.UniformStandIn},
		{"3x2x3-m2-T3-uniform", 4, 3, 2, 3, 2, 3, law.UniformStandIn},
		{"2x2x2-m3-T3-uniform", 5, 2, 2, 2, 3, 3, law.UniformStandIn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := randomModel(tc.seed, tc.nS, tc.nA, tc.nO)
			g := ot.Discrete(tc.nO)
			opt := Options{Ground: g, Convention: tc.conv}
			res, err := Compute(context.Background(), m, tc.M, tc.T, opt)
			if err != nil {
				t.Fatal(err)
			}
			var sol ot.Solver
			positive := 0
			for d := 1; d < tc.T; d++ {
				n := res.Tree.Count(d)
				for i := 0; i < n; i++ {
					for j := i + 1; j < n; j++ {
						w, err := FindWitness(context.Background(), m, tc.M, tc.T, res.Tree.History(d, i), res.Tree.History(d, j), opt)
						if err != nil {
							t.Fatal(err)
						}
						if want := res.Lower[d].At(i, j); math.Abs(w.Distance-want) > 1e-9 {
							t.Fatalf("depth %d pair (%d, %d): witness distance %.12g, Compute %.12g", d, i, j, w.Distance, want)
						}
						if err := w.Controller.Validate(); err != nil || w.Controller.Nodes > tc.M || w.Controller.Clock() {
							t.Fatalf("depth %d pair (%d, %d): witness %v not a stationary controller with ≤ %d nodes (%v)", d, i, j, w.Controller, tc.M, err)
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

// TestFindWitnessRefuses checks the refusals of bad pairs and settings.
func TestFindWitnessRefuses(t *testing.T) {
	m := randomModel(1, 2, 2, 2)
	for _, tc := range []struct {
		name   string
		M      int
		h1, h2 []int
	}{
		{"depths differ", 2, []int{0}, []int{0, 1}},
		{"above T", 2, []int{0, 0, 0, 0}, []int{0, 0, 0, 1}},
		{"observation out of range", 2, []int{0, 2}, []int{0, 1}},
		{"m above MaxM", MaxM + 1, []int{0}, []int{1}},
	} {
		if _, err := FindWitness(context.Background(), m, tc.M, 3, tc.h1, tc.h2, Options{}); err == nil {
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
		seed          uint64
		nS, nA, nO, M int
		T             int
		conv          law.Convention
		maxNodes      float64
	}{
		{11, 3, 2, 2, 2, 4, law.UniformStandIn, 1},
		{12, 3, 2, 3, 2, 3, law.UniformStandIn, 2},
		{13, 3, 3, 2, 2, 4, law.PointMassStandIn, 3},
		{14, 2, 2, 2, 3, 4, law.UniformStandIn, 1},
		{15, 3, 2, 2, 2, 4, law.UniformStandIn, 5},
	} {
		m := randomModel(tc.seed, tc.nS, tc.nA, tc.nO)
		g := ot.Discrete(tc.nO)
		want := enumerate(t, m, g, tc.M, tc.T, tc.conv)
		opt := Options{Ground: g, Convention: tc.conv, MaxNodes: tc.maxNodes}
		var sol ot.Solver
		for d := 0; d < tc.T; d++ {
			n := want.Tree.Count(d)
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					h1, h2 := want.Tree.History(d, i), want.Tree.History(d, j)
					w, err := FindWitness(context.Background(), m, tc.M, tc.T, h1, h2, opt)
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

// TestFindWitnessProgressCancel checks that a witness search reports its
// nodes through Options.Progress (against the node limit of all the node
// counts searched) and stops with context.Canceled when its context is
// cancelled from there.
func TestFindWitnessProgressCancel(t *testing.T) {
	m := lookup(t, "random:12:3:12:5").Model
	for _, tc := range []struct {
		M        int
		maxNodes float64
	}{{2, 1e6}, {3, 1e6}} {
		ctx, cancel := context.WithCancel(context.Background())
		calls, total := 0, 0
		progress := func(done, n int) {
			calls, total = calls+1, n
			if done > n {
				t.Errorf("m = %d: progress %d of %d", tc.M, done, n)
			}
			cancel()
		}
		_, err := FindWitness(ctx, m, tc.M, 3, []int{0}, []int{1}, Options{MaxNodes: tc.maxNodes, Progress: progress})
		cancel()
		if !errors.Is(err, context.Canceled) || calls != 1 {
			t.Fatalf("m = %d: err = %v after %d progress calls, want context.Canceled after 1", tc.M, err, calls)
		}
		if want := int(tc.maxNodes) * len(nodeCounts(tc.M, law.UniformStandIn)); total != want {
			t.Errorf("m = %d: progress total %d, want %d", tc.M, total, want)
		}
	}
}
