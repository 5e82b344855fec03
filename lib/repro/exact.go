package repro

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/datasets"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/plan"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

func init() {
	register(Spec{Name: "probe-family-comparison", Label: "tab:probe-family-comparison",
		Title: "Clock-aware vs operational quotients (exact, m = 1)", Build: probeFamilyComparison})
	register(Spec{Name: "observation-planning", Label: "tab:observation-planning",
		Title: "Exact preservation of observation–action objectives under Q_clk", Build: observationPlanning})
	register(Spec{Name: "latent-planning-exact", Label: "tab:latent-planning-exact",
		Title: "Latent-state planning on exact clock-aware quotients", Build: latentPlanning})
}

// exactCase is one benchmark row of the Tier I tables.
type exactCase struct {
	name, model string
	T           int
}

var probeCases = []exactCase{
	{"Tiger", "tiger", 2}, {"Tiger", "tiger", 4}, {"Tiger", "tiger", 6}, {"Tiger", "tiger", 8}, {"Tiger", "tiger", 10},
	{"GridWorld 3x3", "gridworld:3", 2}, {"GridWorld 3x3", "gridworld:3", 3}, {"GridWorld 5x5", "gridworld:5", 2},
	{"Stationary witness", "witness", 3},
}

// clockQuotients returns the exact m = 1 quotients (cached).
func clockQuotients(ctx context.Context, env *Env, model string, T int) (*clock.Result, bench.Benchmark, error) {
	b, err := bench.Lookup(model)
	if err != nil {
		return nil, b, err
	}
	r, err := memo(env, fmt.Sprintf("clock|%s|%d", model, T), func() (*clock.Result, error) {
		return clock.Quotients(ctx, b.Model, T, nil)
	})
	return r, b, err
}

// planOn selects the best open-loop string on a quotient for obj and
// returns the selection and values.
type planning struct {
	index            int     // selected string (first maximum on the quotient)
	ties             int     // strings tied at the maximum on the quotient
	strings          int     // open-loop strings searched
	policy           string  // its action abbreviations
	vQuotient        float64 // its value on the quotient
	vSelectedOnOrig  float64 // its value on the original
	vOrig            float64 // best value on the original (exhaustive search)
	tOrig, tQuotient float64 // seconds
}

func planOn(ctx context.Context, b bench.Benchmark, q *quotient.Quotient, obj value.Objective, tQuotient float64) (planning, error) {
	m := b.Model
	var p planning
	start := time.Now()
	fam, err := fsc.NewClock(m.NumActions(), m.NumObservations(), 1, q.T, fsc.Options{})
	if err != nil {
		return p, err
	}
	best, err := value.Best(ctx, m, fam, q.T, obj, value.Options{})
	if err != nil {
		return p, err
	}
	p.tOrig = time.Since(start).Seconds()
	p.vOrig = best.Value
	p.strings = fam.Len()
	start = time.Now()
	res, err := plan.OpenLoop(ctx, q, obj, 0)
	if err != nil {
		return p, err
	}
	p.index, p.vQuotient, p.ties = plan.Best(res.Quotient, value.DefaultTol)
	p.tQuotient = tQuotient + time.Since(start).Seconds()
	p.vSelectedOnOrig = res.Original[p.index]
	p.policy = fam.At(p.index).ActionString(value.Abbrev(m.Actions), q.T)
	return p, nil
}

// paperCell returns the printed value of column col in the row of the
// transcribed paper table name whose key columns equal key ("" if none).
func paperCell(name string, keys map[string]string, col string) string {
	header, rows, err := datasets.Paper(name)
	if err != nil {
		return ""
	}
	idx := map[string]int{}
	for i, h := range header {
		idx[h] = i
	}
	j, ok := idx[col]
	if !ok {
		return ""
	}
	for _, r := range rows {
		match := true
		for k, v := range keys {
			if i, ok := idx[k]; !ok || normNum(r[i]) != normNum(v) {
				match = false
				break
			}
		}
		if match {
			return r[j]
		}
	}
	return ""
}

// matchWord is "matches" when ours agrees with the printed value to its
// digits, "does not match" otherwise (and "has no printed value" for "").
func matchWord(ours, printed string) string {
	switch {
	case printed == "":
		return "has no printed value"
	case Agrees(ours, printed):
		return "matches"
	}
	return "does not match"
}

