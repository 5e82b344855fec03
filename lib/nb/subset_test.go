package nb

import (
	"context"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

func TestCalibratedSubset(t *testing.T) {
	ctx := context.Background()
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ m, k, Tcal int }{
		{1, 1, 2},
		{1, 3, 2},
		{2, 4, 3},
	}
	for _, tt := range tests {
		list, err := CalibratedSubset(ctx, b, tt.m, tt.k, tt.Tcal)
		if err != nil {
			t.Fatalf("%+v: %v", tt, err)
		}
		if list.Len() == 0 || list.Len() > tt.k || list.Mem != tt.m {
			t.Fatalf("%+v: %d controllers of memory %d", tt, list.Len(), list.Mem)
		}
		// The subset sees no more than the whole family: its distances at
		// Tcal never exceed the family's (a maximum over fewer probes).
		fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), tt.m, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		full, err := distance.Compute(ctx, b.Model, fam, tt.Tcal, distance.Options{Ground: b.Ground})
		if err != nil {
			t.Fatal(err)
		}
		sub, err := distance.Compute(ctx, b.Model, list, tt.Tcal, distance.Options{Ground: b.Ground})
		if err != nil {
			t.Fatal(err)
		}
		for d := range full.D {
			for i, v := range sub.D[d].Data {
				if v > full.D[d].Data[i]+1e-9 {
					t.Fatalf("%+v: depth %d entry %d: subset %g > family %g", tt, d, i, v, full.D[d].Data[i])
				}
			}
		}
	}
	if _, err := CalibratedSubset(ctx, b, 0, 2, 2); err == nil {
		t.Error("CalibratedSubset with m = 0: no error")
	}
}
