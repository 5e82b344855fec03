package nb

import (
	"testing"

	"github.com/pomdpq/pomdpq/lib/baseline"
	"github.com/pomdpq/pomdpq/lib/partition"
)

func TestMaxValueGapBeliefSpread(t *testing.T) {
	const T = 2
	b, fam, r := tigerDistances(t, T)
	tests := []struct {
		name  string
		p     *partition.Partition
		exact bool // singletons: the quotient is the model
	}{
		{"singletons", uniform(r, false), true},
		{"one class per depth", uniform(r, true), false},
	}
	for _, tt := range tests {
		gap, worst, err := MaxValueGap(b.Model, T, tt.p, fam, baseline.AllFirst(T))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if (gap <= 1e-12) != tt.exact || gap < 0 || worst == "" {
			t.Errorf("%s: value gap %g at %q", tt.name, gap, worst)
		}
		spread, err := ClassBeliefSpread(b.Model, T, tt.p, fam)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if (spread <= 1e-12) != tt.exact || spread > 1 {
			t.Errorf("%s: belief spread %g", tt.name, spread)
		}
	}
}