func probeFamilyComparison(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "probe-family-comparison", Paper: "probe-family-comparison", Label: "tab:probe-family-comparison",
		Title: "Exact comparison of Q_clk and Q_op (m = 1) under def:equiv (point-mass stand-in) and under the authors' possibility-pattern labelling; max_gap is the exact δ_clk = ‖d^clk − d^op‖∞",
		Columns: []Column{{"benchmark", Key}, {"horizon", Key}, {"op_classes", Exact}, {"clk_classes", Exact}, {"ari", Exact},
			{"max_gap", Exact}, {"obs_value_changed", Exact}, {"op_classes_pattern", Info}, {"clk_classes_pattern", Info}, {"ari_pattern", Info},
			{"paper_column_sliced", Info}, {"paper_column_reconstructed", Info}, {"seconds", Timing}}}
	authors := map[int]map[string]float64{} // the authors' pipeline, per row
	for _, c := range probeCases {
		start := time.Now()
		r, b, err := clockQuotients(ctx, env, c.model, c.T)
		if err != nil {
			return nil, err
		}
		pp, err := memo(env, fmt.Sprintf("clock-pattern|%s|%d", c.model, c.T), func() (*clock.Result, error) {
			return clock.Quotients(ctx, b.Model, c.T, &clock.Options{Convention: clock.PossibilityPattern})
		})
		if err != nil {
			return nil, err
		}
		d, err := clock.NewDistances(ctx, b.Model, b.Ground, c.T, nil)
		if err != nil {
			return nil, err
		}
		sl, err := clock.NewSlicedGap(ctx, b.Model, b.Ground, d, nil)
		if err != nil {
			return nil, err
		}
		// Does planning the observation score on Q_op instead of Q_clk
		// change the value obtained on the original model?
		changed := "No"
		obj := value.ObsScore(b.Model.NumObservations())
		var vals [2]float64
		for k, part := range []*partition.Partition{r.Op, r.Clk} {
			q, err := quotient.New(b.Model, c.T, part)
			if err != nil {
				return nil, err
			}
			res, err := plan.OpenLoop(ctx, q, obj, 0)
			if err != nil {
				return nil, err
			}
			i, _, _ := plan.Best(res.Quotient, value.DefaultTol)
			vals[k] = res.Original[i]
		}
		if !(math.Abs(vals[0]-vals[1]) <= 1e-9) {
			changed = "Yes"
		}
		row := []string{c.name, itoa(c.T), itoa(r.Op.Total()), itoa(r.Clk.Total()), f3(r.ARI), f3(d.Gap), changed,
			itoa(pp.Op.Total()), itoa(pp.Clk.Total()), f3(pp.ARI), f3(sl.Value), f3(d.PaperColumn()), f3(time.Since(start).Seconds())}
		t.Rows = append(t.Rows, row)
		i := len(t.Rows) - 1
		keys := map[string]string{"benchmark": c.name, "horizon": itoa(c.T)}
		printedGap := paperCell(t.Paper, keys, "max_gap")
		why := fmt.Sprintf("δ_clk is %s here; the largest d^clk at depth ⌈T/2⌉ (paper_column_reconstructed) is %s, which %s the printed %s",
			f3(d.Gap), f3(d.PaperColumn()), matchWord(f3(d.PaperColumn()), printedGap), printedGap)
		if r.Op.Total() != pp.Op.Total() || r.Clk.Total() != pp.Clk.Total() || f3(r.ARI) != f3(pp.ARI) {
			counts := func(p *partition.Partition) string {
				var s []string
				for _, n := range p.Counts() {
					s = append(s, itoa(n))
				}
				return strings.Join(s, "+")
			}

			why += fmt.Sprintf("; def:equiv with the point-mass stand-in gives |Q_op| = %d (%s), |Q_clk| = %d (%s), ARI %s over %d strings (%d (string, probe) pairs take the stand-in); the possibility pattern gives %d (%s), %d (%s)",
				r.Op.Total(), counts(r.Op), r.Clk.Total(), counts(r.Clk), f3(r.ARI), len(r.Clk.Flat()), r.StandIns,
				pp.Op.Total(), counts(pp.Op), pp.Clk.Total(), counts(pp.Clk))
		}
		// the table's reading: the authors' pipeline, on every row
		authors[i] = map[string]float64{"op_classes": float64(pp.Op.Total()), "clk_classes": float64(pp.Clk.Total()),
			"ari": pp.ARI, "max_gap": sl.Value}
		if printedGap != "" {
			t.Remark(i, why) // the computed account, beside the checked reconstructions
		}
	}
	gap, err := claimed("m2_gap")
	if err != nil {
		return nil, err
	}
	ours := "–"
	if i := t.Row("Tiger|" + itoa(m2ParagraphT)); i >= 0 {
		ours = t.at(i, "max_gap")
	}
	t.Reading = &verdict.Reading{
		How: "the authors' pipeline: strings labelled by their possibility pattern over the prefixes (clock.PossibilityPattern) and the gap column sliced as their code does (clock.SlicedGap)",
		Covers: map[string]string{
			"op_classes":  "the count under the possibility-pattern labelling (op_classes_pattern)",
			"clk_classes": "the count under the possibility-pattern labelling (clk_classes_pattern)",
			"ari":         "the ARI under the possibility-pattern labelling (ari_pattern)",
			"max_gap":     "the authors' code's column: clock-aware suffixes sliced twice (length T − 2t) against d^op under constant prefixes (paper_column_sliced)",
		},
		Value: func(i int, col string) (float64, bool) { v, ok := authors[i][col]; return v, ok },
	}
	t.Notes = append(t.Notes,
		"op_classes, clk_classes and ari follow def:equiv with the point-mass stand-in (clock.PointMass); the *_pattern columns follow the authors' exact pipeline (clock.PossibilityPattern: strings labelled by their possibility pattern over the prefixes). They differ only where some string is impossible under some prefix (here: the stationary witness).",
		"max_gap is the exact cross-family gap δ_clk of cor:op-to-clk-transfer. paper_column_sliced recomputes the printed column by the authors' code's mechanism (clock.SlicedGap); paper_column_reconstructed is the largest d^clk between depth-⌈T/2⌉ histories. The paper's own m = "+itoa(m2ParagraphM)+" paragraph reports gap "+gap+" on Tiger T = "+itoa(m2ParagraphT)+"; δ_clk (one-node probes) is "+ours+" there.",
		"obs_value_changed compares the observation-score value, on the original model, of the best open-loop string selected on Q_op and on Q_clk.")
	return t, nil
}

