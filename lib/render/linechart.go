package render

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Line is one line of a [LineChart]: the points (X[i], Y[i]) joined and
// marked, dashed if Dashed, Width points thick (0: the default).
type Line struct {
	Label  string
	X, Y   []float64
	Dashed bool
	Width  float64
}

// LineChart plots lines of non-negative values against one x axis over a
// grid: the y axis from 0, with room above the data for the legend (top
// left, small type), the x axis up to 1.03 × the largest x, and the lines
// in gonum's plotutil colours. It returns an error if a line has not as
// many y as x values.
func LineChart(title, xLabel, yLabel string, lines ...Line) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Add(plotter.NewGrid())
	xMax, yMax := 0.0, 0.0
	for _, c := range lines {
		if len(c.X) != len(c.Y) {
			return nil, fmt.Errorf("render: line %q of %q has %d x and %d y values", c.Label, title, len(c.X), len(c.Y))
		}
		for i := range c.X {
			xMax, yMax = math.Max(xMax, c.X[i]), math.Max(yMax, c.Y[i])
		}
	}
	p.X.Max = 1.03 * xMax                                        // room for the last tick label
	p.Y.Min, p.Y.Max = 0, 1.1*yMax+0.08*yMax*float64(len(lines)) // room for the legend
	for k, c := range lines {
		pts := make(plotter.XYs, len(c.X))
		for i := range c.X {
			pts[i] = plotter.XY{X: c.X[i], Y: c.Y[i]}
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("render: line %q of %q: %w", c.Label, title, err)
		}
		col := plotutil.Color(k)
		l.Color, s.Color = col, col
		s.Shape = draw.CircleGlyph{}
		if c.Dashed {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		if c.Width > 0 {
			l.Width = vg.Points(c.Width)
			s.Radius = vg.Points(1.5 + c.Width)
		}
		p.Add(l, s)
		p.Legend.Add(c.Label, l, s)
	}
	return p, nil
}
