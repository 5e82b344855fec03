package distance

import (
	"context"
	"slices"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
)

// TestGroupFamilyWorkers checks that grouping on several workers gives the
// one-worker grouping (the sequential scan) exactly: the same columns,
// representatives and members, for deterministic, sampled and
// non-deduplicated families.
func TestGroupFamilyWorkers(t *testing.T) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	clock, _ := fsc.New(fsc.KindClock, 3, 2, 2, 3, fsc.Options{})
	stat, _ := fsc.New(fsc.KindStationary, 3, 2, 2, 0, fsc.Options{})
	sampled, _ := fsc.New(fsc.KindStochasticClock, 3, 2, 2, 3, fsc.Options{Samples: 9000, Seed: 4})
	mixed := &fsc.List{K: fsc.KindClock, Mem: 2, Hor: 3}
	for i := 0; i < 9000; i++ {
		if i%3 == 0 {
			mixed.Ctrls = append(mixed.Ctrls, sampled.At(i))
		} else {
			mixed.Ctrls = append(mixed.Ctrls, clock.At(i*17%clock.Len()))
		}
	}
	proto, err := law.NewEngine(m, 3, law.UniformStandIn)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		fam  fsc.Family
		opt  Options
	}{
		{"clock", clock, Options{}},
		{"stationary", stat, Options{}},
		{"sampled", sampled, Options{}},
		{"mixed", mixed, Options{}},
		{"clock-nodedup", clock, Options{NoDedup: true}},
	} {
		col1, reps1, mem1, err := groupFamily(context.Background(), tc.fam, proto, proto.Tree(), tc.opt, 1)
		if err != nil {
			t.Fatal(err)
		}
		if tc.name == "clock" && len(reps1) >= tc.fam.Len() {
			t.Fatalf("clock: %d groups for %d controllers: nothing grouped", len(reps1), tc.fam.Len())
		}
		for _, w := range []int{2, 3, 7} {
			col, reps, mem, err := groupFamily(context.Background(), tc.fam, proto, proto.Tree(), tc.opt, w)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(col, col1) || !slices.Equal(reps, reps1) || !slices.EqualFunc(mem, mem1, slices.Equal) {
				t.Fatalf("%s, %d workers: grouping differs from one worker's (%d vs %d groups)", tc.name, w, len(reps), len(reps1))
			}
		}
	}
}
