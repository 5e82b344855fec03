package planq

import (
	"math"
	"testing"
)

// TestJudge: each verdict from the regret and the bound, its words (the
// JSON contract of `pomdpq plan --json`'s "verdict", so written out here)
// and what it reports; a reached stand-in class qualifies exactly the two
// verdicts that certify something.
func TestJudge(t *testing.T) {
	lr := Lipschitz{Value: 1, Certified: true}
	covered := Bound{Applies: true, LR: lr, Value: 0.5}
	cases := []struct {
		name             string
		regret           float64
		b                Bound
		want             Verdict
		text, standIn    string
		violated, alarm  bool
		uncertified      bool
		standInViolated  bool
		standInUncertain bool
	}{
		{"not covered", 0, Bound{Value: math.NaN()}, NotCovered, "not covered", "not covered", false, false, false, false, false},
		{"vacuous", 3, Bound{Applies: true, LR: Lipschitz{Value: math.Inf(1), Certified: true}, Value: math.Inf(1)}, VacuousBound,
			"vacuous bound", "vacuous bound", false, false, false, false, false},
		{"fallback L_R", 0.1, Bound{Applies: true, LR: Lipschitz{Value: 2}, Value: 0.5}, NotCertified,
			"not certified", "not certified", false, false, true, false, true},
		{"within", 0.5, covered, WithinBound, "within bound", "within bound (not certified: stand-in class reached)", false, false, false, false, true},
		{"within tolerance", 0.5 + 1e-10, covered, WithinBound, "within bound", "within bound (not certified: stand-in class reached)", false, false, false, false, true},
		{"violated", 0.6, covered, BoundViolated, "BOUND VIOLATED", "BOUND VIOLATED (not certified: stand-in class reached)", true, true, false, false, true},
	}
	for _, tc := range cases {
		v := Judge(tc.regret, tc.b, 1)
		if v != tc.want || v.String() != tc.text || v.Violated() != tc.violated || v.Alarm() != tc.alarm || v.Uncertified() != tc.uncertified {
			t.Errorf("%s: Judge = %v (%d): violated %v alarm %v uncertified %v; want %q, %v, %v, %v",
				tc.name, v, int(v), v.Violated(), v.Alarm(), v.Uncertified(), tc.text, tc.violated, tc.alarm, tc.uncertified)
		}
		s := v.standIn()
		if s.String() != tc.standIn || s.Violated() != tc.standInViolated || s.Alarm() != tc.alarm || s.Uncertified() != tc.standInUncertain {
			t.Errorf("%s: stand-in form %q violated %v alarm %v uncertified %v; want %q, %v, %v, %v",
				tc.name, s, s.Violated(), s.Alarm(), s.Uncertified(), tc.standIn, tc.standInViolated, tc.alarm, tc.standInUncertain)
		}
	}
	if got := NotJudged.String(); got != "not judged (no baseline)" {
		t.Errorf("NotJudged = %q", got)
	}
	if got := Verdict(99).String(); got != "Verdict(99)" {
		t.Errorf("Verdict(99) = %q", got)
	}
}
