package repro

import (
	"context"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/planq"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// TestPBVIRockSampleQuotientValue checks the RockSample(4,4) row of
// tab:pbvi-comparison, v_quotient = 0, against a hand fact. The quotient
// PBVI solves is exported under the probe check_1 check_1 check_1, which
// never moves the agent from its start cell (0,0) (lib/bench/rocksample.go:
// b0 has the agent at (0,0), checks leave the state unchanged), so every
// history possible under it has the agent at (0,0), where no rock lies
// (rocks at (0,1), (1,3), (2,1), (3,3)): sample pays −10 and every other
// action 0. Class beliefs average only possible members, so every state of
// the exported quotient has that reward row, and the optimum over any
// policy on it is 0 (never sample); PBVI, a lower bound, reaches it. (When
// the uniform stand-in beliefs of impossible members, histories with
// "none", entered the class beliefs, the agent was spread over the grid
// and PBVI's quotient value was 2.8016.)
func TestPBVIRockSampleQuotientValue(t *testing.T) {
	b, err := bench.Lookup("rocksample:4:4")
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	fam, err := fsc.New(fsc.KindStationary, m.NumActions(), m.NumObservations(), 1, plPBVIT, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := distance.Compute(context.Background(), m, fam, plPBVIT, distance.Options{Ground: b.Ground})
	if err != nil {
		t.Fatal(err)
	}
	q, err := quotient.New(m, plPBVIT, r.Partition(plPBVIEps))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := planq.ExportProbe(m, plPBVIT)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Actions[ref.Action(0, 0)]; got != "check_1" {
		t.Fatalf("export probe plays %s, the hand fact is for check_1", got)
	}
	qm, err := q.Export(ref)
	if err != nil {
		t.Fatal(err)
	}
	for k, row := range qm.R {
		for a, v := range row {
			want := 0.0
			if m.Actions[a] == "sample" {
				want = -10
			}
			if d := v - want; d > 1e-9 || d < -1e-9 {
				t.Errorf("quotient state %s, action %s: reward %v, want %v (agent at (0,0))", qm.States[k], m.Actions[a], v, want)
			}
		}
	}
	tab := buildTable(t, &Env{}, "pbvi-comparison")
	for i := range tab.Rows {
		if tab.Rows[i][0] == "RockSample(4,4)" {
			if v := cell(t, tab, i, "v_quotient"); v != "0.0000" {
				t.Errorf("RockSample(4,4) v_quotient = %s, want 0.0000 (the quotient's optimum)", v)
			}
			return
		}
	}
	t.Fatal("no RockSample(4,4) row in pbvi-comparison")
}
