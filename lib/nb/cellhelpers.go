package nb

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Must stops a notebook cell at the first error: it panics with err if err
// is not nil. It is for notebook cells only (GoNB shows the panic under the
// cell); library code returns its errors.
func Must(err error) {
	if err != nil {
		panic(err)
	}
}

// MustGet returns v, or stops the notebook cell as [Must] does if err is
// not nil: a cell writes b := nb.MustGet(bench.Lookup("tiger")).
func MustGet[T any](v T, err error) T {
	Must(err)
	return v
}

// Mark is "✓" for true and "✗" for false: the marks of the notebooks'
// tables.
func Mark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

// ShowRows displays string rows under a header as a table with a caption
// ([Table] of [Rows]).
func ShowRows(caption string, header []string, rows [][]string) error {
	return Table(Rows(header, rows), Caption(caption))
}

// Look sets how [ShowPlot] draws a plot: a logarithmic y axis (the series
// must then hold positive points only, see [Positive]), the y range (0:
// automatic) and the corner of the legend (top right by default).
type Look struct {
	LogY         bool
	YMin, YMax   float64
	Left, Bottom bool
}

// ShowPlot applies the look l to p and displays it 7 × 4 inches ([Plot]).
func ShowPlot(p *plot.Plot, l Look) error {
	if l.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if l.YMin != 0 {
		p.Y.Min = l.YMin
	}
	if l.YMax != 0 {
		p.Y.Max = l.YMax
	}
	p.Legend.Top, p.Legend.Left = !l.Bottom, l.Left
	return Plot(p, 7*vg.Inch, 4*vg.Inch)
}

// Positive keeps the points of a series with y > 1e-12 (for a log axis).
func Positive(s Series) Series {
	out := Series{Label: s.Label}
	for i, y := range s.Y {
		if y > 1e-12 {
			out.X, out.Y = append(out.X, s.X[i]), append(out.Y, y)
		}
	}
	return out
}
