package repro

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/datasets"
	"github.com/pomdpq/pomdpq/lib/baseline"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pbvi"
	"github.com/pomdpq/pomdpq/lib/value"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

func init() {
	register(Spec{Name: "planning-claims", Label: "§7, app:experiments prose",
		Title: "Numbers stated in the prose of §7 and App. H (planning, W1 vs TV, sanity check, settings)", Build: planningClaims})
}

func constant(v string) func(context.Context, *Env) (string, error) {
	return func(context.Context, *Env) (string, error) { return v, nil }
}

// ---------------------------------------------------------------------
// inline claims of §7 and App. H

// plSanitySeeds are the seeds of the stochastic-probe sanity check.
var plSanitySeeds = []uint64{7, 42, 123, 256, 999}

// plStochasticMaxW1 returns, per seed, the largest W1 between the suffix
// laws after L and R over 40 sampled stochastic stationary m = 2
// controllers (Tiger, T = 2), the paper's text.
func plStochasticMaxW1(ctx context.Context, env *Env) ([]float64, error) {
	return plStochasticMaxW1N(ctx, env, plSanitySeeds, plSanityPerSeed[0])
}

// plStochasticMaxW1N is plStochasticMaxW1 with n controllers per seed
// over the given seeds (cached per seed list and n).
func plStochasticMaxW1N(ctx context.Context, env *Env, seeds []uint64, n int) ([]float64, error) {
	return memo(env, fmt.Sprintf("sanity|stochastic|%v|%d", seeds, n), func() ([]float64, error) {
		b, err := bench.Lookup("tiger")
		if err != nil {
			return nil, err
		}
		var out []float64
		for _, seed := range seeds {
			fam, err := fsc.NewSampled(b.Model.NumActions(), b.Model.NumObservations(), plSanityM, 0, fsc.Options{Samples: n, Seed: seed})
			if err != nil {
				return nil, err
			}
			r, err := distance.Compute(ctx, b.Model, fam, 2, distance.Options{Ground: b.Ground, Workers: env.workers()})
			if err != nil {
				return nil, err
			}
			out = append(out, r.D[1].At(0, 1))
		}
		return out, nil
	})
}

// plSanityPerSeed are the controller counts per seed compared: 40 (the
// paper's text) and 200 (the authors' published code).
var plSanityPerSeed = []int{40, 200}

// plSanityM is the memory of the sanity check's controllers (m ≤ 2).
const plSanityM = 2

// plSanitySpread is the number of seeds (1 … plSanitySpread) over which the
// spread of the per-seed maximum is estimated for each count.
const plSanitySpread = 40

// plSanitySDs is the half-width, in standard deviations of a mean of
// len(plSanitySeeds) seeds, of the interval the printed mean is judged in.
const plSanitySDs = 2

// plSanityFit says which count per seed reproduces the printed mean of
// the five per-seed maxima: for each n, the per-seed maximum over n of our
// sampled controllers is drawn for seeds 1 … plSanitySpread, and the
// printed mean is judged against mean ± 2·sd/√5 (the spread of a mean of
// five seeds). It returns the counts whose interval holds the printed
// mean and one sentence per count.
func plSanityFit(ctx context.Context, env *Env, printed float64) (fits []int, why []string, err error) {
	seeds := make([]uint64, plSanitySpread)
	for i := range seeds {
		seeds[i] = uint64(i + 1)
	}
	for _, n := range plSanityPerSeed {
		x, err := plStochasticMaxW1N(ctx, env, seeds, n)
		if err != nil {
			return nil, nil, err
		}
		mean, sd := plMeanStd(x)
		half := plSanitySDs * sd / math.Sqrt(float64(len(plSanitySeeds)))
		in := math.Abs(printed-mean) <= half
		word := "outside"
		if in {
			fits = append(fits, n)
			word = "inside"
		}
		why = append(why, fmt.Sprintf("%d per seed: mean of %d per-seed maxima %.3f ± %.3f (%s sd over %d seeds), the printed %s is %s", n, len(plSanitySeeds), mean, half, fg(plSanitySDs), len(seeds), fg(printed), word))
	}
	return fits, why, nil
}

func plSanityStat(what string) func(context.Context, *Env) (string, error) {
	return func(ctx context.Context, env *Env) (string, error) {
		x, err := plStochasticMaxW1(ctx, env)
		if err != nil {
			return "", err
		}
		mean, std := plMeanStd(x)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range x {
			lo, hi = min(lo, v), max(hi, v)
		}
		return f3(map[string]float64{"mean": mean, "std": std, "min": lo, "max": hi}[what]), nil
	}
}

// plIndicatorLR is the Lipschitz constant of an indicator functional of
// the observations under the discrete metric (1/δ with δ = 1), the L_R
// of the horizon-gap and speed-up claims.
const plIndicatorLR = 1

