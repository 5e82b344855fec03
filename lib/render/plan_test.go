package render

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/pomdpq/pomdpq/lib/planq"
	"github.com/pomdpq/pomdpq/lib/value"
)

// planResult is a hand-built planning result: three ε rows of which the
// second has no baseline (regret NaN), covered by cor:sim-to-real with
// L_R = 0.5, T = 3, and stand-ins; the quotient of the third enters a
// class with no possible member.
func planResult() *planq.Result {
	reached := func(r planq.Row, p float64) planq.Row { r.StandInReach = p; return r }
	lr := planq.Lipschitz{Value: 0.5, How: "exact", Why: "max |ΔR̄|/W1 = 0.25/0.5", Certified: true, Family: "stationary m≤1 (3 FSCs)"}
	row := func(eps float64, classes int, regret float64, verdict planq.Verdict) planq.Row {
		return planq.Row{Eps: eps, Classes: classes, RightInvariant: true, VQ: 1.25, VM: 1 - regret, Reference: 1, Regret: regret,
			Optimum: 1, RegretOptimum: regret, Verdict: verdict, Speedup: 2,
			Bound: planq.Bound{Applies: true, Theorem: "cor:sim-to-real", Formula: "2·L_R·T·ε", LR: lr, T: 3, Eps: eps, Value: 2 * 0.5 * 3 * eps,
				Covers: "the controllers of Π = stationary m≤1 (3 FSCs)"}}
	}
	return &planq.Result{Model: "toy-model", Family: "stationary m≤1 (3 FSCs)", Planner: "best-fsc", Reward: "observation reward v(o)",
		T: 3, Gamma: 0.95, Metric: "w1", Ground: "discrete ground", Convention: "uniform", MemBudget: 1 << 30, MaxWork: 2e9,
		Histories: 15, FamilySize: 3, StandIns: 7, LR: lr,
		Baseline: &planq.Plan{Policy: "always listen", Value: 1},
		Optimum:  &value.Result{Value: 1, Policy: "always listen", Ties: 1},
		Rows: []planq.Row{row(0, 9, 0, planq.WithinBound), row(0.25, 7, math.NaN(), planq.NotJudged),
			reached(row(0.5, 4, 0.125, planq.WithinBoundStandIn), 0.25)}}
}

// TestPlanHTML checks that the fragment shows every dependency of the
// numbers, one table row per ε, the bound's terms, the stand-in note and
// one SVG with both panels.
func TestPlanHTML(t *testing.T) {
	h, err := PlanHTML(planResult())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"toy-model", "observation reward v(o)", "stationary m≤1 (3 FSCs)", "γ = 0.95", "0, 0.25, 0.5", "best-fsc", "w1",
		"discrete ground", "uniform (7 impossible (history, probe) pairs)", "1.0 GiB", "2e+09", "L_R", "max |ΔR̄|/W1 = 0.25/0.5",
		"the controllers of Π = stationary m≤1 (3 FSCs)", "cor:sim-to-real", "2·L_R·T·ε = 2·0.5·3·0.25",
		"not judged (no baseline)", "7 (history, probe) pairs are impossible (uniform stand-in in the distances)",
		"carry no weight", "ε = 0.5: probability 0.25", "0.125", "1.5",
	} {
		if !strings.Contains(h, htmlText(want)) {
			t.Errorf("PlanHTML lacks %q", want)
		}
	}
	if n := strings.Count(h, "<svg"); n != 1 {
		t.Errorf("%d SVG documents, want 1", n)
	}
	for _, label := range []string{"measured regret", "bound 2·L_R·T·ε (not certified)", "classes of the ε-quotient"} {
		if !strings.Contains(h, label) {
			t.Errorf("the plot lacks the legend entry %q", label)
		}
	}
	// The per-ε table: a row per ε, the refused regret shown as "—".
	tables := regexp.MustCompile(`(?s)<table.*?</table>`).FindAllString(h, -1)
	if len(tables) != 2 {
		t.Fatalf("%d tables, want the dependencies and the per-ε table", len(tables))
	}
	if rows := strings.Count(tables[1], "<tr>") - 1; rows != 3 {
		t.Errorf("per-ε table has %d rows, want 3", rows)
	}
	if !strings.Contains(tables[1], ">—<") {
		t.Error("the row without a baseline does not show its regret as —")
	}
}

