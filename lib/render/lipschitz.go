package render

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pomdpq/pomdpq/lib/certify"
)

// PowerTicks labels the powers of ten of a logarithmic axis (as
// plot.Ticker: set Axis.Tick.Marker to PowerTicks{} beside
// Axis.Scale = plot.LogScale{}).
type PowerTicks struct{}

// Ticks returns a labelled tick at every power of ten from below lo to
// above hi.
func (PowerTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		ts = append(ts, plot.Tick{Value: math.Pow(10, e), Label: strconv.FormatFloat(math.Pow(10, e), 'g', -1, 64)})
	}
	return ts
}

// LipschitzPlot draws a check of lem:lipschitz (certify.LawLipschitz) on
// log–log axes: for every sample with TV > 0, TV(P^θ, P^θ') and the
// step-by-step coupling bound against ‖θ − θ'‖₁, and the proved line
// Constant·ℓ1 over the samples' range. It returns an error if no sample
// has TV > 0 (nothing can be drawn on log axes).
func LipschitzPlot(rep certify.LipschitzReport, title string) (*plot.Plot, error) {
	var pts, coup plotter.XYs
	lo, hi := math.Inf(1), 0.0
	for _, s := range rep.Samples {
		if s.TV > 0 {
			pts = append(pts, plotter.XY{X: s.L1, Y: s.TV})
			coup = append(coup, plotter.XY{X: s.L1, Y: s.Coupling})
			lo, hi = math.Min(lo, s.L1), math.Max(hi, s.L1)
		}
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("render: Lipschitz plot %q: none of the %d samples has TV > 0", title, len(rep.Samples))
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "‖θ − θ'‖₁"
	p.Y.Label.Text = "TV(P^θ, P^θ')"
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	sc.GlyphStyle.Radius = vg.Points(1.5)
	cs, err := plotter.NewScatter(coup)
	if err != nil {
		return nil, err
	}
	cs.GlyphStyle.Shape = draw.PlusGlyph{}
	cs.GlyphStyle.Radius = vg.Points(1.5)
	cs.GlyphStyle.Color = Color(1)
	line, err := plotter.NewLine(plotter.XYs{{X: lo, Y: rep.Constant * lo}, {X: hi, Y: rep.Constant * hi}})
	if err != nil {
		return nil, err
	}
	line.Color = Color(3)
	p.Add(sc, cs, line)
	p.Legend.Add("TV (sample)", sc)
	p.Legend.Add("coupling bound (sample)", cs)
	p.Legend.Add(fmt.Sprintf("%.1f · ℓ1 (lem:lipschitz constant)", rep.Constant), line)
	p.Legend.Top, p.Legend.Left = true, true
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = PowerTicks{}, PowerTicks{}
	return p, nil
}
