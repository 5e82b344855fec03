package randmodel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// TestDense checks, through SparseDense, that the models are valid, that
// a seed fixes the model, that the stream changes it, that the initial
// belief is the row drawn after Dense's and that Sparse draws zeros and
// normalised rows.
func TestDense(t *testing.T) {
	build := func(seed uint64) pomdp.Dense { return SparseDense(seed, 1, 0.3, 4, 2, 3) }
	zeros := 0
	for seed := range uint64(20) {
		d := build(seed)
		if !reflect.DeepEqual(d, build(seed)) {
			t.Fatalf("seed %d: two different models", seed)
		}
		if reflect.DeepEqual(d, SparseDense(seed, 2, 0.3, 4, 2, 3)) {
			t.Fatalf("seed %d: streams 1 and 2 drew the same model", seed)
		}
		if want := fmt.Sprint("random-", seed); d.Name != want {
			t.Fatalf("seed %d: name %q, want %q", seed, d.Name, want)
		}
		row := Sparse(rand.New(rand.NewPCG(seed, 1)), 0.3)
		Dense(d.Name, 4, 2, 3, row) // the model's rows come first
		if !reflect.DeepEqual(d.B0, row(4)) {
			t.Fatalf("seed %d: B0 %v is not the row drawn after the model's", seed, d.B0)
		}
		if _, err := pomdp.New(d); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, rows := range append(d.T, d.Z...) {
			for _, r := range rows {
				s := 0.0
				for _, v := range r {
					s += v
					if v == 0 {
						zeros++
					}
				}
				if math.Abs(s-1) > 1e-12 {
					t.Fatalf("seed %d: row %v sums to %g", seed, r, s)
				}
			}
		}
	}
	if zeros == 0 {
		t.Error("Sparse(0.3) drew no zeros in 20 models")
	}
}

// TestAdversarialDense checks that every kind is drawn, that a seed fixes
// the model, that the models are valid and that each kind has its shape:
// deterministic rows are point masses, grid rows take values k/s for
// integers k ≤ 2, tiny rows have entries a power of ten apart.
func TestAdversarialDense(t *testing.T) {
	build := func(seed uint64) (pomdp.Dense, string) {
		return AdversarialDense(rand.New(rand.NewPCG(seed, 0xad)), seed, 3, 2, 3)
	}
	seen := map[string]bool{}
	for seed := range uint64(200) {
		d, kind := build(seed)
		seen[kind] = true
		if d2, kind2 := build(seed); !reflect.DeepEqual(d, d2) || kind != kind2 {
			t.Fatalf("seed %d: two different models", seed)
		}
		if want := fmt.Sprintf("adv-%d-%s", seed, kind); d.Name != want {
			t.Errorf("seed %d: name %q, want %q", seed, d.Name, want)
		}
		if _, err := pomdp.New(d); err != nil {
			t.Fatalf("seed %d (%s): %v", seed, kind, err)
		}
		for _, r := range append(append(d.T[0], d.Z[0]...), d.B0) {
			if msg := checkKind(kind, r); msg != "" {
				t.Fatalf("seed %d (%s): row %v: %s", seed, kind, r, msg)
			}
		}
	}
	for _, k := range AdversarialKinds {
		if !seen[k] {
			t.Errorf("kind %s never drawn in 200 seeds", k)
		}
	}
}

// checkKind returns what is wrong with row r for its kind ("" if nothing).
func checkKind(kind string, r []float64) string {
	s, ones := 0.0, 0
	for _, v := range r {
		s += v
		if v == 1 {
			ones++
		}
	}
	switch {
	case math.Abs(s-1) > 1e-12:
		return fmt.Sprintf("sums to %g", s)
	case kind == "deterministic" && ones != 1:
		return "not a point mass"
	case kind == "grid" && !gridRow(r):
		return "not on the grid k/s"
	case kind == "tiny" && !decadeRow(r):
		return "entries not powers of ten apart"
	}
	return ""
}

// gridRow reports whether r is (k_0, …, k_n)/Σk for integers k_i ≤ 2.
func gridRow(r []float64) bool {
	m := slices.Max(r)
	for _, v := range r {
		k := 2 * v / m
		if math.Abs(k-math.Round(k)) > 1e-12 {
			return false
		}
	}
	return true
}

// decadeRow reports whether the non-zero entries of r are powers of ten
// apart.
func decadeRow(r []float64) bool {
	m := slices.Max(r)
	for _, v := range r {
		if e := math.Log10(v / m); v > 0 && math.Abs(e-math.Round(e)) > 1e-9 {
			return false
		}
	}
	return true
}
