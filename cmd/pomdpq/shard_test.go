package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// shardedCLI runs both rounds of a sharded quotient with n shards through
// the command line and returns merge's JSON.
func shardedCLI(t *testing.T, dir string, n int, common []string, eps string) quotientJSON {
	t.Helper()
	for i := 0; i < n; i++ {
		args := append([]string{"quotient"}, common...)
		if _, err := runCLI(t, append(args, "--shard", fmt.Sprintf("%d/%d", i, n), "--save", filepath.Join(dir, fmt.Sprintf("classes-%d.pq", i)))...); err != nil {
			t.Fatal(err)
		}
	}
	classes, _ := filepath.Glob(filepath.Join(dir, "classes-*.pq"))
	plan := filepath.Join(dir, "plan.pq")
	if _, err := runCLI(t, append(append([]string{"merge"}, classes...), "--out", plan)...); err != nil {
		t.Fatal(err)
	}
	for i := n - 1; i >= 0; i-- { // another completion order
		args := append([]string{"quotient"}, common...)
		args = append(args, "--shard", fmt.Sprintf("%d/%d", i, n), "--plan", plan, "--save", filepath.Join(dir, fmt.Sprintf("dist-%d.pq", i)))
		if i%2 == 1 {
			args = append(args, "--probes", filepath.Join(dir, fmt.Sprintf("classes-%d.pq", i)))
		}
		if _, err := runCLI(t, args...); err != nil {
			t.Fatal(err)
		}
	}
	dist, _ := filepath.Glob(filepath.Join(dir, "dist-*.pq"))
	out, err := runCLI(t, append(append([]string{"merge"}, dist...), "--eps", eps, "--json")...)
	if err != nil {
		t.Fatal(err)
	}
	var q quotientJSON
	if err := json.Unmarshal([]byte(out), &q); err != nil {
		t.Fatal(err)
	}
	return q
}

// TestShardMerge: the acceptance run of issue 12 at T = 3 (T = 4 takes a
// minute): three shards, then merge, print the single run's class counts
// and max distance, in decision mode and with exact distances, and for a
// sampled family split into seed ranges.
func TestShardMerge(t *testing.T) {
	for _, mode := range [][]string{{"--family", "clock"}, {"--family", "clock", "--exact-distances"},
		{"--family", "stochastic-clock", "--samples", "300", "--seed", "3"}} {
		common := append([]string{"--model", "tiger", "--m", "2", "--T", "3", "--eps", "0,0.3,0.5", "--progress=off"}, mode...)
		// --enumerate: the single run enumerates like the shards (clock m = 2
		// is otherwise searched, lib/clock2).
		out, err := runCLI(t, append(append([]string{"quotient"}, common...), "--json", "--enumerate")...)
		if err != nil {
			t.Fatal(err)
		}
		var single quotientJSON
		if err := json.Unmarshal([]byte(out), &single); err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 3} {
			got := shardedCLI(t, t.TempDir(), n, common, "0,0.3,0.5")
			if got.FamilySize != single.FamilySize || got.Histories != single.Histories || got.ExactClasses != single.ExactClasses ||
				got.MaxDistance != single.MaxDistance || got.MaxDistanceExact != single.MaxDistanceExact || got.StandIns != single.StandIns {
				t.Errorf("%v, n = %d: merged %+v, single %+v", mode, n, got, single)
			}
			if fmt.Sprint(got.Classes) != fmt.Sprint(single.Classes) {
				t.Errorf("%v, n = %d: classes %v, single %v", mode, n, got.Classes, single.Classes)
			}
		}
	}
}

