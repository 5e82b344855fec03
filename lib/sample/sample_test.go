package sample

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/benchtest"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
)

var ctx = context.Background()

// lookup is benchtest.Lookup.
var lookup = benchtest.Lookup

func family(t testing.TB, b bench.Benchmark, kind fsc.Kind, m, T int) fsc.Family {
	t.Helper()
	fam, err := fsc.New(kind, b.Model.NumActions(), b.Model.NumObservations(), m, T, fsc.Options{Samples: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	return fam
}

// chiSquare returns Pearson's statistic of an empirical law against exact
// probabilities, and the degrees of freedom (support size − 1). An
// empirical atom outside the exact support gives +Inf.
func chiSquare(e Empirical, exact []float64) (x2 float64, df int) {
	obs := make([]float64, len(exact))
	for j, a := range e.Atoms {
		obs[a] = float64(e.Counts[j])
	}
	for k, p := range exact {
		if p <= 1e-15 {
			if obs[k] > 0 {
				return math.Inf(1), 0
			}
			continue
		}
		df++
		want := p * float64(e.N)
		x2 += (obs[k] - want) * (obs[k] - want) / want
	}
	return x2, df - 1
}

// TestLawsMatchExact checks the simulator against the exact laws of package
// law: for every sampled (history, controller) pair, Pearson's χ² of 20,000
// trajectories against P^π(· | h) stays below df + 8√(2·df) + 8, far in the
// tail for every df (the seeds are fixed, so the test is deterministic).
// The cases cover sparse and Kronecker kernels, impossible histories under
// both conventions, multi-node, clock-aware and stochastic controllers.
func TestLawsMatchExact(t *testing.T) {
	tests := []struct {
		name  string
		model string
		kind  fsc.Kind
		m, T  int
		conv  law.Convention
	}{
		{"Tiger, stationary m ≤ 2", "tiger", fsc.KindStationary, 2, 3, law.UniformStandIn},
		{"GridWorld 3×3, m = 1", "gridworld:3", fsc.KindStationary, 1, 2, law.UniformStandIn},
		{"RockSample, uniform stand-ins", "rocksample:4:4", fsc.KindStationary, 1, 2, law.UniformStandIn},
		{"RockSample, point-mass stand-ins", "rocksample:4:4", fsc.KindStationary, 1, 2, law.PointMassStandIn},
		{"Network Monitoring n = 4 (Kronecker kernel)", "netmon:4", fsc.KindStationary, 1, 3, law.UniformStandIn},
		{"Tiger, clock-aware m = 2", "tiger", fsc.KindClock, 2, 2, law.UniformStandIn},
		{"Tiger, stochastic stationary m = 2", "tiger", fsc.KindStochasticStationary, 2, 3, law.UniformStandIn},
		{"witness, stochastic clock-aware m = 1", "witness", fsc.KindStochasticClock, 1, 3, law.UniformStandIn},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := lookup(t, tc.model)
			fam := family(t, b, tc.kind, tc.m, tc.T)
			if testing.Short() && fam.Len() > 40 {
				fam = &fsc.List{Ctrls: subset(fam, 40), K: fam.Kind(), Mem: fam.M(), Hor: fam.T()}
			}
			s, err := New(ctx, b.Model, fam, tc.T, Options{Ground: b.Ground, Convention: tc.conv})
			if err != nil {
				t.Fatal(err)
			}
			r, err := s.Run(ctx, 20000, 11)
			if err != nil {
				t.Fatal(err)
			}
			checked, standIns := 0, 0
			for member := 0; member < fam.Len(); member++ {
				laws, err := law.Compute(b.Model, fam.At(member), tc.T, tc.conv)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range s.Depths() {
					for i := 0; i < s.Tree().Count(d); i++ {
						e, ok := r.Law(d, i, member)
						if !ok {
							t.Fatalf("no law for (%d, %d)", d, i)
						}
						if laws.StandIn(d, i) {
							standIns++
						}
						x2, df := chiSquare(e, laws.Suffix(d, i))
						if lim := float64(df) + 8*math.Sqrt(2*float64(df)) + 8; !(x2 <= lim) {
							t.Errorf("member %d history (%d, %d): χ² = %.1f with %d df (limit %.1f)", member, d, i, x2, df, lim)
						}
						checked++
					}
				}
			}
			if standIns != r.StandIns {
				t.Errorf("StandIns = %d, exact laws used %d", r.StandIns, standIns)
			}
			t.Logf("%d laws checked (%d distinct sampled), %d stand-ins", checked, r.Laws, standIns)
		})
	}
}

func subset(fam fsc.Family, n int) []*fsc.FSC {
	var out []*fsc.FSC
	step := max(1, fam.Len()/n)
	for i := 0; i < fam.Len() && len(out) < n; i += step {
		out = append(out, fam.At(i))
	}
	return out
}

