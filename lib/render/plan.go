package render

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/planq"
)

// PlanPlots returns the two panels of a planning run against ε: the
// measured regret beside the certified bound (top; a row whose bound is
// vacuous, not covered or not finite draws no bound point), and the number
// of classes of the quotient planned on (bottom). Both share the x range.
func PlanPlots(res *planq.Result) (top, bottom *plot.Plot, err error) {
	if res == nil || len(res.Rows) == 0 {
		return nil, nil, fmt.Errorf("render: a planning result without rows has nothing to plot")
	}
	var regret, fromOpt, bound, classes Series
	regret.Label = "measured regret"
	fromOpt.Label = "regret from the optimum over Π"
	bound.Label = "certified bound " + boundFormula(res)
	if anyUncertified(res) {
		bound.Label = "bound " + boundFormula(res) + " (not certified)"
	}
	classes.Label = "classes of the ε-quotient"
	for _, r := range res.Rows {
		if finite(r.Regret) {
			regret.X, regret.Y = append(regret.X, r.Eps), append(regret.Y, r.Regret)
		}
		if res.Planner != "best-fsc" && finite(r.RegretOptimum) {
			fromOpt.X, fromOpt.Y = append(fromOpt.X, r.Eps), append(fromOpt.Y, r.RegretOptimum)
		}
		if r.Bound.Applies && finite(r.Bound.Value) {
			bound.X, bound.Y = append(bound.X, r.Eps), append(bound.Y, r.Bound.Value)
		}
		classes.X, classes.Y = append(classes.X, r.Eps), append(classes.Y, float64(r.Classes))
	}
	var values []Series
	for _, s := range []Series{regret, fromOpt, bound} {
		if len(s.X) > 0 {
			values = append(values, s)
		}
	}
	title := fmt.Sprintf("%s, Π = %s, T = %d, planner %s", res.Model, res.Family, res.T, res.Planner)
	if top, err = LinePlot(title, "ε", "regret / bound", values...); err != nil {
		return nil, nil, err
	}
	if bottom, err = LinePlot("", "ε", "classes", classes); err != nil {
		return nil, nil, err
	}
	// The bound grows with ε and the class count falls: the legends sit
	// where the lines are not (top left, top right), above 5% headroom.
	top.Y.Min = math.Min(top.Y.Min, 0)
	bottom.Y.Min = 0
	for _, p := range []*plot.Plot{top, bottom} {
		p.Y.Max += 0.05*(p.Y.Max-p.Y.Min) + 1e-9
	}
	top.Legend.Left = true
	bottom.X.Min, bottom.X.Max = top.X.Min, top.X.Max
	return top, bottom, nil
}

// PlanSVG renders [PlanPlots] as one SVG of width w and height h.
func PlanSVG(res *planq.Result, w, h vg.Length) (string, error) {
	top, bottom, err := PlanPlots(res)
	if err != nil {
		return "", err
	}
	return StackSVG(w, h, top, bottom)
}

// PlanDependencies returns what a planning run's numbers depend on, as
// (quantity, value) rows: model, reward, value convention, family Π,
// horizon T, the ε values, planner, metric, ground metric, stand-in
// convention with the count of impossible pairs, memory budget, work
// limit, L_R (value, how it was obtained, why), δ_clk, the baseline, the
// exact optimum over Π, and the policies the bound covers.
func PlanDependencies(res *planq.Result) [][]string {
	var eps []string
	for _, r := range res.Rows {
		eps = append(eps, FormatNumber(r.Eps, 6))
	}
	budget := "none"
	if res.MemBudget > 0 {
		budget = distance.FormatBytes(res.MemBudget)
	}
	certified := "certified"
	switch {
	case math.IsInf(res.LR.Value, 1):
		certified = "no finite constant: the bound is vacuous"
	case !res.LR.Certified:
		certified = "NOT a certified constant"
	}
	rows := [][]string{
		{"model", res.Model},
		{"reward planned for", res.Reward},
		{"values", fmt.Sprintf("expected return over T = %d stages with γ = %g (the model's discount, 1 if none), as pomdpq evaluate --horizon %d", res.T, res.Gamma, res.T)},
		{"family Π", res.Family},
		{"horizon T", strconv.Itoa(res.T)},
		{"ε", strings.Join(eps, ", ")},
		{"planner", res.Planner},
		{"metric", res.Metric},
		{"ground metric", res.Ground},
		{"stand-in convention", fmt.Sprintf("%s (%d impossible (history, probe) pairs)", res.Convention, res.StandIns)},
		{"memory budget", budget},
		{"work limit", fmt.Sprintf("%.3g estimated steps (baseline, exact optimum, exact L_R)", res.MaxWork)},
		{"histories", strconv.Itoa(res.Histories)},
		{"L_R", fmt.Sprintf("%s over %s (%s, %s): %s", fmtLR(res.LR.Value), res.LR.Family, res.LR.How, certified, res.LR.Why)},
	}
	switch {
	case res.DeltaClk != nil:
		rows = append(rows, []string{"δ_clk", fmt.Sprintf("%s (‖d^clk − d^op‖∞, m = 1)", FormatNumber(*res.DeltaClk, 6))})
	case res.DeltaNote != "":
		rows = append(rows, []string{"δ_clk", "not computed: " + res.DeltaNote})
	}
	if b := res.Baseline; b != nil {
		rows = append(rows, []string{"baseline", fmt.Sprintf("%s on the original: %s (%s), %.3f s", res.Planner, fmtValue(b.Value), b.Policy, b.Seconds)})
	} else {
		rows = append(rows, []string{"baseline", "REFUSED: " + res.BaselineRefused})
	}
	if o := res.Optimum; o != nil {
		rows = append(rows, []string{"exact optimum over Π", fmt.Sprintf("%s (%s, %d tied)", fmtValue(o.Value), o.Policy, o.Ties)})
	} else {
		rows = append(rows, []string{"exact optimum over Π", "REFUSED: " + res.OptimumRefused})
	}
	rows = append(rows, []string{"the bound covers", strings.Join(PlanCovers(res), " | ")},
		[]string{"distances", fmt.Sprintf("%.3f s (shared by every ε)", res.DistanceSeconds)})
	return rows
}

