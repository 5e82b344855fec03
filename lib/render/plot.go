package render

import (
	"bytes"
	"fmt"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotSVG renders p at width w and height h and returns the SVG document
// without its XML prolog, ready to be placed inside HTML.
func PlotSVG(p *plot.Plot, w, h vg.Length) (string, error) {
	b, err := renderPlot(p, w, h, "svg")
	if err != nil {
		return "", err
	}
	s := string(b)
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:]
	}
	return s, nil
}

// StackSVG renders plots one above the other in one SVG document of width w
// and height h, split evenly, with their data areas aligned (plot.Align),
// and returns it without its XML prolog. Panels that share an x axis (a
// quantity and a count against ε) read as one figure this way.
func StackSVG(w, h vg.Length, plots ...*plot.Plot) (string, error) {
	if len(plots) == 0 {
		return "", fmt.Errorf("render: no plot to stack")
	}
	rows := make([][]*plot.Plot, len(plots))
	for i, p := range plots {
		if p == nil {
			return "", fmt.Errorf("render: nil plot (panel %d of %d)", i+1, len(plots))
		}
		rows[i] = []*plot.Plot{p}
	}
	c, err := draw.NewFormattedCanvas(w, h, "svg")
	if err != nil {
		return "", fmt.Errorf("render: rendering plots as svg: %w", err)
	}
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadY: vg.Points(8), PadTop: vg.Points(2), PadBottom: vg.Points(2)}
	canvases := plot.Align(rows, tiles, draw.New(c))
	for i, p := range plots {
		p.Draw(canvases[i][0])
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("render: rendering plots as svg: %w", err)
	}
	s := buf.String()
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:]
	}
	return s, nil
}

// PlotPNG renders p at width w and height h as a PNG image.
func PlotPNG(p *plot.Plot, w, h vg.Length) ([]byte, error) {
	return renderPlot(p, w, h, "png")
}

func renderPlot(p *plot.Plot, w, h vg.Length, format string) ([]byte, error) {
	if p == nil {
		return nil, fmt.Errorf("render: nil plot")
	}
	wt, err := p.WriterTo(w, h, format)
	if err != nil {
		return nil, fmt.Errorf("render: rendering plot as %s: %w", format, err)
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("render: rendering plot as %s: %w", format, err)
	}
	return buf.Bytes(), nil
}
