package nb

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/pomdpq/pomdpq/lib/render"
	"github.com/pomdpq/pomdpq/lib/repro"
)

func runtimeTable(rows ...[]string) *repro.Table {
	return &repro.Table{Name: "runtime-horizon",
		Columns: []repro.Column{{Name: "track", Kind: repro.Key}, {Name: "horizon", Kind: repro.Key},
			{Name: "seconds", Kind: repro.Timing}, {Name: "paper_seconds", Kind: repro.Info}},
		Rows: rows}
}

func TestRuntimePlot(t *testing.T) {
	tab := runtimeTable(
		[]string{"direct", "4", "0.001", "0.05"}, []string{"direct", "6", "0.002", "0.96"},
		[]string{"layered", "4", "0", ""}, []string{"layered", "6", "0.0005", ""})
	p, err := RuntimePlot("fig:runtime-horizon", tab)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := render.PlotSVG(p, 5*vg.Inch, 3*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	// Three legend entries: ours for both tracks, the paper's for direct
	// only (layered has no printed time).
	for _, label := range []string{"ours direct", "paper direct", "ours layered"} {
		if !strings.Contains(svg, label) {
			t.Errorf("SVG lacks the legend entry %q", label)
		}
	}
	if strings.Contains(svg, "paper layered") {
		t.Error("SVG has a paper line for a track without printed times")
	}
	if !(p.Y.Min > 0) {
		t.Errorf("log axis minimum %v: a zero time was not floored", p.Y.Min)
	}
	bad := []struct {
		name string
		tab  *repro.Table
		want string
	}{
		{"missing column", &repro.Table{Name: "x", Columns: []repro.Column{{Name: "track"}}}, `no column "horizon"`},
		{"bad seconds", runtimeTable([]string{"direct", "4", "fast", ""}), `seconds "fast"`},
		{"bad paper", runtimeTable([]string{"direct", "4", "0.1", "n/a"}), `paper_seconds "n/a"`},
		{"bad horizon", runtimeTable([]string{"direct", "T4", "0.1", ""}), `horizon "T4"`},
	}
	for _, b := range bad {
		if _, err := RuntimePlot("x", b.tab); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: err = %v, want %q", b.name, err, b.want)
		}
	}
}
