package partition

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func matrix(rows [][]float64) Matrix {
	m := NewMatrix(len(rows))
	for i := range rows {
		for j := i + 1; j < len(rows); j++ {
			m.Data[m.Index(i, j)] = rows[i][j]
		}
	}
	return m
}

func TestGreedyOrder(t *testing.T) {
	// Points on a line at 0, 0.3, 0.6: with ε = 0.3 the greedy scan merges
	// (0,1) first, then 2 cannot join (d(0,2) = 0.6): 2 classes. Hand computation.
	d := matrix([][]float64{{0, 0.3, 0.6}, {0.3, 0, 0.3}, {0.6, 0.3, 0}})
	tests := []struct {
		eps  float64
		want []int
	}{
		{0, []int{0, 1, 2}},
		{0.3, []int{0, 0, 1}},
		{0.299999, []int{0, 1, 2}},
		{0.6, []int{0, 0, 0}},
	}
	for _, tc := range tests {
		got := Greedy([]Matrix{d}, tc.eps).Labels[0]
		for i := range got {
			if got[i] != tc.want[i] {
				t.Fatalf("ε=%v: labels %v, want %v", tc.eps, got, tc.want)
			}
		}
	}
}

// literalGreedy is the definition of docs/conventions.md#partitions, rescanning from the
// start after every merge.
func literalGreedy(m Matrix, eps float64) []int {
	n := m.N
	clusters := make([][]int, n)
	for i := range clusters {
		clusters[i] = []int{i}
	}
	for {
		merged := false
	scan:
		for i := 0; i < len(clusters); i++ {
			for j := i + 1; j < len(clusters); j++ {
				ok := true
				for _, a := range clusters[i] {
					for _, b := range clusters[j] {
						if !(m.At(a, b) <= eps+ZeroTol) {
							ok = false
						}
					}
				}
				if ok {
					clusters[i] = append(clusters[i], clusters[j]...)
					clusters = append(clusters[:j], clusters[j+1:]...)
					merged = true
					break scan
				}
			}
		}
		if !merged {
			break
		}
	}
	labels := make([]int, n)
	for c, members := range clusters {
		for _, h := range members {
			labels[h] = c
		}
	}
	return canonical(labels)
}

func TestGreedyMatchesLiteralRescan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 400; trial++ {
		n := 2 + rng.IntN(30)
		// Half of the trials round distances to a coarse grid, so that
		// many pairs tie at the threshold and order decides.
		quantum := 0.0
		if trial%2 == 1 {
			quantum = 0.2
		}
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
		eps := rng.Float64() * 0.8
		if quantum > 0 {
			eps = float64(rng.IntN(5)) * quantum
		}
		got, want := greedyDepth(m, eps), literalGreedy(m, eps)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("trial %d: greedy %v, literal %v", trial, got, want)
			}
		}
		if n > 14 {
			continue // optimalDepth is exponential
		}
		opt := optimalDepth(m, eps)
		if k(opt) > k(got) {
			t.Fatalf("trial %d: optimal %d classes > greedy %d", trial, k(opt), k(got))
		}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if opt[i] == opt[j] && !(m.At(i, j) <= eps+ZeroTol) {
					t.Fatalf("trial %d: optimal class contains a pair at distance %v > ε = %v", trial, m.At(i, j), eps)
				}
			}
		}
	}
}

func k(labels []int) int {
	n := 0
	for _, c := range labels {
		n = max(n, c+1)
	}
	return n
}

