package repro

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/datasets"
	"github.com/pomdpq/pomdpq/lib/baseline"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/certify"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pbvi"
	"github.com/pomdpq/pomdpq/lib/plan"
	"github.com/pomdpq/pomdpq/lib/planq"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

// Tables of paper §7 and App. H on planning, baselines and sensitivity
// (docs/paper-map.md#07-planning-and-sensitivity). The paper's value columns are reproduced by the
// trace functional baseline.AllFirst (the indicator that every
// observation equals the first one); see the package documentation of
// lib/baseline and the notes of each table.

func init() {
	register(Spec{Name: "pbvi-comparison", Label: "tab:pbvi-comparison",
		Title: "PBVI on original vs quotient POMDPs (m = 1, T = 3, ε = 0.5)", Build: pbviComparison})
	register(Spec{Name: "planning-speedup", Label: "tab:planning-speedup",
		Title: "Exhaustive policy search on original vs quotient (T = 2)", Build: planningSpeedup})
	register(Spec{Name: "value-bounds", Label: "tab:value-bounds",
		Title: "Value-function error vs the bounds of thm:value-bound and prop:canonical-quotient (m = 1, T = 2)", Build: valueBounds})
	register(Spec{Name: "baseline-full", Label: "tab:baseline-full",
		Title: "ε-quotient vs truncation, random, belief-distance and bisimulation partitions (m = 1, T = 2)", Build: baselineFull})
	register(Spec{Name: "noise-sensitivity", Label: "app:experiments (Observation Noise Sensitivity)",
		Title: "Tiger (m = 1, T = 2) over listening accuracy 0.70 … 0.95", Build: noiseSensitivity})
	register(Spec{Name: "belief-sensitivity", Label: "tab:belief-sensitivity",
		Title: "Partition stability under initial-belief perturbation (Tiger, m = 1, T = 2)", Build: beliefSensitivity})
	register(Spec{Name: "ablation", Label: "app:experiments (Ablation Studies)",
		Title: "Ablations on Tiger (full actions): metric, memory, greedy subset (classes at ε = 0.3)", Build: ablation})
	register(Spec{Name: "horizon-gap", Label: "app:experiments (Horizon Gap Analysis)",
		Title: "Tiger, m = 1, ε = 0.5: value error and bounds for T = 2 … 10", Build: horizonGap})
	register(Spec{Name: "planning-claims", Label: "§7, app:experiments prose",
		Title: "Numbers stated in the prose of §7 and App. H (planning, W1 vs TV, sanity check, settings)", Build: planningClaims})
}

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

// ---------------------------------------------------------------------
// tab:baseline-full

func baselineFull(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "baseline-full", Paper: "baseline-full", Label: "tab:baseline-full",
		Title: "Full baseline comparison (m = 1, T = 2); value error of the paper's functional 1[o_1 = o_2 = first observation]",
		Columns: []Column{{"benchmark", Key}, {"method", Key}, {"eps", Key}, {"classes", Exact}, {"value_error", Exact},
			{"d_w", Exact}, {"time_s", Timing}, {"diameter", Info}},
	}
	const T, draws = 2, 20
	random := map[int][3][]float64{}
	var probes []string // constant probes per benchmark, for the notes
	truncation := fmt.Sprintf("Truncation (d=%d)", plTruncationDepth)
	for _, c := range []struct{ name, model string }{{"Tiger", "tiger"}, {"GridWorld 3x3", "gridworld:3"}} {
		start := time.Now()
		r, b, err := distances(ctx, env, c.model, fsc.KindStationary, 1, T, false)
		if err != nil {
			return nil, err
		}
		probes = append(probes, fmt.Sprintf("%d (%s)", r.FamilySize, c.name))
		tCache := time.Since(start).Seconds()
		m := b.Model
		obj := baseline.AllFirst(T)
		startB := time.Now()
		beliefs, err := baseline.BeliefDistances(ctx, m, T, baseline.BeliefOptions{})
		if err != nil {
			return nil, err
		}
		tBelief := time.Since(startB).Seconds()
		startB = time.Now()
		bis, err := baseline.Bisimulation(ctx, m, baseline.BisimOptions{})
		if err != nil {
			return nil, err
		}
		lifted, err := baseline.BeliefDistances(ctx, m, T, baseline.BeliefOptions{Metric: baseline.BeliefW1, States: bis.Metric})
		if err != nil {
			return nil, err
		}
		tBisim := time.Since(startB).Seconds()
		for _, eps := range []float64{0.3, 0.5} {
			add := func(method string, p *partition.Partition, secs float64) error {
				s, _, err := plAssess(ctx, env, c.model, 1, T, p, obj)
				if err != nil {
					return err
				}
				t.Rows = append(t.Rows, []string{c.name, method, plEps(eps), itoa(s.Classes), f3(s.ValueError), f3(s.D), f3(secs), f3(s.Diameter)})
				return nil
			}
			startP := time.Now()
			pq := r.Partition(eps)
			if err := add("eps-quotient", pq, tCache+time.Since(startP).Seconds()); err != nil {
				return nil, err
			}
			startP = time.Now()
			if err := add(truncation, baseline.Truncation(r.Tree, plTruncationDepth), time.Since(startP).Seconds()); err != nil {
				return nil, err
			}
			// Random partitions with the ε-quotient's class counts per
			// depth: mean over draws from one seeded source.
			startP = time.Now()
			src := rand.NewPCG(plRandomSeed, 0)
			var draw [3][]float64 // classes, value error, d_w per draw
			for k := 0; k < draws; k++ {
				s, _, err := plAssess(ctx, env, c.model, 1, T, baseline.RandomLike(r.Tree, pq, src), obj)
				if err != nil {
					return nil, err
				}
				draw[0] = append(draw[0], float64(s.Classes))
				draw[1] = append(draw[1], s.ValueError)
				draw[2] = append(draw[2], s.D)
			}
			random[len(t.Rows)] = draw
			mc, _ := plMeanStd(draw[0])
			mv, _ := plMeanStd(draw[1])
			md, _ := plMeanStd(draw[2])
			t.Rows = append(t.Rows, []string{c.name, "Random partition", plEps(eps), strconv.FormatFloat(mc, 'f', 1, 64),
				f3(mv), f3(md), f3(time.Since(startP).Seconds() / draws), ""})
			startP = time.Now()
			if err := add("Belief-distance", beliefs.Partition(eps), tBelief+time.Since(startP).Seconds()); err != nil {
				return nil, err
			}
			startP = time.Now()
			if err := add("Bisimulation", lifted.Partition(eps), tBisim+time.Since(startP).Seconds()); err != nil {
				return nil, err
			}
		}
	}
	t.PatternRow = func(i int) bool { _, ok := random[i]; return ok }
	t.PatternOK = func(i int) verdict.Judgement { return plRandomJudge(t, i, random[i]) }
	baselineFullNotes(t, probes, truncation, draws)
	return t, nil
}

