package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
)

func explainRun(t *testing.T, args ...string) explainJSON {
	t.Helper()
	out, err := runCLI(t, append([]string{"explain", "--progress", "off", "--json"}, args...)...)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	var e explainJSON
	if err := json.Unmarshal([]byte(out), &e); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	if !strings.Contains(out, `"best_probe"`) && strings.Contains(strings.Join(args, " "), "--histories") {
		t.Errorf("%v: no probe key in %s", args, out)
	}
	return e
}

// TestExplainClassesMatchDistances: `explain --classes` gives, for every
// pair of classes of every depth of Tiger's exact quotient (m ≤ 2, T = 3),
// the distance lib/distance computes for the pair (full matrices, no
// decision mode), with 1 and 3 workers alike.
func TestExplainClassesMatchDistances(t *testing.T) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	const T = 3
	fam, err := fsc.New(fsc.KindStationary, b.Model.NumActions(), b.Model.NumObservations(), 2, T, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := distance.Compute(context.Background(), b.Model, fam, T, distance.Options{Ground: b.Ground, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for d := 1; d < T; d++ {
		n := res.Classes.Classes(d)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				ids := fmt.Sprintf("%d:%d,%d:%d", d, i, d, j)
				var first string
				for _, w := range []string{"1", "3"} {
					e := explainRun(t, "--model", "tiger", "--m", "2", "--T", fmt.Sprint(T), "--eps", "0", "--classes", ids, "--workers", w)
					if len(e.Pairs) != 1 {
						t.Fatalf("%s: %d pairs", ids, len(e.Pairs))
					}
					p := e.Pairs[0]
					want := res.At(d, res.Classes.Members(d, i)[0], res.Classes.Members(d, j)[0])
					if math.Abs(p.Distance-want) > 1e-12 || p.Best.Distance != p.Distance {
						t.Errorf("%s: explain %g, lib/distance %g", ids, p.Distance, want)
					}
					js, _ := json.Marshal(p)
					if first == "" {
						first = string(js)
					} else if first != string(js) {
						t.Errorf("%s: workers 1 and 3 differ", ids)
					}
					checked++
				}
			}
		}
	}
	if checked < 4 {
		t.Errorf("only %d pairs checked", checked)
	}
}

// TestExplainModes: each mode answers in text and JSON with what it is
// about; its text is a summary in lines of at most 100 columns, and
// --verbose adds the detail after it.
func TestExplainModes(t *testing.T) {
	base := []string{"--model", "tiger", "--T", "3"}
	for _, c := range []struct {
		args []string
		text string
		ok   func(e explainJSON) bool
	}{
		{[]string{"--histories", "L L ; L R"}, "apart: a one-node agent playing “always listen” sees",
			func(e explainJSON) bool {
				return len(e.Pairs) == 1 && e.Pairs[0].Distance > 0 && e.Pairs[0].MostDifferent.Words != ""
			}},
		{[]string{"--class", "2:1", "--eps", "0.1"}, "expected immediate reward: listen",
			func(e explainJSON) bool { return e.Class != nil && e.Class.Members > 0 && len(e.Class.Rewards) == 3 }},
		{[]string{"--merges", "--eps", "0,0.1,0.5"}, "merged class; the widest shown",
			func(e explainJSON) bool { return len(e.Steps) == 2 && e.Steps[1].Count > 0 }},
	} {
		args := append(append([]string{}, base...), c.args...)
		out, err := runCLI(t, append([]string{"explain", "--progress", "off"}, args...)...)
		// The summary is wrapped at 100 columns: compare its words.
		if err != nil || !strings.Contains(strings.Join(strings.Fields(out), " "), c.text) {
			t.Errorf("%v: %v, text lacks %q:\n%s", c.args, err, c.text, out)
		}
		if w := widest(out); w > summaryWidth {
			t.Errorf("%v: a line of %d characters without --verbose:\n%s", c.args, w, out)
		}
		verbose, err := runCLI(t, append([]string{"explain", "--progress", "off", "--verbose"}, args...)...)
		lines := strings.SplitAfter(out, "\n")
		answer := strings.Join(lines[:len(lines)-3], "") // less the settings line, the hint and ""
		if err != nil || answer == "" || !strings.HasPrefix(verbose, answer) || len(verbose) <= len(out) {
			t.Errorf("%v --verbose: %v, not the summary followed by the detail:\n%s", c.args, err, verbose)
		}
		if e := explainRun(t, args...); !c.ok(e) {
			t.Errorf("%v: JSON %+v", c.args, e)
		}
	}
}

