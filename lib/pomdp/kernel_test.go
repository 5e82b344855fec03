package pomdp

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// kronFactors are three stochastic factors of sizes 2, 3 and 2 (|S| = 12),
// with a zero in each so that sparsity is exercised.
var kronFactors = [][][]float64{
	{{0.9, 0.1}, {0, 1}},
	{{0.5, 0.25, 0.25}, {0, 1, 0}, {0.2, 0.3, 0.5}},
	{{0.6, 0.4}, {0.3, 0.7}},
}

// explicitKron builds K(s, s') = Π_k F_k(x_k, x'_k) with s = Σ x_k·Π_{l<k} d_l
// (factor 0 least significant), straight from the definition.
func explicitKron(factors [][][]float64) [][]float64 {
	n := 1
	for _, f := range factors {
		n *= len(f)
	}
	digits := func(s int) []int {
		d := make([]int, len(factors))
		for k, f := range factors {
			d[k] = s % len(f)
			s /= len(f)
		}
		return d
	}
	k := make([][]float64, n)
	for s := range k {
		k[s] = make([]float64, n)
		x := digits(s)
		for s2 := range k[s] {
			y := digits(s2)
			p := 1.0
			for f := range factors {
				p *= factors[f][x[f]][y[f]]
			}
			k[s][s2] = p
		}
	}
	return k
}

func TestKronMatchesExplicitProduct(t *testing.T) {
	k := NewKron(kronFactors...)
	want := explicitKron(kronFactors)
	n := len(want)
	if r, c := k.Dims(); r != 12 || c != 12 || n != 12 {
		t.Fatalf("Dims = %d×%d, want 12×12", r, c)
	}
	// NNZ: the factors have 3, 7 and 4 non-zeros.
	if got := k.NNZ(); got != 3*7*4 {
		t.Errorf("NNZ = %d, want %d", got, 3*7*4)
	}
	const tol = 1e-15
	for s := 0; s < n; s++ {
		last := -1
		seen := make([]float64, n)
		k.Entries(s, func(j int, p float64) {
			if j <= last {
				t.Errorf("Entries(%d): column %d after %d (not increasing)", s, j, last)
			}
			last = j
			seen[j] = p
		})
		for j := range seen {
			if !(math.Abs(seen[j]-want[s][j]) <= tol) {
				t.Errorf("Entries(%d)[%d] = %v, want %v", s, j, seen[j], want[s][j])
			}
		}
	}
	// Push against the explicit vector–matrix product, for random vectors.
	rng := rand.New(rand.NewPCG(1, 2))
	src, dst := make([]float64, n), make([]float64, n)
	for trial := 0; trial < 5; trial++ {
		for i := range src {
			src[i] = rng.Float64() - 0.3
		}
		k.Push(dst, src)
		for j := 0; j < n; j++ {
			w := 0.0
			for i := 0; i < n; i++ {
				w += src[i] * want[i][j]
			}
			if !(math.Abs(dst[j]-w) <= 1e-14) {
				t.Errorf("trial %d: Push[%d] = %v, want %v", trial, j, dst[j], w)
			}
		}
	}
	if allocs := testing.AllocsPerRun(10, func() { k.Push(dst, src) }); allocs != 0 {
		t.Errorf("Push allocates %v times per call", allocs)
	}
	// SparseKernel is the explicit matrix.
	sp := SparseKernel(k)
	if err := sp.check(); err != nil {
		t.Fatal(err)
	}
	for s := 0; s < n; s++ {
		for j := 0; j < n; j++ {
			if !(math.Abs(sp.At(s, j)-want[s][j]) <= tol) {
				t.Errorf("SparseKernel(%d,%d) = %v, want %v", s, j, sp.At(s, j), want[s][j])
			}
		}
	}
	if SparseKernel(sp) != sp {
		t.Errorf("SparseKernel of a *Sparse should return it unchanged")
	}
}

func TestNewKronPanics(t *testing.T) {
	for _, tc := range []struct {
		name    string
		factors [][][]float64
		want    string
	}{
		{"empty factor", [][][]float64{{}}, "pomdp: Kron factor 0 has 0 rows"},
		{"not square", [][][]float64{{{1}}, {{1, 0}, {0}}}, "pomdp: Kron factor 1 is not square"},
		{"too large", [][][]float64{make([][]float64, 17)}, "pomdp: Kron factor 0 has 17 rows"},
	} {
		func() {
			defer func() {
				if s, _ := recover().(string); !strings.HasPrefix(s, tc.want) {
					t.Errorf("%s: panic %q, want %q", tc.name, s, tc.want)
				}
			}()
			NewKron(tc.factors...)
		}()
	}
}

func BenchmarkKronPush(b *testing.B) {
	// Network-monitoring-like: 10 binary factors, |S| = 1024.
	f := [][]float64{{0.9, 0.1}, {0.3, 0.7}}
	factors := make([][][]float64, 10)
	for i := range factors {
		factors[i] = f
	}
	k := NewKron(factors...)
	sp := SparseKernel(k)
	n, _ := k.Dims()
	src, dst := Uniform(n), make([]float64, n)
	b.Run("Kron", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			k.Push(dst, src)
		}
	})
	b.Run("Sparse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sp.Push(dst, src)
		}
	})
}
