package sample

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

// TestBinomial compares the empirical law of 200,000 draws with the exact
// binomial pmf, for parameters served by inversion (n·p < 10) and by BTRS,
// and for p > ½ (symmetry). Tolerance: 5 standard errors of a frequency.
func TestBinomial(t *testing.T) {
	tests := []struct {
		n int
		p float64
	}{
		{1, 0.5}, {20, 0.3}, {500, 0.01}, {100, 0.3}, {500, 0.5}, {1000, 0.93}, {37, 0.999},
	}
	const draws = 200000
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range tests {
		freq := make([]float64, tc.n+1)
		for range draws {
			freq[binomial(r, tc.n, tc.p)]++
		}
		for k := range freq {
			lp := lgamma(float64(tc.n+1)) - lgamma(float64(k+1)) - lgamma(float64(tc.n-k+1)) +
				float64(k)*math.Log(tc.p) + float64(tc.n-k)*math.Log1p(-tc.p)
			want := math.Exp(lp)
			got := freq[k] / draws
			se := math.Sqrt(want*(1-want)/draws) + 1e-6
			if !(math.Abs(got-want) <= 5*se) {
				t.Errorf("Bin(%d, %v): P(%d) = %.5f, want %.5f", tc.n, tc.p, k, got, want)
			}
		}
	}
	for _, tc := range []struct {
		n    int
		p    float64
		want int
	}{{0, 0.5, 0}, {7, 0, 0}, {7, 1, 7}} {
		if got := binomial(r, tc.n, tc.p); got != tc.want {
			t.Errorf("Bin(%d, %v) drew %d, want %d", tc.n, tc.p, got, tc.want)
		}
	}
}

// TestResample: a multinomial resample keeps N and has mean N·p_j.
func TestResample(t *testing.T) {
	e := Empirical{NumObs: 4, K: 1, N: 500, Atoms: []int32{0, 1, 3}, Counts: []int32{50, 150, 300}}
	r := rand.New(rand.NewPCG(3, 4))
	dst := make([]int32, 3)
	sum := make([]float64, 3)
	const reps = 20000
	for range reps {
		e.resample(dst, r)
		tot := 0
		for j, c := range dst {
			tot += int(c)
			sum[j] += float64(c)
		}
		if tot != e.N {
			t.Fatalf("resample has %d trajectories, want %d", tot, e.N)
		}
	}
	for j, c := range e.Counts {
		p := float64(c) / float64(e.N)
		se := math.Sqrt(float64(e.N)*p*(1-p)/reps) + 1e-9
		if got := sum[j] / reps; !(math.Abs(got-float64(c)) <= 5*se) {
			t.Errorf("atom %d: mean count %.2f, want %d", j, got, c)
		}
	}
}

