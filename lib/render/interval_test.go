package render

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

func TestIntervalPlot(t *testing.T) {
	nan := math.NaN()
	legend := IntervalLegend{Ours: "ours-CI", Others: "paper-CI", Exact: "exact-value"}
	tests := []struct {
		name    string
		labels  []string
		ours    []Interval
		others  []Interval
		exact   []float64
		yMax    float64 // top of the data: the widened [1, 1] reaches 1.005
		wantErr string
	}{
		{"all drawn", []string{"a", "b"}, []Interval{{0.1, 0.2}, {1, 1}}, []Interval{{0.1, 0.3}, {0.9, 1.1}}, []float64{0.15, 1}, 1.1, ""},
		{"NaN skipped", []string{"a", "b"}, []Interval{{nan, 0.2}, {1, 1}}, []Interval{{0.1, 0.3}, {nan, nan}}, []float64{nan, 1}, 1.005, ""},
		{"lengths", []string{"a", "b"}, []Interval{{0, 1}}, []Interval{{0, 1}, {0, 1}}, []float64{0, 1}, 0, "2 labels for 1, 2 intervals and 2 exact values"},
	}
	for _, tt := range tests {
		p, err := IntervalPlot("CIs", "max W1", tt.labels, tt.ours, tt.others, tt.exact, legend)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if math.Abs(p.Y.Max-tt.yMax) > 1e-12 {
			t.Errorf("%s: data up to %g, want %g", tt.name, p.Y.Max, tt.yMax)
		}
		if p.Y.Min != 0 || p.X.Min != -0.6 || p.X.Max != float64(len(tt.labels))-0.4 {
			t.Errorf("%s: axes x [%g, %g], y from %g", tt.name, p.X.Min, p.X.Max, p.Y.Min)
		}
		svg, err := PlotSVG(p, 4*vg.Inch, 3*vg.Inch)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{">ours-CI<", ">paper-CI<", ">exact-value<", ">max W1<"} {
			if !strings.Contains(svg, want) {
				t.Errorf("%s: SVG lacks %s", tt.name, want)
			}
		}
	}
}