// baselineFullNotes adds the notes of tab:baseline-full: probes are the
// constant probes per benchmark, truncation the truncation method's name,
// draws the random partitions per row.
func baselineFullNotes(t *Table, probes []string, truncation string, draws int) {
	// the rows whose partition is not an ε-partition: diameter > ε
	var wide []string
	for i := range t.Rows {
		eps, _ := strconv.ParseFloat(t.at(i, "eps"), 64)
		if d, err := strconv.ParseFloat(t.at(i, "diameter"), 64); err == nil && d > eps+1e-9 {
			wide = append(wide, fmt.Sprintf("%s %s at ε = %s (%s)", t.at(i, "benchmark"), t.at(i, "method"), t.at(i, "eps"), t.at(i, "diameter")))
		}
	}
	wideText := "every partition's diameter is at most its row's ε"
	if len(wide) > 0 {
		wideText = "the partitions whose diameter exceeds the row's ε are " + strings.Join(wide, ", ")
	}
	t.Notes = append(t.Notes,
		"value_error = max over the "+strings.Join(probes, " or ")+" constant probes of |E_M G − E_Q G| with G = 1[o_1 = o_2 = first observation] (baseline.AllFirst), Q the quotient seen by the probe; d_w = max over probes of W1(P_M, P_Q) on O². This functional reproduces every exact value_error of the table; the paper calls it a synthetic 1-Lipschitz reward.",
		fmt.Sprintf("Belief-distance: greedy complete linkage on the TV distance between the beliefs of the constant first action (listen, up). Bisimulation: Ferns et al. metric (%d iterations, γ = %s, rewards normalised by their range, no observation term) lifted to histories by W1 between those beliefs. %s: classes by the last d observations.",
			baseline.DefaultBisimIterations, fg(baseline.DefaultBisimDiscount), truncation),
		"diameter (ours) is the largest within-class probe distance d^Π: the ε for which the partition is an ε-partition, so thm:value-bound applies to every row with that ε; "+wideText+".",
		"Times are pattern-only (ours are Go on this machine; the paper's Python). The ε-quotient's time is the distance cache plus the partition (the paper prints ∗).",
		fmt.Sprintf("Random partition rows (the ε-quotient's class counts per depth, labels drawn from seed %d) are judged statistically: each printed mean must lie within %s standard errors of the mean of our %d draws (plus half a printed digit). Where the ε-quotient has one class per depth the draw is forced and the interval is a point.",
			plRandomSeed, fg(zNormal95), draws))
}

// plTruncationDepth is the depth of the truncation baseline (classes by
// the last observations).
const plTruncationDepth = 1

// plRandomSeed seeds the random-partition baseline of tab:baseline-full.
const plRandomSeed = 42

// zNormal95 is the two-sided 95% quantile of the normal distribution used
// for the intervals of means (mean ± zNormal95 standard errors).
const zNormal95 = 1.96

// plRandomJudge judges a random-partition row of tab:baseline-full: each
// printed mean (classes, value error, d_w) must lie within 1.96 standard
// errors of the mean of our draws, widened by half a unit of the printed
// digit (the paper's draws are not ours, so this is statistical).
func plRandomJudge(t *Table, i int, draw [3][]float64) verdict.Judgement {
	var bad, good, cols []string
	for k, c := range []int{3, 4, 5} {
		plo, phi, err := verdict.Interval(t.Printed[i][c])
		if err != nil {
			continue
		}
		m, sd := plMeanStd(draw[k])
		se := sd / math.Sqrt(float64(len(draw[k])))
		lo, hi := m-zNormal95*se, m+zNormal95*se
		iv := fmt.Sprintf("%s: paper %s, our mean %s ± %s (%d draws)", t.Columns[c].Name, t.Printed[i][c], f3(m), f3(zNormal95*se), len(draw[k]))
		if phi < lo || plo > hi {
			bad, cols = append(bad, iv), append(cols, t.Columns[c].Name)
		} else {
			good = append(good, iv)
		}
	}
	switch {
	case len(bad) > 0:
		return verdict.Differ("statistical: outside our interval: "+strings.Join(bad, "; "), cols...)
	case len(good) == 0:
		return verdict.NotJudgedBecause("no printed mean to judge")
	}
	return verdict.ByStatistics("statistical: inside our interval: " + strings.Join(good, "; "))
}

// ---------------------------------------------------------------------
// tab:value-bounds

// vbPanel is one panel of tab:value-bounds: a model and the objective
// whose value error is bounded, with our own L_R and the paper's.
type vbPanel struct {
	key, model string
	obj        value.Objective
	synthetic  bool   // the panel's objective is the synthetic observation score (value.WithObsReward)
	objName    string // as the paper names it
	lrClaim    string // the inline claim that states the paper's L_R
	LR         float64
	lrHow      string  // how our L_R is computed
	paperLR    float64 // the paper's stated L_R (notes only)
	probes     int     // constant probes (the m = 1 family)
	lhat       string  // L̂_R of the model's reward, or its account
	nS, nO     int
}

// vbPanels are the panels of tab:value-bounds with our own objectives:
// panel A's "synthetic 1-Lipschitz observation score" is the additive
// score value.WithObsReward (its one reading, G = 1[o_1 = o_2 = first
// observation], is declared on the table).
func vbPanels() []*vbPanel {
	return []*vbPanel{
		{key: "A", model: "tiger", obj: value.LatentReward{}, synthetic: true, objName: "Σ_t v(o_t) (value.WithObsReward)", lrClaim: "synthetic_obs_score_lr"},
		{key: "B", model: "tiger", obj: value.LatentReward{}, objName: "Tiger reward", lrClaim: "tiger_lr_bound"},
		{key: "C", model: "gridworld-goal:3", obj: value.LatentReward{}, objName: "goal reward", lrClaim: "gridworld_lr_approx"},
	}
}

