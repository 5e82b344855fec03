package nb

import (
	"context"
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/value"
)

// mustBench returns a built-in benchmark or stops the test.
func mustBench(t *testing.T, name string) bench.Benchmark {
	t.Helper()
	b, err := bench.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// depths builds distance matrices over two histories per depth, one entry
// each, from the values given (the last depth included).
func depths(v ...float64) []partition.Matrix {
	var d []partition.Matrix
	for _, x := range v {
		m := partition.NewMatrix(2)
		m.Data[0] = x
		d = append(d, m)
	}
	return d
}

func TestExcessOf(t *testing.T) {
	tests := []struct {
		name    string
		a, b    []partition.Matrix
		want    MatrixExcess
		wantErr bool
	}{
		{"equal", depths(0.5, 0.2, 9), depths(0.5, 0.2, 0), MatrixExcess{0, 0, 2}, false},
		{"a below b", depths(0.1, 0.2, 0), depths(0.5, 0.3, 0), MatrixExcess{-0.09999999999999998, 2, 2}, false},
		{"a above b once", depths(0.7, 0.2, 0), depths(0.5, 0.2, 0), MatrixExcess{0.19999999999999996, 0, 2}, false},
		{"depth count", depths(0, 0), depths(0), MatrixExcess{}, true},
		{"entries", []partition.Matrix{partition.NewMatrix(3), partition.NewMatrix(1)}, depths(0, 0), MatrixExcess{}, true},
	}
	for _, tc := range tests {
		got, err := ExcessOf(tc.a, tc.b, 1e-12)
		if (err != nil) != tc.wantErr {
			t.Fatalf("%s: error %v, want error %v", tc.name, err, tc.wantErr)
		}
		if err == nil && got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestClassDiameter(t *testing.T) {
	d := depths(0.3, 0.6, 5) // the last depth is left out
	tests := []struct {
		labels [][]int
		want   float64
	}{
		{[][]int{{0, 1}, {0, 1}, {0, 0}}, 0},
		{[][]int{{0, 0}, {0, 1}, {0, 0}}, 0.3},
		{[][]int{{0, 0}, {0, 0}, {0, 0}}, 0.6},
	}
	for _, tc := range tests {
		if got := ClassDiameter(partition.FromLabels(tc.labels), d); got != tc.want {
			t.Errorf("labels %v: diameter %g, want %g", tc.labels, got, tc.want)
		}
	}
}

// TestSufficiency: thm:exact-sufficiency, every objective of G_obs keeps its
// value on Q_clk for every open-loop string.
func TestSufficiency(t *testing.T) {
	for _, tc := range []struct {
		name string
		T    int
	}{{"tiger", 3}, {"gridworld:3", 2}} {
		m := mustBench(t, tc.name).Model
		objs := []value.Objective{value.ObsScore(m.NumObservations()), value.ActionObsScore(value.DefaultPref(m))}
		rows, err := Sufficiency(context.Background(), tc.name, m, tc.T, objs, 1e-12)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2*len(objs) {
			t.Fatalf("%s: %d rows, want %d", tc.name, len(rows), 2*len(objs))
		}
		for _, r := range rows {
			if r.Quotient == "Q_clk" && (r.MaxDiff > 1e-12 || r.Changed != 0) {
				t.Errorf("%s: Q_clk moves %s by %g (%d strings)", tc.name, r.Objective, r.MaxDiff, r.Changed)
			}
			if r.Strings != int(math.Pow(float64(m.NumActions()), float64(tc.T))) {
				t.Errorf("%s: %d strings, want |A|^T", tc.name, r.Strings)
			}
		}
		if rows[0].Classes < rows[len(rows)-1].Classes {
			t.Errorf("%s: Q_clk has %d classes, fewer than Q_op's %d", tc.name, rows[0].Classes, rows[len(rows)-1].Classes)
		}
	}
}

// TestLatentStory: the quotient keeps Tiger's and the goal's rewards, not
// the revealed coin's. The coin earns 1 on each of the two steps after the
// reveal while heads (probability 0.8): V_M = 2 · 0.8.
func TestLatentStory(t *testing.T) {
	f, err := LatentStory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		x    float64
	}{{"Tiger gap", f.TigerGap}, {"goal gap", f.GoalGap}, {"Tiger spread", f.TigerSpread}, {"goal spread", f.GoalSpread}, {"coin soundness", f.CoinSnd}} {
		if math.Abs(c.x) > 1e-9 {
			t.Errorf("%s = %g, want 0", c.what, c.x)
		}
	}
	if math.Abs(f.CoinVM-2*0.8) > 1e-12 || math.Abs(f.CoinVM-f.CoinVQ) < 1e-3 || f.CoinLRViols == 0 {
		t.Errorf("coin: V_M %g, V_Q %g, L_R violations %d", f.CoinVM, f.CoinVQ, f.CoinLRViols)
	}
}

// TestWitnessTheoremCase: no sampled stochastic FSC separates a pair that
// the deterministic family merges (thm:witness).
func TestWitnessTheoremCase(t *testing.T) {
	for _, tc := range []struct {
		name   string
		T, mem int
	}{{"tiger", 2, 1}, {"tiger", 2, 2}, {"gridworld:3", 2, 1}} {
		r, err := WitnessTheoremCase(context.Background(), mustBench(t, tc.name), tc.name, tc.T, tc.mem, 20, 1, 1e-12)
		if err != nil {
			t.Fatal(err)
		}
		if r.MergedMax > 1e-12 || r.Samples != 20 || r.AsDet > r.Samples || r.SepAny > r.Samples || r.DetClasses < tc.T+1 {
			t.Errorf("%+v", r)
		}
	}
}

func TestStageMixed(t *testing.T) {
	tests := []struct {
		pA      []float64
		wantErr bool
	}{{[]float64{0.5, 0.2, 0}, false}, {[]float64{1}, false}, {[]float64{1.5}, true}, {[]float64{-0.1, 0.5}, true}}
	for _, tc := range tests {
		c, err := StageMixed(3, tc.pA)
		if (err != nil) != tc.wantErr {
			t.Fatalf("pA %v: error %v, want error %v", tc.pA, err, tc.wantErr)
		}
		if err == nil && (c.Stages != len(tc.pA) || c.ActProb[len(tc.pA)-1][0][0] != tc.pA[len(tc.pA)-1]) {
			t.Errorf("pA %v: %+v", tc.pA, c)
		}
	}
}

// TestProbeCoarsening: prop:probe-class-coarsening holds for both
// inclusions.
func TestProbeCoarsening(t *testing.T) {
	for _, tc := range []struct {
		name string
		T    int
	}{{"tiger", 3}, {"witness", 3}} {
		rows, err := ProbeCoarsening(context.Background(), mustBench(t, tc.name), tc.name, tc.T, 1e-12)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Excess > 1e-12 || !r.Refines || r.C2 < r.C1 || r.Pairs == 0 || r.Reverse != (r.C1 == r.C2) {
				t.Errorf("%s: %+v", tc.name, r)
			}
		}
	}
}

func TestCompareM2(t *testing.T) {
	for _, T := range []int{1, 2} {
		r, err := CompareM2(context.Background(), mustBench(t, "tiger"), T)
		if err != nil {
			t.Fatal(err)
		}
		// Equal distances give equal partitions.
		if r.Gap < 0 || (r.Gap <= 1e-12 && (r.ClkClasses != r.StClass || math.Abs(r.ARI-1) > 1e-12)) || r.Clk == 0 || r.Stat == 0 {
			t.Errorf("T = %d: %+v", T, r)
		}
	}
}

// TestTransfer: the measured value gaps stay under the bounds of
// cor:op-to-clk-transfer and cor:subset-cross-family-transfer.
func TestTransfer(t *testing.T) {
	m := mustBench(t, "tiger").Model
	eps := []float64{0, 0.3, 0.6, 1}
	delta, rows, err := TransferStudy(context.Background(), m, 3, eps)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if r.Gap > r.Bound+1e-12 || r.Diam > r.Eps+delta+1e-12 || (i > 0 && r.Classes > rows[i-1].Classes) {
			t.Errorf("ε = %g: %+v (δ_clk %g)", r.Eps, r, delta)
		}
	}
	sub, err := SubsetTransfer(context.Background(), m, 3, eps)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range sub {
		if r.Gap > r.Bound+1e-12 || r.DeltaClk != delta || r.Subset == "" {
			t.Errorf("subset, ε = %g: %+v", r.Eps, r)
		}
	}
}

// TestPossibleHistories: the exact class counts stay within the bound by
// law; on Tiger every history is possible.
func TestPossibleHistories(t *testing.T) {
	for _, tc := range []struct {
		name    string
		T       int
		allPoss bool
	}{{"witness", 3, false}, {"tiger", 2, true}} {
		c, err := PossibleHistories(context.Background(), mustBench(t, tc.name).Model, tc.T)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Hist) != tc.T+1 {
			t.Fatalf("%s: %d depths", tc.name, len(c.Hist))
		}
		for d := range c.Hist {
			if c.Possible[d] > c.Hist[d] || c.Op[d] > c.Bound[d] || c.Clk[d] > c.Bound[d] || (tc.allPoss && c.Possible[d] != c.Hist[d]) {
				t.Errorf("%s depth %d: %+v", tc.name, d, c)
			}
		}
	}
}
