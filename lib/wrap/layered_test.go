package wrap_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/wrap"
)

var ctx = context.Background()

func TestSegmentsAndHistories(t *testing.T) {
	tests := []struct {
		T, tau      int
		segs        []int
		nO          int
		direct, lay int // paper, tab:hierarchical-scaling (|O| = 2)
	}{
		{4, 4, []int{4}, 2, 31, 31},
		{6, 4, []int{4, 2}, 2, 127, 38},
		{8, 4, []int{4, 4}, 2, 511, 62},
		{10, 5, []int{5, 5}, 2, 2047, 126},
		{20, 4, []int{4, 4, 4, 4, 4}, 3, 5230176601, 5 * 121}, // Σ 3^t, t ≤ 20 = (3^21 − 1)/2
		{3, 5, []int{3}, 4, 85, 85},
	}
	for _, tc := range tests {
		segs, err := wrap.Segments(tc.T, tc.tau)
		if err != nil {
			t.Fatal(err)
		}
		if len(segs) != len(tc.segs) {
			t.Fatalf("Segments(%d, %d) = %v, want %v", tc.T, tc.tau, segs, tc.segs)
		}
		for i := range segs {
			if segs[i] != tc.segs[i] {
				t.Fatalf("Segments(%d, %d) = %v, want %v", tc.T, tc.tau, segs, tc.segs)
			}
		}
		if got := wrap.HistoriesDirect(tc.nO, tc.T); got != tc.direct {
			t.Errorf("HistoriesDirect(%d, %d) = %d, want %d", tc.nO, tc.T, got, tc.direct)
		}
		if got, _ := wrap.HistoriesLayered(tc.nO, tc.T, tc.tau); got != tc.lay {
			t.Errorf("HistoriesLayered(%d, %d, %d) = %d, want %d", tc.nO, tc.T, tc.tau, got, tc.lay)
		}
	}
	for _, bad := range [][2]int{{0, 1}, {4, 0}, {-1, 2}} {
		if _, err := wrap.Segments(bad[0], bad[1]); err == nil {
			t.Errorf("Segments(%d, %d) accepted", bad[0], bad[1])
		}
	}
	if got := wrap.HistoriesDirect(10, 40); got != math.MaxInt {
		t.Errorf("HistoriesDirect(10, 40) = %d, want saturation at MaxInt", got)
	}
}