// vbOwnLR returns our own L_R of a panel's objective on b: for the
// observation score the Lipschitz constant of value.ObsValues under the
// ground metric; for a latent reward its range over the smallest
// positive ground distance (def:obs-lipschitz: W1 ≥ δ·TV under a metric
// whose distinct points are δ apart).
func vbOwnLR(b bench.Benchmark, synthetic bool) (float64, string) {
	v := value.ObsValues(b.Model.NumObservations())
	lip, dmin := 0.0, math.Inf(1)
	for o, row := range b.Ground {
		for o2, d := range row {
			if o != o2 && d > 0 {
				lip = max(lip, math.Abs(v[o]-v[o2])/d)
				dmin = min(dmin, d)
			}
		}
	}
	if synthetic {
		return lip, "the Lipschitz constant of v under d_O"
	}
	r := value.RewardRange(b.Model)
	return r / dmin, fmt.Sprintf("R_max − R_min = %s over the smallest distance %s of d_O", fg(r), fg(dmin))
}

func valueBounds(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "value-bounds", Paper: "value-bounds", Label: "tab:value-bounds",
		Title: "Value-function error bounds (m = 1, T = 2), with our own L_R",
		Columns: []Column{{"panel", Key}, {"eps", Key}, {"empirical_error", Exact}, {"d_w", Exact}, {"bound_lr_t_eps", Formula},
			{"bound_lr_t_d", Exact}, {"canonical_bound", Formula}, {"objective", Info}, {"l_r", Info}, {"l_r_hat", Info},
			{"classes", Info}, {"diameter", Info}, {"indicator_error", Info}}}
	const T, m = 2, 1
	panels := vbPanels()
	grid := []float64{0, 0.1, 0.3, 0.5}
	indicator := map[int]float64{} // panel A's error under the table's reading
	for _, p := range panels {
		if err := vbPanelRows(ctx, env, t, p, grid, T, m, indicator); err != nil {
			return nil, err
		}
	}
	t.Reading = &verdict.Reading{
		How:    "panel A's synthetic observation score is read as G = 1[o_1 = o_2 = first observation] (baseline.AllFirst), an indicator that is 1-Lipschitz under the discrete metric",
		Covers: map[string]string{"empirical_error": "the value error of G = 1[o_1 = o_2 = first observation]"},
		Value: func(i int, _ string) (float64, bool) {
			v, ok := indicator[i]
			return v, ok
		},
	}
	if err := valueBoundsRemarks(t, T, m, len(grid), panels[1].LR, panels[2].LR, panels[2].nS, panels[2].nO); err != nil {
		return nil, err
	}
	var lrs []string
	for _, p := range panels {
		lrs = append(lrs, fmt.Sprintf("panel %s: ours %s (%s), the paper's %s", p.key, fg(p.LR), p.lrHow, fg(p.paperLR)))
	}
	t.Notes = append(t.Notes,
		"The bound columns use our own L_R, computed from the model and the objective: "+strings.Join(lrs, "; ")+". bound_lr_t_eps and canonical_bound are arithmetic on L_R, T, ε and the model's sizes (formula checks: nothing of our computation enters them); bound_lr_t_d uses our D.",
		fmt.Sprintf("Panel A: empirical_error is the largest |E_M G − E_Q G| over the %d constant probes for our synthetic score, the additive observation score G = Σ_t v(o_t) (value.WithObsReward). The table's one reading takes G = 1[o_1 = o_2 = first observation] instead (indicator_error, in every panel), the functional that gives the paper's numbers; it is declared, not assumed.",
			panels[0].probes),
		fmt.Sprintf("Panel B: Tiger's own reward; l_r_hat = %s is the empirical Lipschitz constant over the %d constant probes (value.EstimateLipschitz). For open-loop probes no finite L_R exists (equal suffix laws, different rewards; notebook 01). So the 'vacuous' bound is in fact either %s (this family) or unavailable.",
			panels[1].lhat, panels[1].probes, panels[1].lhat),
		fmt.Sprintf("Panel C: %s (goal-reward GridWorld), geometric metric; error of the latent goal reward. Its empirical L̂_R over the %d constant probes is %s. '≈' cells are compared within half a unit of their column's printed precision (the row's note says which tolerance was used), never at the integer precision of a printed integer.",
			panels[2].model, panels[2].probes, panels[2].lhat),
		"indicator_error (ours) is the error of G = 1[o_1 = o_2 = first observation] in every panel; the canonical column is L_R·T·ε·(1 + 2T|S||O|) with the panel's L_R.")
	return t, nil
}

// vbPanelRows appends panel p's rows (one per ε of grid) to t and records
// panel A's indicator errors (the table's reading) in indicator.
func vbPanelRows(ctx context.Context, env *Env, t *Table, p *vbPanel, grid []float64, T, m int, indicator map[int]float64) error {
	paperLR, err := claimedFloat(p.lrClaim)
	if err != nil {
		return err
	}
	p.paperLR = paperLR
	r, b, err := distances(ctx, env, p.model, fsc.KindStationary, m, T, false)
	if err != nil {
		return err
	}
	p.LR, p.lrHow = vbOwnLR(b, p.synthetic)
	fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), m, fsc.Options{})
	if err != nil {
		return err
	}
	p.probes = fam.Len()
	model := b.Model
	if p.synthetic {
		if model, err = value.WithObsReward(b.Model); err != nil {
			return err
		}
	}
	l, err := value.EstimateLipschitz(ctx, model, fam, T, value.LipschitzOptions{Ground: b.Ground, Workers: env.workers()})
	if err != nil {
		return err
	}
	p.lhat = strconv.FormatFloat(l.LR, 'g', 4, 64)
	p.nS, p.nO = b.Model.NumStates(), b.Model.NumObservations()
	for _, eps := range grid {
		part := r.Partition(eps)
		s, err := baseline.Assess(ctx, model, b.Ground, fam, T, part, p.obj, r.D)
		if err != nil {
			return err
		}
		si, _, err := plAssess(ctx, env, p.model, m, T, part, baseline.AllFirst(T))
		if err != nil {
			return err
		}
		if p.synthetic {
			indicator[len(t.Rows)] = si.ValueError
		}
		t.Rows = append(t.Rows, []string{p.key, plEps(eps), plF4(s.ValueError), plF4(s.D), plF4(value.Bound(p.LR, T, eps)),
			plF4(p.LR * float64(T) * s.D), strconv.FormatFloat(plCanonical(p.LR, T, eps, p.nS, p.nO), 'f', 2, 64),
			p.objName, fg(p.LR), p.lhat, itoa(s.Classes), plF4(s.Diameter), plF4(si.ValueError)})
	}
	return nil
}

