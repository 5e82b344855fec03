package nb

import (
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/wrap"
)

func TestPullbackGap(t *testing.T) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	flip, err := wrap.NewChannel([][]float64{{0.8, 0.2}, {0.2, 0.8}}, []string{"L", "R"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		w        wrap.Wrapper
		nodes    int
		positive bool // the pullback cannot be exact
	}{
		{"identity", wrap.Wrapper{}, 2, false},
		{"flip, memoryless controllers", wrap.Wrapper{Obs: flip}, 1, false},
		// A stochastic channel hides the true observation from the
		// pulled-back controller's memory: not exact with two nodes.
		{"flip, two nodes", wrap.Wrapper{Obs: flip}, 2, true},
	}
	for _, tt := range tests {
		gap, err := PullbackGap(b.Model, tt.w, tt.nodes, 3, 10, 1)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if (gap > 1e-6) != tt.positive || (!tt.positive && gap > 1e-12) {
			t.Errorf("%s: gap %g", tt.name, gap)
		}
	}
}
