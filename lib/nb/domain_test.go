package nb

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/repro"
)

func TestFrameSideBySide(t *testing.T) {
	s, err := repro.Lookup("capacity-sweep-gridworld")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := s.Build(context.Background(), &repro.Env{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	old := Output
	Output = &buf
	defer func() { Output = old }()
	if err := ShowRepro(tab); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "classes (paper)") || !strings.Contains(out, "8/8 judged rows agree") {
		t.Fatalf("side-by-side table missing paper column or summary:\n%s", out)
	}
}

func TestRowsAndLinePlot(t *testing.T) {
	df := Rows([]string{"model", "classes"}, [][]string{{"tiger", "11"}, {"gridworld:3", "6"}})
	if df.Nrow() != 2 || df.Col("classes").Float()[0] != 11 {
		t.Fatalf("Rows gave %v", df)
	}
	p, err := LinePlot("bound", "ε", "gap", Series{Label: "bound", X: []float64{0, 1}, Y: []float64{0, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if !(p.X.Min < 0 && p.X.Max > 1) {
		t.Fatalf("x range [%v, %v] not padded", p.X.Min, p.X.Max)
	}
	if _, err := LinePlot("bad", "x", "y", Series{Label: "s", X: []float64{0}}); err == nil {
		t.Fatal("mismatched series accepted")
	}
}
