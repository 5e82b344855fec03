package nb

import (
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
)

func TestLawDistance(t *testing.T) {
	// One observation position, two observations, discrete metric: W1 is TV.
	tests := []struct {
		p, q    [][]float64
		want    float64
		wantArg int
	}{
		{[][]float64{{1, 0}}, [][]float64{{1, 0}}, 0, 0},
		{[][]float64{{1, 0}, {0.5, 0.5}}, [][]float64{{1, 0}, {0.2, 0.8}}, 0.3, 1},
		{[][]float64{{1, 0}, {0.5, 0.5}}, [][]float64{{0, 1}, {0.2, 0.8}}, 1, 0},
	}
	for _, tt := range tests {
		got, arg, err := LawDistance(tt.p, tt.q, ot.Discrete(2), 1)
		if err != nil {
			t.Fatal(err)
		}
		if d := got - tt.want; d > 1e-12 || d < -1e-12 || arg != tt.wantArg {
			t.Errorf("LawDistance(%v, %v) = %g at %d, want %g at %d", tt.p, tt.q, got, arg, tt.want, tt.wantArg)
		}
	}
	if _, _, err := LawDistance([][]float64{{1, 0}}, nil, ot.Discrete(2), 1); err == nil {
		t.Error("LawDistance of 1 law against 0: no error")
	}
}

func TestCheckPseudometric(t *testing.T) {
	const T = 2
	var laws [][][]float64
	for _, name := range []string{"tiger", "tiger", "tiger:0.8", "tiger:0.7"} {
		b, err := bench.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), 1, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		l, err := TrajectoryLaws(b.Model, fam, T)
		if err != nil {
			t.Fatal(err)
		}
		if len(l) != fam.Len() {
			t.Fatalf("%s: %d laws for %d probes", name, len(l), fam.Len())
		}
		laws = append(laws, l)
	}
	c, err := CheckPseudometric(laws, ot.Discrete(2), T)
	if err != nil {
		t.Fatal(err)
	}
	n := len(laws)
	if c.Triangles != n*(n-1)*(n-2) || c.Violations != 0 || c.Iff != 0 || c.Asym > 1e-12 {
		t.Errorf("%d triangles, %d violations, %d iff failures, asymmetry %g", c.Triangles, c.Violations, c.Iff, c.Asym)
	}
	// The two copies of Tiger are at distance 0 and equal; different accuracies are not.
	if c.D[0][1] != 0 || !c.Equal[0][1] || c.D[0][2] <= 0 || c.Equal[0][2] {
		t.Errorf("D %v, Equal %v", c.D, c.Equal)
	}
}
