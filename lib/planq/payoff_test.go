package planq

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

// wrapNoBaseline is BestFSC whose run on the original is refused as
// Command.Original refuses alpha vectors (ErrNoBaseline, wrapped).
type wrapNoBaseline struct{ BestFSC }

func (wrapNoBaseline) Original(context.Context, *Env) (*Plan, error) {
	return nil, errors.Join(ErrNoBaseline, errors.New("alpha vectors"))
}

// TestPayoff: the payoff of Tiger (observation reward, m ≤ 2, T = 4)
// planned on the model, refused by its cost (--max-work 1) for the
// exhaustive search and for PBVI, and not valued on the model. Its sizes
// are the run's own (classes per depth summing to the row's classes, the
// model's states and |O|^T), its quotient time the sum of its parts, its
// outcome the one its own times and refusal give, and a refused model
// carries a lower bound (counted here from the model) no larger than the
// planner's estimate, named in the verdict.
func TestPayoff(t *testing.T) {
	cases := []struct {
		name    string
		planner Planner
		maxWork float64
		refused bool
		outcome Outcome // for a refused model; else decided by the times
		atLeast func(cfg Config) float64
	}{
		{"best-fsc planned on both", BestFSC{}, 0, false, 0, nil},
		{"best-fsc out of reach", BestFSC{}, 1, true, ModelOutOfReach, func(cfg Config) float64 {
			return 147 * float64(cfg.T) * float64(cfg.Model.NumStates())
		}},
		{"pbvi out of reach", PBVI{}, 1, true, ModelOutOfReach, func(cfg Config) float64 {
			n := 0
			for a := range cfg.Model.T {
				n += cfg.Model.T[a].NNZ()
			}
			return float64(cfg.T * cfg.Model.NumObservations() * n)
		}},
		{"not valued on the model", wrapNoBaseline{}, 0, true, NotCompared, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _ := tigerObs(t)
			cfg.Planner, cfg.MaxWork, cfg.TightnessLimit = tc.planner, tc.maxWork, -1
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			p := res.Payoff()
			last := res.Rows[len(res.Rows)-1] // the largest ε of tigerObs
			sum := 0
			for _, c := range p.Classes {
				sum += c
			}
			if p.Eps != 0.5 || sum != last.Classes || len(p.Classes) != cfg.T+1 || p.Classes[0] != 1 {
				t.Errorf("ε = %g, classes per depth %v (sum %d): want ε = 0.5 and %d classes over depths 0 … %d", p.Eps, p.Classes, sum, last.Classes, cfg.T)
			}
			if p.States != 2 || p.Observations != 2 || p.HistoriesT != math.Pow(2, float64(cfg.T)) || p.T != cfg.T || p.Planner != tc.planner.Name() {
				t.Errorf("model size %d states, |O| = %d, %g histories at T = %d, planner %q", p.States, p.Observations, p.HistoriesT, p.T, p.Planner)
			}
			if q := p.DistanceSec + p.PartitionSec + p.PlanQSec; math.Abs(q-p.QuotientSec) > 1e-12 || p.QuotientValue != last.VM {
				t.Errorf("quotient %g s, parts sum to %g s; value %g, row's V_M %g", p.QuotientSec, q, p.QuotientValue, last.VM)
			}
			if tc.refused != (res.Baseline == nil) {
				t.Fatalf("baseline %v, refused %q: want refused %v", res.Baseline, res.BaselineRefused, tc.refused)
			}
			want := tc.outcome
			if !tc.refused {
				want = ModelFaster
				if p.QuotientSec < p.ModelSec {
					want = QuotientFaster
				}
				if p.ModelValue != res.Baseline.Value || p.ModelSec != res.Baseline.Seconds {
					t.Errorf("model value %g in %g s, baseline %g in %g s", p.ModelValue, p.ModelSec, res.Baseline.Value, res.Baseline.Seconds)
				}
			} else if !math.IsNaN(p.ModelSec) || !math.IsNaN(p.ModelValue) || p.ModelRefused == "" {
				t.Errorf("refused model: %g s, value %g, refused %q", p.ModelSec, p.ModelValue, p.ModelRefused)
			}
			if p.Outcome != want || p.Outcome.Pays() != (want == ModelOutOfReach || want == QuotientFaster) {
				t.Errorf("outcome %v (pays %v), want %v: %s", p.Outcome, p.Outcome.Pays(), want, p.Verdict)
			}
			if tc.atLeast != nil {
				if w := tc.atLeast(cfg); p.ModelAtLeast != w || p.ModelAtLeast > p.ModelWork || p.ModelAtLeastHow == "" {
					t.Errorf("at least %g steps (%s), want %g, at most the estimate %g", p.ModelAtLeast, p.ModelAtLeastHow, w, p.ModelWork)
				}
				if !strings.Contains(p.Verdict, "out of reach") || !strings.Contains(p.Verdict, "at least") {
					t.Errorf("verdict %q: want out of reach, with the lower bound", p.Verdict)
				}
			}
			if want == NotCompared && strings.Contains(p.Verdict, "out of reach") {
				t.Errorf("a model not valued is not out of reach: %q", p.Verdict)
			}
		})
	}
	if (&Result{}).Payoff().Outcome != NoPayoff {
		t.Error("a run without rows has a payoff")
	}
}

// TestOutcomeString: every outcome has its own words.
func TestOutcomeString(t *testing.T) {
	seen := map[string]bool{}
	for o := NoPayoff; o <= ModelFaster; o++ {
		s := o.String()
		if seen[s] || strings.HasPrefix(s, "Outcome(") {
			t.Errorf("outcome %d: %q", int(o), s)
		}
		seen[s] = true
	}
	if got := Outcome(42).String(); got != "Outcome(42)" {
		t.Errorf("Outcome(42) = %q", got)
	}
}
