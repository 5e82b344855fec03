package nb

import (
	"testing"

	"github.com/pomdpq/pomdpq/lib/baseline"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/value"
)

func TestObjectiveGaps(t *testing.T) {
	const T = 2
	b, fam, r := tigerDistances(t, T)
	objs := []value.Objective{baseline.AllFirst(T), value.LatentReward{}}
	tests := []struct {
		name  string
		p     *partition.Partition
		exact bool
	}{
		{"singletons", uniform(r, false), true},
		{"one class per depth", uniform(r, true), false},
	}
	for _, tt := range tests {
		gaps, err := ObjectiveGaps(b.Model, T, tt.p, fam, objs, 1e-12)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(gaps) != len(objs) {
			t.Fatalf("%s: %d rows for %d objectives", tt.name, len(gaps), len(objs))
		}
		for k, g := range gaps {
			// Agrees with MaxValueGap, computed objective by objective.
			want, _, err := MaxValueGap(b.Model, T, tt.p, fam, objs[k])
			if err != nil {
				t.Fatal(err)
			}
			if g.Objective != objs[k].Name() || g.MaxDiff != want || g.Changed > fam.Len() || (g.Changed == 0) != (g.MaxDiff <= 1e-12) {
				t.Errorf("%s, %s: %+v (MaxValueGap %g)", tt.name, objs[k].Name(), g, want)
			}
		}
		if tt.exact != (gaps[0].MaxDiff <= 1e-12) {
			t.Errorf("%s: %s gap %g", tt.name, gaps[0].Objective, gaps[0].MaxDiff)
		}
	}
}
