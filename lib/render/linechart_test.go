package render

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestLineChart: the axes leave room for the last tick and the legend (y
// from 0 to 1.1·max + 0.08·max per line, x to 1.03·max); mismatched and
// non-finite lines are errors naming the line.
func TestLineChart(t *testing.T) {
	tests := []struct {
		name       string
		lines      []Line
		xMax, yMax float64
		wantErr    string
	}{
		{"two lines", []Line{{Label: "a", X: []float64{0, 1, 2}, Y: []float64{0, 1, 4}}, {Label: "b", X: []float64{0, 2}, Y: []float64{1, 2}, Dashed: true, Width: 3}},
			1.03 * 2, 1.1*4 + 0.08*4*2, ""},
		{"one line", []Line{{Label: "a", X: []float64{0, 10}, Y: []float64{0, 0.5}}}, 1.03 * 10, 1.1*0.5 + 0.08*0.5, ""},
		{"mismatch", []Line{{Label: "bad", X: []float64{0, 1}, Y: []float64{0}}}, 0, 0, `line "bad" of "chart" has 2 x and 1 y values`},
		{"NaN", []Line{{Label: "nan", X: []float64{0, 1}, Y: []float64{0, math.NaN()}}}, 0, 0, `line "nan"`},
	}
	for _, tt := range tests {
		p, err := LineChart("chart", "x", "y", tt.lines...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if math.Abs(p.X.Max-tt.xMax) > 1e-12 || p.Y.Min != 0 || math.Abs(p.Y.Max-tt.yMax) > 1e-12 {
			t.Errorf("%s: x to %g, y [%g, %g]; want x to %g, y [0, %g]", tt.name, p.X.Max, p.Y.Min, p.Y.Max, tt.xMax, tt.yMax)
		}
		svg, err := PlotSVG(p, 4*vg.Inch, 3*vg.Inch)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range tt.lines {
			if !strings.Contains(svg, ">"+l.Label+"<") {
				t.Errorf("%s: legend lacks %q", tt.name, l.Label)
			}
		}
	}
}