// plHorizonGapEps is the ε of the horizon-gap claims; plSpeedupT and
// plSpeedupEps the horizon and ε of the Hallway speed-up claim.
const (
	plHorizonGapEps = 0.5
	plSpeedupT      = 2
	plSpeedupEps    = 0.5
)

// plHorizonGapCanonical returns the canonical bound of the horizon-gap
// claim at horizon T: plCanonical with L_R = 1 on Tiger's sizes. It is
// arithmetic on the paper's constants (a formula check), not a
// reproduction.
func plHorizonGapCanonical(T int) func(context.Context, *Env) (string, error) {
	return func(context.Context, *Env) (string, error) {
		b, err := bench.Lookup("tiger")
		if err != nil {
			return "", err
		}
		v := plCanonical(plIndicatorLR, T, plHorizonGapEps, b.Model.NumStates(), b.Model.NumObservations())
		return strconv.FormatFloat(v, 'f', -1, 64), nil
	}
}

// pbviQuotientStates returns the class count of RockSample's quotient in
// the PBVI comparison.
func plPBVIRow(ctx context.Context, env *Env, i int) (plPBVIResult, error) {
	rows, err := memo(env, "pbvi|rows", func() ([]plPBVIResult, error) { return plPBVIRows(ctx, env) })
	if err != nil {
		return plPBVIResult{}, err
	}
	return rows[i], nil
}

var plClaims = []claim{
	{id: "horizon_gap_canonical_T2", formula: true, value: plHorizonGapCanonical(2)},
	{id: "horizon_gap_canonical_T10", formula: true, value: plHorizonGapCanonical(10)},
	{id: "sanity_det_fscs", value: func(context.Context, *Env) (string, error) {
		f, err := fsc.NewStationary(3, 2, 2, fsc.Options{})
		if err != nil {
			return "", err
		}
		return itoa(f.Len()), nil
	}},
	{id: "sanity_det_max_w1", value: pairDistance("tiger", fsc.KindStationary, plSanityM, 2, 1, "L", "R", distance.W1)},
	{id: "sanity_n_stochastic", setting: true, value: constant(itoa(plSanityPerSeed[0] * len(plSanitySeeds)))},
	{id: "sanity_per_seed", setting: true, value: constant(itoa(plSanityPerSeed[0]))},
	{id: "sanity_max_w1_mean", pattern: true, judge: plSanityJudge, value: plSanityStat("mean")},
	{id: "sanity_max_w1_std", pattern: true, judge: plSanityJudge, value: plSanityStat("std")},
	{id: "sanity_max_w1_min", pattern: true, judge: plSanityJudge, value: plSanityStat("min")},
	{id: "sanity_max_w1_max", pattern: true, judge: plSanityJudge, value: plSanityStat("max")},
	{id: "w1tv_classes_eps0_w1", value: classes("gridworld:5", fsc.KindStationary, 1, 2, 0)},
	{id: "w1tv_classes_eps0_tv", value: plTVClasses("gridworld:5", 0)},
	{id: "w1tv_classes_eps0_3_w1", value: classes("gridworld:5", fsc.KindStationary, 1, 2, 0.3)},
	{id: "w1tv_classes_eps0_3_tv", value: plTVClasses("gridworld:5", 0.3)},
	{id: "speedup_hallway_gap", value: plTableCell("planning-speedup", "Hallway|1|0.5", "value_gap")},
	{id: "speedup_hallway_bound", formula: true, value: func(context.Context, *Env) (string, error) {
		return plF2(value.Bound(plIndicatorLR, plSpeedupT, plSpeedupEps)), nil
	}},
	{id: "speedup_reduction_pct", value: func(ctx context.Context, env *Env) (string, error) {
		r, _, err := distances(ctx, env, "hallway:10", fsc.KindStationary, 1, 2, false)
		if err != nil {
			return "", err
		}
		a, b := r.Partition(0).Total(), r.Partition(0.5).Total()
		return strconv.FormatFloat(100*float64(a-b)/float64(a), 'f', 0, 64), nil
	}},
	{id: "belief_extreme_ari", value: plTableCell("belief-sensitivity", "0.1", "ari_eps0_3")},
	{id: "belief_extreme_classes", value: plTableCell("belief-sensitivity", "0.1", "classes_eps0_3")},
	{id: "bisim_iterations", setting: true, value: constant(itoa(baseline.DefaultBisimIterations))},
	{id: "bisim_discount", setting: true, value: constant(strconv.FormatFloat(baseline.DefaultBisimDiscount, 'f', -1, 64))},
	{id: "pbvi_belief_points", setting: true, value: constant(itoa(pbvi.DefaultPoints))},
	{id: "pbvi_gamma", setting: true, value: func(ctx context.Context, env *Env) (string, error) {
		row, err := plPBVIRow(ctx, env, 0)
		if err != nil {
			return "", err
		}
		return strconv.FormatFloat(row.gamma, 'f', -1, 64), nil
	}},
	{id: "pbvi_seed", setting: true, value: constant(itoa(pbvi.DefaultSeed))},
	{id: "pbvi_rocksample_quot_states_low", rebuild: plRockSampleClasses(0.5), value: func(ctx context.Context, env *Env) (string, error) {
		row, err := plPBVIRow(ctx, env, 4)
		return itoa(row.classes), err
	}},
	{id: "pbvi_rocksample_quot_states_high", rebuild: plRockSampleClasses(0), value: func(ctx context.Context, env *Env) (string, error) {
		row, err := plPBVIRow(ctx, env, 4)
		return itoa(row.classes), err
	}},
}

