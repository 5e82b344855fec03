package nb

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/lib/partition"
)

func TestRandomMixture(t *testing.T) {
	tests := []struct {
		beliefs [][]float64
	}{
		{[][]float64{{0.2, 0.8}}},
		{[][]float64{{1, 0}, {0, 1}}},
		{[][]float64{{0.5, 0.25, 0.25}, {0, 0, 1}, {0.1, 0.9, 0}}},
	}
	for _, tt := range tests {
		n := len(tt.beliefs[0])
		got := RandomMixture(rand.New(rand.NewPCG(1, 2)), tt.beliefs, n)
		again := RandomMixture(rand.New(rand.NewPCG(1, 2)), tt.beliefs, n)
		sum := 0.0
		for s, v := range got {
			sum += v
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, b := range tt.beliefs {
				lo, hi = min(lo, b[s]), max(hi, b[s])
			}
			if v < lo-1e-12 || v > hi+1e-12 || v != again[s] {
				t.Errorf("%v: entry %d = %g outside [%g, %g] or not reproducible (%g)", tt.beliefs, s, v, lo, hi, again[s])
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%v: mixture %v sums to %g", tt.beliefs, got, sum)
		}
	}
}

func TestCheckRepIndependence(t *testing.T) {
	const T = 3
	b, fam, r := tigerDistances(t, T)
	tests := []struct {
		name  string
		p     *partition.Partition
		exact bool // thm:myhill-nerode (i): members' kernels equal the aggregate's on π's actions
	}{
		{"exact classes", r.Partition(0), true},
		{"one class per depth", uniform(r, true), false},
	}
	for _, tt := range tests {
		res, err := CheckRepIndependence(b.Model, r.Tree, T, fam, tt.p, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		multi := 0
		for d := 0; d < T; d++ {
			for c := 0; c < tt.p.Classes(d); c++ {
				if len(tt.p.Members(d, c)) > 1 {
					multi++
				}
			}
		}
		if res.Classes != multi || res.Classes == 0 || res.Checks == 0 || res.AllActs < res.OnPolicy {
			t.Errorf("%s: %d classes (want %d), every action %g < own actions %g", tt.name, res.Classes, multi, res.AllActs, res.OnPolicy)
		}
		if exact := res.OnPolicy <= 1e-12 && res.Weights <= 1e-12; exact != tt.exact {
			t.Errorf("%s: on-policy %g, random weights %g", tt.name, res.OnPolicy, res.Weights)
		}
	}
}
