package certify

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

// TestProbeApprox checks thm:probe-approx, |V_M^π − V_{M̃_S}^π| ≤
// L_R·T·(ε + δ_S) for every probe, and the proof's step diam ≤ ε + δ_S,
// with the synthetic 1-Lipschitz observation reward (discrete metric).
func TestProbeApprox(t *testing.T) {
	for _, c := range []struct {
		model string
		m, T  int
	}{{"tiger", 2, 3}, {"gridworld:3", 1, 3}, {"random:6:2:3:4", 2, 3}} {
		b, err := bench.Lookup(c.model)
		if err != nil {
			t.Fatal(err)
		}
		m, err := value.WithObsReward(b.Model)
		if err != nil {
			t.Fatal(err)
		}
		fam, _ := fsc.NewStationary(m.NumActions(), m.NumObservations(), c.m, fsc.Options{})
		r, err := distance.Compute(context.Background(), m, fam, c.T, distance.Options{Ground: ot.Discrete(m.NumObservations()), Tensor: true})
		if err != nil {
			t.Fatal(err)
		}
		tt, err := FromResult(r)
		if err != nil {
			t.Fatal(err)
		}
		eps, ks := []float64{0, 0.25, 0.5, 1}, []int{0, 1, 2, 3}
		rows, err := ProbeApprox(context.Background(), m, fam, c.T, tt, eps, ks, ApproxOptions{})
		if err != nil {
			t.Fatal(err)
		}
		nonzero := false
		for _, row := range rows {
			if !row.OK() {
				t.Errorf("%s k=%d ε=%v: diameter %v (ε+δ_S = %v), max gap %v > bound %v", c.model, row.K, row.Eps, row.Diameter, row.Eps+row.DeltaS, row.MaxGap, row.Bound)
			}
			nonzero = nonzero || row.MaxGap > 1e-6
		}
		if !nonzero {
			t.Errorf("%s: every value gap is zero; the check cannot fail", c.model)
		}
		if c.model != "tiger" {
			continue
		}
		// Evaluating every member gives the same maxima as one per action tree.
		every, err := ProbeApprox(context.Background(), m, fam, c.T, tt, eps, ks, ApproxOptions{Every: true})
		if err != nil {
			t.Fatal(err)
		}
		for i := range rows {
			if !(math.Abs(rows[i].MaxGap-every[i].MaxGap) <= 1e-12) || every[i].Probes != fam.Len() {
				t.Errorf("k=%d ε=%v: %v over distinct probes, %v over all %d", rows[i].K, rows[i].Eps, rows[i].MaxGap, every[i].MaxGap, every[i].Probes)
			}
		}
	}
}