// valueBoundsRemarks adds the computed accounts of the rows of
// tab:value-bounds that differ: panel B at its largest ε (lrB its L_R)
// and panel C (lrC, on nS states and nO observations); nEps is the number
// of ε per panel.
func valueBoundsRemarks(t *Table, T, m, nEps int, lrB, lrC float64, nS, nO int) error {
	keys := func(i int) map[string]string {
		return map[string]string{"panel": t.at(i, "panel"), "eps": t.at(i, "eps")}
	}
	tiger, err := bench.Lookup("tiger")
	if err != nil {
		return err
	}
	listen := slices.Index(tiger.Model.Actions, "listen")
	if listen < 0 {
		return fmt.Errorf("repro: value-bounds: Tiger has no action listen")
	}
	for _, row := range tiger.Model.R {
		if row[listen] != tiger.Model.R[0][listen] {
			return fmt.Errorf("repro: value-bounds: Tiger's listen reward depends on the state")
		}
	}
	var lastB, maxErr = -1, 0.0
	for i := range t.Rows {
		if t.at(i, "panel") == "B" {
			e, _ := strconv.ParseFloat(t.at(i, "empirical_error"), 64)
			maxErr = max(maxErr, math.Abs(e))
			lastB = i
		}
	}
	if i := lastB; i >= 0 {
		errB, err := paperValue(t.Paper, keys(i), "empirical_error")
		if err != nil {
			return err
		}
		tdB, tdBs, err := paperFloat(t.Paper, keys(i), "bound_lr_t_d")
		if err != nil {
			return err
		}
		d, _ := strconv.ParseFloat(t.at(i, "d_w"), 64)
		// A remark, not an explanation: it shows that the printed error
		// and L_R·T·D are not what this setting gives, and computes
		// neither.
		t.Remark(i, fmt.Sprintf("not explained: the exact error of Tiger's reward under every constant probe is at most %s over all %d values of ε "+
			"(empirical L̂_R = %s for this family: listening costs %s at every belief and an opening leaves the uniform belief), so the printed %s is not attained by m = %d probes at T = %d; "+
			"L_R·T·D = %s·%d·%s = %s, while the printed %s implies D = %.4f",
			plF4(maxErr), nEps, t.at(i, "l_r_hat"), minus(fg(tiger.Model.R[0][listen])), errB, m, T,
			fg(lrB), T, plF4(d), t.at(i, "bound_lr_t_d"), tdBs, tdB/(lrB*float64(T))))
	}
	for i := range t.Rows {
		if t.at(i, "panel") != "C" || t.at(i, "eps") == plEps(0) {
			continue
		}
		eps, _ := strconv.ParseFloat(t.at(i, "eps"), 64)
		pr, prs, err := paperFloat(t.Paper, keys(i), "canonical_bound")
		if err != nil {
			return err
		}
		t.Remark(i, fmt.Sprintf("canonical_bound: L_R·T·ε·(1 + 2T|S||O|) with L_R = %s, |S| = %d, |O| = %d is %s, the formula that reproduces panels A and B; "+
			"the printed %s is %.3f of it and fits it only with L_R = %.4f (not our L_R = %s)",
			fg(lrC), nS, nO, t.at(i, "canonical_bound"), prs, pr/plCanonical(lrC, T, eps, nS, nO), pr/plCanonical(1, T, eps, nS, nO), fg(lrC)))
		if e, _ := strconv.ParseFloat(t.at(i, "empirical_error"), 64); e != 0 {
			pe, err := paperValue(t.Paper, keys(i), "empirical_error")
			if err != nil {
				return err
			}
			t.Remark(i, fmt.Sprintf("the greedy partition at ε = %s has %s classes (diameter %s): the printed ≈%s error, D and L_R·T·D would need it to keep the depth-%d histories apart",
				t.at(i, "eps"), t.at(i, "classes"), t.at(i, "diameter"), pe, T-1))
		}
	}
	return nil
}

// ---------------------------------------------------------------------
// tab:planning-speedup