func TestOptimalSmall(t *testing.T) {
	// Hand computation at ε = 1: greedy merges {0,1} (d = 1), then {2,3}
	// (d = 1); 2 classes, which is also the minimum clique cover.
	d := matrix([][]float64{
		{0, 1, 2, 2},
		{1, 0, 1, 1},
		{2, 1, 0, 1},
		{2, 1, 1, 0},
	})
	g := Greedy([]Matrix{d}, 1)
	o, err := Optimal([]Matrix{d}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if g.Total() != 2 || o.Total() != 2 {
		t.Fatalf("greedy %d, optimal %d classes, want 2 and 2", g.Total(), o.Total())
	}
	big := NewMatrix(MaxOptimal + 1)
	if _, err := Optimal([]Matrix{big}, 0, 0); err == nil {
		t.Fatal("oversized optimal search accepted")
	}
}

func TestARI(t *testing.T) {
	tests := []struct {
		a, b []int
		want float64
		src  string
	}{
		{[]int{0, 0, 1, 1}, []int{0, 0, 1, 1}, 1, "identical"},
		{[]int{0, 0, 1, 1}, []int{1, 1, 0, 0}, 1, "relabelled"},
		{[]int{0, 0, 1, 1}, []int{0, 0, 1, 2}, 0.5714285714285715, "scikit-learn adjusted_rand_score docs"},
		{[]int{0, 0, 0, 0}, []int{0, 1, 2, 3}, 0, "one class vs singletons"},
		{[]int{0, 0, 1, 2}, []int{0, 0, 1, 1}, 0.5714285714285715, "symmetry of the docs example"},
		{[]int{0, 1, 2}, []int{0, 1, 2}, 1, "all singletons"},
	}
	for _, tc := range tests {
		if got := ARI(tc.a, tc.b); !(math.Abs(got-tc.want) <= 1e-12) {
			t.Errorf("ARI(%v, %v) = %v, want %v (%s)", tc.a, tc.b, got, tc.want, tc.src)
		}
	}
}

func TestRefinesAndFlat(t *testing.T) {
	fine := FromLabels([][]int{{0}, {0, 1}, {0, 1, 2, 3}})
	coarse := FromLabels([][]int{{0}, {5, 5}, {1, 1, 2, 2}})
	if !fine.Refines(coarse) || coarse.Refines(fine) {
		t.Fatal("refinement relation wrong")
	}
	if fine.Total() != 7 || coarse.Total() != 4 {
		t.Fatalf("totals %d, %d; want 7, 4", fine.Total(), coarse.Total())
	}
	flat := coarse.Flat()
	want := []int{0, 1, 1, 2, 2, 3, 3}
	for i := range want {
		if flat[i] != want[i] {
			t.Fatalf("Flat = %v, want %v", flat, want)
		}
	}
}

func TestNilMatrixIsZero(t *testing.T) {
	// dist stores depth T without data: every entry 0, one class.
	m := Matrix{N: 4}
	if m.At(1, 3) != 0 || m.Max() != 0 {
		t.Fatal("nil matrix not all zero")
	}
	if got := Greedy([]Matrix{m}, 0).Total(); got != 1 {
		t.Fatalf("nil matrix gives %d classes, want 1", got)
	}
}

// TestMeet checks Meet against its definition: two items share a label
// after the meet exactly when they shared one in both labelings.
func TestMeet(t *testing.T) {
	for _, tc := range []struct{ a, b, want []int }{
		{[]int{0, 0, 1, 1}, []int{0, 1, 1, 1}, []int{0, 1, 2, 2}},
		{[]int{5, 5, 5}, []int{2, 2, 2}, []int{0, 0, 0}},
		{[]int{0, 1, 0, 1}, []int{0, 0, 1, 1}, []int{0, 1, 2, 3}},
		{nil, nil, nil},
	} {
		a := append([]int(nil), tc.a...)
		Meet(a, tc.b)
		if !slices.Equal(a, tc.want) {
			t.Errorf("Meet(%v, %v) = %v, want %v", tc.a, tc.b, a, tc.want)
		}
		for i := range a {
			for j := range a {
				if same := a[i] == a[j]; same != (tc.a[i] == tc.a[j] && tc.b[i] == tc.b[j]) {
					t.Errorf("Meet(%v, %v): items %d, %d together %v", tc.a, tc.b, i, j, same)
				}
			}
		}
	}
}