// htmlText escapes s as TableHTML writes text.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// TestPlanBoundCases covers the bound cells and the plot's bound series:
// a vacuous bound (L_R = +Inf), a planner no theorem covers, and a bound
// exceeded, which must be said loudly.
func TestPlanBoundCases(t *testing.T) {
	cases := []struct {
		name     string
		edit     func(*planq.Result)
		cell     string // the certified-bound cell of the first row
		boundPts bool   // the plot draws a bound
		loud     bool
	}{
		{"covered", func(*planq.Result) {}, "0", true, false},
		{"vacuous", func(r *planq.Result) {
			for i := range r.Rows {
				r.Rows[i].Bound.Value, r.Rows[i].Bound.LR.Value, r.Rows[i].Verdict = math.Inf(1), math.Inf(1), planq.VacuousBound
			}
		}, "none (L_R = +Inf)", false, false},
		{"not covered", func(r *planq.Result) {
			r.Planner = "pbvi"
			for i := range r.Rows {
				r.Rows[i].Bound = planq.Bound{Reason: "PBVI is not chosen over Π", Value: math.NaN()}
				r.Rows[i].Verdict = planq.NotCovered
			}
		}, "n/a", false, false},
		{"exceeded", func(r *planq.Result) {
			r.StandIns = 0
			r.Rows[0].Regret, r.Rows[0].Verdict = 0.5, planq.BoundViolated
		}, "0", true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := planResult()
			c.edit(res)
			header, rows := PlanRows(res)
			col := indexOf(header, "certified bound")
			if col < 0 {
				t.Fatalf("no certified bound column in %v", header)
			}
			if rows[0][col] != c.cell {
				t.Errorf("bound cell %q, want %q", rows[0][col], c.cell)
			}
			top, _, err := PlanPlots(res)
			if err != nil {
				t.Fatal(err)
			}
			svg, err := PlotSVG(top, 5*vg.Inch, 3*vg.Inch)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(svg, "bound 2·L_R·T·ε"); got != c.boundPts {
				t.Errorf("plot draws a bound: %v, want %v", got, c.boundPts)
			}
			loud := false
			for _, n := range PlanNotes(res) {
				loud = loud || strings.HasPrefix(n, "!!! BOUND VIOLATED at ε = 0")
			}
			if loud != c.loud {
				t.Errorf("loud note %v, want %v (notes %q)", loud, c.loud, PlanNotes(res))
			}
			page, err := PlanHTML(res)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(page, `class="bad"`); got != c.loud {
				t.Errorf("PlanHTML shows a note in red: %v, want %v", got, c.loud)
			}
			if c.name == "not covered" {
				if !strings.Contains(strings.Join(PlanCovers(res), ""), "no certified bound: PBVI is not chosen over Π") {
					t.Errorf("covers %q does not say why no bound applies", PlanCovers(res))
				}
				if indexOf(header, "regret from optimum over Π") < 0 {
					t.Error("a planner other than best-fsc shows no regret from the optimum over Π")
				}
			}
		})
	}
	if _, _, err := PlanPlots(&planq.Result{}); err == nil {
		t.Error("PlanPlots of a result without rows: no error")
	}
}

// TestBoundTerms: the substituted formula names every term; for the
// cross-family form, δ_clk too.
func TestBoundTerms(t *testing.T) {
	lr := planq.Lipschitz{Value: 1.5}
	for _, c := range []struct {
		b    planq.Bound
		want string
	}{
		{planq.Bound{Formula: "2·L_R·T·ε", LR: lr, T: 4, Eps: 0.3}, "2·L_R·T·ε = 2·1.5·4·0.3"},
		{planq.Bound{Formula: "2·L_R·T·(ε + δ_clk)", LR: lr, T: 3, Eps: 0, DeltaName: "δ_clk", Delta: 0.125}, "2·L_R·T·(ε + δ_clk) = 2·1.5·3·(0 + 0.125)"},
		{planq.Bound{Formula: "2·L_R·T·ε", LR: planq.Lipschitz{Value: math.Inf(1)}, T: 2, Eps: 0.5}, "2·L_R·T·ε = 2·+Inf·2·0.5"},
	} {
		if got := boundTerms(c.b); got != c.want {
			t.Errorf("boundTerms = %q, want %q", got, c.want)
		}
	}
}

func indexOf(xs []string, x string) int {
	for i, s := range xs {
		if s == x {
			return i
		}
	}
	return -1
}

func TestStackSVG(t *testing.T) {
	a, b := linePlot(t), linePlot(t)
	b.Title.Text = "second panel"
	svg, err := StackSVG(4*vg.Inch, 5*vg.Inch, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(svg, "<svg") || elements(t, svg)["svg"] != 1 {
		t.Errorf("not one SVG document: %q…", svg[:min(len(svg), 60)])
	}
	for _, title := range []string{">values<", ">second panel<"} {
		if !strings.Contains(svg, title) {
			t.Errorf("SVG lacks the title %s", title)
		}
	}
	if _, err := StackSVG(vg.Inch, vg.Inch); err == nil {
		t.Error("StackSVG of no plot: no error")
	}
	if _, err := StackSVG(vg.Inch, vg.Inch, a, nil); err == nil || !strings.Contains(err.Error(), "panel 2") {
		t.Errorf("StackSVG with a nil panel: %v", err)
	}
}
