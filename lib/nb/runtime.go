package nb

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pomdpq/pomdpq/lib/render"
	"github.com/pomdpq/pomdpq/lib/repro"
)

// minSeconds is the floor of the log-scale time axis of RuntimePlot.
const minSeconds = 1e-5

// RuntimePlot returns fig:runtime-horizon drawn from a regenerated
// runtime-horizon table (repro spec "runtime-horizon"): seconds against
// horizon on a log scale, one solid line per track ("ours …", in the
// order the tracks first appear) and, where the table has the paper's
// times (column paper_seconds), a dashed line with crosses in the same
// colour ("paper …"). Times below 10⁻⁵ s are drawn at 10⁻⁵ s. It returns
// an error when the table lacks one of the columns track, horizon, seconds
// and paper_seconds, or when a cell of them does not parse as a number.
func RuntimePlot(title string, t *repro.Table) (*plot.Plot, error) {
	col := map[string]int{}
	for c, cd := range t.Columns {
		col[cd.Name] = c
	}
	for _, name := range []string{"track", "horizon", "seconds", "paper_seconds"} {
		if _, ok := col[name]; !ok {
			return nil, fmt.Errorf("nb: table %s has no column %q", t.Name, name)
		}
	}
	type track struct{ ours, paper plotter.XYs }
	tracks := map[string]*track{}
	var order []string
	for i, r := range t.Rows {
		name := r[col["track"]]
		T, err := strconv.ParseFloat(r[col["horizon"]], 64)
		if err != nil {
			return nil, fmt.Errorf("nb: %s row %d: horizon %q: %w", t.Name, i, r[col["horizon"]], err)
		}
		s, err := strconv.ParseFloat(r[col["seconds"]], 64)
		if err != nil {
			return nil, fmt.Errorf("nb: %s row %d: seconds %q: %w", t.Name, i, r[col["seconds"]], err)
		}
		tr := tracks[name]
		if tr == nil {
			tr = &track{}
			tracks[name] = tr
			order = append(order, name)
		}
		tr.ours = append(tr.ours, plotter.XY{X: T, Y: math.Max(s, minSeconds)})
		if ps := r[col["paper_seconds"]]; ps != "" {
			v, err := strconv.ParseFloat(ps, 64)
			if err != nil {
				return nil, fmt.Errorf("nb: %s row %d: paper_seconds %q: %w", t.Name, i, ps, err)
			}
			tr.paper = append(tr.paper, plotter.XY{X: T, Y: math.Max(v, minSeconds)})
		}
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "horizon T"
	p.Y.Label.Text = "seconds (log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	p.Legend.Top = true // top right: the long-horizon tracks stay low
	for k, name := range order {
		col := render.Color(k)
		for _, s := range []struct {
			label string
			pts   plotter.XYs
			paper bool
		}{{"ours " + name, tracks[name].ours, false}, {"paper " + name, tracks[name].paper, true}} {
			if len(s.pts) == 0 {
				continue
			}
			line, scatter, err := plotter.NewLinePoints(s.pts)
			if err != nil {
				return nil, err
			}
			line.Color, scatter.Color = col, col
			scatter.Shape = draw.CircleGlyph{}
			if s.paper {
				line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
				scatter.Shape = draw.CrossGlyph{}
			}
			p.Add(line, scatter)
			p.Legend.Add(s.label, line, scatter)
		}
	}
	render.PadX(p)
	return p, nil
}
