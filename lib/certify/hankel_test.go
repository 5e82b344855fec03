package certify

import (
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
)

func TestHankelRanks(t *testing.T) {
	tests := []struct {
		model                   string
		T                       int
		joint, openLoop, margin int
		source                  string
	}{
		// conj:hankel-rank evidence: "the open-loop Hankel rank computed from
		// the observation kernels is 3" (marginal reading); joint and
		// open-loop readings: our computation.
		{"gridworld:3", 2, 8, 4, 3, "paper (marginal), ours"},
		{"gridworld:3", 4, 9, 6, 3, "ours; joint = |S| = 9"},
		// Tiger: two states, so every reading is ≤ 2; the one-step marginal
		// under any constant action is (½, ½) at every step (hand: rank 1).
		{"tiger", 2, 2, 2, 1, "hand"},
		{"tiger-listen", 4, 2, 2, 1, "hand"},
	}
	for _, tc := range tests {
		b, err := bench.Lookup(tc.model)
		if err != nil {
			t.Fatal(err)
		}
		hr, err := HankelRanks(b.Model, tc.T, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := [3]int{hr[0].Rank, hr[1].Rank, hr[2].Rank}
		if got != [3]int{tc.joint, tc.openLoop, tc.margin} || hr[0].Reading != HankelJoint || hr[2].Reading != HankelMarginal {
			t.Errorf("%s T=%d: ranks %v, want %v (%s)", tc.model, tc.T, got, [3]int{tc.joint, tc.openLoop, tc.margin}, tc.source)
		}
		if hr[0].Rank > b.Model.NumStates() {
			t.Errorf("%s: joint rank %d exceeds |S| = %d", tc.model, hr[0].Rank, b.Model.NumStates())
		}
	}
	b, _ := bench.Lookup("gridworld:3")
	if _, err := HankelRanks(b.Model, 6, 1000); err == nil {
		t.Error("no error past the size limit")
	}
	if _, err := HankelRanks(b.Model, 0, 0); err == nil {
		t.Error("no error for T = 0")
	}
}

func BenchmarkHankelRanks(b *testing.B) {
	bm, _ := bench.Lookup("gridworld:3")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := HankelRanks(bm.Model, 3, 0); err != nil {
			b.Fatal(err)
		}
	}
}
