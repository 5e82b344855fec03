package render

import (
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/pomdpq/pomdpq/lib/certify"
)

func TestPowerTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   string
	}{
		{0.003, 20, "0.001 0.01 0.1 1 10 100"},
		{1, 1, "1"},
		{0.5, 0.9, "0.1 1"},
	}
	for _, tt := range tests {
		var got []string
		for _, tk := range (PowerTicks{}).Ticks(tt.lo, tt.hi) {
			got = append(got, tk.Label)
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("Ticks(%g, %g) = %q, want %q", tt.lo, tt.hi, got, tt.want)
		}
	}
}

func TestLipschitzPlot(t *testing.T) {
	samples := []certify.LipschitzSample{{L1: 0.01, Coupling: 0.02, TV: 0.005}, {L1: 0.1, Coupling: 0.15, TV: 0.04}, {L1: 0.5, TV: 0}}
	tests := []struct {
		name    string
		rep     certify.LipschitzReport
		wantErr string
	}{
		{"samples", certify.LipschitzReport{Samples: samples, Constant: 1.5}, ""},
		{"nothing to draw", certify.LipschitzReport{Samples: samples[2:], Constant: 1.5}, "none of the 1 samples has TV > 0"},
	}
	for _, tt := range tests {
		p, err := LipschitzPlot(tt.rep, "lip")
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := p.X.Scale.(plot.LogScale); !ok {
			t.Errorf("%s: x scale %T, want log", tt.name, p.X.Scale)
		}
		// The data: x over the samples with TV > 0, y down to the smallest TV.
		if p.X.Min != 0.01 || p.X.Max != 0.1 || p.Y.Min != 0.005 {
			t.Errorf("%s: x [%g, %g], y from %g", tt.name, p.X.Min, p.X.Max, p.Y.Min)
		}
		svg, err := PlotSVG(p, 4*vg.Inch, 3*vg.Inch)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(svg, "1.5 · ℓ1 (lem:lipschitz constant)") {
			t.Errorf("%s: legend lacks the constant's line", tt.name)
		}
	}
}
