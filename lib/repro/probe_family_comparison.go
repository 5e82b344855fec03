package repro

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/plan"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

func init() {
	register(Spec{Name: "probe-family-comparison", Label: "tab:probe-family-comparison",
		Title: "Clock-aware vs operational quotients (exact, m = 1)", Build: probeFamilyComparison})
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
