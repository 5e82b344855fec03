package render

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

func quotientGraph() *LayeredGraph {
	return &LayeredGraph{
		Title:       "Tiger <quotient>",
		Layers:      [][]string{{"ε"}, {"L", "R & co"}, {"LL", "LR", "RR"}},
		LayerTitles: []string{"t=0", "t=1", "t=2"},
		Edges: []Edge{
			{From: [2]int{0, 0}, To: [2]int{1, 0}, Label: "listen/L"},
			{From: [2]int{0, 0}, To: [2]int{1, 1}, Label: "listen/R"},
			{From: [2]int{1, 0}, To: [2]int{2, 0}},
			{From: [2]int{1, 0}, To: [2]int{2, 1}, Label: "a"},
			{From: [2]int{1, 0}, To: [2]int{2, 1}, Label: "b"}, // parallel
			{From: [2]int{1, 1}, To: [2]int{2, 2}},
			{From: [2]int{1, 0}, To: [2]int{1, 1}, Label: "same layer"},
			{From: [2]int{2, 2}, To: [2]int{0, 0}, Label: "back"},
			{From: [2]int{2, 0}, To: [2]int{2, 0}, Label: "loop"},
		},
	}
}

// elements parses doc as XML and counts its elements by name.
func elements(t *testing.T, doc string) map[string]int {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	d.Strict = true
	n := map[string]int{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, doc)
		}
		if s, ok := tok.(xml.StartElement); ok {
			n[s.Name.Local]++
			if s.Name.Local == "svg" && s.Name.Space != "http://www.w3.org/2000/svg" {
				t.Errorf("svg element in namespace %q", s.Name.Space)
			}
		}
	}
}

func TestLayeredGraphSVG(t *testing.T) {
	for _, ltr := range []bool{false, true} {
		g := quotientGraph()
		g.LeftToRight = ltr
		s, err := g.SVG()
		if err != nil {
			t.Fatal(err)
		}
		n := elements(t, s)
		// 6 node rects; 9 edge paths plus the marker's arrow path; 6 node
		// labels, 3 layer titles, 1 title and 7 edge labels.
		if n["svg"] != 1 || n["rect"] != 6 || n["path"] != 10 || n["text"] != 17 || n["marker"] != 1 {
			t.Errorf("LeftToRight=%v: element counts %v", ltr, n)
		}
		if strings.Contains(s, "R & co") || !strings.Contains(s, "R &amp; co") || !strings.Contains(s, "Tiger &lt;quotient&gt;") {
			t.Errorf("labels not escaped:\n%s", s)
		}
		if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
			t.Errorf("non-finite coordinates:\n%s", s)
		}
		again, _ := g.SVG()
		if again != s {
			t.Error("SVG is not deterministic")
		}
		var buf bytes.Buffer
		if err := g.WriteSVG(&buf); err != nil || buf.String() != s {
			t.Errorf("WriteSVG differs from SVG (err %v)", err)
		}
	}
	a, _ := quotientGraph().SVG()
	g := quotientGraph()
	g.Layers[0][0] = "root"
	b, _ := g.SVG()
	if g.markerID() == quotientGraph().markerID() || a == b {
		t.Error("different graphs share a marker id")
	}
}

func TestLayeredGraphEmpty(t *testing.T) {
	for _, g := range []*LayeredGraph{{}, {LeftToRight: true}, {Layers: [][]string{{}, {"x"}}}} {
		s, err := g.SVG()
		if err != nil {
			t.Fatal(err)
		}
		elements(t, s)
		if strings.Contains(s, "NaN") || strings.Contains(s, "-Inf") {
			t.Errorf("%+v: non-finite coordinates:\n%s", g, s)
		}
	}
}

func TestLayeredGraphErrors(t *testing.T) {
	tests := []struct {
		name string
		g    LayeredGraph
		want string
	}{
		{"layer out of range", LayeredGraph{Layers: [][]string{{"a"}}, Edges: []Edge{{From: [2]int{0, 0}, To: [2]int{1, 0}}}}, "edge 0"},
		{"index out of range", LayeredGraph{Layers: [][]string{{"a"}, {"b"}}, Edges: []Edge{{From: [2]int{0, 0}, To: [2]int{1, 0}}, {From: [2]int{0, -1}, To: [2]int{1, 0}}}}, "edge 1"},
		{"titles", LayeredGraph{Layers: [][]string{{"a"}}, LayerTitles: []string{"x", "y"}}, "2 layer titles for 1 layers"},
	}
	for _, tt := range tests {
		_, err := tt.g.SVG()
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "render: ") {
			t.Errorf("%s: err = %v, want one mentioning %q", tt.name, err, tt.want)
		}
	}
}
