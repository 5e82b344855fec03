package planq

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/value"
)

// posteriorViolations returns how many checks of the a-posteriori
// certificate, weakened by factor (1: as proven), fail on the rows: the
// worst exact |V_M(π) − V_Q(π)| over the controllers of Π whose quotient
// enters no stand-in class must be ≤ factor·Deviation, and a certified
// regret ≤ factor·Value. It also returns how many rows were checked.
func posteriorViolations(t *testing.T, res *Result, factor float64) (bad, checked int) {
	for _, r := range res.Rows {
		p := r.Posterior
		if !p.Applies {
			continue
		}
		checked++
		tol := 1e-9 * max(1, math.Abs(r.Reference))
		for k, pr := range r.Tightness.pairs {
			if pr[0] > factor*pr[1]+tol {
				bad++
				if factor == 1 {
					t.Errorf("%s ε=%g: controller %d: |V_M − V_Q| = %.9g > its bound %.9g (%v)", res.Family, r.Eps, k, pr[0], pr[1], p)
				}
			}
		}
		if w := r.Tightness.Worst; !math.IsNaN(w) && w > factor*p.Deviation+tol {
			bad++
			if factor == 1 {
				t.Errorf("%s ε=%g: |V_M − V_Q| = %.9g (%s) > Lip·Σe_t = %.9g (%v)", res.Family, r.Eps, w, r.Tightness.Controller, p.Deviation, p)
			}
		}
		if r.StandInReach == 0 && r.Regret > factor*p.Value+tol {
			bad++
			if factor == 1 {
				t.Errorf("%s ε=%g: regret %.9g > %.9g (%v)", res.Family, r.Eps, r.Regret, p.Value, p)
			}
		}
	}
	return bad, checked
}

// TestPosteriorRandom checks the a-posteriori certificate of
// docs/certificates.md on random small models with the observation
// reward (a fifth drawn with many zero probabilities, so that some
// histories are impossible): stationary m ≤ 2 and clock-aware m = 1,
// ε from 0.05 to 0.6. Every certified deviation and regret bound must
// hold for every controller of Π; weakened by a factor 0.5 the same
// checks must fail somewhere (the test can fail); for m = 2 the
// certificate must not be printed.
func TestPosteriorRandom(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	rng := rand.New(rand.NewPCG(26, 2026))
	checked, weakBad, standIn := 0, 0, 0
	for i := 0; i < n; i++ {
		m, err := randomModel(rng, true)
		if err != nil {
			t.Fatal(err)
		}
		kind, mem, T := fsc.KindStationary, 1+rng.IntN(2), 2+rng.IntN(2)
		if i%3 == 0 {
			kind, mem = fsc.KindClock, 1
		}
		cfg := Config{Model: m, Kind: kind, M: mem, T: T, Eps: []float64{0.05, 0.1, 0.2, 0.3, 0.45, 0.6}, Planner: BestFSC{},
			ObsValues: value.ObsValues(m.NumObservations())}
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("model %d: %v", i, err)
		}
		if res.StandIns > 0 {
			standIn++
		}
		for _, r := range res.Rows {
			if r.Posterior.Applies && mem != 1 {
				t.Fatalf("model %d (%s m=%d): certificate applies = %v: %v", i, kind, mem, r.Posterior.Applies, r.Posterior)
			}
		}
		_, c := posteriorViolations(t, res, 1)
		checked += c
		b, _ := posteriorViolations(t, res, 0.5)
		weakBad += b
	}
	t.Logf("%d rows checked (%d models with impossible histories); the certificate weakened by 0.5 fails %d checks", checked, standIn, weakBad)
	if checked < n {
		t.Errorf("only %d rows checked", checked)
	}
	if standIn == 0 {
		t.Error("no model with impossible histories")
	}
	if weakBad == 0 {
		t.Error("the certificate weakened by 0.5 never fails: the test cannot fail")
	}
}
