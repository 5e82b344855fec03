package nb

import (
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// valuesPlot is a one-line plot titled "values".
func valuesPlot(t *testing.T) *plot.Plot {
	t.Helper()
	p, err := LinePlot("values", "x", "y", Series{Label: "v", X: []float64{0, 1, 2}, Y: []float64{1, 3, 2}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPlotDisplay(t *testing.T) {
	buf := captureText(t)
	if err := Plot(valuesPlot(t), 4*vg.Inch, 3*vg.Inch); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "[plot \"values\", 4in × 3in]\n"; got != want {
		t.Errorf("text fallback %q, want %q", got, want)
	}

	sent, _ := fakeNotebook(t)
	if err := Plot(valuesPlot(t), 4*vg.Inch, 3*vg.Inch); err != nil {
		t.Fatal(err)
	}
	if len(*sent) != 1 {
		t.Fatalf("sent %d displays", len(*sent))
	}
	h, _ := (*sent)[0].Data["text/html"].(string)
	if !strings.HasPrefix(h, "<div><svg") {
		t.Errorf("plot HTML starts %q", h[:min(len(h), 40)])
	}
}
