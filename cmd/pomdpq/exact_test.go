package main

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestExactConventions: `pomdpq exact` on the stationary witness at T = 3
// gives 6 / 8 classes under def:equiv and the printed 9 / 10 / 0.957
// (paper, tab:probe-family-comparison) under the possibility pattern.
func TestExactConventions(t *testing.T) {
	for _, tc := range []struct {
		conv    string
		op, clk []int
		ari     float64
	}{
		{"point-mass", []int{1, 2, 2, 1}, []int{1, 3, 3, 1}, 0.99963},
		{"possibility-pattern", []int{1, 3, 3, 2}, []int{1, 3, 3, 3}, 0.957},
	} {
		out, err := runCLI(t, "exact", "--model", "witness", "--T", "3", "--convention", tc.conv, "--json")
		if err != nil {
			t.Fatal(err)
		}
		var got exactJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if got.Convention != tc.conv || !slices.Equal(got.Op, tc.op) || !slices.Equal(got.Clk, tc.clk) || !(math.Abs(got.ARI-tc.ari) <= 5e-4) {
			t.Errorf("%s: %+v, want op %v clk %v ARI %.3f", tc.conv, got, tc.op, tc.clk, tc.ari)
		}
	}
	out, err := runCLI(t, "exact", "--model", "witness", "--T", "3", "--convention", "possibility-pattern")
	if err != nil || !strings.Contains(out, "|Q_op|  = 9 [1 3 3 2]") {
		t.Errorf("text output: %q, %v", out, err)
	}
	if _, err := runCLI(t, "exact", "--model", "witness", "--convention", "uniform"); err == nil || !strings.Contains(err.Error(), "possibility-pattern") {
		t.Errorf("--convention uniform: %v", err)
	}
}