// TestExplainErrors: bad names, ids and flag combinations are usage errors
// naming the valid choices.
func TestExplainErrors(t *testing.T) {
	base := []string{"explain", "--model", "tiger", "--T", "3", "--progress", "off"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--histories", "L X ; L L"}, "valid: L, R"},
		{[]string{"--histories", "L listen ; L L"}, "is an action"},
		{[]string{"--histories", "L L"}, "separated by ';'"},
		{[]string{"--histories", "L ; L L"}, "depths 1 and 2"},
		{[]string{"--classes", "2:0,2:9"}, "depth 2 has classes 2:0 … 2:"},
		{[]string{"--classes", "7:0,2:0"}, "valid depths 0 … 3"},
		{[]string{"--class", "2:0", "--eps", "0,0.1"}, "take one ε"},
		{[]string{"--class", "2:0", "--probe", "5"}, "has probes 0 … 2"},
		{[]string{"--merges", "--eps", "0.1"}, "at least two values"},
		{[]string{}, "exactly one of"},
		{[]string{"--class", "1:0", "--merges"}, "exactly one of"},
		{[]string{"--histories", "L ; R", "--family", "clock", "--m", "3", "--limit", "1000"}, "controllers, above the enumeration limit 1000 (--limit), and no search covers it"},
		{[]string{"--histories", "L ; R", "--family", "clock", "--m", "3", "--limit", "1000"}, "T = 2 ("},
		{[]string{"--histories", "L ; R", "--family", "clock", "--m", "3", "--limit", "1000"}, "or m = 2 (186624 controllers)"},
		{[]string{"--histories", "L ; R", "--family", "clock", "--m", "1", "--search"}, "--search is for --family clock with --m 2"},
		{[]string{"--class", "2:0", "--eps", "0.1", "--family", "clock", "--m", "2", "--limit", "1000"}, "--class needs the probes of the family listed"},
		{[]string{"--class", "2:0", "--eps", "0.1", "--family", "clock", "--m", "2", "--limit", "1000"}, "--limit 186624 (enumerate it"},
		{[]string{"--class", "2:0", "--eps", "0.1", "--m", "3", "--limit", "1000"}, "or --classes t:i,t:j, which searches"},
	} {
		_, err := runCLI(t, append(append([]string{}, base...), c.args...)...)
		var u usageError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &u) {
			t.Errorf("%v: %v, want a usage error mentioning %q", c.args, err, c.want)
		}
	}
}

// TestExplainSearched: a family explain searches (above --limit, or with
// --search) explains a pair with the distance the enumeration gives it,
// through the search's controller alone (the JSON says the family was
// searched and lists only the argmax), for --histories and --classes, in
// text and JSON.
func TestExplainSearched(t *testing.T) {
	base := []string{"--model", "tiger", "--T", "3"}
	for _, c := range []struct {
		name     string
		family   []string
		searched []string
		args     []string
	}{
		{"clock m=2 above --limit", []string{"--family", "clock", "--m", "2"}, []string{"--limit", "1000"}, []string{"--histories", "L ; R"}},
		{"clock m=2 depth 2", []string{"--family", "clock", "--m", "2"}, []string{"--limit", "1000"}, []string{"--histories", "L L ; R L"}},
		{"stationary m=2 --search", []string{"--m", "2"}, []string{"--search"}, []string{"--histories", "L L ; L R"}},
		{"stationary m=3 above --limit", []string{"--m", "3"}, []string{"--limit", "100"}, []string{"--histories", "L R ; R R"}},
		{"clock m=2 classes", []string{"--family", "clock", "--m", "2"}, []string{"--limit", "1000"}, []string{"--classes", "2:0,2:2", "--eps", "0.1"}},
		{"stationary m=2 classes", []string{"--m", "2"}, []string{"--search"}, []string{"--classes", "1:0,1:1", "--eps", "0"}},
	} {
		args := append(append(slices.Clone(base), c.family...), c.args...)
		want := explainRun(t, args...)
		got := explainRun(t, append(args, c.searched...)...)
		if len(want.Pairs) != 1 || len(got.Pairs) != 1 {
			t.Fatalf("%s: %d and %d pairs", c.name, len(want.Pairs), len(got.Pairs))
		}
		w, g := want.Pairs[0], got.Pairs[0]
		if w.Search != nil || g.Search == nil || !g.Search.OnlyArgmax || len(g.Probes) != 1 || g.NumProbes != 0 || g.Witness == nil {
			t.Fatalf("%s: enumerated search %v; searched %+v with %d probes listed (num_probes %d)", c.name, w.Search, g.Search, len(g.Probes), g.NumProbes)
		}
		if g.History1 != w.History1 || g.History2 != w.History2 || math.Abs(g.Distance-w.Distance) > 1e-9 {
			t.Errorf("%s: searched “%s” / “%s” %.12g, enumerated “%s” / “%s” %.12g", c.name, g.History1, g.History2, g.Distance, w.History1, w.History2, w.Distance)
		}
		if w.Distance == 0 {
			t.Errorf("%s: a pair at distance 0 checks little: pick another", c.name)
		}
		text, err := runCLI(t, append([]string{"explain", "--progress", "off", "--verbose"}, append(args, c.searched...)...)...)
		if flat := strings.Join(strings.Fields(text), " "); err != nil || !strings.Contains(flat, "was searched, not enumerated") || !strings.Contains(flat, "by the controller the search found") {
			t.Errorf("%s: %v, text lacks the search's note:\n%s", c.name, err, text)
		}
		summary, err := runCLI(t, append([]string{"explain", "--progress", "off"}, append(args, c.searched...)...)...)
		if err != nil || widest(summary) > summaryWidth || !strings.Contains(strings.Join(strings.Fields(summary), " "), "only the argmax is shown") {
			t.Errorf("%s: %v, summary wider than %d columns or without the search's note:\n%s", c.name, err, summaryWidth, summary)
		}
		again := explainRun(t, append(args, append(c.searched, "--workers", "3")...)...)
		if a, b := mustJSON(t, g), mustJSON(t, again.Pairs[0]); a != b {
			t.Errorf("%s: workers 3 explain the pair differently:\n%s\n%s", c.name, a, b)
		}
	}
}

