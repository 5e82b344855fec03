package clock2

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// enumerate is the oracle: lib/distance over every controller of
// fsc.Clock(m = 2, T), exact distances.
func enumerate(t *testing.T, m *pomdp.Model, g ot.Ground, T int, conv law.Convention) *distance.Result {
	t.Helper()
	fam, err := fsc.NewClock(m.NumActions(), m.NumObservations(), 2, T, fsc.Options{Limit: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	res, err := distance.Compute(context.Background(), m, fam, T, distance.Options{Ground: g, Convention: conv, MemBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// compare checks exact values against the oracle and the decision-mode
// partitions against the oracle's at every ε of eps.
func compare(t *testing.T, m *pomdp.Model, g ot.Ground, T int, conv law.Convention, eps []float64) {
	t.Helper()
	want := enumerate(t, m, g, T, conv)
	got, err := Compute(context.Background(), m, T, Options{Ground: g, Convention: conv})
	if err != nil {
		t.Fatal(err)
	}
	for d := 0; d < T; d++ {
		n := want.Tree.Count(d)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				w, v := want.At(d, i, j), got.Lower[d].At(i, j)
				if math.Abs(w-v) > 1e-9 {
					t.Fatalf("%s T=%d %v: d(%d: %d, %d) = %.12g, enumeration %.12g", m.Name, T, conv, d, i, j, v, w)
				}
				if u := got.Upper[d].At(i, j); u < w-1e-9 {
					t.Fatalf("%s T=%d: upper bound %.12g below the enumeration's %.12g", m.Name, T, u, w)
				}
			}
		}
	}
	dec, err := Compute(context.Background(), m, T, Options{Ground: g, Convention: conv, Eps: eps})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eps {
		a, b := want.Partition(e), dec.Partition(e)
		if fmt.Sprint(a.Labels) != fmt.Sprint(b.Labels) {
			t.Fatalf("%s T=%d %v ε=%g: decision partition %v, enumeration %v", m.Name, T, conv, e, b.Labels, a.Labels)
		}
	}
}

func TestTigerSmall(t *testing.T) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	for _, T := range []int{2, 3} {
		compare(t, b.Model, b.Ground, T, law.UniformStandIn, []float64{0, 0.1, 0.3, 0.5})
	}
}