// plRockSampleClasses reconstructs the prose's RockSample quotient sizes
// (3–5) as class counts at T = 2 (the caption of tab:pbvi-comparison says
// T = 3, where ε = 0.5 gives 6).
func plRockSampleClasses(eps float64) func(context.Context, *Env) (string, string, error) {
	return func(ctx context.Context, env *Env) (string, string, error) {
		const m, T = 1, 2 // the setting that gives the prose's sizes
		r, _, err := distances(ctx, env, "rocksample:4:4", fsc.KindStationary, m, T, false)
		if err != nil {
			return "", "", err
		}
		return itoa(r.Partition(eps).Total()), fmt.Sprintf("RockSample's class count at m = %d, T = %d, ε = %s (our T = %d quotient of tab:pbvi-comparison has the row's value)", m, T, fe(eps), plPBVIT), nil
	}
}

// plSanityJudge computes the sanity check's claim: no sampled stochastic
// controller separates L and R more than the best deterministic one.
func plSanityJudge(ctx context.Context, env *Env) verdict.Judgement {
	x, err := plStochasticMaxW1(ctx, env)
	if err != nil {
		return verdict.NotJudgedBecause(err.Error())
	}
	ds, err := pairDistance("tiger", fsc.KindStationary, plSanityM, 2, 1, "L", "R", distance.W1)(ctx, env)
	if err != nil {
		return verdict.NotJudgedBecause(err.Error())
	}
	det, err := strconv.ParseFloat(ds, 64)
	if err != nil {
		return verdict.NotJudgedBecause(err.Error())
	}
	worst := math.Inf(-1)
	for _, v := range x {
		worst = max(worst, v)
	}
	if worst > det+1e-9 {
		return verdict.Differ(fmt.Sprintf("a sampled stochastic controller (W1 %s) exceeds the deterministic maximum %s", f3(worst), ds), "value")
	}
	b, err := bench.Lookup("tiger")
	if err != nil {
		return verdict.NotJudgedBecause(err.Error())
	}
	fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), plSanityM, fsc.Options{})
	if err != nil {
		return verdict.NotJudgedBecause(err.Error())
	}
	seeds := make([]string, len(plSanitySeeds))
	for k, s := range plSanitySeeds {
		seeds[k] = strconv.FormatUint(s, 10)
	}
	return verdict.ByPattern(fmt.Sprintf("pattern: our own draws (PCG seeds %s, %d controllers each) reach at most %s, below the computed deterministic maximum %s (m ≤ %d, %d controllers)",
		strings.Join(seeds, ", "), plSanityPerSeed[0], f3(worst), ds, plSanityM, fam.Len()))
}

func plTVClasses(model string, eps float64) func(context.Context, *Env) (string, error) {
	return func(ctx context.Context, env *Env) (string, error) {
		r, _, err := distancesOpt(ctx, env, model, fsc.KindStationary, 1, 2, distance.Options{Metric: distance.TV})
		if err != nil {
			return "", err
		}
		return itoa(r.Partition(eps).Total()), nil
	}
}

// plTableCell reads one cell of another registered table (built once per
// Env).
func plTableCell(name, key, column string) func(context.Context, *Env) (string, error) {
	return func(ctx context.Context, env *Env) (string, error) {
		tab, err := memo(env, "table|"+name, func() (*Table, error) {
			s, err := Lookup(name)
			if err != nil {
				return nil, err
			}
			return s.Build(ctx, env)
		})
		if err != nil {
			return "", err
		}
		for i := range tab.Rows {
			if tab.Key(i) == key {
				for c, col := range tab.Columns {
					if col.Name == column {
						return tab.Rows[i][c], nil
					}
				}
			}
		}
		return "", fmt.Errorf("repro: no cell %s[%s].%s", name, key, column)
	}
}

