package main

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

func quotientStationary(t *testing.T, args ...string) quotientSearchJSON {
	t.Helper()
	out, err := runCLI(t, append([]string{"quotient", "--family", "stationary", "--json", "--progress=off"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	var got quotientSearchJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	return got
}

// --search gives the enumeration's classes (Tiger m ≤ 2 and m ≤ 3 at
// T = 4, GridWorld m ≤ 2 at T = 2, both stand-ins), and says so.
func TestQuotientStationarySearch(t *testing.T) {
	for _, c := range []struct{ model, m, T string }{
		{"tiger", "2", "4"}, {"tiger", "3", "3"}, {"gridworld:3", "2", "2"},
	} {
		for _, conv := range []string{"uniform", "point-mass"} {
			args := []string{"--model", c.model, "--m", c.m, "--T", c.T, "--eps", "0,0.1,0.3,0.5", "--stand-in", conv}
			enum := quotientStationary(t, append(args, "--limit", "1000000")...)
			search := quotientStationary(t, append(args, "--search")...)
			if enum.Method != "" || search.Method != "search" || search.Why != "--search" {
				t.Fatalf("%v: methods %q and %q (%q)", args, enum.Method, search.Method, search.Why)
			}
			if enum.FamilySize != search.FamilySize || enum.Histories != search.Histories || enum.ExactClasses != search.ExactClasses ||
				jsonString(counts(enum.quotientJSON)) != jsonString(counts(search.quotientJSON)) {
				t.Errorf("%v: enumeration %+v, search %+v", args, enum.quotientJSON, search.quotientJSON)
			}
		}
	}
}

// A family above --limit is searched without being asked; --enumerate
// refuses it instead.
func TestQuotientStationaryAuto(t *testing.T) {
	got := quotientStationary(t, "--model", "tiger", "--m", "2", "--T", "3", "--eps", "0,0.3", "--limit", "100")
	if got.Method != "search" || !strings.Contains(got.Why, "147 controllers exceed the enumeration limit 100") || got.FamilySize != 147 {
		t.Errorf("--limit 100: %+v", got)
	}
	_, err := runCLI(t, "quotient", "--model", "tiger", "--m", "2", "--T", "3", "--limit", "100", "--enumerate", "--progress=off")
	var tl *fsc.TooLargeError
	if !errors.As(err, &tl) {
		t.Errorf("--enumerate --limit 100: err = %v, want the family refused", err)
	}
	out, err := runCLI(t, "quotient", "--model", "tiger", "--m", "2", "--T", "3", "--limit", "100", "--progress=off", "--verbose")
	if err != nil || !strings.Contains(out, "searched by branch and bound") || !strings.Contains(out, "method: search") {
		t.Errorf("text output names no method: %q, %v", out, err)
	}
}

func TestQuotientStationarySearchErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--m", "2", "--search", "--metric", "tv"}, "W1 only"},
		{[]string{"--m", "4", "--search"}, "1 ≤ m ≤ 3"},
		{[]string{"--m", "2", "--search", "--family", "clock"}, "--search is for --family stationary"},
		{[]string{"--m", "2", "--search", "--enumerate"}, "--search is for --family stationary"},
	} {
		_, err := runCLI(t, append([]string{"quotient", "--model", "tiger", "--T", "3", "--progress=off"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.args, err, c.want)
		}
	}
	out, err := runCLI(t, "quotient", "--model", "tag", "--m", "2", "--T", "3", "--dry-run", "--progress=off")
	if err != nil || !strings.Contains(out, "searched by branch and bound") || !strings.Contains(out, "worst case") || !strings.Contains(out, "budget") {
		t.Errorf("--dry-run: %q, %v", out, err)
	}
}

// TestSearchedMaxDistanceText: in decision mode the searched families
// (clock m = 2, --search) print the ε-bracket of the max distance, the
// same in every run, never a value inside it (which the search order
// chooses); --exact-distances prints the exact value (GridWorld 3×3 at
// T = 2: 0.4386 for both families, the enumeration's value in notebook
// 11, ex2_collapse_eps_m2 and ex5_max_d_clock2).
func TestSearchedMaxDistanceText(t *testing.T) {
	base := []string{"quotient", "--model", "gridworld:3", "--T", "2", "--m", "2", "--progress=off", "--verbose"}
	for _, fam := range [][]string{{"--family", "clock"}, {"--family", "stationary", "--search"}} {
		for _, c := range []struct {
			eps, want string
		}{
			{"0,0.3,5", "max distance in (0.3, 5] (decided only at the listed ε; --exact-distances for the exact value)"},
			{"0,0.1,0.3", "max distance > 0.3 (pairs above the largest ε decided by a probe; --exact-distances for the exact value)"},
			{"0.5,1", "max distance ≤ 0.5 (decided only at the listed ε; --exact-distances for the exact value)"},
			{"0,0.3,5 --exact-distances", "max distance 0.438601\n"},
		} {
			args := append(append(slices.Clone(base), fam...), append([]string{"--eps"}, strings.Fields(c.eps)...)...)
			for _, w := range []string{"1", "3"} {
				out, err := runCLI(t, append(args, "--workers", w)...)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(out, c.want) {
					t.Errorf("%v --workers %s: output\n%s\ndoes not say %q", args[1:], w, out, c.want)
				}
			}
		}
	}
}
