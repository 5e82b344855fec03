package randmodel

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// TestDense checks that the models are valid, that a seed fixes the model
// and that Sparse draws zeros and normalised rows.
func TestDense(t *testing.T) {
	build := func(seed uint64) pomdp.Dense {
		rng := rand.New(rand.NewPCG(seed, 1))
		row := Sparse(rng, 0.3)
		d := Dense("r", 4, 2, 3, row)
		d.B0 = row(4)
		return d
	}
	zeros := 0
	for seed := range uint64(20) {
		d := build(seed)
		if !reflect.DeepEqual(d, build(seed)) {
			t.Fatalf("seed %d: two different models", seed)
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
