package distance

import (
	"context"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// lawTolModel has two depth-1 histories whose suffix laws differ by d < LawTol entrywise
// but whose W1 = k·gmax·d exceeds ZeroTol.
func lawTolModel(d float64) *pomdp.Model {
	// states X, Y, A1, B1, A, B
	T := [][][]float64{{
		{0, 0, 1, 0, 0, 0},
		{0, 0, 0, 1, 0, 0},
		{0, 0, 0, 0, 1, 0},
		{0, 0, 0, 0, 0, 1},
		{0, 0, 0, 0, 1, 0},
		{0, 0, 0, 0, 0, 1},
	}}
	Z := [][][]float64{{
		{0.5, 0.5}, {0.5, 0.5},
		{0.5, 0.5}, {0.5 - d, 0.5 + d},
		{1, 0}, {0, 1},
	}}
	return pomdp.Must(pomdp.New(pomdp.Dense{Name: "lawtol",
		States: []string{"X", "Y", "A1", "B1", "A", "B"}, Actions: []string{"a"}, Observations: []string{"o0", "o1"},
		T: T, Z: Z, B0: []float64{0.5, 0.5, 0, 0, 0, 0}}))
}

// Laws equal to LawTol entry by entry but farther than ZeroTol apart in W1
// (long suffixes, or a large ground metric) must not share a class: the
// class path and the all-pairs path give the same ε = 0 partition.
func TestLawTolVsAllPairs(t *testing.T) {
	for _, c := range []struct {
		T int
		g ot.Ground
	}{{13, nil}, {3, ot.Ground{{0, 50}, {50, 0}}}} {
		m := lawTolModel(9e-14)
		fam, err := fsc.New(fsc.KindStationary, 1, 2, 1, c.T, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		opt := Options{Ground: c.g}
		cls, err := Compute(context.Background(), m, fam, c.T, opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.AllPairs = true
		all, err := Compute(context.Background(), m, fam, c.T, opt)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("T=%d: classes d(0,1)=%g allpairs d(0,1)=%g", c.T, cls.At(1, 0, 1), all.At(1, 0, 1))
		for _, eps := range []float64{0} {
			p, q := cls.Partition(eps), all.Partition(eps)
			if !p.Equal(q) {
				t.Errorf("T=%d eps=%g: classes %v\nallpairs %v", c.T, eps, p.Labels[1], q.Labels[1])
			}
		}
	}
}
