package repro

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/baseline"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/value"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

func init() {
	register(Spec{Name: "value-bounds", Label: "tab:value-bounds",
		Title: "Value-function error vs the bounds of thm:value-bound and prop:canonical-quotient (m = 1, T = 2)", Build: valueBounds})
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
