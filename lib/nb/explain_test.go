package nb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/explain"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// TestExplainHelpers: outside a notebook the helpers write their Markdown
// source, with the numbers of the explanation they were given; bad names
// are errors listing the valid ones.
func TestExplainHelpers(t *testing.T) {
	buf := captureText(t)
	b := pomdp.Must(bench.Lookup("tiger"))
	fam := pomdp.Must(fsc.NewStationary(3, 2, 1, fsc.Options{}))
	s := &explain.Setup{Model: b.Model, Ground: b.Ground, Family: fam, T: 3}
	p, err := ExplainHistories(s, "L L", "L R")
	if err != nil {
		t.Fatal(err)
	}
	part := partition.FromLabels([][]int{{0}, {0, 1}, {0, 1, 1, 2}, make([]int, 8)})
	c, err := explain.ExplainClass(s, part, 2, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	ExplainClass(c)
	exact := partition.FromLabels([][]int{{0}, {0, 1}, {0, 1, 2, 3}, make([]int, 8)})
	m, err := explain.ExplainMerges(t.Context(), s, exact, exact, part, 0, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	ExplainMerges(m)
	out := buf.String()
	for _, want := range []string{
		p.Sentence,
		fmt.Sprintf("| %s | %.6g | %.6g |", p.Laws[0].Words, p.Laws[0].P1, p.Laws[0].P2),
		"**Class 2:1**: 2 histories of depth 2, first “L R”, “R L”.",
		fmt.Sprintf("| %s | %.4g |", c.Belief[0].State, c.Belief[0].Prob),
		fmt.Sprintf("Expected immediate reward: %s %.4g", c.Rewards[0].Action, c.Rewards[0].Reward),
		fmt.Sprintf("| 2:1 | 2:1 + 2:2 | 2 | %.4g |", m.Merges[0].Diameter),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, err := ExplainHistories(s, "L X", "L L"); err == nil || !strings.Contains(err.Error(), "valid: L, R") {
		t.Errorf("bad name: %v", err)
	}
}

// TestDistanceCell: a solved probe's distance is written as is; a bounded
// one (its transport problem not solved) as "≥ lower (≤ upper)", never as
// if the lower bound were the distance.
func TestDistanceCell(t *testing.T) {
	cases := []struct {
		q    explain.ProbeDistance
		want string
	}{
		{explain.ProbeDistance{Distance: 0.25}, "0.25"},
		{explain.ProbeDistance{Distance: 0.125, Bounded: true, Upper: 0.5}, "≥ 0.125 (≤ 0.5)"},
		{explain.ProbeDistance{Distance: 1.0 / 3, Bounded: true, Upper: 2.0 / 3}, "≥ 0.333333 (≤ 0.666667)"},
	}
	for _, tc := range cases {
		if got := distanceCell(tc.q); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.q, got, tc.want)
		}
	}
}
