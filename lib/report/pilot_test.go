package report

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// TestPreflightWorkCount: the estimate's work count, distinct probes ×
// class pairs, is the count the run performs: distance.Compute's distinct
// probes, and Σ_{t<T} c_t(c_t − 1)/2 over the classes of its result
// (counted here from the partition, independently of Cost.Pairs). On
// today's main the estimate had no such count: it charged every class
// pair the worst-case |O|^(T−t) atoms at a fixed rate.
//
// hallway.POMDP (the oracle, ../shared) has its in-repository twin in
// datasets/models/hallway-20.pomdp, a model of our own.
func TestPreflightWorkCount(t *testing.T) {
	cases := []struct {
		name string
		path string
		M, T int
	}{
		{"maze4x3 m ≤ 1", filepath.Join("..", "..", "datasets", "models", "maze4x3.pomdp"), 1, 4},
		{"hallway-20 m ≤ 1", filepath.Join("..", "..", "datasets", "models", "hallway-20.pomdp"), 1, 3},
		{"hallway (oracle) m ≤ 1", "", 1, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.path == "" {
				c.path = shared.Path(t, "TestPreflightWorkCount/hallway-20", "pomdp", "hallway.POMDP")
			}
			m, err := modelfile.Load(c.path)
			if err != nil {
				t.Fatal(err)
			}
			e, err := Preflight(context.Background(), m, fsc.KindStationary, c.M, c.T, Budget{Bytes: 4 << 30})
			if err != nil || !e.Planned {
				t.Fatalf("%v %s", err, e.Refused)
			}
			fam, err := fsc.New(fsc.KindStationary, m.NumActions(), m.NumObservations(), c.M, c.T, fsc.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := distance.Compute(context.Background(), m, fam, c.T, distance.Options{MemBudget: 4 << 30})
			if err != nil {
				t.Fatal(err)
			}
			pairs := int64(0)
			for _, n := range res.Classes.Counts()[:c.T] {
				pairs += int64(n) * int64(n-1) / 2
			}
			if e.Pairs != pairs || e.Cost.Distinct != res.Distinct || e.PairWork != float64(pairs)*float64(res.Distinct) {
				t.Errorf("estimate %d probes × %d pairs = %g, run %d × %d", e.Cost.Distinct, e.Pairs, e.PairWork, res.Distinct, pairs)
			}
			// The pilot solved no more pairs than there are, and at least
			// one at every depth with two classes or more.
			for tt, s := range e.Pilot.Sampled {
				n := int64(res.Classes.Classes(tt))
				if s > n*(n-1)/2 || (n >= 2 && s < 1) || (n >= 2 && !(e.Pilot.PerPair[tt] > 0)) {
					t.Errorf("depth %d: %d classes, pilot of %d pairs at %g s", tt, n, s, e.Pilot.PerPair[tt])
				}
			}
			if pairs > 0 && !(e.PairSeconds > 0) {
				t.Errorf("%d pairs estimated at %g s", pairs, e.PairSeconds)
			}
		})
	}
}

// TestPilotPartition: the pilot's partition keeps k classes of depth t
// and one more, whose representatives are true class representatives,
// and merges every other depth into one class.
func TestPilotPartition(t *testing.T) {
	// Depth 1: classes 0..5 over 9 histories; depth 0 and 2 one class.
	classes := partition.FromLabels([][]int{{0}, {0, 1, 2, 3, 4, 5, 0, 1, 5}, {0, 0, 0}})
	reps := map[int]bool{0: true, 1: true, 2: true, 3: true, 4: true, 5: true} // first members
	for _, c := range []struct{ k, want int }{{1, 2}, {2, 3}, {4, 5}, {5, 6}, {9, 6}} {
		p := pilotPartition(classes, 1, c.k)
		if got := p.Counts(); got[0] != 1 || got[1] != c.want || got[2] != 1 {
			t.Errorf("k = %d: counts %v, want [1 %d 1]", c.k, got, c.want)
		}
		// Every class of p has a first member that is a true representative,
		// and the members of a true class stay together.
		seen := map[int]bool{}
		for h, l := range p.Labels[1] {
			if !seen[l] {
				seen[l] = true
				if !reps[h] {
					t.Errorf("k = %d: class %d starts at history %d, not a representative", c.k, l, h)
				}
			}
			for h2, l2 := range classes.Labels[1] {
				if l2 == classes.Labels[1][h] && p.Labels[1][h2] != l {
					t.Errorf("k = %d: histories %d and %d of one class split", c.k, h, h2)
				}
			}
		}
	}
}

// TestPilotK: the least k with k(k+1)/2 ≥ n pairs, at most c − 1.
func TestPilotK(t *testing.T) {
	for _, c := range []struct {
		n       float64
		c, want int
	}{{1, 10, 1}, {3, 10, 2}, {4, 10, 3}, {6, 10, 3}, {7, 10, 4}, {1000, 10, 9}, {0, 2, 1}} {
		if got := pilotK(c.n, c.c); got != c.want {
			t.Errorf("pilotK(%g, %d) = %d, want %d", c.n, c.c, got, c.want)
		}
	}
}

// TestPreflightDecides: the pre-flight estimates what Build runs, the
// distances in decision mode at the curves' grid (the default end, or
// Budget.CurveTop), in one pass plus one for the certificates' tensor
// when it fits, and the soundness checks and planning as probe
// valuations (at f76fb23 it estimated exact distances, four passes, and
// nothing after them).
func TestPreflightDecides(t *testing.T) {
	m, _ := tiger(t)
	for _, tc := range []struct {
		top, end float64
	}{
		{0, DefaultCurveTop},
		{1.5, 1.5},
	} {
		e, err := Preflight(context.Background(), m, fsc.KindStationary, 1, 3, Budget{Bytes: 1 << 30, Seconds: 20, CurveTop: tc.top})
		if err != nil {
			t.Fatal(err)
		}
		if !e.Planned || len(e.Grid) != DefaultGridPoints || e.Grid[0] != 0 || e.Grid[len(e.Grid)-1] != tc.end {
			t.Errorf("CurveTop %g: planned %v, grid %v: want %d values from 0 to %g", tc.top, e.Planned, e.Grid, DefaultGridPoints, tc.end)
		}
		want := Passes
		if TensorFits(e.Cost) {
			want++
		}
		// Tiger m = 1: 3 controllers, each checked for soundness at two
		// ε and valued on the model and PlanEpsPoints quotients for two
		// rewards.
		if after := 2*3 + 2*PlanValuationWeight*3*(PlanEpsPoints+1); e.Size != 3 || e.Passes != want || !e.AfterTimed || e.Valuations != after || e.AfterSeconds != after*e.ValuationSeconds || e.Seconds != float64(e.Passes)*e.Compute+e.AfterSeconds {
			t.Errorf("CurveTop %g: %d passes, %g s of %g s each and %g valuations (%g s); want %d passes and %g valuations", tc.top, e.Passes, e.Seconds, e.Compute, e.Valuations, e.AfterSeconds, want, after)
		}
	}
}