func planningSpeedup(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "planning-speedup", Paper: "planning-speedup", Label: "tab:planning-speedup",
		Title: "Planning on original vs quotient: value gap under exhaustive policy search (T = 2), objective 1[o_1 = o_2 = first observation]",
		Columns: []Column{{"benchmark", Key}, {"m", Key}, {"eps", Key}, {"policies", Exact}, {"classes", Exact},
			{"v_star_orig", Exact}, {"value_gap", Exact}, {"selected", Info}, {"v_selected_quotient", Info}, {"ties_on_quotient", Info}}}
	const T = 2
	var hallway string // the Hallway model's name, for the notes
	var merged string  // what the quotient does at Hallway's largest ε
	for _, c := range []struct {
		name, model string
		m           int
		eps         []float64
	}{{"Tiger", "tiger", 1, []float64{0, 0.3, 0.5}}, {"Tiger", "tiger", 2, []float64{0.3, 0.5}}, {"Hallway", "hallway:10", 1, []float64{0, 0.3, 0.5}}} {
		r, b, err := distances(ctx, env, c.model, fsc.KindStationary, c.m, T, false)
		if err != nil {
			return nil, err
		}
		fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), c.m, fsc.Options{})
		if err != nil {
			return nil, err
		}
		for _, eps := range c.eps {
			part := r.Partition(eps)
			s, _, err := plAssess(ctx, env, c.model, c.m, T, part, baseline.AllFirst(T))
			if err != nil {
				return nil, err
			}
			vStar, best := math.Inf(-1), 0
			for k, v := range s.VM {
				if v > vStar {
					vStar, best = v, k
				}
			}
			sel, vq, ties := plan.Best(s.VQ, value.DefaultTol)
			t.Rows = append(t.Rows, []string{c.name, itoa(c.m), plEps(eps), itoa(fam.Len()), itoa(s.Classes), plF4(vStar),
				plF4(vStar - s.VM[sel]), value.Policy(b.Model, fam.At(sel), T), plF4(vq), itoa(ties)})
			if c.name == "Hallway" {
				hallway = b.Name
				var top []string
				for k, v := range s.VQ {
					if v >= vq-value.DefaultTol {
						top = append(top, value.Policy(b.Model, fam.At(k), T))
					}
				}
				merged = fmt.Sprintf("at ε = %s the depth-%d histories form %s, the quotient ranks %s (%s) above %s (%s), and %s scores %s on the original",
					plEps(eps), T-1, plural(part.Classes(T-1), "class"), strings.Join(top, " / "), plF4(vq), value.Policy(b.Model, fam.At(best), T), plF4(s.VQ[best]),
					value.Policy(b.Model, fam.At(sel), T), plF4(s.VM[sel]))
			}
		}
	}
	tiger, hall := t.Row("Tiger|1|0"), t.Row("Hallway|1|0")
	gap := -1
	for i := range t.Rows {
		if gap < 0 && t.at(i, "benchmark") == t.at(hall, "benchmark") && t.at(i, "value_gap") != plF4(0) {
			gap = i
		}
	}
	if tiger < 0 || hall < 0 || gap < 0 {
		return nil, fmt.Errorf("repro: planning-speedup: missing the Tiger or Hallway rows of the notes")
	}
	keys := func(i int) map[string]string {
		return map[string]string{"benchmark": t.at(i, "benchmark"), "m": t.at(i, "m"), "eps": t.at(i, "eps")}
	}
	var pr [3]string
	for k, c := range []struct {
		i   int
		col string
	}{{tiger, "v_star_orig"}, {hall, "v_star_orig"}, {gap, "value_gap"}} {
		v, err := paperValue(t.Paper, keys(c.i), c.col)
		if err != nil {
			return nil, err
		}
		pr[k] = v
	}
	t.Notes = append(t.Notes,
		fmt.Sprintf("The objective that reproduces the printed V* (Tiger %s: ours %s = P(LL) under %s; Hallway %s: ours %s = P(lm_0 lm_0) under %s) and the Hallway gap %s (ours %s at ε = %s) is G = 1[o_1 = o_2 = first observation] (baseline.AllFirst), not the models' rewards (Hallway has none). Policies are selected on the quotient seen by each probe (first maximum in family order, tolerance %s) and evaluated on the original.",
			pr[0], t.at(tiger, "v_star_orig"), t.at(tiger, "selected"), pr[1], t.at(hall, "v_star_orig"), t.at(hall, "selected"),
			pr[2], t.at(gap, "value_gap"), t.at(gap, "eps"), fg(value.DefaultTol)),
		"Hallway is the built-in "+hallway+" (the paper prints no L); "+merged+".")
	return t, nil
}

// ---------------------------------------------------------------------
// noise sensitivity (unlabeled table)

var plTigerAccuracies = []float64{0.70, 0.75, 0.80, 0.85, 0.90, 0.95}

func noiseSensitivity(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "noise-sensitivity", Paper: "noise-sensitivity", Label: "app:experiments",
		Title: "Noise sensitivity (Tiger full actions, m = 1, T = 2): range over accuracy ∈ {0.70, …, 0.95}",
		Columns: []Column{{"eps", Key}, {"min_classes", Exact}, {"max_classes", Exact}, {"min_value_error", Exact},
			{"max_value_error", Exact}, {"classes_by_accuracy", Info}, {"error_by_accuracy", Info}, {"d_LR_by_accuracy", Info},
			{"classes_T_apart", Info}}}
	const T = 2
	apart := map[int]map[string]float64{} // the table's reading, per row
	for _, eps := range []float64{0, 0.2, 0.4, 0.6} {
		minC, maxC, minE, maxE, minApart, maxApart := math.MaxInt, 0, math.Inf(1), math.Inf(-1), math.MaxInt, 0
		var cs, es, ds []string
		for _, acc := range plTigerAccuracies {
			model := fmt.Sprintf("tiger:%g", acc)
			r, _, err := distances(ctx, env, model, fsc.KindStationary, 1, T, false)
			if err != nil {
				return nil, err
			}
			s, _, err := plAssess(ctx, env, model, 1, T, r.Partition(eps), baseline.AllFirst(T))
			if err != nil {
				return nil, err
			}
			minC, maxC = min(minC, s.Classes), max(maxC, s.Classes)
			maxApart = max(maxApart, depthTApart(r.Partition(eps)))
			minApart = min(minApart, depthTApart(r.Partition(eps)))
			minE, maxE = min(minE, s.ValueError), max(maxE, s.ValueError)
			cs, es, ds = append(cs, itoa(s.Classes)), append(es, f3(s.ValueError)), append(ds, f3(r.D[1].At(0, 1)))
		}
		t.Rows = append(t.Rows, []string{plEps(eps), itoa(minC), itoa(maxC), f3(minE), f3(maxE),
			strings.Join(cs, " "), strings.Join(es, " "), strings.Join(ds, " "), itoa(minApart) + "–" + itoa(maxApart)})
		i := len(t.Rows) - 1
		apart[i] = map[string]float64{"min_classes": float64(minApart), "max_classes": float64(maxApart)}
		t.Remark(i, fmt.Sprintf("d(L, R) = (2a − 1)² over the accuracies: %s; value errors over the accuracies: %s", strings.Join(ds, " "), strings.Join(es, " ")))
	}
	t.Reading = &verdict.Reading{
		How: fmt.Sprintf("the depth-%d histories counted apart, one class each (the listen-only figure's convention)", T),
		Covers: map[string]string{
			"min_classes": fmt.Sprintf("the smallest class count over the accuracies with the depth-%d histories counted apart", T),
			"max_classes": fmt.Sprintf("the largest class count over the accuracies with the depth-%d histories counted apart", T),
		},
		Value: func(i int, col string) (float64, bool) { v, ok := apart[i][col]; return v, ok },
	}
	acc := plTigerAccuracies
	t.Notes = append(t.Notes,
		fmt.Sprintf("Each accuracy a ∈ {%s, …, %s} is the full-action Tiger with Z(listen) = a; classes are totals over the depths up to %d (depth %d one class), value error as in tab:baseline-full. d(L, R) = (2a − 1)², so L and R merge once ε ≥ (2a − 1)²; merging them costs ½(a² + (1 − a)² − ½) in P(LL).",
			plF2(acc[0]), plF2(acc[len(acc)-1]), T, T))
	return t, nil
}

