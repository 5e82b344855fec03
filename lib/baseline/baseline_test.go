package baseline_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/internal/benchtest"
	"github.com/pomdpq/pomdpq/lib/baseline"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/value"
)

// lookup is benchtest.Lookup.
var lookup = benchtest.Lookup

func tree(t testing.TB, nO, T int) law.Tree {
	t.Helper()
	tr, err := law.NewTree(nO, T)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestTruncation(t *testing.T) {
	tests := []struct {
		nO, T, d int
		counts   []int
		src      string
	}{
		{2, 2, 1, []int{1, 2, 2}, "tab:baseline-full: Tiger truncation 5 classes"},
		{4, 2, 1, []int{1, 4, 4}, "tab:baseline-full: GridWorld truncation 9 classes"},
		{2, 3, 0, []int{1, 1, 1, 1}, "d = 0: one class per depth"},
		{3, 3, 2, []int{1, 3, 9, 9}, "hand: last two of three observations"},
		{2, 2, 5, []int{1, 2, 4}, "d ≥ T: every history apart"},
	}
	for _, tc := range tests {
		tr := tree(t, tc.nO, tc.T)
		p := baseline.Truncation(tr, tc.d)
		for d, c := range p.Counts() {
			if c != tc.counts[d] {
				t.Errorf("|O|=%d T=%d d=%d: counts %v, want %v (%s)", tc.nO, tc.T, tc.d, p.Counts(), tc.counts, tc.src)
				break
			}
		}
		// Histories share a class iff their last min(t, d) observations agree.
		for depth := 0; depth <= tc.T; depth++ {
			k := min(depth, tc.d)
			for i := 0; i < tr.Count(depth); i++ {
				for j := 0; j < tr.Count(depth); j++ {
					hi, hj := tr.History(depth, i), tr.History(depth, j)
					same := true
					for x := depth - k; x < depth; x++ {
						same = same && hi[x] == hj[x]
					}
					if same != (p.Labels[depth][i] == p.Labels[depth][j]) {
						t.Fatalf("d=%d: histories %v and %v: same suffix %v, same class %v", tc.d, hi, hj, same, !same)
					}
				}
			}
		}
	}
}

func TestRandom(t *testing.T) {
	tr := tree(t, 4, 3)
	counts := []int{1, 2, 3, 1}
	a := baseline.Random(tr, counts, rand.NewPCG(42, 0))
	b := baseline.Random(tr, counts, rand.NewPCG(42, 0))
	if !a.Equal(b) {
		t.Error("one seed, two partitions")
	}
	for d, c := range a.Counts() {
		if c < 1 || c > counts[d] {
			t.Errorf("depth %d: %d classes, want 1 … %d", d, c, counts[d])
		}
	}
	// Over many draws every count from 1 to the maximum appears and the
	// labels are uniform: the mean number of non-empty classes of 4
	// histories over 2 labels is 2 − 2·(½)^4 = 1.875 (hand).
	src := rand.NewPCG(1, 0)
	sum := 0.0
	const n = 4000
	for range n {
		sum += float64(baseline.Random(tr, counts, src).Classes(1))
	}
	if got := sum / n; !(math.Abs(got-1.875) <= 0.02) {
		t.Errorf("mean classes at depth 1: %v, want 1.875", got)
	}
	p := partition.FromLabels([][]int{{0}, {0, 1, 0, 1}, make([]int, 16), make([]int, 64)})
	if r := baseline.RandomLike(tr, p, nil); r.Classes(2) != 1 || r.Classes(1) > 2 {
		t.Errorf("RandomLike: counts %v for %v", r.Counts(), p.Counts())
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic for a zero class count")
		}
	}()
	baseline.Random(tr, []int{1, 0, 1, 1}, nil)
}

