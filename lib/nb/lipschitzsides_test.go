package nb

import (
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

func TestLipschitzSides(t *testing.T) {
	const T = 3
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	nA, nO := m.NumActions(), m.NumObservations()
	for a := range m.Actions {
		c := fsc.Constant(nA, nO, a)
		tests := []struct{ t, i, j int }{{1, 0, 1}, {2, 0, 3}, {2, 1, 2}}
		for _, tt := range tests {
			sides, w, err := LipschitzSides(m, c, T, tt.t, tt.i, tt.j, b.Ground)
			if err != nil {
				t.Fatal(err)
			}
			back, w2, err := LipschitzSides(m, c, T, tt.t, tt.j, tt.i, b.Ground)
			if err != nil {
				t.Fatal(err)
			}
			if w < 0 || math.Abs(w-w2) > 1e-12 || sides[0].History != back[1].History || sides[0].RBar != back[1].RBar {
				t.Errorf("%s %+v: W1 %g vs %g swapped, sides %+v / %+v", m.Actions[a], tt, w, w2, sides, back)
			}
			for _, s := range sides {
				sum := 0.0
				for _, p := range s.Suffix {
					sum += p
				}
				if s.Action != m.Actions[a] || math.Abs(sum-1) > 1e-9 || s.B0 < 0 || s.B0 > 1 || len(s.History) != tt.t {
					t.Errorf("%s %+v: side %+v (suffix mass %g)", m.Actions[a], tt, s, sum)
				}
			}
		}
	}
	if _, _, err := LipschitzSides(m, fsc.Mixed(nO, []float64{0.5, 0.25, 0.25}), T, 1, 0, 1, b.Ground); err == nil {
		t.Error("LipschitzSides with a stochastic controller: no error")
	}
}
