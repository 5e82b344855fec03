package report

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// TestDiagramCollapsed: a mit-sized model (204 states, 4 actions, 28
// observations, generated) has 28 exact classes at depth 1 for T = 2; the
// diagram draws at most DiagramPerDepth nodes per depth, the last one
// standing for the rest with their count, columns left to right, and the
// class table lists every class.
func TestDiagramCollapsed(t *testing.T) {
	b, err := bench.RandomStructured(204, 4, 28, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	fam, _ := fsc.New(fsc.KindStationary, 4, 28, 1, 2, fsc.Options{})
	res, err := distance.Compute(context.Background(), m, fam, 2, distance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Partition(0)
	q, err := quotient.New(m, 2, p)
	if err != nil {
		t.Fatal(err)
	}
	counts := p.Counts()
	if counts[1] <= DiagramPerDepth {
		t.Fatalf("per depth %v: the test needs more than %d classes at depth 1", counts, DiagramPerDepth)
	}
	g, collapsed := Diagram(q, "mit-sized", DiagramPerDepth)
	if !collapsed || !g.LeftToRight || len(g.Layers) != 3 {
		t.Fatalf("collapsed %v, left to right %v, %d layers", collapsed, g.LeftToRight, len(g.Layers))
	}
	rest, restHist := counts[1]-(DiagramPerDepth-1), 0
	// The collapsed classes are the smallest ones: count their histories
	// from the partition.
	sizes := make([]int, counts[1])
	for c := range sizes {
		sizes[c] = len(p.Members(1, c))
	}
	for k := 0; k < rest; k++ { // remove the rest smallest, one at a time
		small := 0
		for c := range sizes {
			if sizes[c] >= 0 && (sizes[small] < 0 || sizes[c] < sizes[small]) {
				small = c
			}
		}
		restHist += sizes[small]
		sizes[small] = -1
	}
	layer := g.Layers[1]
	if len(layer) != DiagramPerDepth || layer[len(layer)-1] != fmt.Sprintf("+ %d more classes (%d histories)", rest, restHist) {
		t.Errorf("depth 1 drawn as %d nodes ending in %q; want %d ending in \"+ %d more classes (%d histories)\"", len(layer), layer[len(layer)-1], DiagramPerDepth, rest, restHist)
	}
	for _, e := range g.Edges {
		if e.From[1] >= len(g.Layers[e.From[0]]) || e.To[1] >= len(g.Layers[e.To[0]]) {
			t.Errorf("edge %+v to a node not drawn", e)
		}
	}
	if _, err := g.SVG(); err != nil {
		t.Fatal(err)
	}
	_, rows, more := ClassTable(q, MaxClassRows)
	if len(rows) != p.Total() || more != 0 {
		t.Errorf("class table: %d rows, %d more; want all %d classes", len(rows), more, p.Total())
	}
	// The page says so, with the table beside the diagram.
	r := &Report{Model: m, T: 2, Quotient: q, QuotientM: 1}
	html, err := r.QuotientHTML()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`class="diagram collapsed"`, `class="class-table"`, fmt.Sprintf("Classes (%d)", p.Total())} {
		if !strings.Contains(html, want) {
			t.Errorf("the quotient section has no %s", want)
		}
	}
}
