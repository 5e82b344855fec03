package nb

import (
	"strings"
	"testing"
)

func TestCompareRefine(t *testing.T) {
	_, _, r := tigerDistances(t, 3)
	tests := []struct {
		name string
		grid []float64
	}{
		{"empty grid", nil},
		{"ε = 0", []float64{0}},
		{"a grid", []float64{0, 0.1, 0.3, 0.5, 1}},
	}
	for _, tt := range tests {
		c := CompareRefine(r, tt.grid)
		if c.Grid != len(tt.grid) || c.CliqueSame > c.Grid || c.LeaderSame > c.Grid {
			t.Errorf("%s: %+v", tt.name, c)
		}
		// The clique rule keeps every class within ε: an ε-partition.
		if len(tt.grid) > 0 && c.CliqueExcess > 1e-12 {
			t.Errorf("%s: clique rule exceeds ε by %g", tt.name, c.CliqueExcess)
		}
		if (c.LeaderSame == c.Grid) != (c.FirstDiff == "never") || (c.FirstDiff != "never" && !strings.HasPrefix(c.FirstDiff, "ε = ")) {
			t.Errorf("%s: leader same %d of %d, first difference %q", tt.name, c.LeaderSame, c.Grid, c.FirstDiff)
		}
	}
	// At ε = 0 both rules give the exact classes, which greedy linkage gives too.
	if c := CompareRefine(r, []float64{0}); c.CliqueSame != 1 || c.LeaderSame != 1 {
		t.Errorf("ε = 0: %+v", c)
	}
}
