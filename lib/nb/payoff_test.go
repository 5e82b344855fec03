package nb

import (
	"context"
	"strings"
	"testing"

	"github.com/janpfeifer/gonb/gonbui/protocol"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/planq"
	"github.com/pomdpq/pomdpq/lib/value"
)

// TestShowPayoff: Tiger (observation reward, m = 1, T = 4) planned by PBVI
// on both sides, and refused (MaxWork 1): the display carries the verdict
// and both tables; CheckPayoff's facts pass the recount and are written as
// key numbers (no value of the model when it was refused, the lower bound
// when out of reach); a payoff altered to contradict the model is refused.
func TestShowPayoff(t *testing.T) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	m, err := value.WithObsReward(b.Model)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name       string
		maxWork    float64
		refused    bool
		keys, nots []string
	}{
		{"planned on both", 0, false, []string{"tiger_value_model=", "tiger_refused=false"}, []string{"tiger_at_least="}},
		{"out of reach", 1, true, []string{"tiger_at_least=", "tiger_refused=true"}, []string{"tiger_value_model="}},
	}
	for _, tc := range cases {
		cfg := planq.Config{Model: m, Ground: b.Ground, Reward: "observation", ObsValues: value.ObsValues(2), Kind: fsc.KindStationary, M: 1, T: 4,
			Eps: []float64{0, 0.3}, Planner: planq.PBVI{}, MaxWork: tc.maxWork}
		res, err := planq.Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		sent, out := fakeNotebook(t)
		p, err := ShowPayoff(res)
		if err != nil {
			t.Fatal(err)
		}
		if len(*sent) != 1 {
			t.Fatalf("%s: %d displays", tc.name, len(*sent))
		}
		h := (*sent)[0].Data[protocol.MIMETextHTML].(string)
		if strings.Count(h, "<table") != 2 || !strings.Contains(h, p.Outcome.String()) {
			t.Errorf("%s: display %q", tc.name, h)
		}
		f, err := CheckPayoff("tiger", m, p)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sum := 0
		for _, c := range res.Rows[1].DepthClasses {
			sum += c
		}
		if f.Classes != sum || f.Classes != res.Rows[1].Classes || f.Refused != tc.refused || f.OutOfReach != tc.refused {
			t.Errorf("%s: facts %+v; row 0.3 has %d classes (%v per depth)", tc.name, f, res.Rows[1].Classes, res.Rows[1].DepthClasses)
		}
		for _, k := range tc.keys {
			if !strings.Contains(out.String(), "CHECK "+k) {
				t.Errorf("%s: no key %s in %q", tc.name, k, out.String())
			}
		}
		for _, k := range tc.nots {
			if strings.Contains(out.String(), "CHECK "+k) {
				t.Errorf("%s: key %s written", tc.name, k)
			}
		}
		// Payoffs that contradict the model are refused, with no key written.
		bad := []func(q *planq.Payoff){
			func(q *planq.Payoff) { q.States++ },
			func(q *planq.Payoff) { q.Classes = append([]int(nil), q.Classes...); q.Classes[1] = 3 }, // 3 classes of 2 histories
			func(q *planq.Payoff) { q.Classes = q.Classes[:2] },
		}
		if tc.refused {
			bad = append(bad, func(q *planq.Payoff) { q.ModelAtLeast *= 2 })
		}
		for i, alter := range bad {
			q := p
			alter(&q)
			out.Reset()
			if _, err := CheckPayoff("tiger", m, q); err == nil || out.Len() != 0 {
				t.Errorf("%s: altered payoff %d accepted (%v), wrote %q", tc.name, i, err, out.String())
			}
		}
	}
}
