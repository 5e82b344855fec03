package planq

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/internal/randmodel"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/value"
)

// randomModel draws a small model with a random latent reward in [−1, 1]
// (own) or the observation reward of its observation values.
func randomModel(rng *rand.Rand, obs bool) (*pomdp.Model, error) {
	nS, nA, nO := 2+rng.IntN(2), 2, 2+rng.IntN(2)
	row := randmodel.Sparse(rng, 0.2)
	d := randmodel.Dense("random", nS, nA, nO, row)
	d.R = make([][]float64, nS)
	for s := range d.R {
		for range nA {
			d.R[s] = append(d.R[s], 2*rng.Float64()-1)
		}
	}
	d.B0 = row(nS)
	m, err := pomdp.New(d)
	if err != nil || !obs {
		return m, err
	}
	return value.WithObsReward(m)
}

// TestRegretWithinBoundRandom checks the implication of cor:sim-to-real,
// regret ≤ 2·L_R·T·ε, with the exact L_R of def:obs-lipschitz, for the
// best-fsc planner on hundreds of random models (own random rewards and
// observation rewards, stationary and clock-aware families, ε from 0 to
// 0.6). Rows whose L_R is infinite (the theorem gives nothing) are
// counted, not judged; at least 200 rows must be judged.
func TestRegretWithinBoundRandom(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	rng := rand.New(rand.NewPCG(18, 2026))
	judged, vacuous := 0, 0
	for i := 0; i < n; i++ {
		obs := i%2 == 0
		m, err := randomModel(rng, obs)
		if err != nil {
			t.Fatal(err)
		}
		kind, mem, T := fsc.KindStationary, 1+rng.IntN(2), 2+rng.IntN(2)
		if i%3 == 0 {
			kind, mem = fsc.KindClock, 1
		}
		cfg := Config{Model: m, Kind: kind, M: mem, T: T, Eps: []float64{0, 0.1, 0.3, 0.6}, Planner: BestFSC{}}
		if obs {
			cfg.ObsValues = value.ObsValues(m.NumObservations())
		}
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("model %d: %v", i, err)
		}
		if res.LR.How != "exact" {
			t.Fatalf("model %d: L_R not exact: %+v", i, res.LR)
		}
		for _, r := range res.Rows {
			switch r.Verdict {
			case VacuousBound:
				vacuous++
			case WithinBound:
				judged++
			default:
				t.Errorf("model %d (%s m=%d T=%d, obs %v) ε=%g: regret %.6g, bound %v: %s", i, kind, mem, T, obs, r.Eps, r.Regret, r.Bound, r.Verdict)
			}
			if r.Eps == 0 && !math.IsInf(r.Bound.Value, 1) && math.Abs(r.Regret) > 1e-9 {
				t.Errorf("model %d: ε = 0 regret %g", i, r.Regret)
			}
		}
	}
	t.Logf("%d rows within bound, %d with an infinite L_R", judged, vacuous)
	if judged < 200 && !testing.Short() {
		t.Errorf("only %d rows judged", judged)
	}
}