// ---------------------------------------------------------------------
// tab:belief-sensitivity

func beliefSensitivity(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "belief-sensitivity", Paper: "belief-sensitivity", Label: "tab:belief-sensitivity",
		Title: "Partition stability under initial-belief perturbation (Tiger full actions, m = 1, T = 2); ARI against b0 = (0.5, 0.5)",
		Columns: []Column{{"b0_left", Key}, {"classes_eps0", Exact}, {"ari_eps0", Exact}, {"classes_eps0_3", Exact}, {"ari_eps0_3", Exact},
			{"classes_eps0_5", Exact}, {"ari_eps0_5", Exact}, {"d_LR", Info}}}
	const T = 2
	grid := []float64{0, 0.3, 0.5}
	ref, _, err := distances(ctx, env, "tiger", fsc.KindStationary, 1, T, false)
	if err != nil {
		return nil, err
	}
	for _, b0 := range []float64{0.5, 0.3, 0.1, 0.7, 0.9} {
		r, _, err := distances(ctx, env, fmt.Sprintf("tiger:0.85:%g", b0), fsc.KindStationary, 1, T, false)
		if err != nil {
			return nil, err
		}
		row := []string{strconv.FormatFloat(b0, 'f', 1, 64)}
		for _, eps := range grid {
			p := r.Partition(eps)
			row = append(row, itoa(p.Total()), plF2(partition.ARIPartitions(ref.Partition(eps), p)))
		}
		t.Rows = append(t.Rows, append(row, f3(r.D[1].At(0, 1))))
	}
	t.Notes = append(t.Notes, beliefNote(t, grid))
	return t, nil
}

// beliefNote says how far d(L, R) falls from the first row (the uniform
// b0) and which partitions change, from the cells of tab:belief-sensitivity.
func beliefNote(t *Table, grid []float64) string {
	low := 0
	for i := range t.Rows {
		if t.at(i, "d_LR") < t.at(low, "d_LR") {
			low = i
		}
	}
	var lows []string
	for i := range t.Rows {
		if t.at(i, "d_LR") == t.at(low, "d_LR") {
			lows = append(lows, t.at(i, "b0_left"))
		}
	}
	dLow, _ := strconv.ParseFloat(t.at(low, "d_LR"), 64)
	var changes []string
	for _, eps := range grid {
		e := strings.ReplaceAll(fg(eps), ".", "_")
		cc, ac := "classes_eps"+e, "ari_eps"+e
		var at []string
		for i := 1; i < len(t.Rows); i++ {
			if t.at(i, cc) != t.at(0, cc) {
				at = append(at, fmt.Sprintf("b0 = %s (%s vs %s classes, ARI %s)", t.at(i, "b0_left"), t.at(i, cc), t.at(0, cc), t.at(i, ac)))
			}
		}
		if len(at) > 0 {
			below := "above"
			if dLow < eps {
				below = "below"
			}
			changes = append(changes, fmt.Sprintf("at ε = %s, where the lowest d(L, R) is %s it, for %s", fg(eps), below, strings.Join(at, ", ")))
		}
	}
	what := "no partition changes"
	if len(changes) > 0 {
		what = "the partition changes only " + strings.Join(changes, "; ")
	}
	return fmt.Sprintf("d(L, R) falls from %s at b0 = %s to %s at b0 ∈ {%s}; %s.", t.at(0, "d_LR"), t.at(0, "b0_left"), t.at(low, "d_LR"), strings.Join(lows, ", "), what)
}

// ---------------------------------------------------------------------
// ablation (unlabeled table)

func ablation(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "ablation", Paper: "ablation", Label: "app:experiments",
		Title: "Ablations (Tiger full actions, classes at ε = 0.3) at the captioned T = 2 and at T = 3, 4",
		Columns: []Column{{"ablation", Key}, {"variant", Key}, {"classes_eps0_3", Exact}, {"classes_T3", Info}, {"classes_T4", Info},
			{"ari_vs_full_T4", Info}}}
	const eps = 0.3
	const mSmall, mLarge = 1, 2 // the memories of the rows
	count := func(kind string, T int) (string, string, error) {
		switch kind {
		case "w1", "tv":
			opt := distance.Options{}
			if kind == "tv" {
				opt.Metric = distance.TV
			}
			r, _, err := distancesOpt(ctx, env, "tiger", fsc.KindStationary, mSmall, T, opt)
			if err != nil {
				return "", "", err
			}
			return itoa(r.Partition(eps).Total()), "", nil
		case "m2":
			r, _, err := distances(ctx, env, "tiger", fsc.KindStationary, mLarge, T, false)
			if err != nil {
				return "", "", err
			}
			p := r.Partition(eps)
			// the full family is the reference: its ARI against itself
			return itoa(p.Total()), f3(partition.ARIPartitions(p, p)), nil
		case "greedy5":
			r, _, err := distances(ctx, env, "tiger", fsc.KindStationary, mLarge, T, true)
			if err != nil {
				return "", "", err
			}
			tt, err := certify.FromResult(r)
			if err != nil {
				return "", "", err
			}
			row := certify.Agreement(tt, eps, []int{ablationGreedyK})[0]
			return itoa(row.SubClasses), f3(row.ARI), nil
		}
		return "", "", fmt.Errorf("repro: unknown ablation %q", kind)
	}
	atT4 := map[int]float64{} // the table's reading, per row
	Tmax := ablationHorizons[len(ablationHorizons)-1]
	for _, v := range []struct{ ablation, variant, kind string }{
		{"Metric", "W1 (discrete d_O)", "w1"}, {"Metric", "TV-equivalent", "tv"},
		{"Memory", "m=1 (3 FSCs)", "w1"}, {"Memory", "m=2 (147 FSCs)", "m2"},
		{"Approx.", "Full enum. (147 FSCs)", "m2"}, {"Approx.", "Greedy k=5", "greedy5"},
	} {
		row := []string{v.ablation, v.variant}
		var ari string
		for _, T := range ablationHorizons {
			c, a, err := count(v.kind, T)
			if err != nil {
				return nil, err
			}
			row = append(row, c)
			if T == 4 {
				ari = a
			}
		}
		t.Rows = append(t.Rows, append(row, ari))
		// One reading for the whole table: T = 4, the setting of
		// tab:partition-agreement, where the paper runs the greedy k = 5
		// subset of the Approx. rows. The m = 1 rows' printed 7 is their
		// count at T = 3: a horizon found for those rows alone, which
		// explains nothing.
		i := len(t.Rows) - 1
		n4, err := strconv.Atoi(t.at(i, "classes_T4"))
		if err != nil {
			return nil, err
		}
		atT4[i] = float64(n4)
		if v.kind == "w1" || v.kind == "tv" {
			T3 := ablationHorizons[1]
			t.Remark(i, fmt.Sprintf("not explained: the same variant at T = %d gives %s (column classes_T%d), but T = %d is a horizon for the m = %d rows alone, not the table's reading",
				T3, t.at(i, "classes_T"+itoa(T3)), T3, T3, mSmall))
		}
	}
	t.Reading = &verdict.Reading{
		How: fmt.Sprintf("every row at T = %d, the setting of tab:partition-agreement, where the paper runs the greedy k = %d subset (the caption says T = %d)",
			Tmax, ablationGreedyK, ablationHorizons[0]),
		Covers: map[string]string{"classes_eps0_3": fmt.Sprintf("the same variant at T = %d (column classes_T%d)", Tmax, Tmax)},
		Value:  func(i int, _ string) (float64, bool) { v, ok := atT4[i]; return v, ok },
	}
	note, err := ablationNote(ctx, env, t, eps)
	if err != nil {
		return nil, err
	}
	t.Notes = append(t.Notes, note)
	return t, nil
}