func TestComplexity(t *testing.T) {
	// hand computation, prop:layered-complexity with |S| = 2, |A| = 3,
	// |O| = 2, m = 1: monolithic T = 4: 31 · 3 · (4 · 4 · 2) = 2,976;
	// layered τ = 2: 2 · 7 · 3 · (2 · 4 · 2) = 672.
	mono, lay, err := wrap.Complexity(2, 3, 2, 1, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	if mono != 2976 || lay != 672 {
		t.Errorf("Complexity = %v, %v; want 2976, 672", mono, lay)
	}
	// m = 2: |A|^m m^{m|O|} = 9 · 16 = 144; |O| = 1 degenerates to T + 1 histories.
	mono, _, _ = wrap.Complexity(1, 3, 2, 2, 1, 1)
	if mono != 3*144*1*1*2 {
		t.Errorf("m = 2: %v, want %v", mono, 3*144*2)
	}
	if mono, _, _ = wrap.Complexity(1, 1, 1, 1, 3, 1); mono != 4*3 {
		t.Errorf("|O| = 1: %v, want 12", mono)
	}
	if _, _, err := wrap.Complexity(0, 1, 1, 1, 1, 1); err == nil {
		t.Error("|S| = 0 accepted")
	}
}

func TestCompose(t *testing.T) {
	// hand computation: Γ₁ = 0.1, L = (2, 0.5), ε = (0.3, 0.2):
	// Γ₂ = 0.5, Γ₃ = 0.45; closed form 1·0.1 + 0.5·0.3 + 0.2 = 0.45.
	g, err := wrap.Compose(0.1, []float64{2, 0.5}, []float64{0.3, 0.2})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.1, 0.5, 0.45}
	for i := range want {
		if !(math.Abs(g[i]-want[i]) <= 1e-15) {
			t.Errorf("Γ = %v, want %v", g, want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		n := 1 + rng.IntN(6)
		lip, eps := make([]float64, n), make([]float64, n)
		for i := range lip {
			lip[i], eps[i] = 2*rng.Float64(), rng.Float64()
		}
		g1 := rng.Float64()
		rec, _ := wrap.Compose(g1, lip, eps)
		cf, _ := wrap.ComposedBound(g1, lip, eps)
		if !(math.Abs(rec[n]-cf) <= 1e-12*(1+cf)) {
			t.Fatalf("recursion %v, closed form %v", rec[n], cf)
		}
	}
	for _, bad := range []struct {
		g1       float64
		lip, eps []float64
	}{{-1, nil, nil}, {0, []float64{1}, nil}, {0, []float64{math.NaN()}, []float64{0}}, {0, []float64{1}, []float64{-0.1}}} {
		if _, err := wrap.Compose(bad.g1, bad.lip, bad.eps); err == nil {
			t.Errorf("Compose(%v, %v, %v) accepted", bad.g1, bad.lip, bad.eps)
		}
	}
}

func stationary(t testing.TB, m *pomdp.Model, mem int) fsc.Family {
	return must(fsc.NewStationary(m.NumActions(), m.NumObservations(), mem, fsc.Options{}))
}

// Tiger starts every segment from (½, ½) (the uniform average of the
// terminal beliefs, by symmetry), so each segment is the direct problem at
// horizon τ: its partition and residual must be the direct ones, computed
// independently with distance.Compute, quotient.New and wrap.Distance.
func TestLayerTiger(t *testing.T) {
	b := lookup(t, "tiger")
	fam := stationary(t, b.Model, 1)
	const eps = 0.5
	l := must(wrap.Layer(ctx, b.Model, fam, 8, 4, eps, wrap.LayerOptions{Ground: b.Ground}))
	if len(l.Segments) != 2 || l.Histories != 62 {
		t.Fatalf("%d segments, %d histories; want 2, 62 (paper, tab:hierarchical-scaling)", len(l.Segments), l.Histories)
	}
	r := must(distance.Compute(ctx, b.Model, fam, 4, distance.Options{Ground: b.Ground}))
	p := r.Partition(eps)
	q := must(quotient.New(b.Model, 4, p))
	d4 := must(wrap.Distance(ctx, wrap.Fixed(b.Model), wrap.Quotient(q), fam, 4, b.Ground))
	for k, s := range l.Segments {
		if !s.Partition.Equal(p) {
			t.Errorf("segment %d partition %v, direct T = 4: %v", k, s.Partition, p)
		}
		if !(math.Abs(s.Eps-d4.Distance) <= 1e-12) {
			t.Errorf("segment %d ε = %v, D_4(M, Q) = %v", k, s.Eps, d4.Distance)
		}
		if s.Seeds != 1 || s.Start != 4*k || s.Histories != 31 {
			t.Errorf("segment %d: %d seeds, start %d, %d histories", k, s.Seeds, s.Start, s.Histories)
		}
	}
	if !(math.Abs(l.Bound-2*d4.Distance) <= 1e-12) {
		t.Errorf("Bound = %v, want 2·%v", l.Bound, d4.Distance)
	}
	for i := 0; i < fam.Len(); i++ {
		mk, _ := must2(l.SegmentModels(1, i))
		if !(math.Abs(mk.B0[0]-0.5) <= 1e-12) {
			t.Errorf("probe %d: seed %v, want (½, ½)", i, mk.B0)
		}
	}
	// Layered partition: 1 + 8 + 8 classes; at T = τ it is the direct one.
	if l.Classes() != 17 {
		t.Errorf("Classes = %d, want 17", l.Classes())
	}
	lp := must(l.Partition(0))
	if lp.Total() != l.Classes() || lp.Depths() != 9 {
		t.Errorf("Partition: %d classes over %d depths", lp.Total(), lp.Depths())
	}
	one := must(wrap.Layer(ctx, b.Model, fam, 4, 4, eps, wrap.LayerOptions{Ground: b.Ground}))
	if op := must(one.Partition(0)); !op.Equal(p) {
		t.Errorf("T = τ: layered partition %v, direct %v", op, p)
	}
}

func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}

// The full-horizon distortion: Γ = D_T(R, Q̃) equals Σ_k ε_k here (W1 is
// additive over independent segments under the additive cost and the same
// probe attains every ε_k), D_T(M, Q̃) ≤ Cut + Γ, and Cut = 0 with one segment.
func TestDistortion(t *testing.T) {
	b := lookup(t, "tiger")
	fam := stationary(t, b.Model, 1)
	for _, c := range [][2]int{{4, 4}, {4, 2}, {6, 4}, {8, 4}} {
		l := must(wrap.Layer(ctx, b.Model, fam, c[0], c[1], 0.5, wrap.LayerOptions{Ground: b.Ground}))
		d := must(l.Distortion(ctx, 0))
		if !(math.Abs(d.Gamma-d.Bound) <= 1e-9) {
			t.Errorf("T = %d, τ = %d: Γ = %v, Σ ε_k = %v", c[0], c[1], d.Gamma, d.Bound)
		}
		if !(d.Total <= d.Cut+d.Gamma+1e-9) {
			t.Errorf("T = %d, τ = %d: D(M, Q̃) = %v > Cut %v + Γ %v", c[0], c[1], d.Total, d.Cut, d.Gamma)
		}
		if c[0] == c[1] && !(d.Cut <= 1e-12) {
			t.Errorf("one segment: Cut = %v, want 0", d.Cut)
		}
		if c[0] > c[1] && !(d.Cut > 0.1) {
			t.Errorf("T = %d, τ = %d: Cut = %v; listening correlates the segments", c[0], c[1], d.Cut)
		}
	}
	l := must(wrap.Layer(ctx, b.Model, fam, 16, 4, 0.5, wrap.LayerOptions{Ground: b.Ground}))
	if _, err := l.Distortion(ctx, 0); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("2^16 sequences over the default limit: %v", err)
	}
}