type planCase struct {
	name, model, objName string
	T                    int
	obj                  func(b bench.Benchmark) value.Objective
}

func obsScore(b bench.Benchmark) value.Objective { return value.ObsScore(b.Model.NumObservations()) }
func actionObs(b bench.Benchmark) value.Objective {
	return value.ActionObsScore(value.DefaultPref(b.Model))
}
func latent(bench.Benchmark) value.Objective { return value.LatentReward{} }

func planningTable(ctx context.Context, env *Env, t *Table, cases []planCase, onOrig bool) error {
	maximisers := map[int]func(printed string) verdict.Judgement{}
	for _, c := range cases {
		start := time.Now()
		r, b, err := clockQuotients(ctx, env, c.model, c.T)
		if err != nil {
			return err
		}
		q, err := quotient.New(b.Model, c.T, r.Clk)
		if err != nil {
			return err
		}
		p, err := planOn(ctx, b, q, c.obj(b), time.Since(start).Seconds())
		if err != nil {
			return err
		}
		v := p.vQuotient
		if onOrig {
			v = p.vSelectedOnOrig
		}
		t.Rows = append(t.Rows, []string{c.name, c.objName, itoa(c.T), itoa(q.Tree.Len()), itoa(r.Clk.Total()),
			f3(p.tOrig), f3(p.tQuotient), p.policy, f3(p.vOrig), f3(v), f3(p.vOrig - p.vSelectedOnOrig)})
		i := len(t.Rows) - 1
		printed := paperCell(t.Paper, map[string]string{t.Columns[0].Name: c.name, t.Columns[1].Name: c.objName, t.Columns[2].Name: itoa(c.T)}, "policy")
		if p.ties == p.strings {
			if printed != "" && !Agrees(p.policy, printed) {
				// Every action string is a maximum on the quotient and the
				// printed one is not ours: it is judged as a maximiser (a
				// computed condition on the printed string), not by a
				// tie-break the paper does not state.
				t.SetKind(i, "policy", Pattern)
				maximisers[i] = maximiser(value.Abbrev(b.Model.Actions), c.T, p)
			}
		} else if p.ties > 1 {
			t.Remark(i, fmt.Sprintf("%d of %d action strings tie at the maximum on the quotient", p.ties, p.strings))
		}
	}
	if len(maximisers) > 0 {
		t.PatternOK = func(i int) verdict.Judgement {
			c := slices.IndexFunc(t.Columns, func(c Column) bool { return c.Name == "policy" })
			return maximisers[i](t.Printed[i][c])
		}
	}
	return nil
}

