package render

import (
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// chain is a hand-made model: go moves a → b → c (c stays), stay stays;
// arriving in b shows x surely, in c y surely, in a x or y.
func chain(t *testing.T) *pomdp.Model {
	t.Helper()
	half := []float64{0.5, 0.5}
	m, err := pomdp.New(pomdp.Dense{
		Name: "chain", States: []string{"a", "b", "c"}, Actions: []string{"go", "stay"}, Observations: []string{"x", "y"},
		T: [][][]float64{{{0, 1, 0}, {0, 0, 1}, {0, 0, 1}}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
		Z: [][][]float64{{half, {1, 0}, {0, 1}}, {half, {1, 0}, {0, 1}}},
		R: [][]float64{{0, 0}, {0, 0}, {0, 0}}, B0: []float64{1, 0, 0},
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestTimeExpandedGraph: the chain over two steps, worked out by hand:
// sure emissions on the nodes, the others on the edges, the actions
// named unless every action leads there, states ordered by their
// predecessors' mean position.
func TestTimeExpandedGraph(t *testing.T) {
	tests := []struct {
		T    int
		want string
	}{
		{0, "chain\nt = 0: a\n"},
		{2, `chain
t = 0: a
t = 1: a | b [x]
t = 2: a | b [x] | c [y]
a -> b [x] [go]
a -> a [stay/x]
a -> a [stay/y]
a -> b [x] [go]
a -> a [stay/x]
a -> a [stay/y]
b [x] -> c [y] [go]
b [x] -> b [x] [stay]
`},
	}
	for _, tt := range tests {
		g, err := TimeExpandedGraph(chain(t), tt.T, "chain")
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Text(); got != tt.want {
			t.Errorf("T = %d:\n%s\nwant\n%s", tt.T, got, tt.want)
		}
		if _, err := g.SVG(); err != nil {
			t.Errorf("T = %d: %v", tt.T, err)
		}
	}
	if _, err := TimeExpandedGraph(chain(t), -1, "chain"); err == nil || !strings.Contains(err.Error(), "horizon -1") {
		t.Errorf("T = -1: err = %v", err)
	}
}
