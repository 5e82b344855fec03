package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func quotientClock(t *testing.T, args ...string) quotientClock2JSON {
	t.Helper()
	out, err := runCLI(t, append([]string{"quotient", "--family", "clock", "--m", "2", "--json", "--progress=off"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	var got quotientClock2JSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	return got
}

func counts(q quotientJSON) []int {
	var c []int
	for _, k := range q.Classes {
		c = append(c, k.Count)
	}
	return c
}

// The acceptance run: Tiger clock-aware m = 2 at T = 4 gives the
// enumeration's 16 / 16 / 11 without --limit, by search.
func TestQuotientClock2(t *testing.T) {
	got := quotientClock(t, "--model", "tiger", "--T", "4", "--eps", "0,0.3,0.5")
	if got.Method != "search" || got.FamilySize != 26873856 || got.Histories != 31 || got.ExactClasses != 16 {
		t.Fatalf("quotient = %+v", got)
	}
	if c := counts(got.quotientJSON); len(c) != 3 || c[0] != 16 || c[1] != 16 || c[2] != 11 {
		t.Errorf("classes %v, want [16 16 11]", c)
	}
	if got.MaxDistanceExact {
		t.Errorf("decision mode reports an exact max distance %v", got.MaxDistance)
	}
	ex := quotientClock(t, "--model", "tiger", "--T", "4", "--eps", "0,0.3,0.5", "--exact-distances")
	if !ex.MaxDistanceExact || !(ex.MaxDistance >= got.MaxDistance) || counts(ex.quotientJSON)[2] != 11 {
		t.Errorf("--exact-distances: %+v", ex)
	}
}

// --enumerate keeps the enumeration reachable; at T = 3 (186,624
// controllers) both methods agree.
func TestQuotientClock2Enumerate(t *testing.T) {
	for _, model := range []string{"tiger", "gridworld:3"} {
		T := "3"
		if model != "tiger" {
			T = "2"
		}
		search := quotientClock(t, "--model", model, "--T", T, "--eps", "0,0.25,0.5", "--stand-in", "point-mass")
		out, err := runCLI(t, "quotient", "--model", model, "--family", "clock", "--m", "2", "--T", T, "--eps", "0,0.25,0.5",
			"--stand-in", "point-mass", "--json", "--progress=off", "--enumerate")
		if err != nil {
			t.Fatal(err)
		}
		var enum quotientJSON
		if err := json.Unmarshal([]byte(out), &enum); err != nil {
			t.Fatal(err)
		}
		if enum.FamilySize != search.FamilySize || enum.ExactClasses != search.ExactClasses || jsonString(counts(enum)) != jsonString(counts(search.quotientJSON)) {
			t.Errorf("%s: enumeration %+v, search %+v", model, enum, search)
		}
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestQuotientClock2Errors(t *testing.T) {
	_, err := runCLI(t, "quotient", "--model", "tiger", "--family", "clock", "--m", "2", "--T", "3", "--metric", "tv", "--progress=off")
	if err == nil || !strings.Contains(err.Error(), "--enumerate") {
		t.Errorf("--metric tv: err = %v, want advice naming --enumerate", err)
	}
	_, err = runCLI(t, "quotient", "--model", "tiger", "--family", "clock", "--m", "2", "--T", "5", "--max-nodes", "10", "--exact-distances", "--progress=off")
	if err == nil || !strings.Contains(err.Error(), "--max-nodes") || !strings.Contains(err.Error(), "drop --exact-distances") {
		t.Errorf("--max-nodes 10: err = %v, want the flags that help named (--max-nodes, --exact-distances)", err)
	}
	out, err := runCLI(t, "quotient", "--model", "tiger", "--family", "clock", "--m", "2", "--T", "6", "--dry-run", "--progress=off")
	if err != nil || !strings.Contains(out, "557256278016 FSCs") || !strings.Contains(out, "worst case") {
		t.Errorf("--dry-run: %q, %v", out, err)
	}
}
