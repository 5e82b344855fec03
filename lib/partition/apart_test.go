package partition

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGreedyApartMatchesGreedy checks the bit layout against the float
// matrix: on random matrices (sizes across word boundaries, coarse grids
// with many ties at the threshold, near-threshold values within ZeroTol),
// GreedyApart of the pairs above ε + ZeroTol is Greedy at ε label for
// label, and the literal rescan on small sizes.
func TestGreedyApartMatchesGreedy(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sizes := []int{0, 1, 2, 3, 63, 64, 65, 66, 127, 128, 129, 200}
	for trial := 0; trial < 300; trial++ {
		n := sizes[trial%len(sizes)]
		if trial >= 2*len(sizes) {
			n = 2 + rng.IntN(150)
		}
		quantum := []float64{0, 0.1, 0.25}[trial%3]
		pts := make([][2]float64, n)
		for i := range pts {
			pts[i] = [2]float64{rng.Float64(), rng.Float64()}
		}
		m := NewMatrix(n)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				v := math.Abs(pts[i][0]-pts[j][0]) + math.Abs(pts[i][1]-pts[j][1])
				if quantum > 0 {
					v = math.Round(v/quantum) * quantum
				}
				m.Data[m.Index(i, j)] = v
			}
		}
		grid := []float64{0, 0.1, 0.3, 0.5, rng.Float64()}
		if n >= 2 {
			// A threshold at a distance, one just inside the slack and
			// one just past it.
			v := m.Data[rng.IntN(len(m.Data))]
			grid = append(grid, v, v-ZeroTol/2, v-2*ZeroTol)
		}
		for _, eps := range grid {
			a := ApartAbove(m, eps)
			got := GreedyApart([]Apart{a, {N: 3}}).Labels
			want := Greedy([]Matrix{m, {N: 3}}, eps).Labels
			for d := range want {
				if !slices.Equal(got[d], want[d]) {
					t.Fatalf("trial %d (n = %d), ε = %v, depth %d: apart %v, matrix %v", trial, n, eps, d, got[d], want[d])
				}
			}
			if n <= 12 {
				if lit := literalGreedy(m, eps); !slices.Equal(got[0], lit) {
					t.Fatalf("trial %d, ε = %v: apart %v, literal rescan %v", trial, eps, got[0], lit)
				}
			}
		}
	}
}

// TestApartBits checks Set, Has and the size of the layout by hand.
func TestApartBits(t *testing.T) {
	for _, tc := range []struct{ n, words int }{{0, 0}, {1, 0}, {2, 1}, {12, 2}, {65, 33}} {
		if got := ApartWords(tc.n); got != tc.words {
			t.Errorf("ApartWords(%d) = %d, want %d (n(n−1)/2 bits in 64-bit words)", tc.n, got, tc.words)
		}
	}
	a := NewApart(12) // 66 pairs: the last two in the second word
	k := a.Index(10, 11)
	if k != 65 {
		t.Fatalf("Index(10, 11) = %d, want 65", k)
	}
	a.Set(k)
	a.Set(k)
	if !a.Has(k) || a.Has(64) || a.Bits[1] != 2 || a.Bits[0] != 0 {
		t.Fatalf("after Set(65): bits %b", a.Bits)
	}
	if (Apart{N: 4}).Has(0) {
		t.Fatal("an Apart without storage has a pair apart")
	}
}
