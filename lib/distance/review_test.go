package distance

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Planted models of the second reading of the class path (issue 27):
// each states by hand the fact its test checks.

// swapModel has a bulk state A and two rare states B and C (prior ε
// each, identity transitions, one action) whose first observation swaps
// their odds: after x the posterior is ∝ (1 − 2ε, ε/2, ε)·…, after y
// ∝ (…, ε, ε/2), two posteriors within 2ε/2 = ε in L1. Only B and C emit
// r, so after x·r the posterior over (B, C) is (1/3, 2/3) and after y·r
// it is (2/3, 1/3); the next observation's law is then
//
//	x·r: 1/3·(1/4, 1/2, 1/4) + 2/3·(1/2, 1/4, 1/4) = (5/12, 1/3, 1/4)
//	y·r: 2/3·(1/4, 1/2, 1/4) + 1/3·(1/2, 1/4, 1/4) = (1/3, 5/12, 1/4)
//
// (over x, y, r), 1/12 apart in total variation: x·r and y·r are in
// different exact classes however close x and y are.
func swapModel(eps float64) *pomdp.Model {
	z := [][]float64{{0.5, 0.5, 0}, {0.25, 0.5, 0.25}, {0.5, 0.25, 0.25}}
	id := [][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	return pomdp.Must(pomdp.New(pomdp.Dense{Name: "swap", States: []string{"A", "B", "C"}, Actions: []string{"a"},
		Observations: []string{"x", "y", "r"}, T: [][][]float64{id}, Z: [][][]float64{z}, B0: []float64{1 - 2*eps, eps, eps}}))
}

// TestClassPathRarePosteriors plants two depth-1 posteriors within 10⁻¹⁴
// in L1 whose rare components are swapped (swapModel, ε = 2⁻⁴⁷): their
// children by r are 1/12 apart, so the DAG must not make them one node.
// The class path must give x·r and y·r (histories 0·3 + 2 = 2 and
// 1·3 + 2 = 5 of depth 2) different classes, and every depth ≥ 2 the
// tree's labels.
//
// Depth 1 is left out of the label comparison on the discrete ground:
// there the tree path merges x and y (their laws differ by 5ε/16 ≈
// 2.2·10⁻¹⁵ in Σ, under its tolerance 10⁻¹²) while their children by r
// are apart, and the class path, whose classes are right-invariant,
// keeps them apart (the exact answer). With a ground of diameter 712 the
// tree's tolerances (2·10⁻¹²/(k·712): 1.4·10⁻¹⁵ at k = 2, 2.8·10⁻¹⁵ at
// k = 1) split x from y (2.2·10⁻¹⁵) and keep the depth-2 pairs x·x, y·x
// (Σ = ε/4 ≈ 1.8·10⁻¹⁵) together, so both paths agree at every depth.
func TestClassPathRarePosteriors(t *testing.T) {
	eps := math.Ldexp(1, -47)
	wide := make([][]float64, 3)
	for i := range wide {
		wide[i] = make([]float64, 3)
		for j := range wide[i] {
			if i != j {
				wide[i][j] = 712
			}
		}
	}
	wg, err := ot.NewMetric(wide)
	if err != nil {
		t.Fatal(err)
	}
	m := swapModel(eps)
	const T = 3
	fam, err := fsc.New(fsc.KindStationary, 1, 3, 1, T, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		g        ot.Ground
		metric   Metric
		conv     law.Convention
		from     int // first depth whose labels must equal the tree's
		workers  int
		repLaws  bool
		decision []float64
	}{
		{"discrete W1", nil, W1, law.UniformStandIn, 2, 1, false, []float64{0, 0.05}},
		{"discrete TV, point mass", nil, TV, law.PointMassStandIn, 2, 2, true, []float64{0, 0.05}},
		{"diameter 712", wg, W1, law.UniformStandIn, 0, 3, true, []float64{0, 10}},
	} {
		opt := Options{Ground: c.g, Metric: c.metric, Convention: c.conv, Workers: c.workers, Eps: c.decision}
		noClassDAG = true
		want, err := Compute(context.Background(), m, fam, T, opt)
		noClassDAG = false
		if err != nil {
			t.Fatal(err)
		}
		useClassDAG, useRepLaws = true, c.repLaws
		got, err := Compute(context.Background(), m, fam, T, opt)
		useClassDAG, useRepLaws = false, false
		if err != nil {
			t.Fatal(err)
		}
		if l := want.Classes.Labels[2]; l[2] == l[5] {
			t.Fatalf("%s: the tree puts x·r and y·r in one class: %v", c.name, l)
		}
		for d := c.from; d <= T; d++ {
			if !slices.Equal(got.Classes.Labels[d], want.Classes.Labels[d]) {
				t.Fatalf("%s: depth %d: labels %v, want the tree's %v", c.name, d, got.Classes.Labels[d], want.Classes.Labels[d])
			}
		}
		if c.from == 0 {
			sameClassRun(t, fmt.Sprint(c.name), got, want, c.decision)
		} else {
			samePartitions(t, c.name, got, want, c.decision)
		}
	}
}

// TestForwardStatesLimit checks that the forward pass refuses a depth as
// soon as its states pass classDAGLimit (the (limit+1)-th state), not
// once the depth, up to |O| times the one before, is complete: for every
// limit below the largest depth's states of a random model with 15
// probes, the refusal names limit + 1 states and a depth that has more.
func TestForwardStatesLimit(t *testing.T) {
	m := gridModel(7, 5, 2, 3)
	const T = 4
	fam, err := fsc.New(fsc.KindStationary, 2, 3, 1, T, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := ot.ForObservations(nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := law.NewTree(3, T)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{m: m, fam: fam, T: T, g: g, tree: tree, workers: 2}
	idx := make([]int, fam.Len())
	for i := range idx {
		idx[i] = i
	}
	pcs, err := r.classDAGs(context.Background(), idx)
	if err != nil {
		t.Fatal(err)
	}
	full, err := jointClasses(context.Background(), tree, pcs)
	if err != nil {
		t.Fatal(err)
	}
	defer func(v int) { classDAGLimit = v }(classDAGLimit)
	for _, limit := range []int{1, 2, full.states[2] - 1, full.states[3] - 1, slices.Max(full.states) - 1} {
		classDAGLimit = limit
		_, err := jointClasses(context.Background(), tree, pcs)
		if err == nil {
			t.Fatalf("limit %d: no refusal with %v states", limit, full.states)
		}
		var n, depth int
		if _, e := fmt.Sscanf(err.Error(), "distance: %d forward states at depth %d", &n, &depth); e != nil {
			t.Fatalf("limit %d: %v (%v)", limit, err, e)
		}
		if n != limit+1 || full.states[depth] <= limit {
			t.Fatalf("limit %d (%v states): %v, want the refusal at the %d-th state of a depth that has more", limit, full.states, err, limit+1)
		}
	}
}

// TestClassPathCancel cancels a class-path run as its classes phase
// starts, after its first DAG and after its last, on 1–3 workers: the
// run returns context.Canceled (wrapped or not) and no result, within
// the classes phase (no later phase starts), and runs that are not
// cancelled finish.
func TestClassPathCancel(t *testing.T) {
	b := lookup(t, "gridworld:3")
	const T = 3
	fam, err := fsc.New(fsc.KindStationary, b.Model.NumActions(), b.Model.NumObservations(), 1, T, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		at      int // DAGs done at cancellation (−1: as the phase starts; 0: never)
		workers int
	}{{"at the phase", -1, 1}, {"after the first DAG", 1, 2}, {"after the last DAG", fam.Len(), 3}, {"never", 0, 2}} {
		for _, rep := range []bool{false, true} {
			ctx, cancel := context.WithCancel(context.Background())
			inClasses := false
			var after []string // phases started after the cancellation
			opt := Options{Ground: b.Ground, Workers: c.workers, Eps: []float64{0, 0.5}, Compact: true,
				Phase: func(name string) {
					if ctx.Err() != nil {
						after = append(after, name)
					}
					inClasses = name == "classes"
					if inClasses && c.at < 0 {
						cancel()
					}
				},
				Progress: func(done, total int) {
					if inClasses && c.at > 0 && done == c.at {
						cancel()
					}
				}}
			useClassDAG, useRepLaws = true, rep
			res, err := Compute(ctx, b.Model, fam, T, opt)
			useClassDAG, useRepLaws = false, false
			cancel()
			if c.at == 0 {
				if err != nil || res == nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				continue
			}
			if !errors.Is(err, context.Canceled) || res != nil || len(after) > 0 {
				t.Fatalf("%s (representatives' laws %v): result %v, error %v, phases %v after it; want context.Canceled", c.name, rep, res != nil, err, after)
			}
		}
	}
}

// TestClassPathWorkers checks that the class path's work and result do
// not depend on the workers: on random models with 28 observations
// (large suffix supports) the DAGs (nodes per depth and probe), the
// forward states per depth, the labels and the stand-in counts are the
// same with 1, 2 and 8 workers, under both stand-ins.
func TestClassPathWorkers(t *testing.T) {
	for _, c := range []struct {
		spec string
		T    int
		conv law.Convention
	}{{"random:40:3:28:1", 3, law.UniformStandIn}, {"random:25:2:28:2", 3, law.PointMassStandIn}, {"rocksample:4:4", 3, law.PointMassStandIn}} {
		b := lookup(t, c.spec)
		m := b.Model
		fam, err := fsc.New(fsc.KindStationary, m.NumActions(), m.NumObservations(), 1, c.T, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tree, err := law.NewTree(m.NumObservations(), c.T)
		if err != nil {
			t.Fatal(err)
		}
		g, err := ot.ForObservations(b.Ground, m.NumObservations())
		if err != nil {
			t.Fatal(err)
		}
		reps, members := make([]int, fam.Len()), make([][]int, fam.Len())
		for i := range reps {
			reps[i], members[i] = i, []int{i}
		}
		type work struct {
			nodes  [][]int
			states []int
			labels [][]int
			stand  []int
		}
		var first *work
		for _, workers := range []int{1, 2, 8} {
			r := &runner{m: m, fam: fam, T: c.T, opt: Options{Convention: c.conv}, g: g, tree: tree, workers: workers}
			pcs, err := r.classDAGs(context.Background(), reps)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := jointClasses(context.Background(), tree, pcs)
			if err != nil {
				t.Fatal(err)
			}
			w := &work{states: plan.states, labels: plan.labels, stand: plan.standIns}
			for _, pc := range pcs {
				w.nodes = append(w.nodes, pc.dag.Len)
			}
			if first == nil {
				first = w
				continue
			}
			for k := range w.nodes {
				if !slices.Equal(w.nodes[k], first.nodes[k]) {
					t.Fatalf("%s, %d workers: probe %d's DAG has %v nodes, %v with one worker", c.spec, workers, k, w.nodes[k], first.nodes[k])
				}
			}
			if !slices.Equal(w.states, first.states) || !slices.Equal(w.stand, first.stand) {
				t.Fatalf("%s, %d workers: states %v, stand-ins %v; one worker %v, %v", c.spec, workers, w.states, w.stand, first.states, first.stand)
			}
			for d := range w.labels {
				if !slices.Equal(w.labels[d], first.labels[d]) {
					t.Fatalf("%s, %d workers: depth %d labels differ from one worker's", c.spec, workers, d)
				}
			}
		}
		t.Logf("%s T=%d: %d probes, forward states %v", c.spec, c.T, fam.Len(), first.states)
	}
}

// TestNodeClassesGrid checks nodeClasses' grid of cells (probCell) against
// the scan it replaces: each node joins the first class, in order of
// creation, whose first node has the same zeros and probabilities equal
// to refine's tolerances (equalLaws). The rows are planted on and around
// the cells' edges (k·2⁻²⁰ − probShift·2⁻²⁰), nudged by 0, 5·10⁻¹⁴,
// 2·10⁻¹³ (above LawTol) and 9·10⁻¹³ (within probMargin of the edge), so
// that equal rows straddle edges, under both metrics' Σ tolerances.
func TestNodeClassesGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 9))
	nudges := []float64{0, 5e-14, -5e-14, 2e-13, -2e-13, 9e-13, -9e-13}
	for trial := 0; trial < 200; trial++ {
		nO, n := 2+rng.IntN(3), 50+rng.IntN(200)
		d := &law.DAG{T: 1, NumObs: nO, Len: []int{n, 1}, Prob: [][]float64{make([]float64, n*nO)}, Child: [][]int32{make([]int32, n*nO)}, StandIn: []int32{0, 0}}
		bases := make([][]float64, 4)
		for i := range bases {
			bases[i] = make([]float64, nO)
			for o := range bases[i] {
				if rng.IntN(5) > 0 {
					bases[i][o] = (float64(1+rng.IntN(1<<19)) - probShift) / probGrid
				}
			}
		}
		for v := 0; v < n; v++ {
			base := bases[rng.IntN(len(bases))]
			for o := 0; o < nO; o++ {
				p := base[o]
				if p != 0 {
					p += nudges[rng.IntN(len(nudges))]
				}
				d.Prob[0][v*nO+o] = p
				if p == 0 {
					d.Child[0][v*nO+o] = -1
				}
			}
		}
		sumTol := []float64{2 * partition.ZeroTol, 2 * partition.ZeroTol / 3}[trial%2]
		got := nodeClasses(d, func(int) float64 { return sumTol })[0]
		// The scan: the first nodes of the classes, in order of creation.
		var firsts []int
		for v := 0; v < n; v++ {
			row := d.Prob[0][v*nO : (v+1)*nO]
			want := -1
			for c, f := range firsts {
				frow := d.Prob[0][f*nO : (f+1)*nO]
				same := true
				for o := range row {
					if (row[o] == 0) != (frow[o] == 0) {
						same = false
					}
				}
				if same && equalLaws(row, frow, sumTol) {
					want = c
					break
				}
			}
			if want < 0 {
				want = len(firsts)
				firsts = append(firsts, v)
			}
			if int(got[v]) != want {
				t.Fatalf("trial %d: node %d (row %v) in class %d, the scan says %d", trial, v, row, got[v], want)
			}
		}
		if trial == 0 && len(firsts) < 5 {
			t.Fatalf("trial 0: only %d classes of %d nodes: the nudges split nothing", len(firsts), n)
		}
	}
}
