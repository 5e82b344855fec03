package distance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// classRun is one run of the class-path oracle.
type classRun struct {
	name string
	m    *pomdp.Model
	fam  fsc.Family
	T    int
	opt  Options
}

// classRuns returns random models (probabilities multiples of 1/2 or 1/3
// with many zeros: impossible histories and equal laws abound) under
// both metrics, both stand-ins and 1–3 workers, and the built-ins.
func classRuns(t *testing.T, n int) []classRun {
	rng := rand.New(rand.NewPCG(27, 1))
	var runs []classRun
	for trial := 0; len(runs) < n; trial++ {
		nS, nA, nO := 2+rng.IntN(4), 1+rng.IntN(3), 2+rng.IntN(3)
		T := 1 + rng.IntN(4)
		m := gridModel(uint64(500+trial), nS, nA, nO)
		kind, mem := fsc.KindStationary, 1+rng.IntN(2)
		if trial%5 == 4 {
			kind, mem = fsc.KindClock, 1
		}
		fam, err := fsc.New(kind, nA, nO, mem, T, fsc.Options{Limit: 2000})
		if err != nil {
			continue
		}
		opt := Options{Workers: 1 + trial%3, Convention: law.Convention(trial / 2 % 2)}
		if trial%4 == 1 {
			opt.Metric = TV
		}
		if trial%7 == 0 {
			opt.Ground = ot.Ordered(nO)
		}
		if trial%3 == 0 {
			opt.Eps = []float64{0, 0.1 * float64(trial%4), 0.5}
		}
		runs = append(runs, classRun{fmt.Sprintf("trial %d (%s, %v, T=%d, %v, %v)", trial, m.Name, fam, T, opt.Metric, opt.Convention), m, fam, T, opt})
	}
	for _, b := range []struct {
		name string
		m, T int
		conv law.Convention
		met  Metric
	}{{"tiger", 2, 6, law.UniformStandIn, W1}, {"tiger", 1, 8, law.PointMassStandIn, TV}, {"gridworld:3", 1, 3, law.UniformStandIn, W1},
		{"gridworld:3", 1, 3, law.PointMassStandIn, W1}, {"witness", 2, 3, law.UniformStandIn, TV}, {"tag", 1, 2, law.PointMassStandIn, W1},
		// 12,545 states: a posterior sums to 1 only to ~10⁻¹², so the
		// DAG's rows must be normalised as the tree's laws are.
		{"rocksample:7:8", 1, 3, law.UniformStandIn, W1}, {"rocksample:5:7", 1, 3, law.PointMassStandIn, W1}} {
		bm := lookup(t, b.name)
		fam, err := fsc.New(fsc.KindStationary, bm.Model.NumActions(), bm.Model.NumObservations(), b.m, b.T, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, classRun{fmt.Sprintf("%s m=%d T=%d %v %v", b.name, b.m, b.T, b.conv, b.met), bm.Model, fam, b.T,
			Options{Ground: bm.Ground, Convention: b.conv, Metric: b.met, Eps: []float64{0, 0.3}}})
	}
	return runs
}

// TestClassPathMatchesTree is the oracle of the class path
// (classdag.go): on ≥ 200 random models with impossible histories and
// the built-ins, both metrics, both stand-ins and 1–3 workers, the exact
// classes built from the previous depth's classes are the history tree's
// label for label, with the same class and history counts and stand-in
// counts; the later phases on the representatives' laws give the same
// distances (to rounding) and partitions at every ε.
func TestClassPathMatchesTree(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 60
	}
	runs := classRuns(t, n)
	impossible := 0
	for _, r := range runs {
		noClassDAG = true
		want, err := Compute(context.Background(), r.m, r.fam, r.T, r.opt)
		noClassDAG = false
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		for _, rep := range []bool{false, true} {
			useClassDAG, useRepLaws = true, rep
			got, err := Compute(context.Background(), r.m, r.fam, r.T, r.opt)
			useClassDAG, useRepLaws = false, false
			if err != nil {
				t.Fatalf("%s: class path: %v", r.name, err)
			}
			sameClassRun(t, fmt.Sprintf("%s, representatives' laws %v", r.name, rep), got, want, r.opt.Eps)
		}
		if want.StandIns > 0 {
			impossible++
		}
	}
	if impossible < len(runs)/4 {
		t.Fatalf("only %d of %d runs had impossible histories", impossible, len(runs))
	}
}

