package distance

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// TestIssueClassCounts pins the class counts of the runs that motivated
// the class path (issue "Real models at real horizons"), measured on the
// all-histories path before it: hallway and tiger-grid (third-party files
// beside the repository; twin: TestIssueClassCountsTwin) at T = 3, m = 1,
// and Tiger m ≤ 2 at T = 12 and 14, each in decision mode and exactly.
func TestIssueClassCounts(t *testing.T) {
	tests := []struct {
		model  string // built-in name or file under ../shared/data/pomdp
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
		t.Run(fmt.Sprintf("%s/m=%d/T=%d", tc.model, tc.m, tc.T), func(t *testing.T) {
			var m *pomdp.Model
			var g ot.Ground
			if filepath.Ext(tc.model) == ".POMDP" {
				var err error
				if m, err = modelfile.Load(shared.Path(t, "TestIssueClassCountsTwin", "pomdp", tc.model)); err != nil {
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
						t.Errorf("decision mode %v: %d classes at ε = %g, want %d", decide, got, eps, tc.counts[k])
					}
				}
			}
		})
	}
}

// TestIssueClassCountsTwin is the twin of the third-party rows of
// TestIssueClassCounts on our own model file with wide observation laws
// (lib/clock/testdata/noisy-grid.pomdp: 6 states, 3 actions, 6
// observations) at T = 3, m = 1: the class path's counts, in decision mode
// and exactly, against the all-histories reference (Options.AllPairs)
// computed here, at the same ε.
func TestIssueClassCountsTwin(t *testing.T) {
	m, err := modelfile.Load(filepath.Join("..", "clock", "testdata", "noisy-grid.pomdp"))
	if err != nil {
		t.Fatal(err)
	}
	const T = 3
	eps := []float64{0, 0.1, 0.3}
	for _, mem := range []int{1} {
		fam, err := fsc.NewStationary(m.NumActions(), m.NumObservations(), mem, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ref, err := Compute(context.Background(), m, fam, T, Options{AllPairs: true})
		if err != nil {
			t.Fatal(err)
		}
		var want []int
		for _, e := range eps {
			want = append(want, partition.Greedy(ref.D, e).Total())
		}
		if !(want[0] >= want[1] && want[1] >= want[2] && want[0] > want[2] && want[2] > 1) {
			t.Fatalf("m=%d: reference counts %v at ε = %v: want fewer classes as ε grows, more than one", mem, want, eps)
		}
		for _, decide := range []bool{true, false} {
			opt := Options{}
			if decide {
				opt.Eps = eps
			}
			r, err := Compute(context.Background(), m, fam, T, opt)
			if err != nil {
				t.Fatal(err)
			}
			for k, e := range eps {
				if got := r.Partition(e).Total(); got != want[k] {
					t.Errorf("m=%d, decision mode %v: %d classes at ε = %g, the all-histories reference %d", mem, decide, got, e, want[k])
				}
			}
		}
		t.Logf("m=%d: %v classes at ε = %v", mem, want, eps)
	}
}
