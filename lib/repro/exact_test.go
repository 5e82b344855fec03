package repro

import (
	"context"
	"strings"
	"testing"
)

// TestProbeFamilyConventions: tab:probe-family-comparison shows the
// stationary witness under both conventions, and the possibility-pattern
// columns give the printed 9 / 10 / 0.957 (paper) while def:equiv gives
// 6 / 8; every row's printed "max |d^clk − d^op|" is matched by the
// sliced reconstruction (GridWorld 3×3 T = 3 included, where the depth-⌈T/2⌉
// reading gives 0.550), and the notes say so from the computed values.
func TestProbeFamilyConventions(t *testing.T) {
	s, err := Lookup("probe-family-comparison")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := s.Build(context.Background(), &Env{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tab.Compare(); err != nil {
		t.Fatal(err)
	}
	seenWitness := false
	for i := range tab.Rows {
		if p := printed(t, tab, i, "max_gap"); !Agrees(cell(t, tab, i, "paper_column_sliced"), p) {
			t.Errorf("row %s: paper_column_sliced %s, printed %s", tab.Key(i), cell(t, tab, i, "paper_column_sliced"), p)
		}
		gapDiffers := !Agrees(cell(t, tab, i, "max_gap"), printed(t, tab, i, "max_gap"))
		if tab.Status[i] != Explained || (gapDiffers && !strings.Contains(tab.Note[i], "by the table's reading, the printed max_gap")) {
			t.Errorf("row %s: status %q, want %q by the table's reading (the sliced gap): %s", tab.Key(i), tab.Status[i], Explained, tab.Note[i])
		}
		for _, c := range []string{"op_classes", "clk_classes", "ari"} {
			if p := printed(t, tab, i, c); !Agrees(cell(t, tab, i, c+"_pattern"), p) {
				t.Errorf("row %s: %s_pattern %s, printed %s", tab.Key(i), c, cell(t, tab, i, c+"_pattern"), p)
			}
		}
		if tab.Key(i) == "Stationary witness|3" {
			seenWitness = true
			if got := cell(t, tab, i, "op_classes") + "/" + cell(t, tab, i, "clk_classes"); got != "6/8" {
				t.Errorf("witness under def:equiv: %s, want 6/8", got)
			}
			if !strings.Contains(tab.Note[i], "the possibility pattern gives 9 (1+3+3+2), 10 (1+3+3+3)") || !strings.Contains(tab.Note[i], "the printed ari 0.957 is the ARI under the possibility-pattern labelling (ari_pattern) (0.957)") {
				t.Errorf("witness note: %s", tab.Note[i])
			}
			if strings.Contains(tab.Note[i], "cannot come from this model") {
				t.Errorf("witness note still calls the printed counts impossible: %s", tab.Note[i])
			}
		}
		if tab.Key(i) == "GridWorld 3x3|3" && !strings.Contains(tab.Note[i], "(paper_column_reconstructed) is 0.550, which does not match") {
			t.Errorf("GridWorld T=3 note: %s", tab.Note[i])
		}
	}
	if !seenWitness {
		t.Error("no stationary-witness row")
	}
}
