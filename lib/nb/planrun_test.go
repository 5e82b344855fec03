package nb

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/janpfeifer/gonb/gonbui/protocol"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/planq"
	"github.com/pomdpq/pomdpq/lib/render"
	"github.com/pomdpq/pomdpq/lib/value"
)

// TestPlanTiger runs the helpers on a real run (Tiger, observation reward,
// m ≤ 2, T = 4): the bar is one display updated in place, and the shown
// table carries the run's regret and bound for each ε.
func TestPlanTiger(t *testing.T) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	m, err := value.WithObsReward(b.Model)
	if err != nil {
		t.Fatal(err)
	}
	sent, _ := fakeNotebook(t)
	phases := 0
	cfg := planq.Config{Model: m, Ground: b.Ground, Reward: "observation", ObsValues: value.ObsValues(2), Kind: fsc.KindStationary, M: 2, T: 4,
		Eps: []float64{0, 0.5}, Planner: planq.BestFSC{}}
	cfg.Distance.Phase = func(string) { phases++ }
	res, err := Plan(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if phases == 0 {
		t.Error("the caller's Phase callback was not called")
	}
	if len(*sent) < 2 {
		t.Fatalf("%d displays: the progress bar was not shown", len(*sent))
	}
	for _, d := range *sent {
		if d.DisplayID != "pomdpq-progress-a" {
			t.Fatalf("display id %q: the bar is not one display updated in place", d.DisplayID)
		}
	}
	last := (*sent)[len(*sent)-1].Data[protocol.MIMETextPlain].(string)
	if !strings.Contains(last, "finished") || !strings.Contains(last, "ε values planned: 2/2") {
		t.Errorf("final bar %q", last)
	}
	*sent = nil
	if err := ShowPlan(res); err != nil {
		t.Fatal(err)
	}
	if len(*sent) != 1 {
		t.Fatalf("ShowPlan sent %d displays", len(*sent))
	}
	h := (*sent)[0].Data[protocol.MIMETextHTML].(string)
	header, rows := render.PlanRows(res)
	for _, r := range rows {
		for _, col := range []string{"regret", "certified bound"} {
			j := slices.Index(header, col)
			if j < 0 || !strings.Contains(h, ">"+r[j]+"<") {
				t.Errorf("ε = %s: the table lacks the %s %s (header %q)", r[0], col, r[j%len(r)], header)
			}
		}
	}
	// Outside a notebook: text, with the same per-ε rows.
	buf := captureText(t)
	if err := ShowPlan(res); err != nil {
		t.Fatal(err)
	}
	if txt := buf.String(); !strings.Contains(txt, "the bound covers") || strings.Count(txt, "within bound") != 2 {
		t.Errorf("text form:\n%s", txt)
	}
}
