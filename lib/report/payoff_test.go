package report

import (
	"context"
	"flag"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/planq"
	"github.com/pomdpq/pomdpq/lib/render"
	"github.com/pomdpq/pomdpq/lib/value"
)

var updatePayoff = flag.Bool("update-payoff", false, "rewrite testdata/payoff-tiger-T3.golden")

// payoffGolden is the part of a payoff that does not depend on the clock:
// the sizes (total and per depth) and the values reached, per run.
func payoffGolden(label string, p planq.Payoff) string {
	header, rows := render.PayoffRows(p)
	var b strings.Builder
	fmt.Fprintf(&b, "run: %s\n%s | %s | %s\n", label, header[0], header[1], header[2])
	for _, r := range [][]string{rows[0], rows[2]} {
		fmt.Fprintf(&b, "%s | %s | %s\n", r[0], r[1], r[2])
	}
	dh, drows := render.PayoffDepthRows(p)
	for _, r := range append([][]string{dh}, drows...) {
		b.WriteString(strings.Join(r, " | ") + "\n")
	}
	return b.String()
}

// TestPayoffSection: the report of Tiger at T = 3 has a section "Does the
// quotient pay?" after the planning section, with one payoff per reward
// (two tables each, the verdict, no cell "—"). Its sizes and values are
// the golden testdata/payoff-tiger-T3.golden (times and the verdict, which
// depend on the clock, are not in it); beside it they are checked against
// what this test computes on its own: the classes per depth of a fresh
// ε-partition (distance.Compute at the payoff's ε), |O|^t histories, the
// best controller of Π on the model (value.Best) and the row's V_M.
func TestPayoffSection(t *testing.T) {
	m, b := tiger(t)
	r, err := Build(context.Background(), m, "tiger", Options{T: 3, Ground: b.Ground})
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := r.WriteHTML(&sb, nil); err != nil {
		t.Fatal(err)
	}
	page := sb.String()
	i, j, k := strings.Index(page, `<h2 id="planning">`), strings.Index(page, `<h2 id="payoff">Does the quotient pay?</h2>`), strings.Index(page, `<h2 id="files">`)
	if i < 0 || j < i || k < j {
		t.Fatalf("sections planning, payoff, files at %d, %d, %d: want in that order", i, j, k)
	}
	section := page[j:k]
	divs := regexp.MustCompile(`(?s)<div class="pomdpq-payoff">.*?</div>`).FindAllString(section, -1)
	if len(divs) != len(r.Planning.Runs) || len(divs) != 2 {
		t.Fatalf("%d payoff displays for %d runs, want 2", len(divs), len(r.Planning.Runs))
	}
	var golden strings.Builder
	for n, run := range r.Planning.Runs {
		p := run.Result.Payoff()
		if strings.Count(divs[n], "<table") != 2 || strings.Contains(divs[n], "—") || !strings.Contains(divs[n], html.EscapeString(p.Verdict)) {
			t.Errorf("%s: %d tables, a \"—\" %v, the verdict shown %v", run.Label, strings.Count(divs[n], "<table"), strings.Contains(divs[n], "—"), strings.Contains(divs[n], html.EscapeString(p.Verdict)))
		}
		golden.WriteString(payoffGolden(run.Label, p))
		checkPayoff(t, run, p, b.Ground, r.Planning.M)
	}
	path := filepath.Join("testdata", "payoff-tiger-T3.golden")
	if *updatePayoff {
		if err := os.WriteFile(path, []byte(golden.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := golden.String(); got != string(want) {
		t.Errorf("payoff sizes and values differ from %s (go test -run TestPayoffSection -update-payoff rewrites it):\n%s\nwant:\n%s", path, got, want)
	}
}

// checkPayoff recomputes a run's payoff from the model: the classes per
// depth of the ε-partition, the best controller's value on the model, the
// lifted policy's value (the row of the payoff's ε).
func checkPayoff(t *testing.T, run PlanRun, p planq.Payoff, g ot.Ground, M int) {
	t.Helper()
	res := run.Result
	mdl, _ := tiger(t)
	if strings.Contains(run.Label, "observation") {
		var err error
		if mdl, err = value.WithObsReward(mdl); err != nil {
			t.Fatal(err)
		}
	}
	fam, err := fsc.New(fsc.KindStationary, mdl.NumActions(), mdl.NumObservations(), M, res.T, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := distance.Compute(context.Background(), mdl, fam, res.T, distance.Options{Metric: distance.W1, Ground: g, Eps: []float64{p.Eps}})
	if err != nil {
		t.Fatal(err)
	}
	part := d.Partition(p.Eps)
	for depth, c := range p.Classes {
		if part.Classes(depth) != c {
			t.Errorf("%s: depth %d has %d classes, a fresh ε = %g partition %d", run.Label, depth, c, p.Eps, part.Classes(depth))
		}
	}
	best, err := value.Best(context.Background(), mdl, fam, res.T, value.LatentReward{Discount: 1}, value.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(best.Value-p.ModelValue) > 1e-9 {
		t.Errorf("%s: model value %g, value.Best %g", run.Label, p.ModelValue, best.Value)
	}
	for _, row := range res.Rows {
		if row.Eps == p.Eps && row.VM != p.QuotientValue {
			t.Errorf("%s: quotient value %g, the row's V_M %g", run.Label, p.QuotientValue, row.VM)
		}
	}
	if p.ModelRefused != "" || !(p.ModelSec >= 0) || p.States != 2 || p.HistoriesT != math.Pow(2, float64(res.T)) {
		t.Errorf("%s: model refused %q in %g s, %d states, %g histories", run.Label, p.ModelRefused, p.ModelSec, p.States, p.HistoriesT)
	}
}
