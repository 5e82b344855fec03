package certify

import (
	"context"
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

func tensor(t *testing.T, model string, m, T int) *Tensor {
	t.Helper()
	b, err := bench.Lookup(model)
	if err != nil {
		t.Fatal(err)
	}
	fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), m, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := distance.Compute(context.Background(), b.Model, fam, T, distance.Options{Ground: b.Ground, Tensor: true})
	if err != nil {
		t.Fatal(err)
	}
	tt, err := FromResult(r)
	if err != nil {
		t.Fatal(err)
	}
	return tt
}

func TestPartitionAgreement(t *testing.T) {
	// tab:partition-agreement (paper §7.4), printed to 3 decimals.
	tests := []struct {
		model  string
		m, T   int
		eps    float64
		k      int
		deltaS float64
		full   int
		sub    int
		ari    float64
	}{
		{"tiger", 2, 4, 0, 1, 0.980, 16, 11, 0.961},
		{"tiger", 2, 4, 0, 3, 0.245, 16, 15, 0.994},
		{"tiger", 2, 4, 0, 5, 0.000, 16, 16, 1.000},
		{"gridworld:3", 2, 2, 0.3, 1, 0.233, 6, 4, 0.981},
		{"gridworld:3", 2, 2, 0.3, 3, 0.000, 6, 6, 1.000},
		{"gridworld:3", 2, 2, 0.3, 5, 0.000, 6, 6, 1.000},
	}
	cache := map[string]*Tensor{}
	for _, tc := range tests {
		tt := cache[tc.model]
		if tt == nil {
			tt = tensor(t, tc.model, tc.m, tc.T)
			cache[tc.model] = tt
		}
		row := Agreement(tt, tc.eps, []int{tc.k})[0]
		if !(math.Abs(row.DeltaS-tc.deltaS) <= 0.0005) || row.FullClasses != tc.full || row.SubClasses != tc.sub || !(math.Abs(row.ARI-tc.ari) <= 0.0005) {
			t.Errorf("%s k=%d ε=%v: δ_S=%.3f full=%d sub=%d ARI=%.3f; paper %.3f %d %d %.3f",
				tc.model, tc.k, tc.eps, row.DeltaS, row.FullClasses, row.SubClasses, row.ARI, tc.deltaS, tc.full, tc.sub, tc.ari)
		}
	}
}

func TestGreedyProperties(t *testing.T) {
	tt := tensor(t, "tiger", 2, 3)
	prev := math.Inf(1)
	for k := 0; k <= 6; k++ {
		g := Gap(tt, Greedy(tt, k))
		if g > prev+1e-15 {
			t.Fatalf("δ_S grew from %v to %v when k went to %d", prev, g, k)
		}
		prev = g
	}
	all := make([]int, len(tt.Cols))
	for p := range all {
		all[p] = p
	}
	if g := Gap(tt, all); g != 0 {
		t.Fatalf("δ of the full family = %v, want 0", g)
	}
}
