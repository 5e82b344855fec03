package nb

import (
	"context"
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/value"
)

func TestValueGaps(t *testing.T) {
	const T = 2
	b, fam, r := tigerDistances(t, T)
	m, err := value.WithObsReward(b.Model)
	if err != nil {
		t.Fatal(err)
	}
	grid := []float64{0, 0.5, 1, 2}
	rows, err := ValueGaps(m, fam, T, r, grid)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(grid) {
		t.Fatalf("%d rows for %d ε", len(rows), len(grid))
	}
	lr, err := value.EstimateLipschitz(context.Background(), m, fam, T, value.LipschitzOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		if row.Eps != grid[i] || row.Classes != r.Partition(grid[i]).Total() {
			t.Errorf("row %d: ε %g, %d classes", i, row.Eps, row.Classes)
		}
		// thm:value-bound and its regret corollary, with the estimated L_R.
		if row.Gap > value.Bound(lr.LR, T, row.Eps)+1e-9 || row.Regret < -1e-9 ||
			row.Regret > value.RegretBound(lr.LR, T, row.Eps)+1e-9 {
			t.Errorf("ε = %g: gap %g, regret %g beyond the bounds (L_R %g)", row.Eps, row.Gap, row.Regret, lr.LR)
		}
		if i > 0 && row.Classes > rows[i-1].Classes {
			t.Errorf("ε = %g: %d classes, more than at the smaller ε", row.Eps, row.Classes)
		}
	}
	if rows[0].Gap > 1e-9 || rows[0].Regret > 1e-9 {
		t.Errorf("ε = 0: the exact quotient loses value: %+v", rows[0])
	}
}

// mat is a distance result of one depth holding the 2×2 matrix of data.
func mat(data ...float64) *distance.Result {
	return &distance.Result{D: []partition.Matrix{{N: 2, Data: data}}}
}

func TestFamilyDistancesExcess(t *testing.T) {
	const T = 2
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	nA, nO := b.Model.NumActions(), b.Model.NumObservations()
	small, err := fsc.NewStationary(nA, nO, 1, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	large, err := fsc.NewStationary(nA, nO, 2, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names, rs, err := FamilyDistances(context.Background(), b, T, small, large)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 2 || len(rs) != 2 || names[0] != small.String() || names[1] != large.String() {
		t.Fatalf("names %q, %d results", names, len(rs))
	}
	tests := []struct {
		name      string
		r1, r2    *distance.Result
		wantAbove bool // some pair with d1 > d2
	}{
		{"a family against itself", rs[0], rs[0], false},
		{"smaller against larger (prop:probe-class-coarsening)", rs[0], rs[1], false},
		{"hand-made: d1 above d2 on one pair", mat(0, 1, 1, 0), mat(0, 0.5, 0.5, 0), true},
		{"hand-made: d1 below d2", mat(0, 0.5, 0.5, 0), mat(0, 1, 1, 0), false},
	}
	for _, tt := range tests {
		worst, n, err := Excess(tt.r1, tt.r2)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if (n > 0) != tt.wantAbove || (worst > 0) != tt.wantAbove || math.IsInf(worst, 0) {
			t.Errorf("%s: worst %g over %d pairs", tt.name, worst, n)
		}
	}
	_, _, short := tigerDistances(t, T+1)
	if w, n, _ := Excess(mat(0, 1, 1, 0), mat(0, 0.5, 0.5, 0)); w != 0.5 || n != 2 {
		t.Errorf("Excess of the hand-made pair: %g over %d entries, want 0.5 over 2 (both orders of the pair)", w, n)
	}
	if _, _, err := Excess(rs[0], short); err == nil {
		t.Error("Excess over different horizons: no error")
	}
}

func TestValueBoundSweep(t *testing.T) {
	ctx := context.Background()
	b, err := bench.Lookup("gridworld:3")
	if err != nil {
		t.Fatal(err)
	}
	m, err := value.WithObsReward(b.Model)
	if err != nil {
		t.Fatal(err)
	}
	nA, nO := m.NumActions(), m.NumObservations()
	grid := []float64{0, 0.3, 0.5, 1}
	tests := []struct {
		T   int
		fam func(T int) (fsc.Family, error)
	}{
		{2, func(int) (fsc.Family, error) { return fsc.NewStationary(nA, nO, 1, fsc.Options{}) }},
		{3, func(T int) (fsc.Family, error) { return fsc.NewClock(nA, nO, 1, T, fsc.Options{}) }},
	}
	for _, tt := range tests {
		fam, err := tt.fam(tt.T)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := ValueBoundSweep(ctx, m, fam, tt.T, 1, grid)
		if err != nil {
			t.Fatalf("T = %d: %v", tt.T, err)
		}
		if len(rows) != len(grid) {
			t.Fatalf("T = %d: %d rows for %d ε", tt.T, len(rows), len(grid))
		}
		for _, row := range rows {
			// The observation score is 1-Lipschitz: thm:value-bound holds.
			if row.Violations != 0 || row.Gap > row.Bound+1e-9 || row.Diam > row.Eps+1e-9 {
				t.Errorf("T = %d, ε = %g: %+v", tt.T, row.Eps, row)
			}
			if math.Abs(row.Margin-(row.Bound-row.Gap)) > 1e-12 || row.Probes != fam.Len() || row.Family != fam.String() {
				t.Errorf("T = %d, ε = %g: margin %g, bound − gap %g, %d probes", tt.T, row.Eps, row.Margin, row.Bound-row.Gap, row.Probes)
			}
		}
	}
	// A bound too small to hold (L_R = 0 at ε > 0) must show violations.
	fam, _ := fsc.NewStationary(nA, nO, 1, fsc.Options{})
	rows, err := ValueBoundSweep(ctx, m, fam, 2, 0, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Gap > 1e-9 && rows[0].Violations == 0 {
		t.Errorf("L_R = 0 with gap %g: no violation counted", rows[0].Gap)
	}
	if rows[0].Gap <= 1e-9 {
		t.Errorf("ε = 1 on GridWorld 3×3 leaves no value gap: the test cannot see violations")
	}
}
