package nb

import (
	"context"
	"testing"

	"gonum.org/v1/plot"

	"github.com/pomdpq/pomdpq/lib/certify"
)

func TestComputeStudy(t *testing.T) {
	tests := []struct {
		s       Setting
		wantErr bool
	}{
		{Setting{"Tiger, m = 1, T = 3", "tiger", 1, 3, false}, false},
		{Setting{"Tiger, m = 1, T = 3, obs reward", "tiger", 1, 3, true}, false},
		{Setting{"no such model", "no-such-model", 1, 3, false}, true},
	}
	for _, tc := range tests {
		st, err := ComputeStudy(context.Background(), tc.s)
		if (err != nil) != tc.wantErr {
			t.Fatalf("%s: error %v, want error %v", tc.s.Label, err, tc.wantErr)
		}
		if err != nil {
			continue
		}
		if st.Label != tc.s.Label || st.R.FamilySize != st.Fam.Len() || len(st.Tensor.Cols) == 0 || len(st.Tensor.Cols) > st.Fam.Len() {
			t.Errorf("%s: family %d, distances over %d, %d columns", tc.s.Label, st.Fam.Len(), st.R.FamilySize, len(st.Tensor.Cols))
		}
	}
}

// tigerStudy is Tiger's stationary m ≤ mem family at horizon T.
func tigerStudy(t *testing.T, mem, T int) Study {
	t.Helper()
	st, err := ComputeStudy(context.Background(), Setting{"tiger", "tiger", mem, T, false})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestSubmodularStudy: greedy coverage is within the factor 1 − 1/e of
// the optimum (prop:submodular) and never above it.
func TestSubmodularStudy(t *testing.T) {
	st := tigerStudy(t, 2, 2)
	for _, K := range []int{1, 3} {
		rows, err := SubmodularStudy(context.Background(), st.Tensor, K)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != K {
			t.Fatalf("K = %d: %d rows", K, len(rows))
		}
		for _, r := range rows {
			if r.Greedy > r.Opt+1e-12 || r.Greedy < (1-1/2.718281828459045)*r.Opt-1e-12 || len(r.OptS) > r.K || r.Opt < r.Greedy-r.Gain-1e-12 {
				t.Errorf("K = %d: %+v", K, r)
			}
		}
	}
}

// TestDiminishingReturns: the coverage passes, the supermodular control
// fails, a one-column tensor is an error.
func TestDiminishingReturns(t *testing.T) {
	cov, ctl, err := DiminishingReturns(tigerStudy(t, 2, 2).Tensor)
	if err != nil {
		t.Fatal(err)
	}
	if cov.Violations != 0 || ctl.Violations == 0 || cov.Checks == 0 {
		t.Errorf("coverage %+v, control %+v", cov, ctl)
	}
	if _, _, err := DiminishingReturns(&certify.Tensor{Cols: [][]float64{{1}}}); err == nil {
		t.Error("one column: no error")
	}
}

// TestAnchorStudy: one greedy and one random subset per k, both gaps
// non-negative; the greedy δ_S does not grow with k.
func TestAnchorStudy(t *testing.T) {
	for _, K := range []int{1, 3} {
		rows, err := AnchorStudy(context.Background(), tigerStudy(t, 2, 2).Tensor, K)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2*K {
			t.Fatalf("K = %d: %d rows", K, len(rows))
		}
		for i, r := range rows {
			if r.DeltaA < 0 || r.DeltaS < 0 || r.K != i/2+1 || (r.Kind == "greedy" && i >= 2 && r.DeltaS > rows[i-2].DeltaS+1e-12) {
				t.Errorf("K = %d, row %d: %+v", K, i, r)
			}
		}
	}
}

func TestSpectrumPlots(t *testing.T) {
	ok := []Setting{{"Tiger, m = 1, T = 3", "tiger", 1, 3, false}, {"GridWorld 3×3, m = 1, T = 2", "gridworld:3", 1, 2, false}}
	p1, p2, err := SpectrumPlots(context.Background(), ok)
	if err != nil {
		t.Fatal(err)
	}
	if _, log := p1.Y.Scale.(plot.LogScale); !log || p2.X.Max != 15 {
		t.Errorf("spectrum y scale %T, variance x max %g", p1.Y.Scale, p2.X.Max)
	}
	if _, _, err := SpectrumPlots(context.Background(), []Setting{{"bad", "no-such-model", 1, 2, false}}); err == nil {
		t.Error("unknown model: no error")
	}
}

// TestLawLipschitz: lem:lipschitz predicts no violation; an unknown model
// is an error.
func TestLawLipschitz(t *testing.T) {
	cases := []LipschitzCase{{"tiger", 1, 2, false}, {"tiger", 2, 2, true}}
	reps, err := LawLipschitz(context.Background(), cases, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range reps {
		if r.Violations != 0 || r.Clock != cases[i].Clock || r.MaxRatio > r.Constant+1e-12 || len(r.Samples) != 20 {
			t.Errorf("case %+v: violations %d, ratio %g, constant %g, %d samples", cases[i], r.Violations, r.MaxRatio, r.Constant, len(r.Samples))
		}
	}
	if _, err := LawLipschitz(context.Background(), []LipschitzCase{{"no-such-model", 1, 2, false}}, 5, 1); err == nil {
		t.Error("unknown model: no error")
	}
}
