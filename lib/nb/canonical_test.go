package nb

import (
	"math/rand/v2"
	"testing"
)

func TestCheckCanonical(t *testing.T) {
	const T = 3
	b, fam, r := tigerDistances(t, T)
	tests := []struct {
		eps   float64
		exact bool // ε = 0: the canonical quotient is exact (both sides 0)
	}{
		{0, true},
		{0.5, false},
		{1, false},
	}
	for _, tt := range tests {
		p := r.Partition(tt.eps)
		c, err := CheckCanonical(b.Model, b.Ground, r.Tree, T, fam, p, tt.eps, rand.New(rand.NewPCG(5, 6)))
		if err != nil {
			t.Fatalf("ε = %g: %v", tt.eps, err)
		}
		nS, nO := float64(b.Model.NumStates()), float64(b.Model.NumObservations())
		if c.Classes != p.Total() || c.StepBound != 2*tt.eps*nS || c.TrajB != tt.eps*(1+2*T*nS*nO) {
			t.Errorf("ε = %g: labels %+v", tt.eps, c)
		}
		// prop:canonical-quotient (i) and (iii).
		if c.Step > c.StepBound+1e-12 || c.Traj > c.TrajB+1e-12 {
			t.Errorf("ε = %g: a bound fails: %+v", tt.eps, c)
		}
		if exact := c.Step <= 1e-12 && c.Traj <= 1e-12; exact != tt.exact {
			t.Errorf("ε = %g: step %g, trajectory %g", tt.eps, c.Step, c.Traj)
		}
	}
}
