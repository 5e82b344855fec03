package repro

import (
	"context"
	"strconv"
	"testing"
)

// TestLayeredAgreement pins, for the tables of layered.go, how many rows
// agree with the paper (the paper's printed values: tab:hierarchical-scaling,
// and the §7.5 / fig:layered-checks claims of inline-claims.csv).
func TestLayeredAgreement(t *testing.T) {
	want := map[string][2]int{ // table → {agree, compared}
		"hierarchical-scaling": {8, 8},
		"data-processing":      {7, 7},
		"layered-checks":       {1, 1},
		"tractability":         {12, 12},
	}
	checkAgreement(t, &Env{}, want)
}

// Every LHS ≤ RHS row of the two check tables holds, with both sides
// finite (a NaN would make a "≤" test pass silently).
func TestLayeredChecksHold(t *testing.T) {
	env := &Env{}
	for _, name := range []string{"data-processing", "layered-checks"} {
		s, _ := Lookup(name)
		tab, err := s.Build(context.Background(), env)
		if err != nil {
			t.Fatal(err)
		}
		lhsCol, rhsCol := -1, -1
		for c, col := range tab.Columns {
			switch col.Name {
			case "lhs":
				lhsCol = c
			case "rhs":
				rhsCol = c
			}
		}
		n := 0
		for _, row := range tab.Rows {
			if row[lhsCol] == "" {
				continue
			}
			lhs, err1 := strconv.ParseFloat(row[lhsCol], 64)
			rhs, err2 := strconv.ParseFloat(row[rhsCol], 64)
			if err1 != nil || err2 != nil || !(lhs <= rhs+1e-4) {
				t.Errorf("%s %s: lhs %s, rhs %s", name, row[0], row[lhsCol], row[rhsCol])
			}
			n++
		}
		if want := map[string]int{"data-processing": 26, "layered-checks": 8}[name]; n != want {
			t.Errorf("%s: %d LHS ≤ RHS rows, want %d", name, n, want)
		}
	}
	cases, err := LayeredChecks(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	// The stochastic wrappers contract strictly (L_C < 1 for the flip).
	for _, c := range cases {
		if c.ID == "lc4" && !(c.LHS < c.RHS) {
			t.Errorf("lc4: %v ≥ %v", c.LHS, c.RHS)
		}
	}
}
