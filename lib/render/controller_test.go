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
	g := ControllerGraph(c, 0, 3, []string{"listen", "open-left", "open-right"}, []string{"L", "R"}, "counter")
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
	g = ControllerGraph(c, 4, 2, nil, nil, "")
	if len(g.Layers) != 2 || len(g.Edges) != 1 || g.Edges[0].Label != "1" {
		t.Errorf("from node 4: %+v", g)
	}
}
