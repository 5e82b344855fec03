package certify

import (
	"context"
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

// TestLawLipschitz checks lem:lipschitz with the coupling constant on
// random controllers (seeded): no sample may exceed either bound.
func TestLawLipschitz(t *testing.T) {
	for _, c := range []struct {
		model    string
		m, T     int
		clock    bool
		constant float64
	}{
		{"tiger", 2, 3, false, 1.5}, {"tiger", 2, 3, true, 0.5},
		{"gridworld:3", 1, 2, false, 1}, {"witness", 2, 3, false, 1.5},
	} {
		b, err := bench.Lookup(c.model)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := LawLipschitz(context.Background(), b.Model, c.m, c.T, LipschitzOptions{Samples: 100, Clock: c.clock})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Violations != 0 || len(rep.Samples) != 100 || rep.Constant != c.constant || !(rep.MaxRatio > 0) || !(rep.MaxCouplingRatio <= 1+1e-9) {
			t.Errorf("%s m=%d T=%d clock=%v: %d violations, constant %v, max TV/ℓ1 %v, max TV/coupling %v",
				c.model, c.m, c.T, c.clock, rep.Violations, rep.Constant, rep.MaxRatio, rep.MaxCouplingRatio)
		}
	}
}

func TestParamDistanceHand(t *testing.T) {
	// Hand computation: two 1-node stationary controllers on 2 actions and
	// 2 observations, α = (1, 0) vs (0.5, 0.5); β is forced (1 node).
	// ‖Δθ‖₁ = 1; max TV(α) = ½; coupling at T = 3: 3·½ = 1.5.
	a := &fsc.FSC{Nodes: 1, NumActions: 2, NumObs: 2, ActProb: [][][]float64{{{1, 0}}}, NextProb: [][][][]float64{{{{1}, {1}}}}}
	b := mix(a, &fsc.FSC{Nodes: 1, NumActions: 2, NumObs: 2, ActProb: [][][]float64{{{0, 1}}}, NextProb: [][][][]float64{{{{1}, {1}}}}}, 0.5)
	l1, coup := paramDistance(a, b, 3)
	if !(math.Abs(l1-1) <= 1e-12) || !(math.Abs(coup-1.5) <= 1e-12) {
		t.Errorf("ℓ1 %v coupling %v, want 1, 1.5", l1, coup)
	}
	if err := b.Validate(); err != nil {
		t.Error(err)
	}
}