// TestShardRefusals: a truncated part, a part of another T, a missing part
// and flags that do not go with --shard are refused with clear messages;
// --missing lists the shards to rerun.
func TestShardRefusals(t *testing.T) {
	dir := t.TempDir()
	base := []string{"quotient", "--model", "tiger", "--family", "stationary", "--m", "2", "--eps", "0,0.5", "--progress=off"}
	part := func(T, i, n int) string {
		p := filepath.Join(dir, fmt.Sprintf("T%d-%d-of-%d.pq", T, i, n))
		if _, err := runCLI(t, append(base, "--T", fmt.Sprint(T), "--shard", fmt.Sprintf("%d/%d", i, n), "--save", p)...); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p0, p1, p2 := part(3, 0, 3), part(3, 1, 3), part(3, 2, 3)
	other := part(4, 1, 3)
	b, _ := os.ReadFile(p2)
	cut := filepath.Join(dir, "cut.pq")
	os.WriteFile(cut, b[:len(b)-7], 0o644)
	plan := filepath.Join(dir, "plan.pq")
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"merge", p0, p1, cut, "--out", plan}, []string{"cut.pq", "truncated or corrupt", "rerun its shard"}},
		{[]string{"merge", p0, other, p2, "--out", plan}, []string{"T4-1-of-3.pq", "T (3 vs 4)"}},
		{[]string{"merge", p0, p2, "--out", plan}, []string{"missing", "shards 1"}},
		{[]string{"merge", p0, p1, p1, p2, "--out", plan}, []string{"both shard 1 of 3"}},
		{[]string{"merge", p0, p1, p2}, []string{"--out"}},
		{[]string{"merge", filepath.Join(dir, "nope.pq")}, []string{"nope.pq: no such file"}},
		{append(base, "--T", "3", "--shard", "3/3", "--save", plan), []string{"0 ≤ i < n"}},
		{append(base, "--T", "3", "--shard", "0/3"), []string{"--save"}},
		{append(base, "--T", "3", "--save", plan), []string{"needs --shard"}},
		{append(base, "--T", "3", "--shard", "0/3", "--save", plan, "--dry-run"), []string{"--dry-run"}},
		{append(slices.Clone(base[:3]), "--family", "stochastic-clock", "--samples", "2", "--T", "3", "--shard", "0/3", "--save", plan), []string{"2 samples for 3 shards"}},
		{append(base, "--T", "3", "--shard", "0/3", "--save", plan, "--plan", p0), []string{"not a plan"}},
		{append(base, "--T", "4", "--shard", "0/3", "--save", plan, "--limit", "10"), []string{"each shard would enumerate", "more shards"}},
	}
	for _, tc := range tests {
		_, err := runCLI(t, tc.args...)
		if err == nil {
			t.Errorf("%v: accepted", tc.args)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q does not say %q", tc.args, err, w)
			}
		}
	}
	out, err := runCLI(t, "merge", "--missing", p0, cut)
	if err != nil || strings.TrimSpace(out) != "1-2" {
		t.Errorf("--missing = %q, %v; want 1-2", out, err)
	}
	out, err = runCLI(t, "merge", "--missing", p0, p1, p2)
	if err != nil || out != "" {
		t.Errorf("--missing on a complete set = %q, %v", out, err)
	}
	// Round 2 against a plan from other ε values is refused.
	if _, err := runCLI(t, "merge", p0, p1, p2, "--out", plan); err != nil {
		t.Fatal(err)
	}
	_, err = runCLI(t, append(slices.Clone(base[:7]), "--eps", "0,0.3", "--progress=off", "--T", "3", "--shard", "0/3", "--plan", plan, "--save", filepath.Join(dir, "d.pq"))...)
	if err == nil || !strings.Contains(err.Error(), "decision threshold") {
		t.Errorf("round 2 with other ε: %v", err)
	}
	// merge --eps above the parts' threshold is refused, not a panic.
	d := filepath.Join(dir, "d0.pq")
	if _, err := runCLI(t, append(base, "--T", "3", "--shard", "0/1", "--save", filepath.Join(dir, "c0.pq"))...); err != nil {
		t.Fatal(err)
	}
	plan1 := filepath.Join(dir, "plan1.pq")
	if _, err := runCLI(t, "merge", filepath.Join(dir, "c0.pq"), "--out", plan1); err != nil {
		t.Fatal(err)
	}
	if _, err := runCLI(t, append(base, "--T", "3", "--shard", "0/1", "--plan", plan1, "--save", d)...); err != nil {
		t.Fatal(err)
	}
	if _, err := runCLI(t, "merge", d, "--eps", "0.7"); err == nil || !strings.Contains(err.Error(), "above the parts' decision threshold") {
		t.Errorf("merge --eps 0.7 of a 0.5 run: %v", err)
	}
}
