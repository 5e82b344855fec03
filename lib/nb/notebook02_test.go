package nb

import (
	"context"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

func TestProbeFamily(t *testing.T) {
	m := mustBench(t, "tiger").Model
	for _, tc := range []struct {
		mem   int
		mixed bool
	}{{1, false}, {1, true}, {2, true}} {
		st, err := fsc.NewStationary(m.NumActions(), m.NumObservations(), tc.mem, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		fam, err := ProbeFamily(m, tc.mem, tc.mixed)
		if err != nil {
			t.Fatal(err)
		}
		extra := 0
		if tc.mixed {
			extra = 1
		}
		if fam.Len() != st.Len()+extra || fam.At(fam.Len()-1).Deterministic() == tc.mixed {
			t.Errorf("m = %d mixed %v: %d probes, the deterministic family has %d", tc.mem, tc.mixed, fam.Len(), st.Len())
		}
	}
}

func TestHistoryName(t *testing.T) {
	tests := []struct {
		names []string
		hist  []int
		want  string
	}{
		{[]string{"L", "R"}, nil, "ε"},
		{[]string{"L", "R"}, []int{0, 1, 0}, "LRL"},
		{[]string{"NW", "NE", "SW", "SE"}, []int{1, 2}, "NE·SW"},
	}
	for _, tc := range tests {
		if got := HistoryName(tc.names, tc.hist); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.hist, got, tc.want)
		}
	}
}

func TestProbeName(t *testing.T) {
	m := mustBench(t, "tiger").Model
	fam, err := ProbeFamily(m, 2, true)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		c    *fsc.FSC
		want string
	}{
		{fam.At(0), "always " + m.Actions[fam.At(0).Action(0, 0)]},
		{fam.At(fam.Len() - 1), "stochastic 1-node, uniform actions"},
		{fam.At(fam.Len() - 2), "2 nodes, α="},
	}
	for _, tc := range tests {
		if got := ProbeName(m, tc.c); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q, want %q…", got, tc.want)
		}
	}
}

// TestSplitTiger: splitting a state changes the model, not the observation
// process, so the exact clock-aware quotient has Tiger's class counts.
func TestSplitTiger(t *testing.T) {
	sm, err := SplitTiger()
	if err != nil {
		t.Fatal(err)
	}
	tiger := mustBench(t, "tiger").Model
	for _, T := range []int{2, 3} {
		a, err := clock.Quotients(context.Background(), sm, T, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := clock.Quotients(context.Background(), tiger, T, nil)
		if err != nil {
			t.Fatal(err)
		}
		if sm.NumStates() != 3 || a.Clk.Total() != b.Clk.Total() || a.Op.Total() != b.Op.Total() {
			t.Errorf("T = %d: split %d/%d classes, Tiger %d/%d", T, a.Clk.Total(), a.Op.Total(), b.Clk.Total(), b.Op.Total())
		}
	}
}

// TestGreedyAgreement: one report row per budget; the subset's classes
// never outnumber the full family's; Probes picks what Selected names.
func TestGreedyAgreement(t *testing.T) {
	m := mustBench(t, "tiger").Model
	fam, err := ProbeFamily(m, 2, false)
	if err != nil {
		t.Fatal(err)
	}
	ks := []int{1, 2, 4}
	rows, err := GreedyAgreement(context.Background(), m, fam, 2, 0, ks)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(ks) {
		t.Fatalf("%d rows for %d budgets", len(rows), len(ks))
	}
	for _, r := range rows {
		if r.SubClasses > r.FullClasses || r.DeltaS < 0 {
			t.Errorf("%+v", r)
		}
		ps, err := Probes(fam, r.Selected)
		if err != nil || len(ps) != len(r.Selected) {
			t.Errorf("k = %d: %d probes, %v", r.K, len(ps), err)
		}
	}
	if _, err := Probes(fam, []int{fam.Len()}); err == nil {
		t.Error("index out of range: no error")
	}
}
