package value

import (
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

// TestValueDoesNotAllocate checks that every evaluation path reuses the
// evaluator's scratch memory (docs/algorithms.md#scratch-memory: allocation-free hot paths).
func TestValueDoesNotAllocate(t *testing.T) {
	b, err := bench.Lookup("gridworld:3")
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	const T = 3
	rng := rand.New(rand.NewPCG(1, 2))
	det := fsc.OpenLoop(5, 4, []int{1, 3, 0})
	stat, err := fsc.NewStationary(5, 4, 2, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	det2 := stat.At(stat.Len() - 1)
	stoch := fsc.Random(rng, 5, 4, 2, T)
	for _, obj := range []Objective{LatentReward{}, ObsScore(4), AsTrace(ObsScore(4))} {
		e, err := NewEvaluator(m, T, obj, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []*fsc.FSC{det, det2, stoch} {
			e.value(c) // size the buffers
			if n := testing.AllocsPerRun(20, func() { e.value(c) }); n != 0 {
				t.Errorf("%s, %s: %v allocations per evaluation", obj.Name(), c, n)
			}
		}
	}
}

// TestOpenLoopDecoder checks the search's allocation-free decoding of
// open-loop families against fsc.Clock.At, controller by controller.
func TestOpenLoopDecoder(t *testing.T) {
	for _, tc := range []struct{ nA, nO, T int }{{3, 2, 4}, {5, 4, 3}, {1, 2, 3}, {2, 3, 1}} {
		fam, err := fsc.NewClock(tc.nA, tc.nO, 1, tc.T, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		d := newOpenLoopDecoder(fam)
		for i := 0; i < fam.Len(); i++ {
			want, got := fam.At(i), d.at(i)
			for tau := 0; tau < tc.T; tau++ {
				if got.Action(tau, 0) != want.Action(tau, 0) || got.NextNode(tau, 0, 0) != want.NextNode(tau, 0, 0) {
					t.Fatalf("%v: controller %d decodes to %v, At gives %v", tc, i, got, want)
				}
			}
		}
	}
	two, _ := fsc.NewClock(3, 2, 2, 2, fsc.Options{})
	if newOpenLoopDecoder(two) != nil {
		t.Error("decoder built for a two-node family")
	}
}
