package planq

import (
	"context"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// TestStandInsExceedBound pins a finding of the random property test: a
// two-state model on which histories impossible under a probe (their
// stand-in beliefs are averaged into class beliefs) make the quotient's
// values move although the exact L_R over possible histories is 0. The
// regret exceeds 2·L_R·T·ε = 0, and the row must say that the bound is not
// certified because of the stand-ins rather than print "within bound".
func TestStandInsExceedBound(t *testing.T) {
	d := pomdp.Dense{Name: "standin", States: []string{"s0", "s1"}, Actions: []string{"a0", "a1"}, Observations: []string{"o0", "o1"},
		T:  [][][]float64{{{1, 0}, {0, 1}}, {{1, 0}, {0.9321259385579701, 0.06787406144202993}}},
		Z:  [][][]float64{{{0, 1}, {0.27592448286154864, 0.7240755171384514}}, {{0.8482340008515633, 0.15176599914843672}, {1, 0}}},
		R:  [][]float64{{-0.7816779742103348, -0.7094545759811286}, {0.3733406339576981, -0.47529192059038117}},
		B0: []float64{1, 0}}
	m, err := pomdp.New(d)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Model: m, Kind: fsc.KindStationary, M: 1, T: 3, Eps: []float64{0, 0.3}, Planner: BestFSC{}})
	if err != nil {
		t.Fatal(err)
	}
	if res.StandIns == 0 || res.LR.Value != 0 {
		t.Fatalf("stand-ins %d, L_R %v: the case no longer shows the finding", res.StandIns, res.LR.Value)
	}
	r := res.Rows[1]
	if !(r.Regret > 1e-3) {
		t.Fatalf("ε = 0.3: regret %g, expected the stand-in effect", r.Regret)
	}
	if r.Verdict != "BOUND EXCEEDED (not certified: stand-ins)" {
		t.Errorf("ε = 0.3: verdict %q", r.Verdict)
	}
}