func TestQuantile(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	// numpy.quantile / R type 7: 0.25 → 1.75, 0.975 → 3.925.
	for _, tc := range []struct{ q, want float64 }{{0, 1}, {0.25, 1.75}, {0.5, 2.5}, {0.975, 3.925}, {1, 4}} {
		if got := quantile(x, tc.q); !(math.Abs(got-tc.want) <= 1e-12) {
			t.Errorf("quantile(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

// TestBootstrap checks reproducibility across workers, that pruning never
// raises a replicate, and the interval's relation to its replicates.
func TestBootstrap(t *testing.T) {
	b := lookup(t, "netmon:4")
	fam := family(t, b, fsc.KindStationary, 1, 3)
	r, err := Compute(ctx, b.Model, fam, 3, Options{Ground: b.Ground, Seed: 3, Trajectories: 200})
	if err != nil {
		t.Fatal(err)
	}
	one, err := r.Bootstrap(ctx, BootstrapOptions{Resamples: 200, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	two, err := r.Bootstrap(ctx, BootstrapOptions{Resamples: 200, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(one.Replicates, two.Replicates) {
		t.Error("bootstrap replicates depend on the number of workers")
	}
	if one.Problems != r.Problems || one.Estimate != r.MaxDistance() {
		t.Errorf("interval reports %d problems and estimate %v, want %d and %v", one.Problems, one.Estimate, r.Problems, r.MaxDistance())
	}
	if !(one.Low <= one.High && one.Low >= one.Replicates[0] && one.High <= one.Replicates[len(one.Replicates)-1]) {
		t.Errorf("interval %v outside its replicates [%v, %v]", one, one.Replicates[0], one.Replicates[len(one.Replicates)-1])
	}
	// Oracle: the replicates recomputed naively, every problem solved.
	seed := mix(r.Seed ^ 0x5bd1e9955bd1e995)
	var naive []float64
	var tr transport
	tr.g = b.Ground
	pcg := rand.NewPCG(0, 0)
	rng := rand.New(pcg)
	for rep := range 200 {
		counts := make([][]int32, len(r.laws))
		for j, e := range r.laws {
			counts[j] = make([]int32, len(e.Atoms))
			pcg.Seed(seed, r.s.jobs[j].stream^mix(uint64(rep)+1))
			e.resample(counts[j], rng)
		}
		m := 0.0
		for _, p := range r.s.pairs {
			v, err := tr.dist(r.laws[p.a], r.laws[p.b], counts[p.a], counts[p.b])
			if err != nil {
				t.Fatal(err)
			}
			m = math.Max(m, v)
		}
		naive = append(naive, m)
	}
	slices.Sort(naive)
	for k := range naive {
		if !(math.Abs(naive[k]-one.Replicates[k]) <= 1e-12) {
			t.Fatalf("replicate %d (sorted): %v, naive recomputation %v", k, one.Replicates[k], naive[k])
		}
	}
	pruned, err := r.Bootstrap(ctx, BootstrapOptions{Resamples: 200, Prune: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if !(pruned.Problems < one.Problems) {
		t.Errorf("pruning kept %d of %d problems", pruned.Problems, one.Problems)
	}
	if !(pruned.High <= one.High && pruned.Low <= one.Low) {
		t.Errorf("pruned interval %v above the full one %v", pruned, one)
	}
	other, err := r.Bootstrap(ctx, BootstrapOptions{Resamples: 200, Seed: 77})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(other.Replicates, one.Replicates) {
		t.Error("bootstrap seed has no effect")
	}
}

// TestStudies runs the three studies on GridWorld 3×3 (m = 1, T = 2), whose
// exact distances are known: the 0.3055 pair sits just above ε = 0.3, so
// sampling moves it across the threshold in some runs, and nowhere else.
func TestStudies(t *testing.T) {
	b := lookup(t, "gridworld:3")
	fam := family(t, b, fsc.KindStationary, 1, 2)
	opt := Options{Ground: b.Ground}
	s, err := New(ctx, b.Model, fam, 2, opt)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := Exact(ctx, b.Model, fam, 2, opt)
	if err != nil {
		t.Fatal(err)
	}
	eps := []float64{0, 0.3, 0.5}
	pts, err := Convergence(ctx, s, ex, []int{50, 20000}, 5, eps, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !(pts[1].MeanAbsError < pts[0].MeanAbsError) {
		t.Errorf("error does not fall with N: %v then %v", pts[0].MeanAbsError, pts[1].MeanAbsError)
	}
	for e := range eps {
		if e != 1 && !(pts[1].ARI[0][e] == 1) {
			t.Errorf("N = 20000, ε = %v: ARI %v, want 1", eps[e], pts[1].ARI[0][e])
		}
	}
	if !(pts[0].MinARI <= pts[0].MeanARI && pts[0].MeanARI <= 1) {
		t.Errorf("min ARI %v, mean %v", pts[0].MinARI, pts[0].MeanARI)
	}
	rows, err := Stability(ctx, s, 500, 4, 0, []float64{0, 0.25, 0.45}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range []int{6, 4, 3} { // paper tab:sampling-variance (GridWorld 10×10), exact for 3×3
		if rows[k].Min != want || rows[k].Max != want || rows[k].Std != 0 {
			t.Errorf("ε = %v: counts %v, want all %d", rows[k].Eps, rows[k].Counts, want)
		}
	}
	truth := 0.0
	for _, m := range ex {
		truth = math.Max(truth, m.Max())
	}
	cov, err := Coverage(ctx, s, truth, 500, 10, BootstrapOptions{Resamples: 200}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cov.Covered+cov.Below+cov.Above != 10 || !(cov.Rate >= 0.5) || !(cov.MeanWidth > 0 && cov.MeanWidth < 0.2) {
		t.Errorf("coverage %+v", cov)
	}
}
