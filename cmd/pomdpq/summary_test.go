package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// TestClassSummary: the sentence of hand-made partitions (the counts in
// want are read off the labels by hand): the depth summarised is the
// one before the last, a history shares its class when its label occurs
// twice there, and the words name the family's agents.
func TestClassSummary(t *testing.T) {
	cases := []struct {
		name   string
		eps    float64
		labels [][]int
		kind   fsc.Kind
		m      int
		want   string
	}{
		{"all apart", 0, [][]int{{0}, {0, 1}, {0}}, fsc.KindStationary, 1,
			"at ε = 0, 4 classes: a one-node agent tells all 2 depth-1 histories apart"},
		{"some merged", 0.1, [][]int{{0}, {0, 1}, {0, 1, 1, 2}, {0}}, fsc.KindClock, 2,
			"at ε = 0.1, 7 classes: a clock-aware agent with up to 2 nodes cannot tell apart 2 of the 4 depth-2 histories (50%)"},
		{"all merged", 0.5, [][]int{{0}, {0, 0, 0}, {0}}, fsc.KindStationary, 3,
			"at ε = 0.5, 3 classes: an agent with up to 3 nodes cannot tell any of the 3 depth-1 histories from another"},
		{"T = 1", 0, [][]int{{0}, {0, 1}}, fsc.KindStochasticStationary, 1,
			"at ε = 0, 3 classes: a sampled stochastic one-node agent has one depth-0 history to act on"},
		{"one class", 0, [][]int{{0}}, fsc.KindStationary, 1,
			"at ε = 0, 1 class: a one-node agent has one depth-0 history to act on"},
	}
	for _, tc := range cases {
		got := newClassSummary(tc.eps, &partition.Partition{Labels: tc.labels}, tc.kind, tc.m).String()
		if got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestWrap: no line is wider than the width unless one word is, the
// continuations are indented, and unwrapping gives back the words.
func TestWrap(t *testing.T) {
	long := strings.Repeat("x", 30)
	cases := []struct {
		s     string
		width int
		lines int
	}{
		{"short", 100, 1},
		{"at ε = 0.1, 3,517 classes: a one-node agent cannot tell apart 40% of the depth-4 histories", 40, 3},
		{long + " " + long, 20, 2},
		{strings.Repeat("ab ", 100), 100, 4},
	}
	for _, tc := range cases {
		got := wrap(tc.s, tc.width)
		if len(got) != tc.lines {
			t.Errorf("wrap(%q, %d) = %d lines %q, want %d", tc.s, tc.width, len(got), got, tc.lines)
		}
		for i, l := range got {
			if n := utf8.RuneCountInString(l); n > tc.width && len(strings.Fields(l)) > 1 {
				t.Errorf("wrap(%q, %d): line %q has %d characters", tc.s, tc.width, l, n)
			}
			if i > 0 && !strings.HasPrefix(l, "  ") {
				t.Errorf("wrap: continuation %q not indented", l)
			}
		}
		if j := strings.Join(strings.Fields(strings.Join(got, " ")), " "); j != strings.Join(strings.Fields(tc.s), " ") {
			t.Errorf("wrap(%q) loses words: %q", tc.s, j)
		}
	}
}

// TestNumberWords: thousands separators and percentages that never round
// a non-zero share to 0% or a partial one to 100%.
func TestNumberWords(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {3517, "3,517"}, {1234567, "1,234,567"}, {-12345, "-12,345"}} {
		if got := thousands(c.n); got != c.want {
			t.Errorf("thousands(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	for _, c := range []struct {
		part, whole int
		want        string
	}{{0, 5, "0%"}, {1, 1000, "<1%"}, {999, 1000, ">99%"}, {2, 5, "40%"}, {5, 5, "100%"}} {
		if got := percent(c.part, c.whole); got != c.want {
			t.Errorf("percent(%d, %d) = %q, want %q", c.part, c.whole, got, c.want)
		}
	}
}

// dropPayoff removes plan's "payoff:" summary line (wrapped lines
// included: they start with two spaces), the one line with wall times.
func dropPayoff(s string) string {
	var keep []string
	in := false
	for _, l := range strings.Split(s, "\n") {
		switch {
		case strings.HasPrefix(l, "payoff: "):
			in = true
			continue
		case in && strings.HasPrefix(l, "  "):
			continue
		}
		in = false
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// TestSummaryCLI: the text output of quotient, plan and evaluate starts
// with the summary, every line of it within 100 columns; the class counts
// it says are those of --json; --verbose adds a blank line and the full
// report. Tiger, m = 1, T = 4, ε = 0: the depth-3 histories are three
// hear-left/hear-right observations after listening, told apart only by
// how many say left (0, 1, 2, 3 → classes of 1, 3, 3, 1 histories), so 6
// of the 8 share their class.
func TestSummaryCLI(t *testing.T) {
	quotient := []string{"quotient", "--model", "tiger", "--T", "4", "--eps", "0,0.3", "--progress=off"}
	cases := []struct {
		args    []string
		want    []string
		verbose string // a line of the full report only
	}{
		{quotient, []string{"tiger, stationary m≤1 (3 FSCs), T = 4: 31 histories in 11 exact classes",
			"at ε = 0, 11 classes: a one-node agent cannot tell apart 6 of the 8 depth-3 histories (75%)"}, " epsilon  classes"},
		{[]string{"plan", "--model", "tiger", "--T", "3", "--eps", "0,0.3", "--reward", "observation", "--progress=off"},
			[]string{"quotient (7 classes) is", "best-fsc on the model itself earns", "at ε = 0, 7 classes: the lifted policy earns", "within bound"}, "   eps classes"},
		{[]string{"evaluate", "--model", "tiger95", "--policy", counterPG, "--quotient-eps", "0.3", "--T", "2", "--m", "1", "--progress=off"},
			[]string{"value at b0", "through the ε = 0.3 quotient", "ground metric"}, "  nodes needed:"},
	}
	for _, tc := range cases {
		out, err := runCLI(t, tc.args...)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if n := utf8.RuneCountInString(l); n > summaryWidth {
				t.Errorf("%v: line of %d characters: %q", tc.args[0], n, l)
			}
		}
		for _, w := range tc.want {
			if !strings.Contains(unwrap(out), w) {
				t.Errorf("%v: summary lacks %q:\n%s", tc.args[0], w, out)
			}
		}
		if strings.Contains(out, tc.verbose) || !strings.HasSuffix(out, verboseHint+"\n") {
			t.Errorf("%v: the full report without --verbose, or no hint:\n%s", tc.args[0], out)
		}
		full, err := runCLI(t, append(tc.args, "--verbose")...)
		if err != nil {
			t.Fatal(err)
		}
		sum, rest, ok := strings.Cut(full, "\n\n")
		// plan's payoff line carries wall times, which differ between runs.
		if !ok || !strings.Contains(rest, tc.verbose) || !strings.HasPrefix(dropPayoff(out), dropPayoff(sum)) {
			t.Errorf("%v --verbose: want the summary, a blank line and the full report:\n%s", tc.args[0], full)
		}
	}
	// The counts the summary says are those of the JSON.
	js, err := runCLI(t, append(quotient, "--json")...)
	if err != nil {
		t.Fatal(err)
	}
	var q quotientJSON
	if err := json.Unmarshal([]byte(js), &q); err != nil {
		t.Fatal(err)
	}
	out, _ := runCLI(t, quotient...)
	for _, c := range q.Classes {
		s := "at ε = " + strconv.FormatFloat(c.Epsilon, 'g', -1, 64) + ", " + thousands(c.Count) + " classes:"
		if !strings.Contains(out, s) {
			t.Errorf("summary lacks %q (from --json):\n%s", s, out)
		}
	}
}

// TestPlanCertificatesJSON: plan --json carries, per ε, the a-priori and
// a-posteriori bounds with their theorems, the tightness ratios, and at
// the top level the payoff; on Tiger (observation reward, one-node and
// two-node families) the a-posteriori bound applies, holds for the
// measured regret and the worst exact deviation, and is no larger than
// the a-priori one there.
func TestPlanCertificatesJSON(t *testing.T) {
	cases := []struct {
		m    string
		post bool
	}{{"1", true}, {"2", true}}
	for _, tc := range cases {
		out, err := runCLI(t, "plan", "--model", "tiger", "--m", tc.m, "--T", "4", "--eps", "0.2,0.5", "--reward", "observation", "--json", "--progress=off")
		if err != nil {
			t.Fatal(err)
		}
		var j planOutJSON
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatal(err)
		}
		if j.Payoff.Verdict == "" || j.Payoff.States != 2 || len(j.Payoff.Classes) != 5 {
			t.Errorf("m = %s: payoff %+v", tc.m, j.Payoff)
		}
		for _, r := range j.Rows {
			if r.BoundAPriori == nil || r.Theorem == "" {
				t.Errorf("m = %s ε = %g: no a-priori bound", tc.m, r.Epsilon)
			}
			if (r.BoundPosterior != nil) != tc.post || (r.PostReason == "") != tc.post || r.PostTheorem == "" {
				t.Errorf("m = %s ε = %g: a-posteriori bound %v, reason %q", tc.m, r.Epsilon, r.BoundPosterior, r.PostReason)
				continue
			}
			if r.WorstDeviation == nil {
				t.Errorf("m = %s ε = %g: no worst deviation: %s", tc.m, r.Epsilon, r.TightnessReason)
				continue
			}
			if !tc.post {
				continue
			}
			if *r.Regret > *r.BoundPosterior+1e-9 || *r.WorstDeviation > *r.DeviationPost+1e-9 || *r.BoundPosterior > *r.BoundAPriori+1e-9 {
				t.Errorf("m = %s ε = %g: regret %g, worst %g, a-posteriori %g (deviation %g), a-priori %g", tc.m, r.Epsilon,
					*r.Regret, *r.WorstDeviation, *r.BoundPosterior, *r.DeviationPost, *r.BoundAPriori)
			}
		}
	}
}
