package nb

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/pomdpq/pomdpq/lib/baseline"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/value"
)

func TestMinGround(t *testing.T) {
	tests := []struct {
		g    ot.Ground
		want float64
	}{
		{ot.Ground{{0, 1}, {1, 0}}, 1},
		{ot.Ground{{0, 0.5, 1}, {0.5, 0, 0.5}, {1, 0.5, 0}}, 0.5},
		{ot.Ground{{0}}, math.Inf(1)},
	}
	for _, tt := range tests {
		if got := MinGround(tt.g); got != tt.want {
			t.Errorf("MinGround(%v) = %g, want %g", tt.g, got, tt.want)
		}
	}
}

func TestBoundRatio(t *testing.T) {
	tests := []struct{ lhs, rhs, want float64 }{
		{0, 0, 0},
		{1e-10, 0, 0},
		{1, 0, math.Inf(1)},
		{1, 4, 0.25},
		{3, 2, 1.5},
	}
	for _, tt := range tests {
		if got := boundRatio(tt.lhs, tt.rhs); got != tt.want {
			t.Errorf("boundRatio(%g, %g) = %g, want %g", tt.lhs, tt.rhs, got, tt.want)
		}
	}
}

// tigerDistances returns Tiger, Π_op (m = 1) and its W1 distances at T.
func tigerDistances(t *testing.T, T int) (bench.Benchmark, fsc.Family, *distance.Result) {
	t.Helper()
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), 1, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := distance.Compute(context.Background(), b.Model, fam, T, distance.Options{Ground: b.Ground, Metric: distance.W1})
	if err != nil {
		t.Fatal(err)
	}
	return b, fam, r
}

// uniform returns the partition of r's histories that puts every history of
// a depth in one class (one: true) or each in its own class.
func uniform(r *distance.Result, one bool) *partition.Partition {
	labels := make([][]int, len(r.D))
	for t := range r.D {
		labels[t] = make([]int, r.D[t].N)
		for i := range labels[t] {
			if !one {
				labels[t][i] = i
			}
		}
	}
	return partition.FromLabels(labels)
}

func TestDiameter(t *testing.T) {
	_, _, r := tigerDistances(t, 2)
	largest := 0.0 // every depth in one class: the largest entry of any matrix
	for _, m := range r.D {
		if len(m.Data) > 0 {
			largest = max(largest, slices.Max(m.Data))
		}
	}
	if largest == 0 {
		t.Fatal("Tiger's distances are all zero: the test cannot tell classes apart")
	}
	tests := []struct {
		name string
		p    *partition.Partition
		want float64
	}{
		{"singletons", uniform(r, false), 0},
		{"one class per depth", uniform(r, true), largest},
	}
	for _, tt := range tests {
		if got := Diameter(r, tt.p); got != tt.want {
			t.Errorf("%s: Diameter = %g, want %g", tt.name, got, tt.want)
		}
	}
}

func TestProbeGaps(t *testing.T) {
	const T = 2
	b, fam, r := tigerDistances(t, T)
	tests := []struct {
		name  string
		p     *partition.Partition
		exact bool // the quotient is M itself: no gap
	}{
		{"singletons", uniform(r, false), true},
		{"ε = 0.5", r.Partition(0.5), false},
	}
	for _, tt := range tests {
		gaps, err := ProbeGaps(b, fam, T, tt.p, baseline.AllFirst(T))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(gaps) != fam.Len() {
			t.Fatalf("%s: %d gaps for %d probes", tt.name, len(gaps), fam.Len())
		}
		worst := 0.0
		for _, g := range gaps {
			worst = max(worst, g.W1, math.Abs(g.VM-g.VQ))
			if g.Probe == "" {
				t.Errorf("%s: a gap without its probe's name", tt.name)
			}
		}
		if tt.exact && worst > 1e-9 {
			t.Errorf("%s: the quotient of singletons differs from M by %g", tt.name, worst)
		}
		if !tt.exact && worst <= 1e-9 {
			t.Errorf("%s: merging Tiger's L and R changed nothing", tt.name)
		}
	}
	if _, err := ProbeGaps(b, fam, T+1, r.Partition(0.5), baseline.AllFirst(T)); err == nil {
		t.Error("ProbeGaps with a partition of the wrong horizon: no error")
	}
}

func TestSweepBounds(t *testing.T) {
	const T = 2
	grid := []float64{0, 0.5, 1}
	b, fam, _ := tigerDistances(t, T)
	tests := []struct {
		name   string
		obj    value.Objective
		latent bool
	}{
		{"indicator", baseline.AllFirst(T), false},
		{"latent reward", value.LatentReward{}, true},
	}
	for _, tt := range tests {
		c, err := SweepBounds(context.Background(), b, T, tt.obj, tt.latent, grid)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if want := 2 * len(grid) * fam.Len(); c.Checks != want {
			t.Errorf("%s: %d checks, want 2·|grid|·|Π| = %d", tt.name, c.Checks, want)
		}
		if c.Violations != 0 || c.MaxCore > 1+1e-9 || c.MaxLip > 1+1e-9 || c.MaxThm > 1+1e-9 {
			t.Errorf("%s: thm:value-bound violated: %+v", tt.name, c)
		}
		if c.Name != b.Name || c.Objective != tt.obj.Name() || c.T != T {
			t.Errorf("%s: labels %q %q %d", tt.name, c.Name, c.Objective, c.T)
		}
	}
}