// Beliefs of Tiger under listen: b_L = 0.85, b_R = 0.15, b_LL = 0.7225/0.745
// (hand computation, paper app:examples).
func TestBeliefDistancesTiger(t *testing.T) {
	ctx := context.Background()
	b := lookup(t, "tiger")
	r, err := baseline.BeliefDistances(ctx, b.Model, 2, baseline.BeliefOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bLL := 0.7225 / 0.745
	tests := []struct {
		depth, i, j int
		want        float64
	}{
		{1, 0, 1, 0.7},
		{2, 0, 1, bLL - 0.5},
		{2, 1, 2, 0},
		{2, 0, 3, 2*bLL - 1},
	}
	for _, tc := range tests {
		if got := r.D[tc.depth].At(tc.i, tc.j); !(math.Abs(got-tc.want) <= 1e-12) {
			t.Errorf("d(%d: %d, %d) = %v, want %v", tc.depth, tc.i, tc.j, got, tc.want)
		}
	}
	// tab:baseline-full: 6 classes at ε = 0.3, 5 at ε = 0.5.
	for eps, want := range map[float64]int{0.3: 6, 0.5: 5} {
		if got := r.Partition(eps).Total(); got != want {
			t.Errorf("ε = %v: %d classes, want %d (tab:baseline-full)", eps, got, want)
		}
	}
	// W1 under the discrete state metric is TV (independent oracle).
	w, err := baseline.BeliefDistances(ctx, b.Model, 2, baseline.BeliefOptions{Metric: baseline.BeliefW1, States: ot.Discrete(2)})
	if err != nil {
		t.Fatal(err)
	}
	g := lookup(t, "gridworld:3")
	rg, err := baseline.BeliefDistances(ctx, g.Model, 2, baseline.BeliefOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wg, err := baseline.BeliefDistances(ctx, g.Model, 2, baseline.BeliefOptions{Metric: baseline.BeliefW1, States: ot.Discrete(9)})
	if err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]*baseline.BeliefResult{{r, w}, {rg, wg}} {
		for d := range pair[0].D {
			for k, v := range pair[0].D[d].Data {
				if !(math.Abs(v-pair[1].D[d].Data[k]) <= 1e-12) {
					t.Fatalf("depth %d entry %d: TV %v, W1 under the discrete metric %v", d, k, v, pair[1].D[d].Data[k])
				}
			}
		}
	}
	// A family's distance is the maximum over its probes.
	fam, _ := fsc.NewStationary(3, 2, 1, fsc.Options{})
	rf, err := baseline.BeliefDistances(ctx, b.Model, 2, baseline.BeliefOptions{Family: fam})
	if err != nil {
		t.Fatal(err)
	}
	if got := rf.D[1].At(0, 1); !(math.Abs(got-0.7) <= 1e-12) {
		t.Errorf("family maximum d(L, R) = %v, want 0.7 (listen; opening leaves uniform beliefs)", got)
	}
	if _, err := baseline.BeliefDistances(ctx, b.Model, 2, baseline.BeliefOptions{Metric: baseline.BeliefW1}); err == nil {
		t.Error("BeliefW1 without a state metric: no error")
	}
	if _, err := baseline.BeliefDistances(ctx, b.Model, 2, baseline.BeliefOptions{MaxPairs: 3}); err == nil {
		t.Error("above MaxPairs: no error")
	}
}

func TestBisimulation(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		model string
		opt   baseline.BisimOptions
		want  float64 // d(state 0, state 1)
		src   string
	}{
		{"tiger", baseline.BisimOptions{}, 1, "hand: normalised reward gap of opening is the whole range; max(1, 0.9·d) = 1"},
		{"tiger", baseline.BisimOptions{RawRewards: true}, 110, "hand: max(110, 0.9·d) = 110"},
		{"gridworld:3", baseline.BisimOptions{}, 0, "hand: no reward, no observation term"},
		{"tiger", baseline.BisimOptions{Iterations: 1, RewardWeight: 0.5}, 0.5, "hand: one iteration from 0"},
	}
	for _, tc := range tests {
		r, err := baseline.Bisimulation(ctx, lookup(t, tc.model).Model, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Metric[0][1]; !(math.Abs(got-tc.want) <= 1e-12) {
			t.Errorf("%s %+v: d(0, 1) = %v, want %v (%s)", tc.model, tc.opt, got, tc.want, tc.src)
		}
	}
	// With the observation term GridWorld's states separate; the result is
	// a pseudometric and the iterates grow monotonically from 0.
	m := lookup(t, "gridworld:3").Model
	var prev ot.Ground
	for _, k := range []int{1, 3, 6} {
		r, err := baseline.Bisimulation(ctx, m, baseline.BisimOptions{ObsWeight: 1, Iterations: k})
		if err != nil {
			t.Fatal(err)
		}
		d := r.Metric
		n := len(d)
		for i := range n {
			if d[i][i] != 0 {
				t.Fatalf("d(%d, %d) = %v", i, i, d[i][i])
			}
			for j := range n {
				if d[i][j] != d[j][i] {
					t.Fatalf("asymmetric at (%d, %d)", i, j)
				}
				if prev != nil && !(d[i][j] >= prev[i][j]-1e-12) {
					t.Fatalf("iterate %d decreased at (%d, %d): %v < %v", k, i, j, d[i][j], prev[i][j])
				}
				for l := range n {
					if !(d[i][l] <= d[i][j]+d[j][l]+1e-9) {
						t.Fatalf("triangle (%d, %d, %d): %v > %v + %v", i, j, l, d[i][l], d[i][j], d[j][l])
					}
				}
			}
		}
		if d[0][8] <= 0 {
			t.Errorf("corners at distance %v with the observation term", d[0][8])
		}
		prev = d
	}
	if _, err := baseline.Bisimulation(ctx, m, baseline.BisimOptions{Discount: 1}); err == nil {
		t.Error("γ = 1: no error")
	}
	if _, err := baseline.Bisimulation(ctx, m, baseline.BisimOptions{MaxStates: 4}); err == nil {
		t.Error("above MaxStates: no error")
	}
}

// The exact rows of tab:baseline-full (printed to three decimals).
func TestAssessBaselineFull(t *testing.T) {
	ctx := context.Background()
	type row struct {
		method        string
		eps           float64
		classes       int
		verr, dw      float64
		printedDigits int
	}
	tests := map[string][]row{
		"tiger": {
			{"quotient", 0.3, 4, 0, 0, 3}, {"truncation", 0.3, 5, 0, 0, 3}, {"belief", 0.3, 6, 0, 0, 3}, {"bisim", 0.3, 6, 0, 0, 3},
			{"quotient", 0.5, 3, 0.122, 0.245, 3}, {"truncation", 0.5, 5, 0, 0, 3}, {"belief", 0.5, 5, 0, 0, 3}, {"bisim", 0.5, 5, 0, 0, 3},
		},
		"gridworld:3": {
			{"quotient", 0.3, 4, 0.099, 0.092, 3}, {"truncation", 0.3, 9, 0, 0, 3}, {"belief", 0.3, 9, 0, 0.052, 3}, {"bisim", 0.3, 3, 0.104, 0.166, 3},
			{"quotient", 0.5, 3, 0.104, 0.166, 3}, {"truncation", 0.5, 9, 0, 0, 3}, {"belief", 0.5, 6, 0.099, 0.111, 3}, {"bisim", 0.5, 3, 0.104, 0.166, 3},
		},
	}
	const T = 2
	for model, rows := range tests {
		b := lookup(t, model)
		m := b.Model
		fam, _ := fsc.NewStationary(m.NumActions(), m.NumObservations(), 1, fsc.Options{})
		r, err := distance.Compute(ctx, m, fam, T, distance.Options{Ground: b.Ground})
		if err != nil {
			t.Fatal(err)
		}
		beliefs, err := baseline.BeliefDistances(ctx, m, T, baseline.BeliefOptions{})
		if err != nil {
			t.Fatal(err)
		}
		bis, err := baseline.Bisimulation(ctx, m, baseline.BisimOptions{})
		if err != nil {
			t.Fatal(err)
		}
		lifted, err := baseline.BeliefDistances(ctx, m, T, baseline.BeliefOptions{Metric: baseline.BeliefW1, States: bis.Metric})
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range rows {
			var p *partition.Partition
			switch tc.method {
			case "quotient":
				p = r.Partition(tc.eps)
			case "truncation":
				p = baseline.Truncation(r.Tree, 1)
			case "belief":
				p = beliefs.Partition(tc.eps)
			case "bisim":
				p = lifted.Partition(tc.eps)
			}
			s, err := baseline.Assess(ctx, m, b.Ground, fam, T, p, baseline.AllFirst(T), r.D)
			if err != nil {
				t.Fatal(err)
			}
			tol := 0.5*math.Pow(10, -float64(tc.printedDigits)) + 1e-9
			if s.Classes != tc.classes || !(math.Abs(s.ValueError-tc.verr) <= tol) || !(math.Abs(s.D-tc.dw) <= tol) {
				t.Errorf("%s %s ε=%v: classes %d, error %.4f, D %.4f; paper %d, %.3f, %.3f",
					model, tc.method, tc.eps, s.Classes, s.ValueError, s.D, tc.classes, tc.verr, tc.dw)
			}
		}
	}
}

// Exact (ε = 0) quotients are sound for every probe of the family
// (thm:myhill-nerode (ii)): D = 0 and every objective's value is kept.
func TestAssessExactIsSound(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"tiger", "gridworld:3", "hallway:10"} {
		b := lookup(t, name)
		m := b.Model
		for _, T := range []int{2, 3} {
			fam, _ := fsc.NewStationary(m.NumActions(), m.NumObservations(), 1, fsc.Options{})
			r, err := distance.Compute(ctx, m, fam, T, distance.Options{Ground: b.Ground})
			if err != nil {
				t.Fatal(err)
			}
			for _, obj := range []value.Objective{baseline.AllFirst(T), value.ObsScore(m.NumObservations())} {
				s, err := baseline.Assess(ctx, m, b.Ground, fam, T, r.Partition(0), obj, r.D)
				if err != nil {
					t.Fatal(err)
				}
				if !(s.D <= 1e-9) || !(s.ValueError <= 1e-9) || s.Diameter != 0 {
					t.Errorf("%s T=%d %s: D %v, value error %v, diameter %v; want 0", name, T, obj.Name(), s.D, s.ValueError, s.Diameter)
				}
			}
		}
	}
}

