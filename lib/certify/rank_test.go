package certify

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestEffectiveRankHand(t *testing.T) {
	// Hand computation: σ = (3, 2, 1), σ² = (9, 4, 1), total 14:
	// 9/14 = 0.643, 13/14 = 0.929, 14/14 = 1.
	s := Spectrum{Values: []float64{3, 2, 1}}
	for _, tc := range []struct {
		frac float64
		want int
	}{{0.5, 1}, {0.9, 2}, {0.928, 2}, {0.929, 3}, {0.95, 3}, {1, 3}} {
		if got := s.EffectiveRank(tc.frac); got != tc.want {
			t.Errorf("EffectiveRank(%v) = %d, want %d", tc.frac, got, tc.want)
		}
	}
	if got := (Spectrum{Values: []float64{0, 0}}).EffectiveRank(0.9); got != 0 {
		t.Errorf("zero matrix: %d", got)
	}
	for _, bad := range []float64{0, 1.5, math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("EffectiveRank(%v) did not panic", bad)
				}
			}()
			s.EffectiveRank(bad)
		}()
	}
}

// TestLowRankTable checks the paper's unlabeled "Low-Rank Analysis" table
// (datasets/paper/low-rank.csv): effective ranks at 90/95/99% of the
// depth-(T−1) distinguishing matrix with one column per controller.
func TestLowRankTable(t *testing.T) {
	tests := []struct {
		model         string
		m, T, depth   int
		fscs          int
		r90, r95, r99 int
	}{
		{"tiger", 1, 4, 3, 3, 1, 1, 1},
		{"tiger", 2, 4, 3, 147, 3, 4, 7},
		{"gridworld:3", 1, 2, 1, 5, 1, 2, 4},
		{"gridworld:3", 2, 2, 1, 6405, 2, 3, 5},
	}
	for _, tc := range tests {
		tt := tensor(t, tc.model, tc.m, tc.T)
		sp := tt.Spectrum(tc.depth, true)
		if sp.Cols != tc.fscs || sp.EffectiveRank(0.9) != tc.r90 || sp.EffectiveRank(0.95) != tc.r95 || sp.EffectiveRank(0.99) != tc.r99 {
			t.Errorf("%s m=%d: %d FSCs, ranks %d %d %d; paper %d, %d %d %d", tc.model, tc.m, sp.Cols,
				sp.EffectiveRank(0.9), sp.EffectiveRank(0.95), sp.EffectiveRank(0.99), tc.fscs, tc.r90, tc.r95, tc.r99)
		}
	}
}

// TestSpectrumDuplicates checks the √multiplicity shortcut against the
// explicit matrix with one column per family member (Tiger, 147 columns).
func TestSpectrumDuplicates(t *testing.T) {
	r := distancesOpt(t, "tiger", 2, 4, true)
	tt, err := FromResult(r)
	if err != nil {
		t.Fatal(err)
	}
	const depth = 3
	n := r.D[depth].N
	a := mat.NewDense(n*(n-1)/2, len(r.Column), nil)
	for i, k := range r.Column {
		for u, v := range r.Tensor[k][depth].Data {
			a.Set(u, i, v)
		}
	}
	var svd mat.SVD
	svd.Factorize(a, mat.SVDNone)
	want := svd.Values(nil)
	got := tt.Spectrum(depth, true).Values
	for i := range got {
		if !(math.Abs(got[i]-want[i]) <= 1e-9*want[0]) {
			t.Fatalf("σ_%d = %v, explicit matrix %v", i, got[i], want[i])
		}
	}
	mult := tt.Multiplicity()
	total := 0
	for _, m := range mult {
		total += m
	}
	if total != 147 || len(mult) != 75 {
		t.Errorf("multiplicities sum to %d over %d columns, want 147 over 75", total, len(mult))
	}
}

func BenchmarkSpectrum(b *testing.B) {
	tt := tensorTB(b, "gridworld:3", 2, 2)
	b.ReportAllocs()
	for b.Loop() {
		tt.Spectrum(1, true)
	}
}
