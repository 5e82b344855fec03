package distance

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// TestIssueClassCounts pins the class counts of the runs that motivated
// the class path (issue "Real models at real horizons"), measured on the
// all-histories path before it: hallway and tiger-grid (third-party files,
// skipped when absent) at T = 3, m = 1, and Tiger m ≤ 2 at T = 12 and 14,
// each in decision mode and exactly.
func TestIssueClassCounts(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "shared", "data", "pomdp")
	tests := []struct {
		model  string // built-in name or file under shared
		m, T   int
		eps    []float64
		counts []int
	}{
		{"hallway.POMDP", 1, 3, []float64{0, 0.1, 0.3}, []int{370, 319, 225}},
		{"tiger-grid.POMDP", 1, 3, []float64{0, 0.1, 0.3}, []int{277, 106, 63}},
		{"tiger", 2, 12, []float64{0, 0.3, 0.5}, []int{2048, 576, 365}},
		{"tiger", 2, 14, []float64{0, 0.3, 0.5}, []int{4496, 961, 647}},
	}
	for _, tc := range tests {
		var m *pomdp.Model
		var g ot.Ground
		if filepath.Ext(tc.model) == ".POMDP" {
			path := filepath.Join(shared, tc.model)
			if _, err := os.Stat(path); err != nil {
				t.Logf("skipping %s: third-party model files are not beside the repository (%v)", tc.model, err)
				continue
			}
			var err error
			if m, err = pomdp.LoadFile(path); err != nil {
				t.Fatal(err)
			}
		} else {
			b := lookup(t, tc.model)
			m, g = b.Model, b.Ground
		}
		fam, err := fsc.NewStationary(m.NumActions(), m.NumObservations(), tc.m, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, decide := range []bool{true, false} {
			if !decide && tc.T > 12 {
				continue // the exact path at T = 14 takes tens of seconds
			}
			opt := Options{Ground: g}
			if decide {
				opt.Eps = tc.eps
			}
			r, err := Compute(context.Background(), m, fam, tc.T, opt)
			if err != nil {
				t.Fatal(err)
			}
			for k, eps := range tc.eps {
				if got := r.Partition(eps).Total(); got != tc.counts[k] {
					t.Errorf("%s m=%d T=%d (decision mode %v): %d classes at ε = %g, want %d", tc.model, tc.m, tc.T, decide, got, eps, tc.counts[k])
				}
			}
		}
	}
}