// maximiser judges a printed policy on a row where every action string
// ties at the maximum on the quotient: it is a maximiser when it is an
// action string of length T over the model's actions.
func maximiser(actions []string, T int, p planning) func(printed string) verdict.Judgement {
	return func(printed string) verdict.Judgement {
		words := strings.Fields(printed)
		ok := len(words) == T
		for _, w := range words {
			ok = ok && slices.Contains(actions, w)
		}
		if !ok {
			return verdict.Differ(fmt.Sprintf("the printed policy %q is not a string of %d actions among %s", printed, T, strings.Join(actions, ", ")), "policy")
		}
		return verdict.ByPattern(fmt.Sprintf("all %d action strings tie at the maximum %s on the quotient (tolerance %s), so the printed %s is a maximiser, as ours (%s, the first in enumeration order) is",
			p.strings, f3(p.vQuotient), fg(value.DefaultTol), printed, p.policy))
	}
}

func observationPlanning(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "observation-planning", Paper: "observation-planning", Label: "tab:observation-planning",
		Title: "Exact preservation of bounded observation–action objectives under Q_clk",
		Columns: []Column{{"benchmark", Key}, {"objective", Key}, {"horizon", Key}, {"histories", Exact}, {"classes", Exact},
			{"t_orig", Timing}, {"t_quotient", Timing}, {"policy", Exact}, {"v_orig", Exact}, {"v_quotient", Exact}, {"regret", Exact}},
	}
	var cases []planCase
	for _, T := range []int{2, 4, 6, 8, 10} {
		cases = append(cases, planCase{"Tiger", "tiger", "Obs score", T, obsScore}, planCase{"Tiger", "tiger", "Action+obs score", T, actionObs})
	}
	for _, T := range []int{2, 3} {
		cases = append(cases, planCase{"GridWorld 3x3", "gridworld:3", "Obs score", T, obsScore}, planCase{"GridWorld 3x3", "gridworld:3", "Action+obs score", T, actionObs})
	}
	cases = append(cases, planCase{"GridWorld 5x5", "gridworld:5", "Obs score", 2, obsScore}, planCase{"GridWorld 5x5", "gridworld:5", "Action+obs score", 2, actionObs})
	if err := planningTable(ctx, env, t, cases, false); err != nil {
		return nil, err
	}
	t.Notes = append(t.Notes, "Timings are pattern-only. Policies are first maxima in enumeration order (tolerance "+fg(value.DefaultTol)+"); ties are common: the value columns are the claim under test (thm:exact-sufficiency).")
	return t, nil
}

func latentPlanning(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "latent-planning-exact", Paper: "latent-planning-exact", Label: "tab:latent-planning-exact",
		Title: "Latent-state planning on exact clock-aware quotients (values on the original model)",
		Columns: []Column{{"benchmark", Key}, {"reward", Key}, {"horizon", Key}, {"histories", Exact}, {"classes", Exact},
			{"t_orig", Timing}, {"t_quotient", Timing}, {"policy", Exact}, {"v_orig", Exact}, {"v_quotient_on_orig", Exact}, {"regret", Exact}}}
	var cases []planCase
	for _, T := range []int{2, 4, 6, 8, 10} {
		cases = append(cases, planCase{"Tiger", "tiger", "Tiger reward", T, latent})
	}
	for _, T := range []int{2, 3} {
		cases = append(cases, planCase{"GridWorld 3x3", "gridworld-goal:3", "Goal reward", T, latent})
	}
	if err := planningTable(ctx, env, t, cases, true); err != nil {
		return nil, err
	}
	return t, nil
}