// ablationHorizons are the horizons of the ablation table: the captioned
// one and the two longer ones.
var ablationHorizons = []int{2, 3, 4}

// ablationGreedyK is the size of the ablation's greedy controller subset.
const ablationGreedyK = 5

// ablationNote compares W1 with TV over the ε grid at every horizon of the
// ablation and reads the greedy subset's agreement with the full family
// from the table's cells (eps is the table's ε).
func ablationNote(ctx context.Context, env *Env, t *Table, eps float64) (string, error) {
	var differ []string
	grid := partition.Grid(0, 0.6, 0.1)
	for _, T := range ablationHorizons {
		w, _, err := distancesOpt(ctx, env, "tiger", fsc.KindStationary, 1, T, distance.Options{})
		if err != nil {
			return "", err
		}
		tv, _, err := distancesOpt(ctx, env, "tiger", fsc.KindStationary, 1, T, distance.Options{Metric: distance.TV})
		if err != nil {
			return "", err
		}
		var at []string
		for _, e := range grid {
			if w.Partition(e).Total() != tv.Partition(e).Total() {
				at = append(at, fe(e))
			}
		}
		if len(at) > 0 {
			differ = append(differ, fmt.Sprintf("T = %d, ε ∈ {%s}", T, strings.Join(at, ", ")))
		}
	}
	where := "nowhere"
	if len(differ) > 0 {
		where = "only at " + strings.Join(differ, "; ")
	}
	find := func(ablation, prefix string) int {
		return slices.IndexFunc(t.Rows, func(r []string) bool {
			return r[colIndex(t, "ablation")[0]] == ablation && strings.HasPrefix(r[colIndex(t, "variant")[0]], prefix)
		})
	}
	w1, tv, greedy, full := find("Metric", "W1"), find("Metric", "TV"), find("Approx.", "Greedy"), find("Approx.", "Full")
	if w1 < 0 || tv < 0 || greedy < 0 || full < 0 {
		return "", fmt.Errorf("repro: ablation: missing a row of the note")
	}
	same := "At every horizon W1 and TV give the same counts"
	for _, c := range []string{"classes_eps0_3", "classes_T3", "classes_T4"} {
		if t.at(w1, c) != t.at(tv, c) {
			same = "W1 and TV give different counts"
		}
	}
	Tmax := ablationHorizons[len(ablationHorizons)-1]
	recovers := "does not recover"
	if t.at(greedy, "classes_T4") == t.at(full, "classes_T4") && t.at(greedy, "ari_vs_full_T4") == f3(1) {
		recovers = "recovers exactly"
	}
	ari, err := claimed("ablation_greedy_ari")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s on Tiger at ε = %s (binary O: W1 = TV for one step; over ε ∈ {%s} they differ %s). "+
		"The greedy k = %d subset (alg:greedy-fsc on the T-specific distance tensor) %s the full m = 2 partition at T = %d (%s classes, ARI %s; the paper prints ARI = %s).",
		same, fe(eps), gridText(grid), where, ablationGreedyK, recovers, Tmax, t.at(greedy, "classes_T4"), t.at(greedy, "ari_vs_full_T4"), ari), nil
}

// ---------------------------------------------------------------------
// horizon gap analysis (prose, App. H)

func horizonGap(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "horizon-gap", Label: "app:experiments",
		Title: "Horizon gap: Tiger (full actions), m = 1, ε = 0.5, G = 1[all observations L], L_R = 1",
		Columns: []Column{{"horizon", Key}, {"classes", Info}, {"histories", Info}, {"empirical_error", Info}, {"d_w", Info},
			{"diameter", Info}, {"bound_lr_t_eps", Info}, {"bound_lr_t_d", Info}, {"canonical_bound", Info}}}
	const eps = 0.5
	for T := 2; T <= 10; T++ {
		r, b, err := distances(ctx, env, "tiger", fsc.KindStationary, 1, T, false)
		if err != nil {
			return nil, err
		}
		s, _, err := plAssess(ctx, env, "tiger", 1, T, r.Partition(eps), baseline.AllFirst(T))
		if err != nil {
			return nil, err
		}
		t.Rows = append(t.Rows, []string{itoa(T), itoa(s.Classes), itoa(r.Tree.Len()), plF4(s.ValueError), plF4(s.D), plF4(s.Diameter),
			plF2(value.Bound(1, T, eps)), plF4(float64(T) * s.D),
			strconv.FormatFloat(plCanonical(1, T, eps, b.Model.NumStates(), b.Model.NumObservations()), 'f', 1, 64)})
	}
	var ends [2]string
	for k, id := range []string{"horizon_gap_canonical_T2", "horizon_gap_canonical_T10"} {
		v, err := claimed(id)
		if err != nil {
			return nil, err
		}
		ends[k] = v
	}
	t.Notes = append(t.Notes, fmt.Sprintf("The paper states only the canonical bound's end points (%s at T = %s, %s at T = %s; planning-claims; ours %s and %s) and a sawtooth of the empirical error (ours: empirical_error).",
		ends[0], t.at(0, "horizon"), ends[1], t.at(len(t.Rows)-1, "horizon"), t.at(0, "canonical_bound"), t.at(len(t.Rows)-1, "canonical_bound")))
	return t, nil
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