func planningClaims(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "planning-claims", Paper: "inline-claims", Label: "§7, app:experiments",
		Title:   "Numbers stated in the prose of §7 and App. H: horizon gap, sanity check, W1 vs TV, planning, settings",
		Columns: []Column{{"id", Key}, {"section_label", Info}, {"quantity", Info}, {"value", Exact}}}
	all, err := datasets.Claims()
	if err != nil {
		return nil, err
	}
	patterns, err := addClaims(ctx, env, t, all, plClaims)
	if err != nil {
		return nil, err
	}
	// The paper's text says 40 controllers per seed; the authors' code
	// draws 200. Both are reproduced (ours only: our sampler, the paper's
	// seeds) and the printed mean is judged against each.
	x200, err := plStochasticMaxW1N(ctx, env, plSanitySeeds, plSanityPerSeed[1])
	if err != nil {
		return nil, err
	}
	mean200, std200 := plMeanStd(x200)
	t.Rows = append(t.Rows,
		[]string{"sanity_max_w1_mean_200", "app:experiments", "per-seed max W1 over 200 stochastic FSCs per seed (the authors' code), mean", f3(mean200)},
		[]string{"sanity_max_w1_std_200", "app:experiments", "per-seed max W1 over 200 stochastic FSCs per seed, std", f3(std200)},
		[]string{"sanity_max_w1_min_200", "app:experiments", "per-seed max W1 over 200 stochastic FSCs per seed, range low", f3(slices.Min(x200))},
		[]string{"sanity_max_w1_max_200", "app:experiments", "per-seed max W1 over 200 stochastic FSCs per seed, range high", f3(slices.Max(x200))})
	printedMean, err := strconv.ParseFloat(all["sanity_max_w1_mean"].Value, 64)
	if err != nil {
		return nil, fmt.Errorf("repro: sanity_max_w1_mean: %w", err)
	}
	fits, fitWhy, err := plSanityFit(ctx, env, printedMean)
	if err != nil {
		return nil, err
	}
	fitText := "none"
	if len(fits) > 0 {
		var s []string
		for _, n := range fits {
			s = append(s, itoa(n))
		}
		fitText = strings.Join(s, " and ")
	}
	t.Rows = append(t.Rows, []string{"sanity_per_seed_matching", "app:experiments",
		fmt.Sprintf("controllers per seed whose mean of %d per-seed maxima holds the printed mean (our sampler)", len(plSanitySeeds)), fitText})
	t.Notes = append(t.Notes, "Controllers per seed: "+strings.Join(fitWhy, "; ")+".")
	det := "maximum"
	if i := t.Row("sanity_det_max_w1"); i >= 0 {
		det += " " + t.at(i, "value")
	}
	claimJudges(t, patterns)
	judge := t.PatternOK
	t.PatternOK = func(i int) verdict.Judgement {
		j := judge(i)
		id := t.at(i, "id")
		if !strings.HasPrefix(id, "sanity_max_w1") {
			return j
		}
		fit := "the printed mean fits " + fitText + " controllers per seed (" + strings.Join(fitWhy, "; ") + ")"
		if id != "sanity_max_w1_max" {
			// One condition (every per-seed maximum below the deterministic
			// one) is the claim; it is judged once, on the row whose value
			// it is about. The mean, std and low end are statistics of our
			// sampler, not the paper's: not judged (they were counted as
			// three more agreements with the same verdict).
			return verdict.NotJudgedBecause("a per-seed statistic of our own sampler (tables drawn uniformly from the simplex), not the paper's; the claim is judged on sanity_max_w1_max; " + fit)
		}
		if j.Outcome != verdict.AgreeByPattern {
			j.Note += "; " + fit
			return j
		}
		// The claim holds on our draws, but the row's number (the
		// largest per-seed maximum of the authors' sampler) is not
		// compared with ours: nothing here judges it.
		return verdict.NotJudgedBecause("the printed value is the largest per-seed maximum of the authors' sampler, which ours (tables drawn uniformly from the simplex) is not, so the number is not compared; the claim it supports is checked: " +
			strings.TrimPrefix(j.Note, "pattern: ") + "; " + fit)
	}
	t.Notes = append(t.Notes,
		"Settings rows (stochastic controllers per seed and in total, bisimulation iterations and discount, PBVI points, discount and seed) read the inputs and defaults of lib/baseline and lib/pbvi, which follow the paper: they are shown with status 'setting' and never counted as agreement.",
		"The sanity-check statistics come from our sampler (tables drawn uniformly from the simplex), not the paper's, so none of their numbers is judged: the claim is checked on sanity_max_w1_max (the per-seed maxima stay below the deterministic "+det+") and shown in its note, but a number of another sampler is not compared, so the row is not judged.")
	return t, nil
}
