package policy

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

func tigerQuotient(t *testing.T, T int, eps float64) *quotient.Quotient {
	t.Helper()
	b, err := bench.Lookup("tiger95")
	if err != nil {
		t.Fatal(err)
	}
	q, err := EpsQuotient(t.Context(), b.Model, b.Ground, fsc.KindStationary, 2, T, eps, distance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// splitOracle groups the possible histories of each class by the
// controller's remaining actions after them (by enumeration) and returns
// the classes with more than one group, printed as Split.String does.
func splitOracle(q *quotient.Quotient, c *fsc.FSC, start int) []string {
	m, T := q.M, q.T
	var out []string
	for t := 1; t < T; t++ {
		for cls := 0; cls < q.Partition.Classes(t); cls++ {
			groups := map[string][]string{}
			var order []string
			for _, i := range q.Partition.Members(t, cls) {
				h := q.Tree.History(t, i)
				// Probability of h under the controller, and its node.
				b := slices.Clone(m.B0)
				n, p := start, 1.0
				for _, o := range h {
					post, po := m.Update(b, c.Action(0, n), o)
					p *= po
					if po == 0 {
						break
					}
					b, n = post, c.NextNode(0, n, o)
				}
				if p == 0 {
					continue
				}
				key := residual(c, 0, n, T-t)
				if groups[key] == nil {
					order = append(order, key)
				}
				groups[key] = append(groups[key], historyLabel(q, t, i))
			}
			if len(groups) < 2 {
				continue
			}
			var parts []string
			for _, k := range order {
				parts = append(parts, "["+strings.Join(groups[k], " ")+"]")
			}
			out = append(out, fmt.Sprintf("depth %d class %d %s: %s", t, cls, q.ClassLabel(t, cls), strings.Join(parts, " vs ")))
		}
	}
	return out
}

// TestAnalyzeSplits: the classes a graph splits, against enumeration, for
// quotients from exact to coarse.
func TestAnalyzeSplits(t *testing.T) {
	m := tiger95(t)
	c, err := ReadPG(strings.NewReader(counterPG), "counter.pg", m)
	if err != nil {
		t.Fatal(err)
	}
	sawSplit := false
	for _, eps := range []float64{0, 0.5, 1, 2} {
		q := tigerQuotient(t, 4, eps)
		a, err := Analyze(q, c, 0, fsc.KindStationary, 2)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range a.Splits {
			got = append(got, s.String())
		}
		want := splitOracle(q, c, 0)
		if !slices.Equal(got, want) {
			t.Errorf("ε = %g: splits\n%s\nwant\n%s", eps, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		sawSplit = sawSplit || len(got) > 0
		if !slices.Equal(a.Histories, []int{1, 2, 4, 8, 16}) {
			t.Errorf("ε = %g: possible histories %v, want all of 1 2 4 8 16 (tiger observations always possible)", eps, a.Histories)
		}
		if a.Verdict != NotMember || a.UpTo.Nodes() != 3 || a.Minimal.Nodes != 5 {
			t.Errorf("ε = %g: %v (%s), up to T %v, minimal %d nodes; want not a member, 3 and 5 nodes", eps, a.Verdict, a.Reason, a.UpTo, a.Minimal.Nodes)
		}
	}
	if !sawSplit {
		t.Error("no quotient was split by the counter graph: the test checks nothing")
	}
}

// TestAnalyzeMember: for graphs of the family itself the exact quotient
// preserves values and laws (thm:myhill-nerode (ii)), and the verdict is
// "member"; for the clock family the counter graph is a member with 3
// nodes.
func TestAnalyzeMember(t *testing.T) {
	m := tiger95(t)
	q := tigerQuotient(t, 3, 0)
	fam, err := fsc.NewStationary(m.NumActions(), m.NumObservations(), 2, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < fam.Len(); i += 7 {
		a, err := Analyze(q, fam.At(i), 0, fsc.KindStationary, 2)
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(a.ModelValue-a.QuotientValue) <= 1e-9) || !(a.SoundnessMax <= 1e-12) {
			t.Errorf("probe %d: values %v and %v, soundness gap %v", i, a.ModelValue, a.QuotientValue, a.SoundnessMax)
		}
		if a.Verdict != Member {
			t.Errorf("probe %d: %v (%s)", i, a.Verdict, a.Reason)
		}
		want, err := Evaluate(m, fam.At(i), 3)
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(a.ModelValue-want.Start[0]) <= 1e-12) {
			t.Errorf("probe %d: model value %v, Evaluate from node 0 %v", i, a.ModelValue, want.Start[0])
		}
	}
	c, _ := ReadPG(strings.NewReader(counterPG), "counter.pg", m)
	a, err := Analyze(q, c, 0, fsc.KindClock, 3)
	if err != nil {
		t.Fatal(err)
	}
	if a.Verdict != Member {
		t.Errorf("clock m = 3: %v (%s)", a.Verdict, a.Reason)
	}
	if a, _ := Analyze(q, c, 0, fsc.KindClock, 2); a.Verdict != NotMember {
		t.Errorf("clock m = 2: %v (%s)", a.Verdict, a.Reason)
	}
	// For 2 steps the counter only listens (one node suffices), but its
	// stationary minimum has 5 nodes: no verdict for m ≤ 2.
	a, err = Analyze(tigerQuotient(t, 2, 0), c, 0, fsc.KindStationary, 2)
	if err != nil {
		t.Fatal(err)
	}
	if a.Verdict != Undecided || a.UpTo.Nodes() != 1 {
		t.Errorf("T = 2: %v (%s), %v", a.Verdict, a.Reason, a.UpTo)
	}
}

func TestAnalyzeMissing(t *testing.T) {
	m := tiger95(t)
	c, _ := ReadPG(strings.NewReader("0 0  1 -\n1 0  1 1\n"), "dash.pg", m)
	_, err := Analyze(tigerQuotient(t, 3, 0), c, 0, fsc.KindStationary, 2)
	var me *MissingError
	if !errors.As(err, &me) || me.Node != 0 || me.Obs != 1 {
		t.Errorf("error %v, want node 0 observation 1", err)
	}
	// A start node outside the graph is an error (it used to panic).
	for _, start := range []int{-1, 2} {
		if _, err := Analyze(tigerQuotient(t, 3, 0), c, start, fsc.KindStationary, 2); err == nil || !strings.Contains(err.Error(), "is not a node") {
			t.Errorf("start %d: error %v", start, err)
		}
	}
}

// TestAnalyzeLatentReward: the exact quotient keeps a probe's observation
// law, and so the value of a reward that is a function of what it
// observes (value.WithObsReward), but not of the model's latent reward
// R(s, a): the quotient's reward is that of its class's average belief
// (quotient.ClassBeliefs), and the members of an exact class may have
// different beliefs. On the 4×3 maze with one-node probes at T = 3, the
// probe "always east", a member of the family, loses 0.064 of latent
// value (by hand: T = 1, 2 agree, the depth-2 classes merge histories
// whose beliefs differ) and keeps its observation-reward value.
func TestAnalyzeLatentReward(t *testing.T) {
	b, err := bench.Lookup("maze4x3")
	if err != nil {
		t.Fatal(err)
	}
	east := fsc.Constant(4, 6, 2)
	for _, tc := range []struct {
		m     *pomdp.Model
		equal bool
	}{{b.Model, false}, {pomdp.Must(value.WithObsReward(b.Model)), true}} {
		q, err := EpsQuotient(t.Context(), tc.m, b.Ground, fsc.KindStationary, 1, 3, 0, distance.Options{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := Analyze(q, east, 0, fsc.KindStationary, 1)
		if err != nil {
			t.Fatal(err)
		}
		if a.Verdict != Member || !(a.SoundnessMax <= 1e-12) {
			t.Fatalf("%s: verdict %v, soundness gap %g; want a member with no gap", tc.m.Name, a.Verdict, a.SoundnessMax)
		}
		gap := math.Abs(a.ModelValue - a.QuotientValue)
		if tc.equal != (gap <= 1e-12) {
			t.Errorf("%s: model value %.12g, quotient value %.12g (gap %.3g); equal expected: %v", tc.m.Name, a.ModelValue, a.QuotientValue, gap, tc.equal)
		}
	}
}
