package render

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// Curve is one line of a class-count plot: Counts[k] classes at Eps[k].
type Curve struct {
	Label  string
	Eps    []float64
	Counts []int
}

// CurvePlot returns a plot of class counts against ε, one line with points
// per curve (counts fall as ε grows; def:eps-equiv).
func CurvePlot(title string, curves ...Curve) (*plot.Plot, error) {
	series := make([]Series, len(curves))
	for k, c := range curves {
		if len(c.Eps) != len(c.Counts) {
			return nil, fmt.Errorf("render: curve %q has %d ε values and %d counts", c.Label, len(c.Eps), len(c.Counts))
		}
		ys := make([]float64, len(c.Counts))
		for i, n := range c.Counts {
			ys[i] = float64(n)
		}
		series[k] = Series{Label: c.Label, X: c.Eps, Y: ys}
	}
	return LinePlot(title, "ε", "classes", series...)
}

// PadX widens the x range by 3% on each side so that the end tick labels
// and points are not clipped.
func PadX(p *plot.Plot) {
	if d := p.X.Max - p.X.Min; d > 0 {
		p.X.Min -= 0.03 * d
		p.X.Max += 0.03 * d
	}
}

// Series is one line of a LinePlot.
type Series struct {
	Label string
	X, Y  []float64
}

// LinePlot returns a plot of real-valued series (a bound against measured
// gaps, a distance against a parameter), one line with points per series.
func LinePlot(title, xLabel, yLabel string, series ...Series) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Legend.Top = true
	for k, s := range series {
		if len(s.X) != len(s.Y) {
			return nil, fmt.Errorf("render: series %q has %d x and %d y values", s.Label, len(s.X), len(s.Y))
		}
		pts := make(plotter.XYs, len(s.X))
		for i := range s.X {
			pts[i] = plotter.XY{X: s.X[i], Y: s.Y[i]}
		}
		line, scatter, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		col := Color(k)
		line.Color, scatter.Color = col, col
		scatter.Shape = draw.CircleGlyph{}
		p.Add(line, scatter)
		p.Legend.Add(s.Label, line, scatter)
	}
	PadX(p)
	return p, nil
}

// Color returns the k-th colour of the palette of the curves (k ≥ 0; the
// palette repeats).
func Color(k int) color.Color { return palette[k%len(palette)] }

var palette = []color.Color{
	color.RGBA{31, 119, 180, 255}, color.RGBA{255, 127, 14, 255}, color.RGBA{44, 160, 44, 255},
	color.RGBA{214, 39, 40, 255}, color.RGBA{148, 103, 189, 255}, color.RGBA{140, 86, 75, 255},
}

// LatticeGraph returns the refinement lattice (fig:refinement-lattice) of
// class counts counts[i][j] at memory ms[j] and tolerance eps[i]: one layer
// per ε, arrows down as ε grows (coarser) and across as m grows (finer).
func LatticeGraph(title string, ms []int, eps []float64, counts [][]int) (*LayeredGraph, error) {
	if len(counts) != len(eps) {
		return nil, fmt.Errorf("render: lattice has %d ε rows for %d ε values", len(counts), len(eps))
	}
	g := &LayeredGraph{Title: title}
	for i, e := range eps {
		if len(counts[i]) != len(ms) {
			return nil, fmt.Errorf("render: lattice row %d has %d counts for %d memories", i, len(counts[i]), len(ms))
		}
		var layer []string
		for j, m := range ms {
			layer = append(layer, fmt.Sprintf("m=%d: %d cls", m, counts[i][j]))
			if j > 0 {
				g.Edges = append(g.Edges, Edge{From: [2]int{i, j - 1}, To: [2]int{i, j}, Label: "m↑"})
			}
			if i > 0 {
				g.Edges = append(g.Edges, Edge{From: [2]int{i - 1, j}, To: [2]int{i, j}, Label: "ε↑"})
			}
		}
		g.Layers = append(g.Layers, layer)
		g.LayerTitles = append(g.LayerTitles, fmt.Sprintf("ε = %g", e))
	}
	return g, nil
}
