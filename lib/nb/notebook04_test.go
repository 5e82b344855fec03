package nb

import (
	"context"
	"math"
	"strings"
	"testing"
)

// TestChannelTable: a flip with probability p moves W1 under the discrete
// metric by |1 − 2p| (the two rows differ by 1 − 2p in each entry);
// deterministic channels are the merges and the quantizer.
func TestChannelTable(t *testing.T) {
	rows, err := ChannelTable()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 {
		t.Fatalf("%d channels, want 6", len(rows))
	}
	tests := []struct {
		name string
		det  bool
		L    float64 // < 0: not checked exactly
	}{
		{"GridWorld merge, quotient metric", true, -1},
		{"GridWorld merge, discrete output metric", true, -1},
		{"GridWorld adjacent-quadrant noise 0.2", false, -1},
		{"Tiger flip 0.1", false, 1 - 2*0.1},
		{"Tiger flip 0.25", false, 1 - 2*0.25},
		{"line quantizer onto {0, 2}", true, -1},
	}
	for i, tc := range tests {
		r := rows[i]
		if r.Name != tc.name || r.Det != tc.det || r.L < 0 || !strings.Contains(r.Pair, ", ") {
			t.Errorf("row %d: %+v, want %s (deterministic %v)", i, r, tc.name, tc.det)
		}
		if tc.L >= 0 && math.Abs(r.L-tc.L) > 1e-12 {
			t.Errorf("%s: L = %g, want %g", r.Name, r.L, tc.L)
		}
	}
	// The merge onto d(N,S) = 0.5 contracts; onto d(N,S) = 1 it does not.
	if rows[0].L > 1+1e-12 || rows[1].L <= rows[0].L {
		t.Errorf("merge constants %g (quotient metric), %g (discrete)", rows[0].L, rows[1].L)
	}
}

// TestEpsEquiv: the quotient of the greedy ε-partition is an ε-quotient.
func TestEpsEquiv(t *testing.T) {
	eps := []float64{0, 0.25, 1}
	for _, tc := range []struct {
		name string
		T    int
	}{{"tiger", 3}, {"gridworld:3", 2}} {
		rows, err := EpsEquiv(context.Background(), mustBench(t, tc.name), tc.name, tc.T, eps)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rows {
			if r.D > r.Eps+1e-9 || r.Diam > r.Eps+1e-12 || r.PropC1 < r.Eps || (i > 0 && r.Classes > rows[i-1].Classes) {
				t.Errorf("%s ε = %g: %+v", tc.name, r.Eps, r)
			}
		}
	}
}
