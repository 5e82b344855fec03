package certify

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
)

// handTensor builds a tensor from explicit columns (one depth).
func handTensor(cols ...[]float64) *Tensor {
	t := &Tensor{Cols: cols}
	for p := range cols {
		t.First = append(t.First, p)
	}
	return t
}

func TestCoverageHand(t *testing.T) {
	// Hand computation: f({0}) = 3, f({1}) = 2, f({0,1}) = 1+2+1 = 4.
	tt := handTensor([]float64{1, 2, 0}, []float64{0, 1, 1})
	for _, tc := range []struct {
		S    []int
		want float64
	}{{nil, 0}, {[]int{0}, 3}, {[]int{1}, 2}, {[]int{0, 1}, 4}} {
		if got := Coverage(tt, tc.S); !(got == tc.want) {
			t.Errorf("f(%v) = %v, want %v", tc.S, got, tc.want)
		}
	}
}

// naiveOptimum enumerates every k-subset of all columns.
func naiveOptimum(t *Tensor, k int) float64 {
	best := math.Inf(-1)
	var rec func(from int, S []int)
	rec = func(from int, S []int) {
		if len(S) == k {
			best = math.Max(best, Coverage(t, S))
			return
		}
		for p := from; p < len(t.Cols); p++ {
			rec(p+1, append(S, p))
		}
	}
	rec(0, nil)
	return best
}

// TestSubmodularGuarantee checks prop:submodular on the benchmarks: the
// exhaustive optimum over non-dominated columns equals the naive optimum
// over all columns, and greedy reaches at least (1 − 1/e) of it.
func TestSubmodularGuarantee(t *testing.T) {
	for _, c := range []struct {
		model string
		T, K  int
	}{{"tiger", 3, 3}, {"tiger", 4, 2}, {"gridworld:3", 2, 2}} {
		tt := tensor(t, c.model, 2, c.T)
		curve := GreedyCurve(tt, c.K)
		for k := 1; k <= c.K; k++ {
			opt, err := OptimalCoverage(context.Background(), tt, k, 0)
			if err != nil {
				t.Fatal(err)
			}
			naive := naiveOptimum(tt, k)
			if !(math.Abs(opt.Value-naive) <= 1e-9) || !(math.Abs(Coverage(tt, opt.S)-opt.Value) <= 1e-9) {
				t.Errorf("%s k=%d: pruned optimum %v (S %v), naive %v", c.model, k, opt.Value, opt.S, naive)
			}
			g := curve[min(k, len(curve))-1].Coverage
			if !(g >= (1-1/math.E)*opt.Value-1e-12) || !(g <= opt.Value+1e-9) {
				t.Errorf("%s k=%d: greedy %v, optimum %v", c.model, k, g, opt.Value)
			}
		}
	}
	// GridWorld 3×3 (geometric metric, T = 2): greedy is strictly
	// suboptimal at k = 2 (our computation: 2.2205 vs 2.4171).
	tt := tensor(t, "gridworld:3", 2, 2)
	opt, _ := OptimalCoverage(context.Background(), tt, 2, 0)
	g := GreedyCurve(tt, 2)[1].Coverage
	if !(math.Abs(g-2.2205) <= 5e-5) || !(math.Abs(opt.Value-2.4171) <= 5e-5) {
		t.Errorf("GridWorld k=2: greedy %.4f optimum %.4f; want 2.2205, 2.4171", g, opt.Value)
	}
}

func TestOptimalCoverageLimit(t *testing.T) {
	tt := tensor(t, "gridworld:3", 2, 2)
	_, err := OptimalCoverage(context.Background(), tt, 4, 1000)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := OptimalCoverage(ctx, tt, 4, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: err = %v", err)
	}
}

