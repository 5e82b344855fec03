package distance

import (
	"context"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/pomdpq/pomdpq/internal/memsample"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
)

// TestDAGEstimateMeasured checks the class path's classes-phase estimate
// (Cost.DAGs, dagcost.go) against the memory measured while the phase
// runs (memsample.Peak above the resident memory before it), on random
// models whose posteriors are all distinct (the DAG is the history tree)
// and on one whose observations repeat (few posteriors): the estimate
// made before any DAG is built (from the cheap first depths) and the one
// from the counted nodes are both within 2× of the measured peak. A ratio
// of memory, not a timing.
func TestDAGEstimateMeasured(t *testing.T) {
	if testing.Short() {
		t.Skip("short: builds DAGs of 10⁵–10⁶ nodes")
	}
	for _, c := range []struct {
		model   string
		T, w    int
		cheap   int // dagCheapNodes: small enough that the estimate extrapolates
		minPeak int64
	}{
		{"random:30:3:8:1", 6, 1, 600, 24 << 20},
		{"random:30:3:8:2", 6, 2, 600, 24 << 20},
		{"random:12:4:6:3", 7, 2, 300, 40 << 20},
		{"gridworld:4", 9, 1, 64, 4 << 20},
	} {
		t.Run(c.model, func(t *testing.T) {
			m := lookup(t, c.model).Model
			fam, err := fsc.New(fsc.KindStationary, m.NumActions(), m.NumObservations(), 1, c.T, fsc.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer func(v int) { dagCheapNodes, useClassDAG = v, false }(dagCheapNodes)
			dagCheapNodes, useClassDAG = c.cheap, true
			runtime.GC()
			debug.FreeOSMemory()
			before := memsample.Resident()
			stop := memsample.Peak(time.Millisecond)
			pr, err := prepare(context.Background(), m, fam, c.T, Options{Workers: c.w, Eps: []float64{0, 0.3}, Compact: true, MemBudget: -1}, true, given{})
			peak := stop() - before
			if err != nil {
				t.Fatal(err)
			}
			cost := pr.res.Cost
			phase := func(dags int64) int64 { return int64(gcFactor * float64(dags+cost.Labels+cost.Family)) }
			if peak < c.minPeak {
				t.Fatalf("measured %d MiB: too small to compare", peak>>20)
			}
			ahead, err := pr.r.dagPreflight(context.Background(), pr.reps)
			if err != nil {
				t.Fatal(err)
			}
			if ahead.counted >= c.T || cost.DAGCounted != c.T+1 {
				t.Fatalf("%d depths counted ahead, %d once built: want the estimate to extrapolate, then count all %d", ahead.counted, cost.DAGCounted, c.T+1)
			}
			for _, e := range []struct {
				name string
				v    int64
			}{{"ahead", phase(cost.DAGsAhead)}, {"counted", phase(cost.DAGs)}} {
				ratio := float64(e.v) / float64(peak)
				t.Logf("%s: estimate %.1f MiB, measured %.1f MiB (ratio %.2f); nodes %v, %d depths counted ahead", e.name, float64(e.v)/(1<<20), float64(peak)/(1<<20), ratio, cost.DAGNodes, ahead.counted)
				if ratio < 0.5 || ratio > 2 {
					t.Errorf("%s: estimate %d MiB, measured peak %d MiB (ratio %.2f, want within 2×)", e.name, e.v>>20, peak>>20, ratio)
				}
			}
		})
	}
}

// TestDAGExtrapolate checks the extrapolation of a DAG's node counts:
// counted depths are kept, deeper ones grow by the last counted depth's
// factor, never above the histories plus the stand-in nor the node limit,
// and depth T has one node.
func TestDAGExtrapolate(t *testing.T) {
	tree, err := law.NewTree(3, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lens  []int
		limit int
		want  []int64
	}{
		{[]int{1, 3, 9, 27, 81, 1}, 1 << 20, []int64{1, 3, 9, 27, 81, 1}},
		{[]int{1, 2, 4}, 1 << 20, []int64{1, 2, 4, 8, 16, 1}},
		{[]int{2, 4, 12}, 1 << 20, []int64{2, 4, 12, 28, 82, 1}},
		{[]int{1, 3, 2}, 1 << 20, []int64{1, 3, 2, 2, 2, 1}},
		{[]int{1, 2, 4}, 10, []int64{1, 2, 4, 8, 10, 1}},
		{[]int{1}, 1 << 20, []int64{1, 1, 1, 1, 1, 1}},
		{[]int{5}, 1 << 20, []int64{5, 4, 4, 4, 4, 1}}, // capped by the histories plus the stand-in
	} {
		got := extrapolate(c.lens, tree, c.limit)
		for i := range c.want {
			if got[i] != c.want[i] {
				t.Errorf("extrapolate(%v, limit %d) = %v, want %v", c.lens, c.limit, got, c.want)
				break
			}
		}
	}
}
