package nb

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/render"
)

// The drawing itself lives in package render, which the analysis report
// shares; the names below keep the notebooks' calls (nb.LayeredGraph,
// nb.LinePlot, nb.FormatNumber, ...) working, and the Show functions display
// what render draws.

// DefaultDigits is [render.DefaultDigits]: the significant digits tables keep
// unless told otherwise.
const DefaultDigits = render.DefaultDigits

// LayeredGraph is [render.LayeredGraph]: a graph whose nodes sit in layers.
type LayeredGraph = render.LayeredGraph

// Edge is [render.Edge]: an arrow of a [LayeredGraph].
type Edge = render.Edge

// Curve is [render.Curve]: one line of a class-count plot.
type Curve = render.Curve

// Series is [render.Series]: one line of a [LinePlot].
type Series = render.Series

// FormatNumber is [render.FormatNumber]: x as a short decimal with digits
// significant digits (0: [DefaultDigits]).
func FormatNumber(x float64, digits int) string { return render.FormatNumber(x, digits) }

// LinePlot is [render.LinePlot]: real-valued series against one x axis.
func LinePlot(title, xLabel, yLabel string, series ...Series) (*plot.Plot, error) {
	return render.LinePlot(title, xLabel, yLabel, series...)
}

// CurvePlot is [render.CurvePlot]: class counts against ε.
func CurvePlot(title string, curves ...Curve) (*plot.Plot, error) {
	return render.CurvePlot(title, curves...)
}

// LatticeGraph is [render.LatticeGraph]: the refinement lattice of class
// counts over memories and tolerances.
func LatticeGraph(title string, ms []int, eps []float64, counts [][]int) (*LayeredGraph, error) {
	return render.LatticeGraph(title, ms, eps, counts)
}

// ControllerGraph is [render.ControllerGraph]: a deterministic controller
// unrolled over T stages from node start; an error if c is stochastic or
// start is not a node.
func ControllerGraph(c *fsc.FSC, start, T int, actions, observations []string, title string) (*LayeredGraph, error) {
	return render.ControllerGraph(c, start, T, actions, observations, title)
}

// ShowGraph displays g as SVG; outside a notebook it writes [LayeredGraph.Text]
// to [Output]. It returns the error of [LayeredGraph.SVG].
func ShowGraph(g *LayeredGraph) error {
	svg, err := g.SVG()
	if err != nil {
		return err
	}
	show("", bundle{html: "<div>" + svg + "</div>", text: g.Text()})
	return nil
}

// ShowCurves displays [CurvePlot] inline.
func ShowCurves(title string, curves ...Curve) error {
	p, err := render.CurvePlot(title, curves...)
	if err != nil {
		return err
	}
	return Plot(p, 5*vg.Inch, 3.2*vg.Inch)
}

// Plot displays p at width w and height h (vg.Inch, vg.Centimeter, ...)
// inline as SVG ([render.PlotSVG]), falling back to PNG if SVG rendering
// fails. Outside a notebook it renders nothing and writes a one-line
// description to [Output]. It returns an error if neither format can be
// rendered.
func Plot(p *plot.Plot, w, h vg.Length) error {
	if p == nil {
		return fmt.Errorf("nb: nil plot")
	}
	text := fmt.Sprintf("[plot %q, %.3gin × %.3gin]", p.Title.Text, w/vg.Inch, h/vg.Inch)
	if !inNotebook() {
		writeText(text)
		return nil
	}
	svg, errSVG := render.PlotSVG(p, w, h)
	if errSVG == nil {
		show("", bundle{html: "<div>" + svg + "</div>", text: text})
		return nil
	}
	png, err := render.PlotPNG(p, w, h)
	if err != nil {
		return fmt.Errorf("%w (and SVG: %v)", err, errSVG)
	}
	show("", bundle{png: png, text: text})
	return nil
}
