package repro

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/lib/baseline"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pbvi"
	"github.com/pomdpq/pomdpq/lib/planq"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// Helpers of the tables of paper §7 and App. H on planning, baselines and
// sensitivity (docs/paper-map.md#07-planning-and-sensitivity; one file per
// table: value_bounds.go, planning_speedup.go, …). The paper's value
// columns are reproduced by the trace functional baseline.AllFirst (the
// indicator that every observation equals the first one); see the package
// documentation of lib/baseline and the notes of each table.

func plF2(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
func plF4(x float64) string { return strconv.FormatFloat(plClean(x), 'f', 4, 64) }

// plClean maps rounding noise (|x| < 1e-12) to 0, so that no "-0.000"
// is printed.
func plClean(x float64) float64 {
	if math.Abs(x) < 1e-12 {
		return 0
	}
	return x
}
func plEps(x float64) string {
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// plCanonical is L_R·T·ε·(1 + 2T|S||O|): prop:canonical-quotient (iii)
// turned into a value bound, the formula that reproduces panels A and B of
// tab:value-bounds and the horizon-gap claims (17 at T = 2, 405 at T = 10).
func plCanonical(LR float64, T int, eps float64, nS, nO int) float64 {
	return LR * float64(T) * eps * (1 + 2*float64(T*nS*nO))
}

// assessed is a partition of a built-in model scored by baseline.Assess.
func plAssess(ctx context.Context, env *Env, model string, m, T int, p *partition.Partition, obj value.Objective) (baseline.Score, bench.Benchmark, error) {
	r, b, err := distances(ctx, env, model, fsc.KindStationary, m, T, false)
	if err != nil {
		return baseline.Score{}, b, err
	}
	fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), m, fsc.Options{})
	if err != nil {
		return baseline.Score{}, b, err
	}
	if p == nil {
		return baseline.Score{}, b, fmt.Errorf("repro: nil partition")
	}
	s, err := baseline.Assess(ctx, b.Model, b.Ground, fam, T, p, obj, r.D)
	return s, b, err
}

// zNormal95 is the two-sided 95% quantile of the normal distribution used
// for the intervals of means (mean ± zNormal95 standard errors).
const zNormal95 = 1.96

func plMeanStd(x []float64) (mean, std float64) {
	for _, v := range x {
		mean += v / float64(len(x))
	}
	for _, v := range x {
		std += (v - mean) * (v - mean) / float64(len(x)-1)
	}
	return mean, math.Sqrt(std)
}

// ---------------------------------------------------------------------
// tab:pbvi-comparison

type plPBVIResult struct {
	name, model, reward    string
	nS, classes, qStates   int
	tOrig, tQuot, tPart    float64
	vOrig, vQuot, vOnOrig  float64
	gamma                  float64
	ref                    string
	pointsOrig, pointsQuot int
	gapEps0                float64 // value gap of the exact (ε = 0) quotient
	alt                    string  // class counts in other settings
	altCounts              []plAlt
	ownRewardMax           float64 // max |R| of the benchmark's own reward
}

// plAlt is the class count of a PBVI benchmark in another setting.
type plAlt struct {
	T       int
	eps     float64
	classes int
}

// plPBVIT and plPBVIEps are the horizon and ε of tab:pbvi-comparison (its
// caption's).
const (
	plPBVIT   = 3
	plPBVIEps = 0.5
)

func plPBVIRows(ctx context.Context, env *Env) ([]plPBVIResult, error) {
	const T, eps = plPBVIT, plPBVIEps
	cases := []struct{ name, model, reward string }{
		{"Tiger", "tiger", "own"},
		{"GridWorld 3x3", "gridworld:3", "goal"},
		{"GridWorld 5x5", "gridworld:5", "goal"},
		{"Network Monitoring (n=4)", "netmon:4", "obs"},
		{"RockSample(4,4)", "rocksample:4:4", "own"},
	}
	var out []plPBVIResult
	for _, c := range cases {
		start := time.Now()
		r, b, err := distances(ctx, env, c.model, fsc.KindStationary, 1, T, false)
		if err != nil {
			return nil, err
		}
		m := b.Model
		ownMax := 0.0
		for _, row := range m.R {
			for _, v := range row {
				ownMax = max(ownMax, math.Abs(v))
			}
		}
		switch c.reward {
		case "goal":
			g, err := bench.Lookup(strings.Replace(c.model, "gridworld", "gridworld-goal", 1))
			if err != nil {
				return nil, err
			}
			m = g.Model
		case "obs":
			if m, err = value.WithObsReward(m); err != nil {
				return nil, err
			}
		}
		q, err := quotient.New(m, T, r.Partition(eps))
		if err != nil {
			return nil, err
		}
		ref, err := planq.ExportProbe(m, T)
		if err != nil {
			return nil, err
		}
		qm, err := q.Export(ref)
		if err != nil {
			return nil, err
		}
		tPart := time.Since(start).Seconds()
		settings := pbvi.Settings{Horizon: T, Seed: pbvi.DefaultSeed}
		po, err := pbvi.Solve(ctx, m, settings)
		if err != nil {
			return nil, err
		}
		pq, err := pbvi.Solve(ctx, qm, settings)
		if err != nil {
			return nil, err
		}
		onOrig, err := pq.Evaluate(ctx, qm, m, T, 0)
		if err != nil {
			return nil, err
		}
		// The same pipeline on the exact (ε = 0) quotient.
		q0, err := quotient.New(m, T, r.Partition(0))
		if err != nil {
			return nil, err
		}
		qm0, err := q0.Export(ref)
		if err != nil {
			return nil, err
		}
		pq0, err := pbvi.Solve(ctx, qm0, settings)
		if err != nil {
			return nil, err
		}
		onOrig0, err := pq0.Evaluate(ctx, qm0, m, T, 0)
		if err != nil {
			return nil, err
		}
		// Class counts of the same model in the other settings the paper uses.
		var alt []string
		var altCounts []plAlt
		for _, st := range []struct {
			T   int
			eps float64
		}{{2, 0.3}, {2, 0.5}, {3, 0.6}} {
			ra, _, err := distances(ctx, env, c.model, fsc.KindStationary, 1, st.T, false)
			if err != nil {
				return nil, err
			}
			alt = append(alt, fmt.Sprintf("%d (T=%d, ε=%g)", ra.Partition(st.eps).Total(), st.T, st.eps))
			altCounts = append(altCounts, plAlt{st.T, st.eps, ra.Partition(st.eps).Total()})
		}
		out = append(out, plPBVIResult{name: c.name, model: c.model, reward: c.reward, nS: m.NumStates(), classes: q.Classes(),
			qStates: qm.NumStates(), tOrig: po.Seconds, tQuot: pq.Seconds, tPart: tPart, vOrig: po.Value, vQuot: pq.Value,
			vOnOrig: onOrig, gamma: po.Discount, ref: value.Policy(m, ref, T), pointsOrig: len(po.Beliefs), pointsQuot: len(pq.Beliefs),
			gapEps0: po.Value - onOrig0, alt: strings.Join(alt, ", "), altCounts: altCounts, ownRewardMax: ownMax})
	}
	return out, nil
}