// TestReproducible checks that results depend on the seed only: not on the
// number of workers, nor on the order or duplication of the family.
func TestReproducible(t *testing.T) {
	b := lookup(t, "netmon:4")
	fam := family(t, b, fsc.KindStationary, 2, 3)
	ctrls := subset(fam, 200)
	base := &fsc.List{Ctrls: ctrls, K: fsc.KindStationary, Mem: 2}
	rev := slices.Clone(ctrls)
	slices.Reverse(rev)
	rev = append(rev, ctrls[:50]...) // duplicates
	variants := []struct {
		name    string
		fam     fsc.Family
		workers int
	}{
		{"1 worker", base, 1},
		{"3 workers", base, 3},
		{"reversed family with duplicates", &fsc.List{Ctrls: rev, K: fsc.KindStationary, Mem: 2}, 2},
	}
	var want []partition.Matrix
	for _, v := range variants {
		r, err := Compute(ctx, b.Model, v.fam, 3, Options{Ground: b.Ground, Seed: 5, Trajectories: 300, Workers: v.workers})
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = r.D
			continue
		}
		for d := range want {
			if !slices.Equal(want[d].Data, r.D[d].Data) {
				t.Errorf("%s: depth %d differs from the first run", v.name, d)
			}
		}
	}
	other, err := Compute(ctx, b.Model, base, 3, Options{Ground: b.Ground, Seed: 6, Trajectories: 300})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(other.D[1].Data, want[1].Data) {
		t.Errorf("seeds 5 and 6 gave the same distances")
	}
}

