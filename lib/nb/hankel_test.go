package nb

import (
	"context"
	"testing"

	"github.com/pomdpq/pomdpq/lib/certify"
	"github.com/pomdpq/pomdpq/lib/distance"
)

func TestStudyHankel(t *testing.T) {
	const T = 3
	b, fam, _ := tigerDistances(t, T)
	r, err := distance.Compute(context.Background(), b.Model, fam, T, distance.Options{Ground: b.Ground, Tensor: true})
	if err != nil {
		t.Fatal(err)
	}
	tt, err := certify.FromResult(r)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ deltas []float64 }{{nil}, {[]float64{0}}, {[]float64{0, 0.05, 0.1, 0.25, 1}}}
	for _, tc := range tests {
		h, err := StudyHankel(context.Background(), b.Model, T, tt, tc.deltas)
		if err != nil {
			t.Fatal(err)
		}
		if len(h.REnv) != len(tc.deltas) || len(h.Greedy) != len(tc.deltas) || h.Joint < 1 || h.Eff99 < 1 {
			t.Fatalf("δ %v: %+v", tc.deltas, h)
		}
		// A larger δ never needs more probes: both ranks are non-increasing.
		for i := 1; i < len(tc.deltas); i++ {
			if h.REnv[i] > h.REnv[i-1] || (h.Greedy[i] > h.Greedy[i-1] && h.Greedy[i-1] != 0) {
				t.Errorf("δ %v: r_env %v, greedy %v not non-increasing", tc.deltas, h.REnv, h.Greedy)
			}
		}
		// Greedy coverage is an upper bound on the exact envelope rank.
		for i := range tc.deltas {
			if h.Greedy[i] != 0 && h.Greedy[i] < h.REnv[i] {
				t.Errorf("δ = %g: greedy %d below the exact r_env %d", tc.deltas[i], h.Greedy[i], h.REnv[i])
			}
		}
	}
}