func TestIndicator(t *testing.T) {
	m := lookup(t, "tiger").Model
	listen := fsc.Constant(3, 2, 0)
	tests := []struct {
		obj  value.Objective
		T    int
		want float64
		src  string
	}{
		{baseline.AllFirst(2), 2, 0.3725, "tab:planning-speedup V* = 0.373: P(LL) = ½·0.745"},
		{baseline.Indicator([]int{0, 1}), 2, 0.1275, "hand: ½·0.255"},
		{baseline.Indicator([]int{1, 1, 1}), 3, 0.5 * (0.85*0.85*0.85 + 0.15*0.15*0.15), "hand: ½(0.85³ + 0.15³)"},
		{baseline.Indicator([]int{0}), 2, 0, "length 1 against T = 2: no trace matches"},
	}
	for _, tc := range tests {
		got, err := value.Evaluate(m, listen, tc.T, tc.obj)
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(got-tc.want) <= 1e-12) {
			t.Errorf("%s: %v, want %v (%s)", tc.obj.Name(), got, tc.want, tc.src)
		}
	}
}

func BenchmarkBisimulation(b *testing.B) {
	for _, name := range []string{"tiger", "gridworld:3", "gridworld:5"} {
		m := lookup(b, name).Model
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var r *baseline.BisimResult
			for b.Loop() {
				var err error
				if r, err = baseline.Bisimulation(context.Background(), m, baseline.BisimOptions{ObsWeight: 1}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.Solves), "solves/op")
		})
	}
}

func BenchmarkAssess(b *testing.B) {
	ctx := context.Background()
	bm := lookup(b, "gridworld:3")
	m := bm.Model
	fam, _ := fsc.NewStationary(5, 4, 1, fsc.Options{})
	r, err := distance.Compute(ctx, m, fam, 3, distance.Options{Ground: bm.Ground})
	if err != nil {
		b.Fatal(err)
	}
	p := r.Partition(0.5)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := baseline.Assess(ctx, m, bm.Ground, fam, 3, p, baseline.AllFirst(3), r.D); err != nil {
			b.Fatal(err)
		}
	}
}