// sameClassRun compares a class-path run with the history tree's: labels,
// class and history counts, stand-ins, distances and partitions.
func sameClassRun(t *testing.T, name string, got, want *Result, eps []float64) {
	t.Helper()
	for d := range want.Classes.Labels {
		if !slices.Equal(got.Classes.Labels[d], want.Classes.Labels[d]) {
			t.Fatalf("%s: depth %d: labels %v, want %v", name, d, got.Classes.Labels[d], want.Classes.Labels[d])
		}
	}
	if !slices.Equal(got.Classes.Counts(), want.Classes.Counts()) || got.Tree.Len() != want.Tree.Len() {
		t.Fatalf("%s: %v classes of %d histories, want %v of %d", name, got.Classes.Counts(), got.Tree.Len(), want.Classes.Counts(), want.Tree.Len())
	}
	if got.StandIns != want.StandIns || got.Distinct != want.Distinct {
		t.Fatalf("%s: %d stand-ins, %d distinct; want %d, %d", name, got.StandIns, got.Distinct, want.StandIns, want.Distinct)
	}
	sameDecisions(t, name, got, want, eps)
}

// TestClassPathCompact runs the class path in compact decision mode (the
// command line's default) against the history tree: the same partitions
// at every listed ε.
func TestClassPathCompact(t *testing.T) {
	for _, r := range classRuns(t, 40) {
		if r.opt.Metric != W1 {
			continue
		}
		r.opt.Eps, r.opt.Compact = []float64{0, 0.1, 0.3}, true
		noClassDAG = true
		want, err := Compute(context.Background(), r.m, r.fam, r.T, r.opt)
		noClassDAG = false
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		useClassDAG, useRepLaws = true, true
		got, err := Compute(context.Background(), r.m, r.fam, r.T, r.opt)
		useClassDAG, useRepLaws = false, false
		if err != nil {
			t.Fatalf("%s: class path: %v", r.name, err)
		}
		samePartitions(t, r.name, got, want, r.opt.Eps)
		if got.MaxDistance() != want.MaxDistance() && !(got.MaxDistanceExact() && want.MaxDistanceExact()) {
			t.Fatalf("%s: max distance %v, want %v", r.name, got.MaxDistance(), want.MaxDistance())
		}
	}
}

// TestStandInNodes checks the stand-ins of the DAG against the history
// tree's laws: every history's law (possible or not) equals the law of
// its DAG node or of the depth's stand-in node, under both conventions.
func TestStandInNodes(t *testing.T) {
	for seed := uint64(0); seed < 30; seed++ {
		m := gridModel(900+seed, 3, 2, 3)
		T := 3
		fam, err := fsc.New(fsc.KindStationary, 2, 3, 2, T, fsc.Options{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for _, conv := range []law.Convention{law.UniformStandIn, law.PointMassStandIn} {
			e, err := law.NewEngine(m, T, conv)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < fam.Len(); i += 17 {
				c := fam.At(i)
				laws, err := e.Compute(c)
				if err != nil {
					t.Fatal(err)
				}
				d, err := e.DAG(context.Background(), c, 0)
				if err != nil {
					t.Fatal(err)
				}
				tr := e.Tree()
				// Walk the tree along the DAG: node, or −1 once impossible.
				var walk func(tt, h int, v int32)
				walk = func(tt, h int, v int32) {
					node := v
					if v < 0 {
						node = d.StandIn[tt]
					}
					if laws.StandIn(tt, h) != (v < 0) {
						t.Fatalf("seed %d %v probe %d: history (%d, %d) stand-in %v, DAG says %v", seed, conv, i, tt, h, laws.StandIn(tt, h), v < 0)
					}
					out := make([]float64, tr.SuffixLen(tt))
					d.Fill(out, tt, node)
					for k, x := range laws.Suffix(tt, h) {
						if diff := x - out[k]; diff > 1e-13 || diff < -1e-13 {
							t.Fatalf("seed %d %v probe %d: history (%d, %d) law %v, DAG %v", seed, conv, i, tt, h, laws.Suffix(tt, h), out)
						}
					}
					if tt == T {
						return
					}
					for o := 0; o < tr.NumObs; o++ {
						nv := int32(-1)
						if v >= 0 && d.Prob[tt][int(v)*tr.NumObs+o] != 0 {
							nv = d.Child[tt][int(v)*tr.NumObs+o]
						}
						walk(tt+1, h*tr.NumObs+o, nv)
					}
				}
				walk(0, 0, 0)
			}
		}
	}
}

// TestClassPathLimit checks that a class path whose DAG or forward states
// outgrow classDAGLimit is refused with an error naming the depth, not
// run out of memory.
func TestClassPathLimit(t *testing.T) {
	m := gridModel(7, 5, 2, 3)
	fam, err := fsc.New(fsc.KindStationary, 2, 3, 1, 4, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func(v int) { classDAGLimit = v }(classDAGLimit)
	for _, limit := range []int{1, 2, 4} {
		classDAGLimit = limit
		useClassDAG = true
		_, err := Compute(context.Background(), m, fam, 4, Options{Workers: 1})
		useClassDAG = false
		if err == nil || !strings.Contains(err.Error(), "at depth") || !strings.Contains(err.Error(), "above the limit") {
			t.Fatalf("limit %d: error %v, want a refusal naming the depth", limit, err)
		}
	}
}