func plMeanStd(x []float64) (mean, std float64) {
	for _, v := range x {
		mean += v / float64(len(x))
	}
	for _, v := range x {
		std += (v - mean) * (v - mean) / float64(len(x)-1)
	}
	return mean, math.Sqrt(std)
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

// plPrinted returns the printed cell of a paper table for the row whose
// first column is key ("" if none).
func plPrinted(table, key, column string) string {
	h, rows, err := datasets.Paper(table)
	if err != nil {
		return ""
	}
	c := -1
	for j, name := range h {
		if name == column {
			c = j
		}
	}
	for _, r := range rows {
		if c >= 0 && r[0] == key {
			return r[c]
		}
	}
	return ""
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

func pbviComparison(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "pbvi-comparison", Paper: "pbvi-comparison", Label: "tab:pbvi-comparison",
		Title: "PBVI (T = 3, γ = 1, 50 belief points by random forward simulation, seed 42) on original vs quotient POMDPs (m = 1, ε = 0.5)",
		Columns: []Column{{"benchmark", Key}, {"n_states", Setting}, {"quotient_n_states", Exact}, {"pbvi_orig_s", Timing},
			{"pbvi_quot_s", Timing}, {"speedup", Timing}, {"value_gap", Exact}, {"quotient_model_states", Info},
			{"reward", Info}, {"export_probe", Info}, {"v_orig", Info}, {"v_quotient", Info}, {"v_quotient_policy_on_orig", Info},
			{"value_gap_eps0", Info}, {"classes_other_settings", Info}}}
	rows, err := memo(env, "pbvi|rows", func() ([]plPBVIResult, error) { return plPBVIRows(ctx, env) })
	if err != nil {
		return nil, err
	}
	reward := map[string]string{"own": "model's own", "goal": "goal (bottom-right cell)", "obs": "synthetic observation reward"}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{r.name, itoa(r.nS), itoa(r.classes), plF4(r.tOrig), plF4(r.tQuot),
			plF2(r.tOrig / (r.tPart + r.tQuot)), f3(plClean(r.vOrig - r.vOnOrig)), itoa(r.qStates), reward[r.reward], r.ref,
			plF4(r.vOrig), plF4(r.vQuot), plF4(r.vOnOrig), f3(plClean(r.gapEps0)), r.alt})
	}
	gapEps0 := map[int]float64{} // the table's reading, per row
	for i, r := range rows {
		// quotient sizes: the printed count, where one of the other
		// settings gives it (a checked reconstruction)
		// (a remark, not a reconstruction: the settings that give the
		// printed sizes differ from row to row, so finding one per row is
		// a search for the printed number, not a reading of the paper)
		printed := plPrinted("pbvi-comparison", r.name, "quotient_n_states")
		for _, a := range r.altCounts {
			if itoa(a.classes) == printed && a.classes != r.classes {
				t.Remark(i, fmt.Sprintf("quotient_n_states: the printed %s is the class count at T = %d, ε = %s (the caption says T = %d, ε = %s); "+
					"no one setting gives every row's printed size, so this explains nothing", printed, a.T, fe(a.eps), plPBVIT, fe(plPBVIEps)))
				break
			}
		}
		// value gap: the table's reading is the same pipeline on the exact
		// (ε = 0) quotient, on every row; that a benchmark without a reward
		// of its own has gap 0 under it is a reading of that row alone
		gapEps0[i] = plClean(r.gapEps0)
		if r.reward != "own" && r.ownRewardMax == 0 {
			t.Remark(i, fmt.Sprintf("not explained: under the model's own reward (max |R| = %s over every state and action) every policy has value zero and the gap is zero, but that is a reading of this row alone; we give it the %s instead",
				fg(r.ownRewardMax), reward[r.reward]))
		}
		t.Remark(i, fmt.Sprintf("value_gap: PBVI's policy on the %d-class quotient (ε = %s) scores %s on the original against PBVI's %s there", r.classes, fe(plPBVIEps), plF4(r.vOnOrig), plF4(r.vOrig)))
	}
	exact := fmt.Sprintf("the exact (ε = %s) quotient", fe(0))
	t.Reading = &verdict.Reading{
		How:    "the same PBVI pipeline on " + exact,
		Covers: map[string]string{"value_gap": "the gap on " + exact + " (column value_gap_eps0)"},
		Value:  func(i int, _ string) (float64, bool) { v, ok := gapEps0[i]; return v, ok },
	}
	var gaps, none []string // the printed value gaps; the benchmarks without a reward of their own
	for _, r := range rows {
		g, err := paperValue(t.Paper, map[string]string{"benchmark": r.name}, "value_gap")
		if err != nil {
			return nil, err
		}
		if !slices.Contains(gaps, g) {
			gaps = append(gaps, g)
		}
		if r.ownRewardMax == 0 {
			none = append(none, r.name)
		}
	}
	printedGaps := "the paper prints " + strings.Join(gaps, ", ")
	if len(gaps) == 1 {
		printedGaps += " everywhere"
	}
	t.Notes = append(t.Notes,
		"value_gap = V_PBVI(M) − V_M(π_Q): PBVI's value on the original minus the exact value on the original of the PBVI policy computed on the exported quotient (pbvi.Result.Evaluate); "+printedGaps+".",
		"Rewards: "+strings.Join(none, ", ")+" have none (their reward is zero in every state and action, so every policy has value zero and the gap is trivially zero); we use the goal-reward GridWorld and the synthetic observation reward of Network Monitoring. The quotient is exported under the constant probe with the fewest impossible histories (export_probe).",
		"Times are pattern-only; speedup = t_PBVI(M) / (t_partition + t_PBVI(Q)) includes our distance cache, which dominates at these sizes.")
	return t, nil
}
