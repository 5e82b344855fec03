package render

import (
	"context"
	"encoding/xml"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

func TestQuotientGraph(t *testing.T) {
	// fig:tiger-quotient right: [ε] → [{L,R}] → [O²] with arrows labelled L,R.
	b, _ := bench.Lookup("tiger-listen")
	fam, _ := fsc.NewStationary(1, 2, 1, fsc.Options{})
	r, err := distance.Compute(context.Background(), b.Model, fam, 2, distance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q, err := quotient.New(b.Model, 2, r.Partition(0.5))
	if err != nil {
		t.Fatal(err)
	}
	g := QuotientGraph(q, "")
	if len(g.Layers) != 3 || len(g.Edges) != 2 || g.Edges[0].Label != "L,R" || g.Layers[1][0] != "{L,R}" {
		t.Fatalf("graph layers %v edges %v", g.Layers, g.Edges)
	}
	svg, err := g.SVG()
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
		t.Fatalf("SVG is not well-formed: %v", err)
	}
}

func TestLatticeAndCurves(t *testing.T) {
	g, err := LatticeGraph("Tiger T=4", []int{1, 2}, []float64{0, 0.3, 0.5}, [][]int{{11, 16}, {9, 14}, {9, 10}})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Edges) != 7 {
		t.Fatalf("%d lattice edges, want 7", len(g.Edges))
	}
	if _, err := LatticeGraph("bad", []int{1}, []float64{0}, [][]int{{1, 2}}); err == nil {
		t.Fatal("ragged lattice accepted")
	}
	p, err := CurvePlot("classes", Curve{"m=1", []float64{0, 0.5}, []int{11, 9}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PlotSVG(p, 300, 200); err != nil {
		t.Fatal(err)
	}
	if _, err := CurvePlot("bad", Curve{"x", []float64{0}, []int{1, 2}}); err == nil {
		t.Fatal("mismatched curve accepted")
	}
}
