package render

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Interval is a closed interval [Lo, Hi], such as a confidence interval; a
// NaN end means there is none.
type Interval struct{ Lo, Hi float64 }

// IntervalLegend names the three things an [IntervalPlot] draws.
type IntervalLegend struct {
	Ours, Others, Exact string
}

var (
	intervalOurs   = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	intervalOthers = color.RGBA{R: 150, G: 150, B: 150, A: 255}
	intervalExact  = color.RGBA{R: 214, G: 39, B: 40, A: 255}
)

// IntervalPlot draws, for each labelled row k, the interval ours[k] as a
// thick blue bar just left of k, others[k] (say, the paper's) as a grey bar
// just right of it, and exact[k] as a red cross: intervals set against each
// other and against the value they estimate. Intervals or values with a NaN
// are not drawn; an interval narrower than 0.01 is drawn 0.005 longer at
// each end so that it stays visible. The y axis starts at 0 and is named
// yLabel; the legend names the three kinds as in legend. It returns an
// error if ours, others or exact do not have one entry per label.
func IntervalPlot(title, yLabel string, labels []string, ours, others []Interval, exact []float64, legend IntervalLegend) (*plot.Plot, error) {
	if len(ours) != len(labels) || len(others) != len(labels) || len(exact) != len(labels) {
		return nil, fmt.Errorf("render: interval plot %q: %d labels for %d, %d intervals and %d exact values",
			title, len(labels), len(ours), len(others), len(exact))
	}
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = yLabel
	if err := addIntervals(p, ours, -0.12, intervalOurs, legend.Ours); err != nil {
		return nil, err
	}
	if err := addIntervals(p, others, 0.12, intervalOthers, legend.Others); err != nil {
		return nil, err
	}
	var pts plotter.XYs
	for k, e := range exact {
		if !math.IsNaN(e) {
			pts = append(pts, plotter.XY{X: float64(k), Y: e})
		}
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, err
	}
	s.GlyphStyle.Shape = draw.CrossGlyph{}
	s.GlyphStyle.Radius = vg.Points(5)
	s.GlyphStyle.Color = intervalExact
	p.Add(s)
	p.Legend.Add(legend.Exact, s)
	p.Legend.Top = true
	p.Legend.Left = true
	p.NominalX(labels...)
	p.X.Min, p.X.Max, p.Y.Min = -0.6, float64(len(labels))-0.4, 0
	p.X.Tick.Label.Rotation = 0.6
	p.X.Tick.Label.XAlign = draw.XRight
	return p, nil
}

// addIntervals draws ivs[k] as a vertical bar at x = k + shift, the first
// one drawn named name in the legend.
func addIntervals(p *plot.Plot, ivs []Interval, shift float64, c color.Color, name string) error {
	first := true
	for k, iv := range ivs {
		if math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) {
			continue
		}
		lo, hi := iv.Lo, iv.Hi
		if hi-lo < 0.01 { // keep a degenerate interval such as [1, 1] visible
			lo, hi = lo-0.005, hi+0.005
		}
		x := float64(k) + shift
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: lo}, {X: x, Y: hi}})
		if err != nil {
			return err
		}
		l.Color, l.Width = c, vg.Points(4)
		p.Add(l)
		if first {
			p.Legend.Add(name, l)
			first = false
		}
	}
	return nil
}
