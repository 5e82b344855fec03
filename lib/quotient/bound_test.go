package quotient

import (
	"context"
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/value"
)

// TestValueBound checks thm:value-bound, |V_M^π − V_Q^π| ≤ L_R·T·ε, for
// every probe of the family on ε-quotients, with the synthetic observation
// reward R(s,a) = E[v(O') | s, a] (L_R = 1 under the discrete metric).
func TestValueBound(t *testing.T) {
	for _, tc := range []struct {
		model string
		m, T  int
	}{{"gridworld:3", 1, 2}, {"gridworld:3", 1, 3}, {"tiger", 1, 3}, {"tiger", 2, 3}, {"random:6:2:3:4", 1, 3}, {"random:5:3:2:9", 2, 3}, {"random:8:2:4:21", 1, 3}, {"witness", 1, 3}} {
		b, err := bench.Lookup(tc.model)
		if err != nil {
			t.Fatal(err)
		}
		m, err := value.WithObsReward(b.Model)
		if err != nil {
			t.Fatal(err)
		}
		fam, _ := fsc.NewStationary(m.NumActions(), m.NumObservations(), tc.m, fsc.Options{})
		r, err := distance.Compute(context.Background(), m, fam, tc.T, distance.Options{Ground: ot.Discrete(m.NumObservations())})
		if err != nil {
			t.Fatal(err)
		}
		for _, eps := range []float64{0, 0.05, 0.1, 0.2, 0.3, 0.5, 1} {
			q, err := New(m, tc.T, r.Partition(eps))
			if err != nil {
				t.Fatal(err)
			}
			worst := 0.0
			for i := 0; i < fam.Len(); i++ {
				pi := fam.At(i)
				qm, err := q.ForProbe(pi)
				if err != nil {
					t.Fatal(err)
				}
				vm, err := value.Evaluate(m, pi, tc.T, value.LatentReward{})
				if err != nil {
					t.Fatal(err)
				}
				vq, err := value.Evaluate(qm, pi, tc.T, value.LatentReward{})
				if err != nil {
					t.Fatal(err)
				}
				worst = math.Max(worst, math.Abs(vm-vq))
			}
			bound := value.Bound(1, tc.T, eps)
			t.Logf("%s m=%d T=%d ε=%.2f: classes %d, max |V_M − V_Q| = %.4f, bound %.4f", tc.model, tc.m, tc.T, eps, q.Classes(), worst, bound)
			if !(worst <= bound+1e-9) {
				t.Errorf("%s m=%d T=%d ε=%v: max |V_M − V_Q| = %v exceeds L_R·T·ε = %v", tc.model, tc.m, tc.T, eps, worst, bound)
			}
		}
	}
}
