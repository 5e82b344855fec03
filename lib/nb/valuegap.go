package nb

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// ValueGapRow is one ε of [ValueGaps]: the largest value gap over the
// probes between a model and its ε-quotient, the regret on the model of the
// quotient's best probe, and the quotient's class count.
type ValueGapRow struct {
	Eps, Gap, Regret float64
	Classes          int
}

// ValueGaps evaluates every probe of fam (latent reward, horizon T) on m
// and on the quotient of r's ε-partition seen by the probe, for every ε of
// grid: the quantities thm:value-bound and its regret corollary bound.
func ValueGaps(m *pomdp.Model, fam fsc.Family, T int, r *distance.Result, grid []float64) ([]ValueGapRow, error) {
	vM, bestM, err := probeValues(m, fam, T)
	if err != nil {
		return nil, err
	}
	rows := make([]ValueGapRow, 0, len(grid))
	for _, eps := range grid {
		row, best, _, err := valueGapRow(m, fam, T, r, eps, vM)
		if err != nil {
			return nil, fmt.Errorf("ε = %g: %w", eps, err)
		}
		row.Regret = bestM - vM[best]
		rows = append(rows, row)
	}
	return rows, nil
}

// probeValues returns the latent-reward value of every probe of fam on m at
// horizon T, and the largest.
func probeValues(m *pomdp.Model, fam fsc.Family, T int) ([]float64, float64, error) {
	vM := make([]float64, fam.Len())
	bestM := math.Inf(-1)
	for i := range vM {
		v, err := value.Evaluate(m, fam.At(i), T, value.LatentReward{})
		if err != nil {
			return nil, 0, fmt.Errorf("probe %d on the model: %w", i, err)
		}
		vM[i], bestM = v, max(bestM, v)
	}
	return vM, bestM, nil
}

// valueGapRow is ValueGaps at one ε but the regret, given the probes'
// values vM on m; it also returns the quotient's best probe (the first of
// the largest value, to 1e-9) and every probe's gap |V_M − V_Q|.
func valueGapRow(m *pomdp.Model, fam fsc.Family, T int, r *distance.Result, eps float64, vM []float64) (ValueGapRow, int, []float64, error) {
	q, err := quotient.New(m, T, r.Partition(eps))
	if err != nil {
		return ValueGapRow{}, 0, nil, err
	}
	row := ValueGapRow{Eps: eps, Classes: q.Classes()}
	gaps := make([]float64, len(vM))
	bestQ, argQ := math.Inf(-1), 0
	for i := range vM {
		qm, err := q.ForProbe(fam.At(i))
		if err != nil {
			return row, 0, nil, err
		}
		vQ, err := value.Evaluate(qm, fam.At(i), T, value.LatentReward{})
		if err != nil {
			return row, 0, nil, fmt.Errorf("probe %d on the quotient: %w", i, err)
		}
		gaps[i] = math.Abs(vM[i] - vQ)
		row.Gap = max(row.Gap, gaps[i])
		if vQ > bestQ+1e-9 {
			bestQ, argQ = vQ, i
		}
	}
	return row, argQ, gaps, nil
}

// ValueBoundRow is one (family, T, ε) point of [ValueBoundSweep].
type ValueBoundRow struct {
	Family                      string
	T, Classes, Probes          int
	Eps, Diam, Gap, Bound       float64
	Regret, RegretBound, Margin float64 // Margin: min over probes of bound − gap
	Violations                  int     // probes with gap > bound (+1e-9), or regret > 2·bound
}

// ValueBoundSweep builds the ε-quotient of m under fam (discrete ground
// metric) for every ε of grid and compares, for every probe, the value gap
// |V_M^π − V_Q^π| (latent reward) with thm:value-bound's L_R·T·ε, and the
// regret of the quotient's best probe with 2·L_R·T·ε. A history whose law
// needs the impossible-history stand-in is an error: the sweep expects none.
func ValueBoundSweep(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, LR float64, grid []float64) ([]ValueBoundRow, error) {
	r, err := distance.Compute(ctx, m, fam, T, distance.Options{})
	if err != nil {
		return nil, err
	}
	if r.StandIns != 0 {
		return nil, fmt.Errorf("nb: ValueBoundSweep: %d (history, probe) pairs needed the stand-in under %s", r.StandIns, fam)
	}
	vM, bestM, err := probeValues(m, fam, T)
	if err != nil {
		return nil, err
	}
	var rows []ValueBoundRow
	for _, eps := range grid {
		g, best, gaps, err := valueGapRow(m, fam, T, r, eps, vM)
		if err != nil {
			return nil, fmt.Errorf("ε = %g: %w", eps, err)
		}
		row := ValueBoundRow{Family: fam.String(), T: T, Eps: eps, Classes: g.Classes, Probes: fam.Len(),
			Diam: Diameter(r, r.Partition(eps)), Gap: g.Gap, Regret: bestM - vM[best],
			Bound: value.Bound(LR, T, eps), RegretBound: value.RegretBound(LR, T, eps), Margin: math.Inf(1)}
		for _, gap := range gaps {
			row.Margin = min(row.Margin, row.Bound-gap)
			if gap > row.Bound+1e-9 {
				row.Violations++
			}
		}
		if row.Regret > row.RegretBound+1e-9 {
			row.Violations++
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// FamilyDistances returns the names of fams and b's probe distances at
// horizon T under each.
func FamilyDistances(ctx context.Context, b bench.Benchmark, T int, fams ...fsc.Family) ([]string, []*distance.Result, error) {
	names := make([]string, 0, len(fams))
	rs := make([]*distance.Result, 0, len(fams))
	for _, f := range fams {
		r, err := distance.Compute(ctx, b.Model, f, T, distance.Options{Ground: b.Ground})
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f, err)
		}
		names, rs = append(names, f.String()), append(rs, r)
	}
	return names, rs, nil
}

// Excess compares two distances over the same histories: it returns the
// largest d1 − d2 over all pairs (≤ 0 when d1 ≤ d2 everywhere; within 1e-12
// of 0 is 0) and the number of pairs with d1 > d2 + 1e-12. The error says
// where the two disagree in shape.
func Excess(r1, r2 *distance.Result) (float64, int, error) {
	if len(r1.D) != len(r2.D) {
		return 0, 0, fmt.Errorf("nb: Excess: %d depths against %d", len(r1.D), len(r2.D))
	}
	worst, count := math.Inf(-1), 0
	for t := range r1.D {
		d1, d2 := r1.D[t].Data, r2.D[t].Data
		if len(d1) != len(d2) {
			return 0, 0, fmt.Errorf("nb: Excess: depth %d: %d entries against %d", t, len(d1), len(d2))
		}
		for k, d := range d1 {
			worst = max(worst, d-d2[k])
			if d > d2[k]+1e-12 {
				count++
			}
		}
	}
	if math.Abs(worst) < 1e-12 {
		worst = 0 // rounding
	}
	return worst, count, nil
}
