package nb

import (
	"strings"
	"testing"
)

// TestShowGraphErrors: a graph that cannot be drawn is an error, and nothing
// is shown.
func TestShowGraphErrors(t *testing.T) {
	for _, g := range []LayeredGraph{
		{Layers: [][]string{{"a"}}, Edges: []Edge{{From: [2]int{0, 0}, To: [2]int{1, 0}}}},
		{Layers: [][]string{{"a"}}, LayerTitles: []string{"x", "y"}},
	} {
		buf := captureText(t)
		if err := ShowGraph(&g); err == nil || !strings.Contains(err.Error(), "layered graph") || buf.Len() != 0 {
			t.Errorf("ShowGraph(%+v) err = %v, wrote %q", g, err, buf.String())
		}
	}
}

func TestShowGraphText(t *testing.T) {
	buf := captureText(t)
	g := &LayeredGraph{
		Title:       "Tiger <quotient>",
		Layers:      [][]string{{"ε"}, {"L", "R & co"}, {"LL", "LR", "RR"}},
		LayerTitles: []string{"t=0", "t=1", "t=2"},
		Edges: []Edge{
			{From: [2]int{0, 0}, To: [2]int{1, 0}, Label: "listen/L"},
			{From: [2]int{0, 0}, To: [2]int{1, 1}, Label: "listen/R"},
			{From: [2]int{1, 0}, To: [2]int{2, 0}},
		},
	}
	if err := ShowGraph(g); err != nil {
		t.Fatal(err)
	}
	want := `Tiger <quotient>
t=0: ε
t=1: L | R & co
t=2: LL | LR | RR
ε -> L [listen/L]
ε -> R & co [listen/R]
L -> LL
`
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
}
