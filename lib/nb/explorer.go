package nb

import (
	"context"
	"fmt"
	"html"
	"image/color"
	"os"
	"strings"
	"time"

	"github.com/janpfeifer/gonb/gonbui/widgets"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/render"
)

// ExplorerDiagramClasses is the largest quotient an Explorer draws.
const ExplorerDiagramClasses = 60

// Explorer holds everything an ε slider shows for one model and horizon:
// the distances of the stationary probe families with m ≤ Ms[j] nodes,
// their class counts over the ε grid, and the partition and quotient at
// every grid point (computed on demand).
type Explorer struct {
	Model *pomdp.Model
	T     int
	Ms    []int
	Eps   []float64
	// Counts[j][i] is the class count of family Ms[j] at Eps[i].
	Counts [][]int
	// Ground is the ground metric of the distances, printed in every
	// view: its name when it is a built-in's (bench.GroundName), else its
	// fingerprint.
	Ground ot.Described
	res    []*distance.Result
	sizes  []int
}

// NewExplorer computes the distances of the stationary families with at
// most ms[j] nodes (default 1 and 2) for model m (ground metric g, nil for
// the discrete one) at horizon T, and the class counts over the ε grid
// (nil: 31 points from 0 to just above the largest distance).
func NewExplorer(ctx context.Context, m *pomdp.Model, g ot.Ground, T int, ms []int, grid []float64) (*Explorer, error) {
	if len(ms) == 0 {
		ms = []int{1, 2}
	}
	if g == nil {
		g = ot.Discrete(m.NumObservations())
	}
	e := &Explorer{Model: m, T: T, Ms: ms, Ground: ot.Described{Ground: g, Name: bench.GroundName(g)}}
	top := 0.0
	for _, k := range ms {
		fam, err := fsc.NewStationary(m.NumActions(), m.NumObservations(), k, fsc.Options{})
		if err != nil {
			return nil, err
		}
		r, err := distance.Compute(ctx, m, fam, T, distance.Options{Ground: g})
		if err != nil {
			return nil, err
		}
		e.res = append(e.res, r)
		e.sizes = append(e.sizes, fam.Len())
		top = max(top, r.MaxDistance())
	}
	if grid == nil {
		step := 0.05
		for top/step > 40 {
			step *= 2
		}
		grid = partition.Grid(0, top+step, step)
	}
	e.Eps = grid
	for _, r := range e.res {
		var counts []int
		for _, x := range grid {
			counts = append(counts, r.Partition(x).Total())
		}
		e.Counts = append(e.Counts, counts)
	}
	return e, nil
}

// label is the name of family j.
func (e *Explorer) label(j int) string {
	if e.Ms[j] == 1 {
		return fmt.Sprintf("m = 1 (%d probes)", e.sizes[j])
	}
	return fmt.Sprintf("m ≤ %d (%d probes)", e.Ms[j], e.sizes[j])
}

// Quotient returns the quotient of family j at grid point i.
func (e *Explorer) Quotient(j, i int) (*quotient.Quotient, error) {
	return quotient.New(e.Model, e.T, e.res[j].Partition(e.Eps[i]))
}

// ViewHTML returns the view of family j at grid point i: a header with
// the class count, the class-count curves with a marker at ε, the quotient
// diagram and the partition. Its outer div carries data-m, data-eps and
// data-classes, so that a test can see what it shows.
func (e *Explorer) ViewHTML(j, i int) (string, error) {
	return e.viewHTML(j, i, false)
}