// TestExplainSearchedMerges: --merges of a searched family (one search
// per pair of representatives) gives the steps, merged classes and
// diameters of the enumerated family's.
func TestExplainSearchedMerges(t *testing.T) {
	refused := 0
	for _, c := range []struct {
		family, searched []string
	}{
		{[]string{"--family", "clock", "--m", "2"}, []string{"--limit", "1000"}},
		{[]string{"--m", "2"}, []string{"--search"}},
	} {
		args := append([]string{"--model", "tiger", "--T", "3", "--merges", "--eps", "0,0.1,0.5"}, c.family...)
		want := explainRun(t, args...)
		got := explainRun(t, append(args, c.searched...)...)
		if len(got.Steps) != len(want.Steps) || len(want.Steps) != 2 {
			t.Fatalf("%v: %d steps, enumerated %d", c.searched, len(got.Steps), len(want.Steps))
		}
		merged := 0
		for k, w := range want.Steps {
			g := got.Steps[k]
			if g.Count != w.Count || len(g.Merges) != len(w.Merges) {
				t.Fatalf("%v step %d: %d merged, enumerated %d", c.searched, k, g.Count, w.Count)
			}
			for i, wm := range w.Merges {
				gm := g.Merges[i]
				if gm.Class != wm.Class || math.Abs(gm.Diameter-wm.Diameter) > 1e-9 || gm.Nearest.Index != -1 {
					t.Errorf("%v step %d: %s diameter %.12g (nearest #%d), enumerated %s %.12g", c.searched, k, gm.Class, gm.Diameter, gm.Nearest.Index, wm.Class, wm.Diameter)
				}
				merged++
			}
		}
		if merged == 0 {
			t.Errorf("%v: no merged class compared", c.searched)
		}
		// A search stopped at its node limit gives a lower bound, not a
		// diameter: the merges are refused, saying why; searches that end
		// within the limit give the enumerated diameters.
		limited := append(append([]string{"--max-nodes", "1"}, args...), c.searched...)
		_, err := runCLI(t, append([]string{"explain", "--progress", "off"}, limited...)...)
		switch {
		case err != nil && !strings.Contains(err.Error(), "stopped at its node limit"):
			t.Errorf("%v --max-nodes 1: %v, want a refusal naming the node limit", c.searched, err)
		case err != nil:
			refused++
		default:
			for k, st := range explainRun(t, limited...).Steps {
				for i, gm := range st.Merges {
					if wm := want.Steps[k].Merges[i]; math.Abs(gm.Diameter-wm.Diameter) > 1e-9 {
						t.Errorf("%v --max-nodes 1: %s diameter %.12g, enumerated %.12g", c.searched, gm.Class, gm.Diameter, wm.Diameter)
					}
				}
			}
		}
	}
	if refused == 0 {
		t.Error("no search stopped at --max-nodes 1: the refusal is not checked")
	}
}

// mustJSON returns v as JSON.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// widest returns the length in characters of the longest line of s.
func widest(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		w = max(w, utf8.RuneCountInString(l))
	}
	return w
}

// splitArgs splits a command line on spaces, keeping double-quoted parts
// whole.
func splitArgs(line string) []string {
	var out []string
	var cur strings.Builder
	quoted, has := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, has = !quoted, true
		case r == ' ' && !quoted:
			if has {
				out = append(out, cur.String())
			}
			cur.Reset()
			has = false
		default:
			cur.WriteRune(r)
			has = true
		}
	}
	if has {
		out = append(out, cur.String())
	}
	return out
}

