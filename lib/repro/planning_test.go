package repro

import (
	"strconv"
	"strings"
	"testing"
)

// buildPlanning builds one of the planning tables (planning.go's helpers) and
// compares it with the paper.

func cell(t *testing.T, tab *Table, row int, column string) string {
	t.Helper()
	for c, col := range tab.Columns {
		if col.Name == column {
			return tab.Rows[row][c]
		}
	}
	t.Fatalf("%s: no column %q", tab.Name, column)
	return ""
}

func printed(t *testing.T, tab *Table, row int, column string) string {
	t.Helper()
	for c, col := range tab.Columns {
		if col.Name == column {
			return tab.Printed[row][c]
		}
	}
	t.Fatalf("%s: no column %q", tab.Name, column)
	return ""
}

// TestPlanningAgreement pins how many rows of each planning table agree
// with the paper (docs/paper-map.md#07-planning-and-sensitivity); every other row carries a note.
func TestPlanningAgreement(t *testing.T) {
	want := map[string]Counts{
		"baseline-full":      {Exact: 16, Statistical: 3, Unexplained: 1},
		"value-bounds":       {Exact: 7, Explained: 1, Unexplained: 4},
		"planning-speedup":   {Exact: 8},
		"noise-sensitivity":  {Explained: 1, Unexplained: 3},
		"belief-sensitivity": {Exact: 5},
		"ablation":           {Explained: 3, Unexplained: 3},
		"planning-claims":    {Exact: 10, Unexplained: 2, NotJudged: 4, Settings: 7, OursOnly: 5, Formula: 3},
		"pbvi-comparison":    {Unexplained: 5},
		"horizon-gap":        {OursOnly: 9},
	}
	checkAgreement(t, &Env{}, want)
}

// TestPlanningExplanations checks the numerical facts that the
// explanations of the disagreeing rows state, so that they cannot go stale.
func TestPlanningExplanations(t *testing.T) {
	env := &Env{}
	// value-bounds panel C: the printed canonical bound is the formula
	// with L_R ≈ 0.1986 instead of 2.
	vb := buildTable(t, env, "value-bounds")
	for i := range vb.Rows {
		if vb.Rows[i][0] != "C" || vb.Rows[i][1] == "0.0" {
			continue
		}
		eps, _ := strconv.ParseFloat(vb.Rows[i][1], 64)
		alt := plCanonical(0.1986, 2, eps, 9, 4)
		if p := printed(t, vb, i, "canonical_bound"); !Agrees(strconv.FormatFloat(alt, 'f', 4, 64), p) {
			t.Errorf("panel C ε=%v: the formula with L_R = 0.1986 gives %v, printed %s", eps, alt, p)
		}
	}
	// pbvi-comparison: each printed quotient size is ours or one of the
	// other settings' counts.
	pc := buildTable(t, env, "pbvi-comparison")
	for i := range pc.Rows {
		p := printed(t, pc, i, "quotient_n_states")
		if cell(t, pc, i, "quotient_n_states") != p && !strings.Contains(cell(t, pc, i, "classes_other_settings"), p+" (") {
			t.Errorf("%s: printed quotient size %s is neither ours nor among %s", pc.Rows[i][0], p, cell(t, pc, i, "classes_other_settings"))
		}
	}
	// ablation: the printed counts are the T = 3 (m = 1) and T = 4 (m = 2)
	// counts.
	ab := buildTable(t, env, "ablation")
	for i := range ab.Rows {
		col := "classes_T3"
		if strings.Contains(ab.Rows[i][1], "147") || strings.Contains(ab.Rows[i][1], "k=5") {
			col = "classes_T4"
		}
		if got, p := cell(t, ab, i, col), printed(t, ab, i, "classes_eps0_3"); got != p {
			t.Errorf("ablation %s: %s = %s, printed %s", ab.Rows[i][1], col, got, p)
		}
	}
	// noise-sensitivity: d(L, R) = (2a − 1)² exceeds 0.6 at a = 0.95.
	ns := buildTable(t, env, "noise-sensitivity")
	ds := strings.Fields(cell(t, ns, 0, "d_LR_by_accuracy"))
	if ds[len(ds)-1] != "0.810" {
		t.Errorf("d(L, R) at accuracy 0.95 = %s, want 0.810", ds[len(ds)-1])
	}
}
