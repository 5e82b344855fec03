package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
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
// about.
func TestExplainModes(t *testing.T) {
	base := []string{"--model", "tiger", "--T", "3"}
	for _, c := range []struct {
		args []string
		text string
		ok   func(e explainJSON) bool
	}{
		{[]string{"--histories", "L L ; L R"}, "apart because an agent that plays “always listen”",
			func(e explainJSON) bool {
				return len(e.Pairs) == 1 && e.Pairs[0].Distance > 0 && e.Pairs[0].MostDifferent.Words != ""
			}},
		{[]string{"--class", "2:1", "--eps", "0.1"}, "expected immediate reward: listen",
			func(e explainJSON) bool { return e.Class != nil && e.Class.Members > 0 && len(e.Class.Rewards) == 3 }},
		{[]string{"--merges", "--eps", "0,0.1,0.5"}, "merged classes",
			func(e explainJSON) bool { return len(e.Steps) == 2 && e.Steps[1].Count > 0 }},
	} {
		args := append(append([]string{}, base...), c.args...)
		out, err := runCLI(t, append([]string{"explain", "--progress", "off"}, args...)...)
		if err != nil || !strings.Contains(out, c.text) {
			t.Errorf("%v: %v, text lacks %q:\n%s", c.args, err, c.text, out)
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
	} {
		_, err := runCLI(t, append(append([]string{}, base...), c.args...)...)
		var u usageError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &u) {
			t.Errorf("%v: %v, want a usage error mentioning %q", c.args, err, c.want)
		}
	}
}
