package plan

import (
	"context"
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// TestOpenLoopAgainstQuotientModels checks the prefix-tree pass against the
// direct route: build the quotient seen by each string (quotient.ForProbe)
// and evaluate the string on it with value.Evaluate.
func TestOpenLoopAgainstQuotientModels(t *testing.T) {
	for _, tc := range []struct {
		model string
		T     int
		eps   float64
	}{{"tiger", 3, 0}, {"tiger", 3, 0.5}, {"gridworld-goal:3", 2, 0.3}, {"rocksample:4:4", 2, 0.3}} {
		b, err := bench.Lookup(tc.model)
		if err != nil {
			t.Fatal(err)
		}
		m := b.Model
		fam, _ := fsc.NewStationary(m.NumActions(), m.NumObservations(), 1, fsc.Options{})
		r, err := distance.Compute(context.Background(), m, fam, tc.T, distance.Options{Ground: b.Ground})
		if err != nil {
			t.Fatal(err)
		}
		q, err := quotient.New(m, tc.T, r.Partition(tc.eps))
		if err != nil {
			t.Fatal(err)
		}
		objs := []Objective{value.LatentReward{}, value.ObsScore(m.NumObservations()), value.ActionObsScore(value.DefaultPref(m))}
		for _, obj := range objs {
			res, err := OpenLoop(context.Background(), q, obj, 0)
			if err != nil {
				t.Fatal(err)
			}
			clk, _ := fsc.NewClock(m.NumActions(), m.NumObservations(), 1, tc.T, fsc.Options{})
			for i := 0; i < clk.Len(); i += 1 + clk.Len()/40 {
				c := clk.At(i)
				qm, err := q.ForProbe(c)
				if err != nil {
					t.Fatal(err)
				}
				wantQ, err := value.Evaluate(qm, c, tc.T, obj)
				if err != nil {
					t.Fatal(err)
				}
				wantM, err := value.Evaluate(m, c, tc.T, obj)
				if err != nil {
					t.Fatal(err)
				}
				if !(math.Abs(res.Quotient[i]-wantQ) <= 1e-9) || !(math.Abs(res.Original[i]-wantM) <= 1e-9) {
					t.Fatalf("%s ε=%v %s string %d: quotient %v (want %v), original %v (want %v)",
						tc.model, tc.eps, obj.Name(), i, res.Quotient[i], wantQ, res.Original[i], wantM)
				}
			}
		}
	}
}

func TestBestAndDecode(t *testing.T) {
	i, best, ties := Best([]float64{1, 3, 3 - 1e-12, 2}, 1e-9)
	if i != 1 || best != 3 || ties != 2 {
		t.Fatalf("Best = %d, %v, %d; want 1, 3, 2", i, best, ties)
	}
	if u := Decode(5, 3, 3); u[0] != 0 || u[1] != 1 || u[2] != 2 {
		t.Fatalf("Decode(5) = %v, want [0 1 2]", u)
	}
}

// TestBestOf checks Best and BestOf against a direct scan: the first index
// within tol of the maximum, the maximum, the ties; and that BestOf over a
// function agrees with Best over the slice it reads.
func TestBestOf(t *testing.T) {
	cases := []struct {
		name string
		vals []float64
		tol  float64
	}{
		{"empty", nil, 1e-9},
		{"one", []float64{-2}, 1e-9},
		{"ties within tol", []float64{1, 3, 3 - 1e-12, 2}, 1e-9},
		{"first is best", []float64{5, 1, 4.5}, 0.6},
		{"negative", []float64{-3, -1, -2, -1}, 0},
	}
	for _, tc := range cases {
		wantI, wantBest, wantTies := -1, math.Inf(-1), 0
		for _, v := range tc.vals {
			wantBest = math.Max(wantBest, v)
		}
		for i, v := range tc.vals {
			if v >= wantBest-tc.tol {
				wantTies++
				if wantI < 0 {
					wantI = i
				}
			}
		}
		i, best, ties := Best(tc.vals, tc.tol)
		j, best2, ties2 := BestOf(len(tc.vals), func(k int) float64 { return tc.vals[k] }, tc.tol)
		if i != wantI || best != wantBest || ties != wantTies || j != i || best2 != best || ties2 != ties {
			t.Errorf("%s: Best = %d, %v, %d; BestOf = %d, %v, %d; want %d, %v, %d", tc.name, i, best, ties, j, best2, ties2, wantI, wantBest, wantTies)
		}
	}
}
