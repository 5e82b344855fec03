package report

import (
	"context"
	"math"
	"regexp"
	"strings"
	"testing"
)

// TestPlanningSection: Tiger at T = 3 plans over m ≤ 2 (147 controllers fit
// the limit). With Tiger's own reward, whose expected reward differs
// between histories with equal suffix laws, no finite L_R exists and every
// row says the bound is vacuous; with the observation reward the exact
// quotient loses nothing (regret 0 at ε = 0, thm:exact-sufficiency) and
// every row is within the bound. The page shows both runs, each with one
// SVG and its two tables.
func TestPlanningSection(t *testing.T) {
	m, b := tiger(t)
	r, err := Build(context.Background(), m, "tiger", Options{T: 3, Ground: b.Ground})
	if err != nil {
		t.Fatal(err)
	}
	p := r.Planning
	if p == nil || p.Refused != "" || p.M != 2 || len(p.Runs) != 2 {
		t.Fatalf("planning %+v: want m ≤ 2 and two runs", p)
	}
	if len(p.Eps) != PlanEpsPoints || p.Eps[0] != 0 || p.Eps[len(p.Eps)-1] != r.Grid[len(r.Grid)-1] {
		t.Errorf("ε %v: want %d values from 0 to the grid's end %g", p.Eps, PlanEpsPoints, r.Grid[len(r.Grid)-1])
	}
	own, obs := p.Runs[0].Result, p.Runs[1].Result
	if own == nil || obs == nil {
		t.Fatalf("runs refused: %q, %q", p.Runs[0].Refused, p.Runs[1].Refused)
	}
	if !math.IsInf(own.LR.Value, 1) {
		t.Errorf("own reward: L_R = %g, want +Inf", own.LR.Value)
	}
	for _, row := range own.Rows {
		if row.Verdict.String() != "vacuous bound" {
			t.Errorf("own reward, ε = %g: verdict %q", row.Eps, row.Verdict)
		}
	}
	for _, row := range obs.Rows {
		if row.Verdict.String() != "within bound" {
			t.Errorf("observation reward, ε = %g: verdict %q (regret %g, bound %v)", row.Eps, row.Verdict, row.Regret, row.Bound)
		}
	}
	if math.Abs(obs.Rows[0].Regret) > 1e-9 {
		t.Errorf("observation reward, ε = 0: regret %g, want 0", obs.Rows[0].Regret)
	}
	var sb strings.Builder
	if err := r.WriteHTML(&sb, nil); err != nil {
		t.Fatal(err)
	}
	page := sb.String()
	i, j := strings.Index(page, `<h2 id="planning">`), strings.Index(page, `<h2 id="files">`)
	if i < 0 || j < i {
		t.Fatalf("no planning section before the files (at %d, %d)", i, j)
	}
	section := page[i:j]
	divs := regexp.MustCompile(`(?s)<div class="pomdpq-plan">.*?</div>`).FindAllString(section, -1)
	if len(divs) != 2 {
		t.Fatalf("%d planning displays, want 2", len(divs))
	}
	for k, d := range divs {
		if n, tabs := strings.Count(d, "<svg"), strings.Count(d, "<table"); n != 1 || tabs != 2 {
			t.Errorf("display %d: %d SVGs and %d tables, want 1 and 2", k, n, tabs)
		}
	}
	for _, want := range []string{"For the model&#39;s own reward", "For an observation reward", "vacuous bound", "within bound", "cor:sim-to-real"} {
		if !strings.Contains(section, want) {
			t.Errorf("the section lacks %q", want)
		}
	}
}

// TestPlanningRefused: with every family refused by the budget, the
// section says it did not plan, and why.
func TestPlanningRefused(t *testing.T) {
	m, b := tiger(t)
	r, err := Build(context.Background(), m, "tiger", Options{T: 3, Ground: b.Ground, MemBudget: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if r.Planning == nil || r.Planning.Refused != "no family was computed" {
		t.Fatalf("planning %+v", r.Planning)
	}
	var sb strings.Builder
	if err := r.WriteHTML(&sb, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "Not planned: no family was computed") {
		t.Error("the page does not say why it did not plan")
	}
}

func TestPlanEps(t *testing.T) {
	grid31 := Grid(1.47, 31)
	cases := []struct {
		grid []float64
		want []float64
	}{
		{grid31, []float64{0, grid31[5], grid31[10], grid31[15], grid31[20], grid31[25], 1.5}},
		{[]float64{0, 0.5, 1}, []float64{0, 0.5, 1}},
		{nil, []float64{0}},
	}
	for _, c := range cases {
		got := planEps(c.grid)
		if len(got) != len(c.want) {
			t.Errorf("planEps(%v) = %v, want %v", c.grid, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("planEps(%v) = %v, want %v", c.grid, got, c.want)
				break
			}
		}
	}
}