// TestReadingDoc: the commands of docs/reading.md's worked example print
// what the page shows, and its numbers hold independently: the first
// distance is the maximum over the three probes of W1 between lib/law's
// suffix laws, and every merge's printed diameter is the entry of
// lib/distance's full matrix between the two printed histories, below the
// larger ε.
func TestReadingDoc(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "reading.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	for _, block := range strings.Split(string(data), "```\n")[1:] {
		line, want, _ := strings.Cut(block, "\n")
		if !strings.HasPrefix(line, "$ pomdpq explain ") {
			continue
		}
		blocks++
		args := append(splitArgs(strings.TrimPrefix(line, "$ pomdpq ")), "--progress", "off")
		got, err := runCLI(t, args...)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if got != want {
			t.Errorf("%s: output differs from docs/reading.md:\n%s", line, got)
		}
	}
	if blocks != 3 {
		t.Fatalf("%d explain blocks in docs/reading.md, want 3", blocks)
	}
	b, err := bench.Lookup("hallway:10")
	if err != nil {
		t.Fatal(err)
	}
	m, T := b.Model, 4
	fam, err := fsc.New(fsc.KindStationary, m.NumActions(), m.NumObservations(), 1, T, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := func(words string) []int {
		var out []int
		for _, w := range strings.Fields(words) {
			out = append(out, m.ObsIndex(w))
		}
		return out
	}
	tree, _ := law.NewTree(m.NumObservations(), T)
	best := 0.0
	for k := 0; k < fam.Len(); k++ {
		l, err := law.Compute(m, fam.At(k), T, law.UniformStandIn)
		if err != nil {
			t.Fatal(err)
		}
		v, err := ot.SeqW1(b.Ground, 2, l.Suffix(2, tree.Index(h("lm_0 lm_1"))), l.Suffix(2, tree.Index(h("lm_0 lm_2"))))
		if err != nil {
			t.Fatal(err)
		}
		best = max(best, v)
	}
	if want := fmt.Sprintf("(depth 2): distance %.6g,", best); !strings.Contains(string(data), want) {
		t.Errorf("docs/reading.md lacks %q", want)
	}
	res, err := distance.Compute(context.Background(), m, fam, T, distance.Options{Ground: b.Ground, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	merge := regexp.MustCompile(`sees “([^”]*)” and “([^”]*)” ([0-9.]+) apart`)
	found := merge.FindAllStringSubmatch(string(data), -1)
	if len(found) != 4 {
		t.Fatalf("%d merges in docs/reading.md, want 4", len(found))
	}
	for _, f := range found {
		h1, h2 := h(f[1]), h(f[2])
		d := res.At(len(h1), tree.Index(h1), tree.Index(h2))
		if fmt.Sprintf("%.4g", d) != f[3] || d > 0.1 {
			t.Errorf("merge %s / %s: printed %s, matrix %.6g", f[1], f[2], f[3], d)
		}
	}
}

// TestExplainSearchedNodeLimit: a witness search stopped by --max-nodes
// still explains the pair, with the best controller it found: the JSON
// says exact false and brackets the enumerated maximum by [lower, upper],
// the pair's distance (the controller re-evaluated) is lower, and the
// text says "the best of N search nodes" with the upper bound.
func TestExplainSearchedNodeLimit(t *testing.T) {
	inexact := 0
	for _, c := range []struct {
		name             string
		family, searched []string
	}{
		{"clock m=2", []string{"--family", "clock", "--m", "2"}, []string{"--limit", "1000", "--max-nodes", "2"}},
		{"stationary m=2", []string{"--m", "2"}, []string{"--search", "--max-nodes", "1"}},
		{"stationary m=3", []string{"--m", "3"}, []string{"--search", "--max-nodes", "1"}},
	} {
		args := append([]string{"--model", "tiger", "--T", "4", "--histories", "L ; R"}, c.family...)
		want := explainRun(t, args...).Pairs[0]
		g := explainRun(t, append(args, c.searched...)...).Pairs[0]
		s := g.Search
		if s == nil || s.Lower > want.Distance+1e-9 || s.Upper < want.Distance-1e-9 || math.Abs(g.Distance-s.Lower) > 1e-9 {
			t.Fatalf("%s: search %+v, distance %.12g; enumerated maximum %.12g", c.name, s, g.Distance, want.Distance)
		}
		if s.Exact {
			continue
		}
		inexact++
		text, err := runCLI(t, append([]string{"explain", "--progress", "off"}, append(args, c.searched...)...)...)
		flat := strings.Join(strings.Fields(text), " ")
		if err != nil || !strings.Contains(flat, "search nodes: distance") || !strings.Contains(flat, "the family's maximum is ≤") {
			t.Errorf("%s: %v, text lacks the bracket:\n%s", c.name, err, text)
		}
	}
	if inexact == 0 {
		t.Fatal("no search reached its node limit: the test checks nothing")
	}
}
