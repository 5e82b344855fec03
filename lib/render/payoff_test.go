package render

import (
	"math"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/planq"
)

// TestPayoffRows: for a model planned on, out of reach, and not valued,
// every cell says something (never empty, never "—"), the model's time or
// its refusal with the lower bound, the class total and the histories per
// depth (|O|^t, counted here) are where the reader looks for them.
func TestPayoffRows(t *testing.T) {
	base := planq.Payoff{Planner: "pbvi", T: 3, States: 247809, Observations: 3, HistoriesT: 27, Eps: 0.3, Classes: []int{1, 3, 3, 1},
		QuotientSec: 2.25, DistanceSec: 1.5, PartitionSec: 0.05, PlanQSec: 0.7, QuotientValue: 2.8525, ModelSec: math.NaN(), ModelValue: math.NaN()}
	planned := base
	planned.Outcome, planned.ModelSec, planned.ModelValue = planq.ModelFaster, 0.4, 3.1
	refused := base
	refused.Outcome, refused.ModelRefused, refused.ModelWork = planq.ModelOutOfReach, "pbvi on the original: estimated 2.39e+11 steps", 2.39e11
	refused.ModelAtLeast, refused.ModelAtLeastHow = 3.57e7, "T·|O|·nnz(T)"
	notValued := base
	notValued.Outcome, notValued.ModelRefused = planq.NotCompared, "no baseline: alpha vectors"
	cases := []struct {
		name            string
		p               planq.Payoff
		modelTime, vals []string // substrings of the model's cells
	}{
		{"planned", planned, []string{"0.4 s"}, []string{"3.1"}},
		{"out of reach", refused, []string{"not run", "2.39e+11", "at least 3.57e+07 steps", "T·|O|·nnz(T)"}, []string{"none"}},
		{"not valued", notValued, []string{"not run", "alpha vectors"}, []string{"none"}},
	}
	for _, tc := range cases {
		header, rows := PayoffRows(tc.p)
		if len(header) != 3 || len(rows) != 3 {
			t.Fatalf("%s: %d columns, %d rows", tc.name, len(header), len(rows))
		}
		for _, r := range rows {
			for j, c := range r {
				if strings.TrimSpace(c) == "" || strings.Contains(c, "—") {
					t.Errorf("%s: row %q column %d is %q", tc.name, r[0], j, c)
				}
			}
		}
		if !strings.Contains(rows[0][2], "8 classes") || !strings.Contains(rows[0][1], "247809 states") {
			t.Errorf("%s: sizes %q / %q", tc.name, rows[0][1], rows[0][2])
		}
		for _, want := range tc.modelTime {
			if !strings.Contains(rows[1][1], want) {
				t.Errorf("%s: model time %q lacks %q", tc.name, rows[1][1], want)
			}
		}
		for _, want := range tc.vals {
			if !strings.Contains(rows[2][1], want) {
				t.Errorf("%s: model value %q lacks %q", tc.name, rows[2][1], want)
			}
		}
		if tc.p.Outcome != planq.ModelOutOfReach && strings.Contains(rows[1][1], "at least") {
			t.Errorf("%s: a lower bound where nothing was out of reach: %q", tc.name, rows[1][1])
		}
		dh, drows := PayoffDepthRows(tc.p)
		for k := range tc.p.Classes {
			if want := FormatNumber(math.Pow(3, float64(k)), 4); dh[k+1] != FormatNumber(float64(k), 0) || drows[0][k+1] != want || drows[1][k+1] != FormatNumber(float64(tc.p.Classes[k]), 0) {
				t.Errorf("%s: depth %s: %s histories, %s classes; want %s, %d", tc.name, dh[k+1], drows[0][k+1], drows[1][k+1], want, tc.p.Classes[k])
			}
		}
		h, err := PayoffHTML(tc.p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(h, "<table") != 2 || !strings.Contains(h, tc.p.Outcome.String()) {
			t.Errorf("%s: HTML has %d tables, outcome %q shown: %v", tc.name, strings.Count(h, "<table"), tc.p.Outcome, strings.Contains(h, tc.p.Outcome.String()))
		}
		if txt := PayoffText(tc.p); !strings.HasPrefix(txt, tc.p.Outcome.String()+": ") {
			t.Errorf("%s: text starts %q", tc.name, txt[:min(len(txt), 40)])
		}
	}
}