// GridWorld: beliefs depend on the actions, so probes carry different
// seeds. Each segment's distances must be the element-wise maximum of the
// single-probe distances on each probe's seeded model; the weighted seed of
// a constant-action probe is b0 pushed τ steps through T_a (the state
// marginal ignores observations).
func TestLayerSeeds(t *testing.T) {
	b := lookup(t, "gridworld:3")
	m := b.Model
	fam := stationary(t, m, 1)
	const T, tau = 4, 2
	for _, weighted := range []bool{false, true} {
		l := must(wrap.Layer(ctx, m, fam, T, tau, 0.3, wrap.LayerOptions{Ground: b.Ground, Weighted: weighted}))
		s := l.Segments[1]
		if s.Seeds < 2 {
			t.Errorf("weighted %v: %d distinct seeds, want several", weighted, s.Seeds)
		}
		want := make([]partition.Matrix, tau+1)
		for i := 0; i < fam.Len(); i++ {
			mk, _ := must2(l.SegmentModels(1, i))
			one := &fsc.List{Ctrls: []*fsc.FSC{fam.At(i)}, K: fam.Kind(), Mem: 1}
			r := must(distance.Compute(ctx, mk, one, tau, distance.Options{Ground: b.Ground}))
			for d := range want {
				if i == 0 {
					want[d] = partition.NewMatrix(r.D[d].N)
				}
				want[d].MaxInto(r.D[d])
			}
			if weighted {
				pred := append([]float64(nil), m.B0...)
				next := make([]float64, len(pred))
				for range tau {
					m.Predict(next, pred, fam.At(i).Action(0, 0))
					pred, next = next, pred
				}
				for x := range pred {
					if !(math.Abs(pred[x]-mk.B0[x]) <= 1e-12) {
						t.Fatalf("probe %d: weighted seed %v, b0·T_a^τ = %v", i, mk.B0, pred)
					}
				}
			}
		}
		for d := range want {
			for i := 0; i < want[d].N; i++ {
				for j := i + 1; j < want[d].N; j++ {
					if !(math.Abs(want[d].At(i, j)-s.D[d].At(i, j)) <= 1e-12) {
						t.Fatalf("weighted %v, depth %d: segment distances differ from the per-probe maximum", weighted, d)
					}
				}
			}
		}
	}
}