func TestDiminishingReturns(t *testing.T) {
	tt := tensor(t, "tiger", 2, 4)
	f := func(S []int) float64 { return Coverage(tt, S) }
	rep := DiminishingReturns(f, len(tt.Cols), 0, 2000, 1)
	if rep.Checks != 2000 || rep.Violations != 0 || rep.NonMonotone != 0 || !(rep.MinSlack >= -1e-9) {
		t.Errorf("coverage: %+v", rep)
	}
	// Control: f(S) = Σ_u (Σ_{p∈S} D_{u,p})² is supermodular, so the
	// check must find violations.
	sq := func(S []int) float64 {
		s := 0.0
		for u := 0; u < tt.Pairs(); u++ {
			x := 0.0
			for _, p := range S {
				x += tt.Cols[p][u]
			}
			s += x * x
		}
		return s
	}
	if rep := DiminishingReturns(sq, len(tt.Cols), 0, 2000, 1); rep.Violations == 0 || !(rep.MinSlack < 0) {
		t.Errorf("control: no violation found: %+v", rep)
	}
	// Same seed, same report.
	if a, b := DiminishingReturns(f, len(tt.Cols), 5, 50, 9), DiminishingReturns(f, len(tt.Cols), 5, 50, 9); !(a.MinSlack == b.MinSlack) {
		t.Error("DiminishingReturns is not reproducible")
	}
}

// TestEnvelopeRank checks the exact r_env against brute force and pins the
// benchmark values (our computation; the paper states r_env ≤ 5).
func TestEnvelopeRank(t *testing.T) {
	for _, c := range []struct {
		model string
		T     int
		delta float64
		want  int
	}{
		{"tiger", 4, 0, 4}, {"tiger", 4, 0.25, 2}, {"tiger", 3, 0, 2},
		{"gridworld:3", 2, 0, 3}, {"gridworld:3", 2, 0.1, 2}, {"gridworld:3", 2, 0.25, 1},
	} {
		tt := tensor(t, c.model, 2, c.T)
		cv, err := EnvelopeRank(context.Background(), tt, c.delta, 0)
		if err != nil {
			t.Fatal(err)
		}
		if cv.Size != c.want || len(cv.S) != cv.Size || !(Gap(tt, cv.S) <= c.delta+1e-12) {
			t.Errorf("%s T=%d δ=%v: r_env %d (S %v, gap %v), want %d", c.model, c.T, c.delta, cv.Size, cv.S, Gap(tt, cv.S), c.want)
		}
		// brute force: no subset of size r_env − 1 has gap ≤ δ
		if cv.Size > 1 && cv.Size <= 3 {
			found := false
			var rec func(from int, S []int)
			rec = func(from int, S []int) {
				if found {
					return
				}
				if len(S) == cv.Size-1 {
					found = Gap(tt, S) <= c.delta+1e-12
					return
				}
				for p := from; p < len(tt.Cols); p++ {
					rec(p+1, append(slices.Clone(S), p))
				}
			}
			rec(0, nil)
			if found {
				t.Errorf("%s δ=%v: a subset of size %d already has gap ≤ δ", c.model, c.delta, cv.Size-1)
			}
		}
		// greedy gives an upper bound
		for k, s := range GreedyCurve(tt, 10) {
			if s.Gap <= c.delta+1e-12 {
				if k+1 < cv.Size {
					t.Errorf("%s δ=%v: greedy certifies with %d < r_env %d", c.model, c.delta, k+1, cv.Size)
				}
				break
			}
		}
	}
}

func BenchmarkOptimalCoverage(b *testing.B) {
	tt := tensorTB(b, "gridworld:3", 2, 2)
	for _, k := range []int{2, 3} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			var n int64
			for b.Loop() {
				o, err := OptimalCoverage(context.Background(), tt, k, 0)
				if err != nil {
					b.Fatal(err)
				}
				n = o.Subsets
			}
			b.ReportMetric(float64(n), "subsets/op")
		})
	}
}

func BenchmarkEnvelopeRank(b *testing.B) {
	tt := tensorTB(b, "tiger", 2, 4)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EnvelopeRank(context.Background(), tt, 0, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// tensorTB is tensor for benchmarks: the tensor of the deterministic
// stationary family with ≤ m nodes under the benchmark's ground metric.
func tensorTB(tb testing.TB, model string, m, T int) *Tensor {
	tb.Helper()
	r := distancesOpt(tb, model, m, T, true)
	tt, err := FromResult(r)
	if err != nil {
		tb.Fatal(err)
	}
	return tt
}
