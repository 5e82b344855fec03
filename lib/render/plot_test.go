package render

import (
	"bytes"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func linePlot(t *testing.T) *plot.Plot {
	t.Helper()
	p := plot.New()
	p.Title.Text = "values"
	l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 3}, {X: 2, Y: 2}})
	if err != nil {
		t.Fatal(err)
	}
	p.Add(l)
	return p
}

func TestPlotRender(t *testing.T) {
	p := linePlot(t)
	svg, err := PlotSVG(p, 3*vg.Inch, 2*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(svg, "<svg") {
		t.Errorf("SVG starts with %q", svg[:min(len(svg), 40)])
	}
	if n := elements(t, svg); n["svg"] != 1 {
		t.Errorf("SVG elements %v", n)
	}
	png, err := PlotPNG(p, 3*vg.Inch, 2*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Error("PlotPNG did not return a PNG")
	}
	if _, err := PlotSVG(nil, vg.Inch, vg.Inch); err == nil {
		t.Error("PlotSVG(nil): no error")
	}
}