// The uniform seed is the canonical class belief: the uniform average of
// the depth-τ beliefs (Prop. C.1), computed here from law.Engine.Beliefs.
func TestLayerUniformSeed(t *testing.T) {
	b := lookup(t, "gridworld:3")
	m := b.Model
	fam := stationary(t, m, 1)
	l := must(wrap.Layer(ctx, m, fam, 3, 2, 0.3, wrap.LayerOptions{Ground: b.Ground}))
	e := must(law.NewEngine(m, 2, law.UniformStandIn))
	tree := e.Tree()
	for i := 0; i < fam.Len(); i++ {
		beliefs, _ := must2(e.Beliefs(fam.At(i)))
		avg := make([]float64, m.NumStates())
		for h := 0; h < tree.Count(2); h++ {
			for s, v := range beliefs[tree.Offset(2)+h] {
				avg[s] += v / float64(tree.Count(2))
			}
		}
		mk, _ := must2(l.SegmentModels(1, i))
		for s := range avg {
			if !(math.Abs(avg[s]-mk.B0[s]) <= 1e-12) {
				t.Fatalf("probe %d: seed %v, uniform average %v", i, mk.B0, avg)
			}
		}
	}
}

func TestLayerErrors(t *testing.T) {
	b := lookup(t, "tiger")
	clk := must(fsc.NewClock(3, 2, 1, 4, fsc.Options{}))
	if _, err := wrap.Layer(ctx, b.Model, clk, 4, 2, 0.5, wrap.LayerOptions{}); err == nil || !strings.Contains(err.Error(), "clock-aware") {
		t.Errorf("clock-aware family: %v", err)
	}
	fam := stationary(t, b.Model, 1)
	if _, err := wrap.Layer(ctx, b.Model, fam, 4, 2, math.NaN(), wrap.LayerOptions{}); err == nil {
		t.Error("ε = NaN accepted")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := wrap.Layer(cctx, b.Model, fam, 4, 2, 0.5, wrap.LayerOptions{}); err == nil {
		t.Error("a cancelled context was ignored")
	}
	var calls []int
	_, err := wrap.Layer(ctx, b.Model, fam, 6, 2, 0.5, wrap.LayerOptions{Progress: func(done, total int) { calls = append(calls, done*10+total) }})
	if err != nil || len(calls) != 3 || calls[2] != 33 {
		t.Errorf("progress calls %v (err %v), want 13 23 33", calls, err)
	}
}

// Distance between fixed models agrees with distance.Models.
func TestDistanceMatchesModels(t *testing.T) {
	a := must(bench.Tiger(0.85, 0.5)).Model
	c := must(bench.Tiger(0.7, 0.5)).Model
	fam := stationary(t, a, 2)
	got := must(wrap.Distance(ctx, wrap.Fixed(a), wrap.Fixed(c), fam, 3, nil))
	want := must(distance.Models(ctx, a, c, fam, 3, distance.Options{}))
	if !(math.Abs(got.Distance-want.Distance) <= 1e-12) {
		t.Errorf("Distance = %v, distance.Models = %v", got.Distance, want.Distance)
	}
}

// PairwiseContraction finds no violation for the GridWorld merge, and does
// when the constant is understated (so the check can fail).
func TestPairwiseContraction(t *testing.T) {
	b := lookup(t, "gridworld:3")
	w := gridMerge(t)
	const T = 3
	r := must(distance.Compute(ctx, b.Model, stationary(t, b.Model, 1), T, distance.Options{Ground: b.Ground}))
	cm := must(w.Apply(b.Model))
	rc := must(distance.Compute(ctx, cm, stationary(t, cm, 1), T, distance.Options{Ground: w.Ground}))
	v, pairs, err := wrap.PairwiseContraction(r, rc, w, 1)
	if err != nil || v != 0 || pairs != 1+6 {
		t.Errorf("L = 1: %d violations of %d pairs (err %v); want 0 of 7", v, pairs, err)
	}
	if v, _, _ := wrap.PairwiseContraction(r, rc, w, 0.25); v == 0 {
		t.Error("L = 0.25: no violation; the check cannot fail")
	}
	if _, _, err := wrap.PairwiseContraction(r, rc, gridNoise(t, 0.1), 1); err == nil {
		t.Error("a stochastic channel accepted")
	}
}