// PlanCovers states, once per distinct statement over the rows, which
// policies the certified bound is about (the family Π) or why no theorem
// covers the planner's policy.
func PlanCovers(res *planq.Result) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range res.Rows {
		s := "no certified bound: " + r.Bound.Reason
		if r.Bound.Applies {
			s = fmt.Sprintf("%s (%s): %s", r.Bound.Theorem, r.Bound.Formula, r.Bound.Covers)
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// PlanRows returns the per-ε table of a planning run: header and rows
// (classes, V_Q(π_Q), V_M(lift(π_Q)), the reference, the measured regret,
// the certified bound with its theorem and δ where the formula has one,
// the verdict and the times).
func PlanRows(res *planq.Result) (header []string, rows [][]string) {
	delta, opt := "", res.Planner != "best-fsc"
	for _, r := range res.Rows {
		if r.Bound.DeltaName != "" {
			delta = r.Bound.DeltaName
		}
	}
	header = []string{"ε", "classes", "V_Q(π_Q)", "V_M(lift)", "reference", "regret"}
	if opt {
		header = append(header, "regret from optimum over Π")
	}
	if delta != "" {
		header = append(header, delta)
	}
	header = append(header, "certified bound", "bound with its terms", "theorem", "verdict", "s partition", "s plan Q", "s plan M", "speed-up")
	for _, r := range res.Rows {
		row := []string{FormatNumber(r.Eps, 6), strconv.Itoa(r.Classes), fmtValue(r.VQ), fmtValue(r.VM), fmtValue(r.Reference), fmtValue(r.Regret)}
		if opt {
			row = append(row, fmtValue(r.RegretOptimum))
		}
		if delta != "" {
			d := "—"
			if r.Bound.DeltaName != "" {
				d = FormatNumber(r.Bound.Delta, 6)
			}
			row = append(row, d)
		}
		b, th, terms := "n/a", "none (not covered)", "—"
		if r.Bound.Applies {
			b, th, terms = fmtValue(r.Bound.Value), r.Bound.Theorem, boundTerms(r.Bound)
			if math.IsInf(r.Bound.Value, 1) {
				b = "none (L_R = +Inf)"
			}
		}
		sp := "—"
		if r.Speedup > 0 {
			sp = FormatNumber(r.Speedup, 3) + "×"
		}
		row = append(row, b, terms, th, r.Verdict.String(), fmt.Sprintf("%.3f", r.PartitionSec), fmt.Sprintf("%.3f", r.PlanQSec), fmt.Sprintf("%.3f", r.PlanMSec), sp)
		rows = append(rows, row)
	}
	return header, rows
}

// PlanNotes returns what the reader must know beside the numbers: a bound
// exceeded (loudly), the impossible histories and whether a quotient
// enters a class with no possible member (planq.Result.StandInNote),
// partitions that are not right-invariant, and the planner's notes (ties).
func PlanNotes(res *planq.Result) []string {
	return append(planAlarms(res), planQuietNotes(res)...)
}

// planAlarms returns the notes of the rows whose measured regret exceeds
// the bound (planq.Verdict.Alarm), which PlanHTML shows in bold red.
func planAlarms(res *planq.Result) []string {
	var notes []string
	for _, r := range res.Rows {
		if r.Verdict.Alarm() {
			notes = append(notes, fmt.Sprintf("!!! %s at ε = %s: measured regret %s exceeds the bound %s !!!", r.Verdict, FormatNumber(r.Eps, 6), fmtValue(r.Regret), fmtValue(r.Bound.Value)))
		}
	}
	return notes
}

// planQuietNotes returns PlanNotes after the alarms.
func planQuietNotes(res *planq.Result) []string {
	var notes []string
	if note := res.StandInNote(); note != "" {
		notes = append(notes, note+".")
	}
	// Notes shared by several rows are written once, after their ε values.
	var order []string
	at := map[string][]string{}
	add := func(eps float64, note string) {
		if at[note] == nil {
			order = append(order, note)
		}
		at[note] = append(at[note], FormatNumber(eps, 6))
	}
	for _, r := range res.Rows {
		if !r.RightInvariant {
			add(r.Eps, "the ε-partition is not right-invariant (a member's successor can lie outside the class the quotient moves to); the lift follows the representatives.")
		}
		if r.Note != "" {
			add(r.Eps, r.Note)
		}
	}
	for _, n := range order {
		notes = append(notes, fmt.Sprintf("ε = %s: %s", strings.Join(at[n], ", "), n))
	}
	return notes
}

// PlanHTML renders a planning run as one HTML fragment: the plot of
// [PlanSVG], the dependencies ([PlanDependencies]), the per-ε table
// ([PlanRows]) and the notes ([PlanNotes]). `pomdpq analyze`'s report
// uses it for its "Planning through the quotient" section.
func PlanHTML(res *planq.Result) (string, error) {
	svg, err := PlanSVG(res, 6*vg.Inch, 5*vg.Inch)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(`<div class="pomdpq-plan">` + "\n")
	fmt.Fprintf(&b, `<figure class="plan">%s<figcaption>Top: measured regret of the lifted quotient policy and the certified bound %s against ε. Bottom: classes of the ε-quotient planned on.</figcaption></figure>`+"\n",
		svg, html.EscapeString(boundFormula(res)))
	deps, err := TableHTML("What the planning result depends on", []string{"quantity", "value"}, PlanDependencies(res))
	if err != nil {
		return "", err
	}
	header, rows := PlanRows(res)
	tab, err := TableHTML("Planning through the quotient, per ε", header, rows)
	if err != nil {
		return "", err
	}
	b.WriteString(deps + "\n" + tab + "\n")
	for _, n := range planAlarms(res) {
		fmt.Fprintf(&b, "<p %s>%s</p>\n", `class="bad" style="color:#a40000;font-weight:bold"`, html.EscapeString(n))
	}
	for _, n := range planQuietNotes(res) {
		fmt.Fprintf(&b, "<p %s>%s</p>\n", `class="note" style="color:#555"`, html.EscapeString(n))
	}
	b.WriteString("</div>")
	return b.String(), nil
}

// PlanText renders a planning run as plain text: dependencies, the per-ε
// table and the notes.
func PlanText(res *planq.Result) string {
	var b strings.Builder
	b.WriteString(AlignColumns(append([][]string{{"quantity", "value"}}, PlanDependencies(res)...), nil, 1))
	header, rows := PlanRows(res)
	b.WriteString("\n" + AlignColumns(append([][]string{header}, rows...), nil, 1))
	for _, n := range PlanNotes(res) {
		b.WriteString(n + "\n")
	}
	return b.String()
}

// boundTerms writes a bound's formula with its terms substituted, e.g.
// "2·L_R·T·ε = 2·1·4·0.5" (L_R, T, ε, and δ where the formula has one;
// how L_R was obtained is in the dependencies).
func boundTerms(b planq.Bound) string {
	lr, eps := fmtLR(b.LR.Value), FormatNumber(b.Eps, 6)
	if b.DeltaName != "" {
		return fmt.Sprintf("%s = 2·%s·%d·(%s + %s)", b.Formula, lr, b.T, eps, FormatNumber(b.Delta, 6))
	}
	return fmt.Sprintf("%s = 2·%s·%d·%s", b.Formula, lr, b.T, eps)
}

// boundFormula names the formula of the rows' bounds ("2·L_R·T·ε").
func boundFormula(res *planq.Result) string {
	for _, r := range res.Rows {
		if r.Bound.Applies {
			return r.Bound.Formula
		}
	}
	return "(none applies)"
}

// anyUncertified reports whether a row's verdict is not certified.
func anyUncertified(res *planq.Result) bool {
	for _, r := range res.Rows {
		if r.Verdict.Uncertified() {
			return true
		}
	}
	return false
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// fmtValue writes a value to six significant digits ([FormatNumber], as
// the tables format numbers), "—" when the run gives none (NaN), and 0
// below 5e-7 in magnitude, as the six decimals of `pomdpq plan` show it
// (rounding noise of an exact 0 is not news).
func fmtValue(x float64) string {
	if !finite(x) {
		if math.IsInf(x, 1) {
			return "+Inf"
		}
		return "—"
	}
	if math.Abs(x) < 5e-7 {
		x = 0
	}
	return FormatNumber(x, 6)
}

func fmtLR(x float64) string {
	if math.IsInf(x, 1) {
		return "+Inf"
	}
	return FormatNumber(x, 6)
}
