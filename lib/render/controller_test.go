package render

import (
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

// TestControllerGraph: Tiger's listen-until-two-ahead graph over 3 stages,
// with a "-" (−1) successor left out (expected text by hand).
func TestControllerGraph(t *testing.T) {
	c := &fsc.FSC{Nodes: 5, NumActions: 3, NumObs: 2, Act: [][]int{{0, 0, 0, 2, 1}},
		Next: [][][]int{{{1, 2}, {3, 0}, {0, 4}, {0, 0}, {-1, 0}}}}
	g, err := ControllerGraph(c, 0, 3, []string{"listen", "open-left", "open-right"}, []string{"L", "R"}, "counter")
	if err != nil {
		t.Fatal(err)
	}
	want := `τ = 0: 0: listen
τ = 1: 1: listen | 2: listen
τ = 2: 3: open-right | 0: listen | 4: open-left
0: listen -> 1: listen [L]
0: listen -> 2: listen [R]
1: listen -> 3: open-right [L]
1: listen -> 0: listen [R]
2: listen -> 0: listen [L]
2: listen -> 4: open-left [R]`
	if got := strings.TrimSpace(g.Text()); !strings.Contains(got, want) {
		t.Errorf("text\n%s\nwant\n%s", got, want)
	}
	if _, err := g.SVG(); err != nil {
		t.Fatal(err)
	}
	if g, err = ControllerGraph(c, 4, 2, nil, nil, ""); err != nil {
		t.Fatal(err)
	}
	if len(g.Layers) != 2 || len(g.Edges) != 1 || g.Edges[0].Label != "1" {
		t.Errorf("from node 4: %+v", g)
	}
}

// TestControllerGraphErrors: a stochastic controller or a start node out of
// range is an error naming the problem, not a panic.
func TestControllerGraphErrors(t *testing.T) {
	det := &fsc.FSC{Nodes: 1, NumActions: 2, NumObs: 2, Act: [][]int{{0}}, Next: [][][]int{{{0, 0}}}}
	stoch := &fsc.FSC{Nodes: 1, NumActions: 2, NumObs: 2, Act: [][]int{{0}}, Next: [][][]int{{{0, 0}}},
		ActProb: [][][]float64{{{0.5, 0.5}}}}
	tests := []struct {
		name  string
		c     *fsc.FSC
		start int
		want  string
	}{
		{"stochastic", stoch, 0, "stochastic"},
		{"start negative", det, -1, "start node -1 out of range (1 nodes)"},
		{"start too large", det, 1, "start node 1 out of range (1 nodes)"},
	}
	for _, tt := range tests {
		g, err := ControllerGraph(tt.c, tt.start, 2, nil, nil, tt.name)
		if err == nil || g != nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.name) {
			t.Errorf("%s: graph %v, err %v; want an error with %q", tt.name, g, err, tt.want)
		}
	}
}
