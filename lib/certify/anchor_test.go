package certify

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

func TestAnchorHand(t *testing.T) {
	// Hand computation: column 2 = ½·col0 + ½·col1, so {0, 1} is a
	// 0-anchor family; with {0} alone column 1 misses by 1 on both pairs
	// and column 2 by ½: δ = 1. The hull's vertices are columns 0 and 1.
	tt := handTensor([]float64{1, 0}, []float64{0, 1}, []float64{0.5, 0.5})
	ctx := context.Background()
	for _, tc := range []struct {
		A     []int
		delta float64
		worst int
	}{{[]int{0, 1}, 0, -1}, {[]int{0}, 1, 1}, {[]int{2}, 0.5, 0}} {
		an, err := AnchorDelta(ctx, tt, tc.A)
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(an.Delta-tc.delta) <= 1e-9) || an.Worst != tc.worst {
			t.Errorf("A=%v: δ = %v (worst %d), want %v (%d)", tc.A, an.Delta, an.Worst, tc.delta, tc.worst)
		}
	}
	if ex, err := Extreme(ctx, tt, 0); err != nil || !slices.Equal(ex, []int{0, 1}) {
		t.Errorf("Extreme = %v, %v; want [0 1]", ex, err)
	}
	if _, err := AnchorDelta(ctx, tt, nil); err == nil {
		t.Error("no error for an empty family")
	}
	if _, err := AnchorDelta(ctx, tt, []int{3}); err == nil {
		t.Error("no error for a column out of range")
	}
}

// TestAnchorCompression checks thm:anchor-compression, ‖d − d_A‖∞ ≤ δ_A,
// on greedy and random subsets of the Tiger (T = 3) and GridWorld 3×3
// (T = 2) tensors, and that the extreme columns form a 0-anchor family.
func TestAnchorCompression(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		model string
		T     int
	}{{"tiger", 3}, {"gridworld:3", 2}} {
		tt := tensor(t, c.model, 2, c.T)
		var subsets [][]int
		for k := 1; k <= 4; k++ {
			subsets = append(subsets, Greedy(tt, k))
			subsets = append(subsets, rng.Perm(len(tt.Cols))[:k])
		}
		for _, A := range subsets {
			an, err := AnchorDelta(ctx, tt, A)
			if err != nil {
				t.Fatal(err)
			}
			if gap := Gap(tt, A); !(gap <= an.Delta+1e-9) {
				t.Errorf("%s A=%v: gap %v > δ_A %v", c.model, A, gap, an.Delta)
			}
			// each fit is feasible: λ in the simplex, error as reported
			for _, f := range an.Fits {
				s := 0.0
				for _, l := range f.Lambda {
					if !(l >= -1e-9) {
						t.Fatalf("negative coefficient %v", l)
					}
					s += l
				}
				if !(math.Abs(s-1) <= 1e-9) {
					t.Fatalf("coefficients sum to %v", s)
				}
			}
		}
		if testing.Short() {
			continue
		}
		ex, err := Extreme(ctx, tt, 0)
		if err != nil {
			t.Fatal(err)
		}
		an, err := AnchorDelta(ctx, tt, ex)
		if err != nil {
			t.Fatal(err)
		}
		if !(an.Delta <= 1e-8) || !(Gap(tt, ex) <= 1e-12) {
			t.Errorf("%s: the %d extreme columns give δ_A = %v, gap %v", c.model, len(ex), an.Delta, Gap(tt, ex))
		}
	}
}

func TestGreedyAnchors(t *testing.T) {
	tt := tensor(t, "tiger", 2, 3)
	A, steps, err := GreedyAnchors(context.Background(), tt, 0.25, 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != len(A) || !(steps[len(steps)-1] <= 0.25+1e-9) {
		t.Fatalf("anchors %v, δ by step %v", A, steps)
	}
	if !(Gap(tt, A) <= steps[len(steps)-1]+1e-9) {
		t.Errorf("gap %v > δ_A %v", Gap(tt, A), steps[len(steps)-1])
	}
}

// TestGreedyAnchorsTiger4 is a regression case: with gonum's lp.Simplex the
// 13th anchor step on Tiger (m ≤ 2, T = 4) never finished (degenerate LPs
// cycling); the greedy family reaches δ_A = 0 with the 19 hull vertices.
func TestGreedyAnchorsTiger4(t *testing.T) {
	tt := tensor(t, "tiger", 2, 4)
	A, steps, err := GreedyAnchors(context.Background(), tt, 0, 40)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := Extreme(context.Background(), tt, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(A) != 19 || len(ex) != 19 || !(steps[len(steps)-1] <= 1e-12) {
		t.Errorf("%d anchors (δ %v), %d extreme columns; want 19, 0, 19 (our computation)", len(A), steps[len(steps)-1], len(ex))
	}
}

func BenchmarkAnchorDelta(b *testing.B) {
	tt := tensorTB(b, "gridworld:3", 2, 2)
	A := Greedy(tt, 3)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnchorDelta(context.Background(), tt, A); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMinimaxFitOracle compares the Bland-rule simplex with gonum's
// lp.Simplex (a slow independent oracle) on random problems.
func TestMinimaxFitOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 100 {
		k, n := 1+rng.IntN(6), 1+rng.IntN(8)
		cols := make([][]float64, k)
		for j := range cols {
			cols[j] = make([]float64, n)
			for r := range cols[j] {
				cols[j][r] = rng.Float64()
			}
		}
		b := make([]float64, n)
		for r := range b {
			b[r] = rng.Float64()
		}
		lam, err := minimaxFit(cols, b)
		if err != nil {
			t.Fatal(err)
		}
		got := residual(cols, b, lam)
		want := oracleMinimax(t, cols, b)
		if !(math.Abs(got-want) <= 1e-9) {
			t.Fatalf("trial %d (k=%d, n=%d): simplex %v, gonum %v", trial, k, n, got, want)
		}
	}
}

func residual(cols [][]float64, b, lam []float64) float64 {
	e := 0.0
	for r := range b {
		v := b[r]
		for j := range cols {
			v -= lam[j] * cols[j][r]
		}
		e = math.Max(e, math.Abs(v))
	}
	return e
}

func oracleMinimax(t *testing.T, cols [][]float64, b []float64) float64 {
	k, n := len(cols), len(b)
	nv := k + 1 + 2*n
	m := mat.NewDense(2*n+1, nv, nil)
	rhs := make([]float64, 2*n+1)
	c := make([]float64, nv)
	c[k] = 1
	for r := 0; r < n; r++ {
		for j := 0; j < k; j++ {
			m.Set(r, j, cols[j][r])
			m.Set(n+r, j, -cols[j][r])
		}
		m.Set(r, k, 1)
		m.Set(n+r, k, 1)
		m.Set(r, k+1+r, -1)
		m.Set(n+r, k+1+n+r, -1)
		rhs[r], rhs[n+r] = b[r], -b[r]
	}
	for j := 0; j < k; j++ {
		m.Set(2*n, j, 1)
	}
	rhs[2*n] = 1
	opt, _, err := lp.Simplex(c, m, rhs, 1e-12, nil)
	if err != nil {
		t.Fatal(err)
	}
	return opt
}
