package nb

import (
	"context"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

func TestCheckMorphism(t *testing.T) {
	const T = 3
	b, fam, r := tigerDistances(t, T)
	p := r.Partition(0)
	q, err := quotient.New(b.Model, T, p)
	if err != nil {
		t.Fatal(err)
	}
	other, err := bench.Lookup("tiger:0.8")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		n     *pomdp.Model
		agree bool // N = M: φ is the quotient map and everything commutes
	}{
		{"N = M", b.Model, true},
		{"control: Tiger with accuracy 0.8", other.Model, false},
	}
	for _, tt := range tests {
		x, err := CheckMorphism(context.Background(), tt.n, b.Ground, r.Tree, T, fam, p, q)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !x.M1 || x.M3V != 0 || x.Compared == 0 || len(x.NCounts) != T+1 {
			t.Errorf("%s: M1 %v, %d M3 violations, %d compared, counts %v", tt.name, x.M1, x.M3V, x.Compared, x.NCounts)
		}
		if agree := x.WellDefined && x.M2 <= 1e-12 && x.Kernel <= 1e-12; agree != tt.agree {
			t.Errorf("%s: well-defined %v, M2 %g, kernels %g", tt.name, x.WellDefined, x.M2, x.Kernel)
		}
	}
}
