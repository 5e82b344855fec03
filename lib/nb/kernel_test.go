package nb

import (
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

func TestMaxAbsDiff(t *testing.T) {
	tests := []struct {
		p, q []float64
		want float64
	}{
		{nil, nil, 0},
		{[]float64{1, 2}, []float64{1, 2}, 0},
		{[]float64{1, -2}, []float64{0.5, 1}, 3},
	}
	for _, tt := range tests {
		if got := MaxAbsDiff(tt.p, tt.q); got != tt.want {
			t.Errorf("MaxAbsDiff(%v, %v) = %g, want %g", tt.p, tt.q, got, tt.want)
		}
	}
}

func TestObsKernel(t *testing.T) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	listen := -1
	for a, name := range m.Actions {
		if name == "listen" {
			listen = a
		}
	}
	if listen < 0 {
		t.Fatalf("Tiger has no action listen: %v", m.Actions)
	}
	tests := []struct {
		belief []float64
	}{{[]float64{1, 0}}, {[]float64{0, 1}}, {[]float64{0.5, 0.5}}, {[]float64{0.3, 0.7}}}
	for _, tt := range tests {
		for a := range m.Actions {
			k := ObsKernel(m, tt.belief, a)
			sum := 0.0
			for _, v := range k {
				sum += v
			}
			if len(k) != m.NumObservations() || math.Abs(sum-1) > 1e-12 {
				t.Errorf("b = %v, %s: kernel %v", tt.belief, m.Actions[a], k)
			}
		}
		// Listening tells the tiger's side apart unless the belief is even.
		k := ObsKernel(m, tt.belief, listen)
		if even := tt.belief[0] == tt.belief[1]; (math.Abs(k[0]-k[1]) < 1e-12) != even {
			t.Errorf("b = %v, listen: kernel %v", tt.belief, k)
		}
	}
}

func TestActionProb(t *testing.T) {
	// A two-node stationary controller: node 0 plays action 0, node 1
	// action 1; observation 1 moves to node 1, observation 0 to node 0.
	det := &fsc.FSC{Nodes: 2, Act: [][]int{{0, 1}}, Next: [][][]int{{{0, 1}, {0, 1}}}}
	mixed := fsc.Mixed(2, []float64{0.25, 0.75})
	tests := []struct {
		c    *fsc.FSC
		h    []int
		a    int
		want float64
	}{
		{det, nil, 0, 1},
		{det, nil, 1, 0},
		{det, []int{1}, 1, 1},
		{det, []int{1, 0}, 0, 1},
		{mixed, []int{0, 1}, 1, 0.75},
	}
	for _, tt := range tests {
		if got := ActionProb(tt.c, tt.h, tt.a); got != tt.want {
			t.Errorf("ActionProb(h = %v, a = %d) = %g, want %g", tt.h, tt.a, got, tt.want)
		}
	}
}