// TestIndependent: per-controller sampling gives each duplicate its own
// law; the default shares one.
func TestIndependent(t *testing.T) {
	b := lookup(t, "tiger")
	ctrls := subset(family(t, b, fsc.KindStationary, 1, 2), 3)
	dup := &fsc.List{Ctrls: append(slices.Clone(ctrls), ctrls...), K: fsc.KindStationary, Mem: 1}
	shared, err := New(ctx, b.Model, dup, 2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	indep, err := New(ctx, b.Model, dup, 2, Options{Independent: true})
	if err != nil {
		t.Fatal(err)
	}
	if indep.Laws() != 2*shared.Laws() {
		t.Errorf("independent sampling has %d laws, shared %d; want twice as many", indep.Laws(), shared.Laws())
	}
	r, err := indep.Run(ctx, 100, 1)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := r.Law(1, 0, 0)
	c, _ := r.Law(1, 0, 3) // the duplicate of member 0
	if slices.Equal(a.Counts, c.Counts) && slices.Equal(a.Atoms, c.Atoms) {
		t.Error("a duplicate drew the same sample under Independent")
	}
}

// TestPrefixSamples checks common random numbers: N trajectories are the
// first N of a larger sample with the same seed.
func TestPrefixSamples(t *testing.T) {
	b := lookup(t, "gridworld:3")
	fam := family(t, b, fsc.KindStationary, 1, 2)
	s, err := New(ctx, b.Model, fam, 2, Options{Ground: b.Ground})
	if err != nil {
		t.Fatal(err)
	}
	nO := b.Model.NumObservations()
	counts := make([]int32, nO)
	j := &s.jobs[0]
	small := s.sampleJob(j, 1, 9, counts)
	for n := 2; n <= 5; n++ {
		big := s.sampleJob(j, n, 9, counts)
		// the first trajectory's suffix is an atom of every larger sample
		if !slices.Contains(big.Atoms, small.Atoms[0]) {
			t.Fatalf("N = %d does not contain the N = 1 trajectory", n)
		}
	}
}

// TestW1Oracle compares W1 of empirical laws with ot.SeqW1 on the dense
// probability vectors.
func TestW1Oracle(t *testing.T) {
	b := lookup(t, "netmon:4")
	fam := family(t, b, fsc.KindStationary, 1, 3)
	r, err := Compute(ctx, b.Model, fam, 3, Options{Ground: b.Ground, Trajectories: 50, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	g := ot.Discrete(3)
	for _, d := range []int{1, 2} {
		p, _ := r.Law(d, 0, 1)
		q, _ := r.Law(d, 2, 1)
		got, err := W1(g, p, q)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ot.SeqW1(g, 3-d, p.Probs(nil), q.Probs(nil))
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(got-want) <= 1e-12) {
			t.Errorf("depth %d: W1 = %v, dense SeqW1 = %v", d, got, want)
		}
		if !(r.D[d].At(0, 2) >= got-1e-12) {
			t.Errorf("depth %d: D(0, 2) = %v below one probe's W1 %v", d, r.D[d].At(0, 2), got)
		}
	}
	if _, err := W1(g, Empirical{NumObs: 3, K: 1, N: 2, Atoms: []int32{0}, Counts: []int32{1}}, Empirical{NumObs: 3, K: 1, N: 1, Atoms: []int32{0}, Counts: []int32{1}}); err == nil {
		t.Error("W1 accepted counts that do not sum to N")
	}
	if _, err := W1(g, Empirical{NumObs: 3, K: 1, N: 1, Atoms: []int32{0}, Counts: []int32{1}}, Empirical{NumObs: 3, K: 2, N: 1, Atoms: []int32{0}, Counts: []int32{1}}); err == nil {
		t.Error("W1 accepted laws over different suffix spaces")
	}
}

// TestConvergesToExact: with many trajectories the sampled distances
// approach the exact ones (error O(N^{-1/2}); rem:sample-complexity).
func TestConvergesToExact(t *testing.T) {
	tests := []struct {
		model     string
		m, T      int
		n, suffix int
		tol       float64
	}{
		{"gridworld:3", 1, 2, 50000, 0, 0.015},
		{"rocksample:4:4", 2, 2, 20000, 0, 0.03},
		{"netmon:4", 1, 3, 20000, 0, 0.03},
		{"netmon:4", 1, 2, 20000, 2, 0.03}, // T-step suffixes
	}
	for _, tc := range tests {
		b := lookup(t, tc.model)
		fam := family(t, b, fsc.KindStationary, tc.m, tc.T)
		opt := Options{Ground: b.Ground, Trajectories: tc.n, Seed: 1, Suffix: tc.suffix}
		if testing.Short() {
			opt.Trajectories /= 10
			tc.tol *= 3
		}
		r, err := Compute(ctx, b.Model, fam, tc.T, opt)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := Exact(ctx, b.Model, fam, tc.T, opt)
		if err != nil {
			t.Fatal(err)
		}
		c := Compare(r, ex, []float64{0, 0.25})
		if !(c.MaxError <= tc.tol) {
			t.Errorf("%s: largest |d̂ − d| = %.4f with N = %d, want ≤ %v", tc.model, c.MaxError, opt.Trajectories, tc.tol)
		}
		if !(math.Abs(c.Bias) <= tc.tol) {
			t.Errorf("%s: bias of the maximum %.4f", tc.model, c.Bias)
		}
	}
}

// TestExactSuffix checks Exact with a fixed suffix against distance.Compute at
// the extended horizons.
func TestExactSuffix(t *testing.T) {
	b := lookup(t, "netmon:4")
	fam := family(t, b, fsc.KindStationary, 1, 2)
	got, err := Exact(ctx, b.Model, fam, 2, Options{Suffix: 2})
	if err != nil {
		t.Fatal(err)
	}
	for d := 0; d <= 2; d++ {
		r, err := distance.Compute(ctx, b.Model, fam, d+2, distance.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got[d].Data, r.D[d].Data) {
			t.Errorf("depth %d differs", d)
		}
	}
	// Paper tab:meaningful-scale prints 13 classes at ε = 0 for n = 12,
	// T = 2: every history, which the T-step suffix reading gives.
	if n := partition.Greedy(got, 0).Total(); n != 13 {
		t.Errorf("T-step suffix, n = 4: %d classes at ε = 0, want 13", n)
	}
	s, err := New(ctx, b.Model, fam, 2, Options{Suffix: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Depths(), []int{1, 2}) {
		t.Errorf("sampled depths %v, want [1 2]", s.Depths())
	}
}

func TestErrors(t *testing.T) {
	b := lookup(t, "tiger")
	fam := family(t, b, fsc.KindStationary, 1, 2)
	clk := family(t, b, fsc.KindClock, 1, 2)
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"empty family", func() error {
			_, err := New(ctx, b.Model, &fsc.List{}, 2, Options{})
			return err
		}, "empty probe family"},
		{"ground size", func() error {
			_, err := New(ctx, b.Model, fam, 2, Options{Ground: ot.Discrete(3)})
			return err
		}, "ground metric has 3 points"},
		{"fixed suffix with clock-aware probes", func() error {
			_, err := New(ctx, b.Model, clk, 2, Options{Suffix: 2})
			return err
		}, "needs stationary controllers"},
		{"limit", func() error {
			_, err := New(ctx, b.Model, fam, 2, Options{Limit: 5})
			return err
		}, "raise Options.Limit"},
		{"controller of another model", func() error {
			_, err := New(ctx, b.Model, family(t, lookup(t, "gridworld:3"), fsc.KindStationary, 1, 2), 2, Options{})
			return err
		}, "controller 0"},
		{"N = 0", func() error {
			s, err := New(ctx, b.Model, fam, 2, Options{})
			if err != nil {
				return err
			}
			_, err = s.Run(ctx, 0, 1)
			return err
		}, "0 trajectories"},
		{"bootstrap level", func() error {
			r, err := Compute(ctx, b.Model, fam, 2, Options{Trajectories: 10})
			if err != nil {
				return err
			}
			_, err = r.Bootstrap(ctx, BootstrapOptions{Level: 1.5})
			return err
		}, "level"},
		{"cancelled", func() error {
			c, cancel := context.WithCancel(ctx)
			cancel()
			_, err := Compute(c, b.Model, fam, 2, Options{})
			return err
		}, "context canceled"},
	}
	for _, tc := range tests {
		err := tc.err()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}
