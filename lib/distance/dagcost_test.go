package distance

import (
	"context"
	"errors"
	"runtime"
	"runtime/debug"
	"strings"
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
// factor (|O| when only depth 0 was built), never above the histories
// plus the stand-in nor the node limit, and depth T has one node.
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
		// Depth 0 alone: the histories (plus the stand-in) bound it.
		{[]int{1}, 1 << 20, []int64{1, 3, 9, 27, 81, 1}},
		{[]int{5}, 1 << 20, []int64{5, 4, 10, 28, 82, 1}},
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

// TestDAGBudget checks the refusal before the classes phase: with a
// budget above the estimate made before the laws (B1, read from a
// refusal at 1 byte) but below B1 plus half the DAGs the later phases
// keep (the representatives' laws are read from the DAGs), Compute
// refuses before building any DAG, at the stage "before the classes",
// with the extrapolated DAGs in its estimate; a dry run (Plan) stops
// there too, with that estimate and no partition; under an ample budget
// the dry run computes the classes.
func TestDAGBudget(t *testing.T) {
	m := lookup(t, "random:30:3:8:1").Model
	const T = 6
	fam, err := fsc.New(fsc.KindStationary, m.NumActions(), m.NumObservations(), 1, T, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func(v int) { dagCheapNodes, useClassDAG, useRepLaws = v, false, false }(dagCheapNodes)
	dagCheapNodes, useClassDAG, useRepLaws = 600, true, true
	opt := Options{Workers: 1, Eps: []float64{0, 0.3}, Compact: true}
	full, _, err := Plan(context.Background(), m, fam, T, opt)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := law.NewTree(m.NumObservations(), T)
	if err != nil {
		t.Fatal(err)
	}
	var kept int64
	for d := 0; d < T; d++ {
		kept += full.DAGNodes[d] * int64(12*tree.NumObs+4)
	}
	o := opt
	o.MemBudget = 1
	var be *BudgetError
	// Each estimate adds the live heap (the last collection's): collect
	// first, so that garbage of the run before is not in it.
	runtime.GC()
	if _, err := Compute(context.Background(), m, fam, T, o); !errors.As(err, &be) || be.Stage != "before the laws" {
		t.Fatalf("budget 1: %v", err)
	}
	b1 := be.Cost.Bytes()
	for _, c := range []struct {
		name   string
		budget int64
		refuse bool
	}{{"tight", b1 + int64(gcFactor*float64(kept))/2, true}, {"ample", 4 * full.Bytes(), false}} {
		o := opt
		o.MemBudget = c.budget
		if !c.refuse {
			// The dry run builds the DAGs and the classes (the whole
			// run's distances take minutes).
			if _, p, err := Plan(context.Background(), m, fam, T, o); err != nil || p == nil {
				t.Errorf("%s: partition %v, %v", c.name, p != nil, err)
			}
			continue
		}
		runtime.GC()
		_, err := Compute(context.Background(), m, fam, T, o)
		if !errors.As(err, &be) || be.Stage != "before the classes" {
			t.Fatalf("%s (%s, before the laws %s, DAGs kept %s): %v, want a refusal before the classes", c.name, FormatBytes(c.budget), FormatBytes(b1), FormatBytes(kept), err)
		}
		if be.Cost.DAGsAhead == 0 || be.Cost.DAGCounted > T || !strings.Contains(be.Cost.dagTerm(), "extrapolated") {
			t.Errorf("%s: refused with classes phase %d bytes, %d depths counted, term %q", c.name, be.Cost.DAGsAhead, be.Cost.DAGCounted, be.Cost.dagTerm())
		}
		runtime.GC()
		cost, p, err := Plan(context.Background(), m, fam, T, o)
		if err != nil || p != nil || cost.Known || cost.DAGsAhead != be.Cost.DAGsAhead {
			t.Errorf("%s: dry run partition %v, known %v, ahead %d (refusal's %d), %v", c.name, p != nil, cost.Known, cost.DAGsAhead, be.Cost.DAGsAhead, err)
		}
	}
}

// TestDAGTermNamed checks that a classes phase larger than every other
// term is the one a refusal names, with what helps.
func TestDAGTermNamed(t *testing.T) {
	c := Cost{Laws: 10, Labels: 5, DAGs: 100, DAGNodes: []int64{1, 3, 9, 1}, DAGCounted: 2}
	name, v := c.Largest()
	if v != 100 || !strings.HasPrefix(name, "posterior DAGs") || !strings.Contains(name, "depths < 2 counted") {
		t.Errorf("Largest() = %q, %d", name, v)
	}
	msg := (&BudgetError{Cost: c, Budget: 1, Stage: "before the classes"}).Error()
	if !strings.Contains(msg, "posterior DAGs") || !strings.Contains(msg, "--workers") {
		t.Errorf("refusal %q", msg)
	}
	c.DAGCounted = 4
	if name, _ := c.Largest(); !strings.Contains(name, "nodes counted") {
		t.Errorf("counted: Largest() = %q", name)
	}
}