// viewHTML is ViewHTML; live marks the view drawn once the widgets answer
// (data-live="true"), so that a test moves the slider only when the kernel
// listens to it.
func (e *Explorer) viewHTML(j, i int, live bool) (string, error) {
	q, err := e.Quotient(j, i)
	if err != nil {
		return "", err
	}
	eps := e.Eps[i]
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="pomdpq-explorer-view" data-m="%d" data-eps="%s" data-classes="%d" data-live="%t">`, e.Ms[j], FormatNumber(eps, 6), q.Classes(), live)
	fmt.Fprintf(&b, "<p><b>ε = %s, %s: %d classes</b> (per depth %v); ground metric %s</p>\n", FormatNumber(eps, 6), html.EscapeString(e.label(j)), q.Classes(), q.Partition.Counts(), html.EscapeString(e.Ground.String()))
	var curves []Curve
	for k := range e.Ms {
		curves = append(curves, Curve{Label: e.label(k), Eps: e.Eps, Counts: e.Counts[k]})
	}
	p, err := render.CurvePlot(fmt.Sprintf("%s, T = %d: classes vs ε", e.Model.Name, e.T), curves...)
	if err != nil {
		return "", err
	}
	lo, hi := 0.0, 0.0
	for _, c := range e.Counts {
		for _, n := range c {
			hi = max(hi, float64(n))
		}
	}
	marker, err := plotter.NewLine(plotter.XYs{{X: eps, Y: lo}, {X: eps, Y: hi}})
	if err != nil {
		return "", err
	}
	marker.Color = color.RGBA{120, 120, 120, 255}
	marker.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(marker)
	svg, err := render.PlotSVG(p, 5*vg.Inch, 3*vg.Inch)
	if err != nil {
		return "", err
	}
	b.WriteString(`<div class="pomdpq-explorer-curve">` + svg + "</div>\n")
	if q.Classes() <= ExplorerDiagramClasses {
		g := render.QuotientGraph(q, fmt.Sprintf("%s, %s, T = %d, ε = %s", e.Model.Name, e.label(j), e.T, FormatNumber(eps, 6)))
		svg, err := g.SVG()
		if err != nil {
			return "", err
		}
		if k := strings.Index(svg, "<svg"); k > 0 {
			svg = svg[k:]
		}
		b.WriteString(`<div class="pomdpq-explorer-diagram">` + svg + "</div>\n")
	} else {
		fmt.Fprintf(&b, "<p>%d classes: too many to draw (more than %d).</p>\n", q.Classes(), ExplorerDiagramClasses)
	}
	b.WriteString("<pre>" + html.EscapeString(PartitionText(q.Partition, e.historyLabel)) + "</pre></div>")
	return b.String(), nil
}

func (e *Explorer) historyLabel(t, i int) string {
	return e.res[0].Tree.Label(e.Model.Observations, t, i)
}

// Text returns the plain-text form: the class counts over ε per family and
// the partition of the largest family at grid point i.
func (e *Explorer) Text(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, T = %d, ground metric %s: classes vs ε\n%8s", e.Model.Name, e.T, e.Ground, "ε")
	for j := range e.Ms {
		fmt.Fprintf(&b, "  %s", e.label(j))
	}
	b.WriteByte('\n')
	for k, x := range e.Eps {
		fmt.Fprintf(&b, "%8s", FormatNumber(x, 4))
		for j := range e.Ms {
			fmt.Fprintf(&b, "  %*d", len(e.label(j)), e.Counts[j][k])
		}
		b.WriteByte('\n')
	}
	j := len(e.Ms) - 1
	fmt.Fprintf(&b, "partition at ε = %s, %s: %s", FormatNumber(e.Eps[i], 6), e.label(j), PartitionText(e.res[j].Partition(e.Eps[i]), e.historyLabel))
	return b.String()
}

// ExplorerOptions configure Explorer.Show.
type ExplorerOptions struct {
	// Connect bounds the wait for the notebook's front end to answer
	// the widgets (default: the duration in the environment variable
	// POMDPQ_EXPLORER_CONNECT, such as "90s", else 10 s). Without an
	// answer, as when nbconvert runs the notebook, the static view stays
	// and Show returns. A heavily loaded machine can take longer than
	// 10 s to answer; the browser test sets the variable for that reason.
	Connect time.Duration
	// Idle ends the session after this long without a change (default 10
	// minutes); the Done button ends it at once.
	Idle time.Duration
}

// Show displays the explorer. Inside a notebook it shows the view of the
// largest family at ε = Eps[0] and, when the front end answers, a slider
// over the ε grid, a selector of the family and a Done button, redrawing
// the view in place on every change until Done is pressed or the session
// has been idle for opt.Idle; the cell runs until then, and the kernel
// runs no other cell meanwhile (with Jupyter's Run All, the cells below
// wait: put the explorer last). Outside a notebook it writes Text(0) to
// Output.
func (e *Explorer) Show(opt ExplorerOptions) error {
	if opt.Connect <= 0 {
		opt.Connect = connectWait()
	}
	if opt.Idle <= 0 {
		opt.Idle = 10 * time.Minute
	}
	if !IsNotebook() {
		writeText(e.Text(0))
		return nil
	}
	id := "pomdpq-explorer-" + uniqueID()
	controls, view := id+"-controls", id+"-view"
	j, i := len(e.Ms)-1, 0
	live := false
	draw := func() error {
		h, err := e.viewHTML(j, i, live)
		if err != nil {
			return err
		}
		show(view, bundle{html: h, text: fmt.Sprintf("ε = %g, %s", e.Eps[i], e.label(j))})
		return nil
	}
	note := func(msg string) {
		show(controls, bundle{html: fmt.Sprintf(`<div id="%s" class="pomdpq-explorer-controls"><i>%s</i></div>`, controls, html.EscapeString(msg)), text: msg})
	}
	show(controls, bundle{html: fmt.Sprintf(`<div id="%s" class="pomdpq-explorer-controls"></div>`, controls), text: "ε explorer"})
	if err := draw(); err != nil {
		return err
	}

	var labels []string
	for k := range e.Ms {
		labels = append(labels, e.label(k))
	}
	slider := widgets.Slider(0, len(e.Eps)-1, 0).AppendTo(controls)
	sel := widgets.Select(labels).SetDefault(j).AppendTo(controls)
	done := widgets.Button("Done").AppendTo(controls)
	ready := make(chan struct{})
	go func() {
		// Each Done waits for the front end's first answer.
		slider.Done()
		sel.Done()
		done.Done()
		close(ready)
	}()
	select {
	case <-ready:
	case <-time.After(opt.Connect):
		note(fmt.Sprintf("Static view (ε = %g): the ε slider needs a live notebook; run the cell in Jupyter to explore.", e.Eps[i]))
		return nil
	}
	sc := slider.Listen().LatestOnly()
	mc := sel.Listen().LatestOnly()
	bc := done.Listen()
	defer sc.Close()
	defer mc.Close()
	defer bc.Close()
	// A change made before the listeners existed is read here; the view
	// is redrawn live, which tells a watcher that changes now count.
	i = min(max(slider.Value(), 0), len(e.Eps)-1)
	j = min(max(sel.Value(), 0), len(e.Ms)-1)
	live = true
	if err := draw(); err != nil {
		return err
	}
	idle := time.NewTimer(opt.Idle)
	defer idle.Stop()
	for {
		select {
		case v := <-sc.C:
			i = min(max(v, 0), len(e.Eps)-1)
		case v := <-mc.C:
			j = min(max(v, 0), len(e.Ms)-1)
		case <-bc.C:
			note(fmt.Sprintf("Explorer closed at ε = %g, %s; run the cell again to explore.", e.Eps[i], e.label(j)))
			return nil
		case <-idle.C:
			note(fmt.Sprintf("Explorer closed after %v without a change, at ε = %g; run the cell again to explore.", opt.Idle, e.Eps[i]))
			return nil
		}
		idle.Reset(opt.Idle)
		if err := draw(); err != nil {
			return err
		}
	}
}

// connectWait is the default ExplorerOptions.Connect: the environment's
// POMDPQ_EXPLORER_CONNECT when it is a positive duration, else 10 s.
func connectWait() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("POMDPQ_EXPLORER_CONNECT")); err == nil && d > 0 {
		return d
	}
	return 10 * time.Second
}

// EpsExplorer is the one-call form for a notebook cell: NewExplorer with
// the default grid, then Show. ms lists the memory bounds (default 1, 2).
//
//	b := pomdp.Must(bench.Lookup("tiger"))
//	nb.EpsExplorer(b.Model, b.Ground, 3, 1, 2)
func EpsExplorer(m *pomdp.Model, g ot.Ground, T int, ms ...int) error {
	e, err := NewExplorer(context.Background(), m, g, T, ms, nil)
	if err != nil {
		return err
	}
	return e.Show(ExplorerOptions{})
}
