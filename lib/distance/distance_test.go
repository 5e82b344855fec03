package distance

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
)

func lookup(t testing.TB, name string) bench.Benchmark {
	t.Helper()
	b, err := bench.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func compute(t testing.TB, name string, kind fsc.Kind, m, T int, opt Options) *Result {
	t.Helper()
	b := lookup(t, name)
	fam, err := fsc.New(kind, b.Model.NumActions(), b.Model.NumObservations(), m, T, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if opt.Ground == nil {
		opt.Ground = b.Ground
	}
	r, err := Compute(context.Background(), b.Model, fam, T, opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestClassCounts(t *testing.T) {
	tests := []struct {
		src    string
		model  string
		kind   fsc.Kind
		m, T   int
		eps    []float64
		counts []int
	}{
		// docs/conventions.md#checked-numbers: listen-only Tiger, 3 classes at ε = 0.5; depth T
		// is one class, so ε = 0 gives 1 + 2 + 1 = 4 (the paper's worked
		// example prints 7: it lists the four depth-2 histories apart).
		{"docs/conventions.md#checked-numbers, app:examples", "tiger-listen", fsc.KindStationary, 1, 2, []float64{0, 0.5}, []int{4, 3}},
		// docs/conventions.md#checked-numbers: 1 + 2 + 3 + 4 + 1 = 11.
		{"docs/conventions.md#checked-numbers", "tiger", fsc.KindStationary, 1, 4, []float64{0}, []int{11}},
		// tab:probe-family-comparison |Q_op|.
		{"tab:probe-family-comparison", "tiger", fsc.KindStationary, 1, 2, []float64{0}, []int{4}},
		{"tab:probe-family-comparison", "tiger", fsc.KindStationary, 1, 6, []float64{0}, []int{22}},
		{"tab:probe-family-comparison", "tiger", fsc.KindStationary, 1, 8, []float64{0}, []int{37}},
		{"tab:probe-family-comparison", "gridworld:3", fsc.KindStationary, 1, 3, []float64{0}, []int{22}},
		// tab:capacity-sweep-gridworld.
		{"tab:capacity-sweep-gridworld m=1", "gridworld:3", fsc.KindStationary, 1, 2, []float64{0, 0.2, 0.35, 0.5}, []int{6, 5, 3, 3}},
		{"tab:capacity-sweep-gridworld m=2", "gridworld:3", fsc.KindStationary, 2, 2, []float64{0, 0.2, 0.35, 0.5}, []int{6, 6, 6, 3}},
		// larger-scale table (app. "Larger-Scale Results"), GridWorld 5x5 rows.
		{"larger-scale Grid 5x5 T=2", "gridworld:5", fsc.KindStationary, 1, 2, []float64{0, 0.1, 0.2, 0.3, 0.5, 0.6}, []int{6, 6, 5, 4, 3, 3}},
		{"larger-scale Grid 5x5 T=3", "gridworld:5", fsc.KindStationary, 1, 3, []float64{0, 0.1, 0.2, 0.3, 0.5, 0.6}, []int{22, 16, 12, 9, 6, 5}},
		// tab:partition-agreement (op exact classes) and tab:principal-horizon.
		{"tab:partition-agreement", "tiger", fsc.KindStationary, 2, 4, []float64{0}, []int{16}},
		{"tab:principal-horizon T=4", "tiger", fsc.KindStationary, 2, 4, []float64{0.5}, []int{10}},
		{"tab:principal-horizon T=5", "tiger", fsc.KindStationary, 2, 5, []float64{0.5}, []int{16}},
		{"tab:principal-horizon T=6", "tiger", fsc.KindStationary, 2, 6, []float64{0.5}, []int{30}},
		{"tab:principal-horizon T=7", "tiger", fsc.KindStationary, 2, 7, []float64{0.5}, []int{50}},
		// tab:m2-scaling RockSample m=1 (sampling in the paper; exact here).
		{"tab:m2-scaling RockSample m=1", "rocksample:4:4", fsc.KindStationary, 1, 2, []float64{0, 0.1, 0.3, 0.5}, []int{5, 5, 4, 3}},
	}
	for _, tc := range tests {
		r := compute(t, tc.model, tc.kind, tc.m, tc.T, Options{})
		for k, eps := range tc.eps {
			if got := r.Partition(eps).Total(); got != tc.counts[k] {
				t.Errorf("%s: %s m=%d T=%d ε=%v: %d classes, want %d", tc.src, tc.model, tc.m, tc.T, eps, got, tc.counts[k])
			}
		}
	}
}

func TestDistances(t *testing.T) {
	// app:examples: W1(P(·|L), P(·|R)) = |0.745 − 0.255| = 0.49.
	r := compute(t, "tiger-listen", fsc.KindStationary, 1, 2, Options{})
	if got := r.D[1].At(0, 1); !(math.Abs(got-0.49) <= 1e-12) {
		t.Errorf("tiger-listen d(L,R) = %v, want 0.49", got)
	}
	// thm:data-processing (paper §7.5): max D = 0.343 on GridWorld 3x3 and
	// 0.167 after the North/South coarsening (m = 1, T = 2).
	for _, tc := range []struct {
		model string
		want  float64
	}{{"gridworld:3", 0.343}, {"gridworld-coarse:3", 0.167}, {"gridworld:5", 0.354}, {"gridworld-coarse:5", 0.175}} {
		r := compute(t, tc.model, fsc.KindStationary, 1, 2, Options{})
		if got := r.MaxDistance(); !(math.Abs(got-tc.want) <= 0.0005) {
			t.Errorf("%s max distance = %.4f, want %.3f (printed)", tc.model, got, tc.want)
		}
	}
}

func TestWitnessSeparation(t *testing.T) {
	// prop:stationary-counterexample: deterministic 1-node probes give 0 between
	// L and R; the ½/½ stochastic probe gives ¼.
	b := lookup(t, "witness")
	L, R := b.Model.ObsIndex("L"), b.Model.ObsIndex("R")
	det, err := Compute(context.Background(), b.Model, must(fsc.NewStationary(2, 5, 1, fsc.Options{})), 3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := det.D[1].At(L, R); got != 0 {
		t.Errorf("deterministic d(L,R) = %v, want 0", got)
	}
	mixed := &fsc.List{Ctrls: []*fsc.FSC{fsc.Mixed(5, []float64{0.5, 0.5})}, K: fsc.KindStochasticStationary, Mem: 1}
	st, err := Compute(context.Background(), b.Model, mixed, 3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := st.D[1].At(L, R); !(math.Abs(got-0.25) <= 1e-12) {
		t.Errorf("stochastic d(L,R) = %v, want 0.25", got)
	}
}

// TestPseudometric checks prop:pseudometric on random families: symmetry is
// built in; the triangle inequality d(h,h”) ≤ d(h,h') + d(h',h”) must hold
// for every triple, and pruning/dedup/workers must not change any entry.
func TestPseudometric(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, name := range []string{"tiger", "gridworld:3", "witness", "random:6:3:3:11"} {
		b := lookup(t, name)
		T := 3
		fam, _ := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), 1, fsc.Options{})
		full, err := Compute(context.Background(), b.Model, fam, T, Options{Ground: b.Ground, NoDedup: true, Tensor: true, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		fast, err := Compute(context.Background(), b.Model, fam, T, Options{Ground: b.Ground})
		if err != nil {
			t.Fatal(err)
		}
		for d := 0; d <= T; d++ {
			m := full.D[d]
			for k := range m.Data {
				if !(math.Abs(m.Data[k]-fast.D[d].Data[k]) <= 1e-12) {
					t.Fatalf("%s depth %d: pruned/parallel result %v differs from full %v", name, d, fast.D[d].Data[k], m.Data[k])
				}
			}
			for trial := 0; trial < 200 && m.N >= 3; trial++ {
				i, j, k := rng.IntN(m.N), rng.IntN(m.N), rng.IntN(m.N)
				if m.At(i, k) > m.At(i, j)+m.At(j, k)+1e-12 {
					t.Fatalf("%s depth %d: triangle inequality fails for %d,%d,%d", name, d, i, j, k)
				}
			}
		}
	}
}

func TestTVAndGround(t *testing.T) {
	// Paper §7.5 "W1 vs TV": GridWorld 5x5, m = 1, T = 2: at ε = 0 both give
	// 6 classes; at ε = 0.3 W1 gives 4 and TV 6.
	w := compute(t, "gridworld:5", fsc.KindStationary, 1, 2, Options{})
	tv := compute(t, "gridworld:5", fsc.KindStationary, 1, 2, Options{Metric: TV})
	for _, tc := range []struct {
		r    *Result
		eps  float64
		want int
	}{{w, 0, 6}, {tv, 0, 6}, {w, 0.3, 4}, {tv, 0.3, 6}} {
		if got := tc.r.Partition(tc.eps).Total(); got != tc.want {
			t.Errorf("%v ε=%v: %d classes, want %d", tc.r.Metric, tc.eps, got, tc.want)
		}
	}
	b := lookup(t, "tiger")
	fam, _ := fsc.NewStationary(3, 2, 1, fsc.Options{})
	if _, err := Compute(context.Background(), b.Model, fam, 2, Options{Ground: ot.Discrete(3)}); err == nil {
		t.Error("ground metric of the wrong size accepted")
	}
	if _, err := Compute(context.Background(), b.Model, fam, 2, Options{Ground: ot.Ground{{0, -1}, {-1, 0}}}); err == nil {
		t.Error("negative ground metric accepted")
	}
	other, _ := fsc.NewStationary(5, 4, 1, fsc.Options{})
	if _, err := Compute(context.Background(), b.Model, other, 2, Options{}); err == nil {
		t.Error("family for another model accepted")
	}
}

func TestCancel(t *testing.T) {
	b := lookup(t, "gridworld:3")
	fam, _ := fsc.NewStationary(5, 4, 2, fsc.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := Compute(ctx, b.Model, fam, 2, Options{Ground: b.Ground, Progress: func(done, total int) {
		calls++
		if done == 3 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestStandInsCounted(t *testing.T) {
	// RockSample: moves emit "none" with certainty, so histories with
	// good/bad observations after a move are impossible (docs/conventions.md#stand-ins: the
	// convention matters for RockSample, never for Tiger or GridWorld).
	r := compute(t, "rocksample:4:4", fsc.KindStationary, 1, 2, Options{})
	if r.StandIns == 0 {
		t.Error("RockSample used no stand-in")
	}
	for _, name := range []string{"tiger", "gridworld:3"} {
		if r := compute(t, name, fsc.KindStationary, 2, 2, Options{}); r.StandIns != 0 {
			t.Errorf("%s used %d stand-ins, want 0", name, r.StandIns)
		}
	}
	pm := compute(t, "rocksample:4:4", fsc.KindStationary, 1, 2, Options{Convention: law.PointMassStandIn})
	if pm.StandIns != r.StandIns {
		t.Errorf("stand-in counts differ between conventions: %d vs %d", pm.StandIns, r.StandIns)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestModels checks prop:pseudometric on a model triple: D(M,M) = 0,
// symmetry and the triangle inequality, on Tiger with three accuracies.
func TestModels(t *testing.T) {
	var models []*bench.Benchmark
	for _, acc := range []float64{0.85, 0.8, 0.7} {
		b, err := bench.Tiger(acc, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, &b)
	}
	fam, _ := fsc.NewStationary(3, 2, 2, fsc.Options{})
	d := func(i, j int) float64 {
		r, err := Models(context.Background(), models[i].Model, models[j].Model, fam, 3, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r.Distance
	}
	if got := d(0, 0); got != 0 {
		t.Fatalf("D(M, M) = %v, want 0", got)
	}
	d01, d10, d12, d02 := d(0, 1), d(1, 0), d(1, 2), d(0, 2)
	if !(math.Abs(d01-d10) <= 1e-12) {
		t.Fatalf("D not symmetric: %v vs %v", d01, d10)
	}
	if !(d02 <= d01+d12+1e-12) || !(d01 > 0) {
		t.Fatalf("triangle inequality: D(0,2) = %v, D(0,1) + D(1,2) = %v", d02, d01+d12)
	}
	g, _ := bench.Lookup("gridworld:3")
	if _, err := Models(context.Background(), models[0].Model, g.Model, fam, 2, Options{}); err == nil {
		t.Fatal("models with different (A, O) accepted")
	}
}

// TestExactMatchesPairwise checks docs/algorithms.md#exact-classes: grouping equal laws
// probe by probe gives the ε = 0 partition of the pairwise distances.
func TestExactMatchesPairwise(t *testing.T) {
	for _, tc := range []struct {
		model string
		kind  fsc.Kind
		m, T  int
	}{
		{"tiger", fsc.KindStationary, 2, 6}, {"tiger", fsc.KindClock, 1, 5}, {"gridworld:3", fsc.KindStationary, 2, 2},
		{"gridworld:5", fsc.KindStationary, 1, 3}, {"rocksample:4:4", fsc.KindStationary, 1, 2}, {"witness", fsc.KindStationary, 1, 3},
		{"random:8:3:3:5", fsc.KindStationary, 1, 4},
	} {
		b := lookup(t, tc.model)
		fam, _ := fsc.New(tc.kind, b.Model.NumActions(), b.Model.NumObservations(), tc.m, tc.T, fsc.Options{})
		full, err := Compute(context.Background(), b.Model, fam, tc.T, Options{Ground: b.Ground})
		if err != nil {
			t.Fatal(err)
		}
		ex, err := Exact(context.Background(), b.Model, fam, tc.T, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want := full.Partition(0); !ex.Partition.Equal(want) {
			t.Errorf("%s %s m=%d T=%d: Exact gives %d classes, pairwise %d", tc.model, tc.kind, tc.m, tc.T, ex.Partition.Total(), want.Total())
		}
		if ex.StandIns != full.StandIns {
			t.Errorf("%s: stand-ins %d vs %d", tc.model, ex.StandIns, full.StandIns)
		}
	}
}
