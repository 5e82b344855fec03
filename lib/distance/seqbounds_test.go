package distance

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// The suffix-law bounds (bracketPair: window lower bounds, tree
// coupling, deferred maxima) and the product-graph solves keep every
// decision of the full-support path, which solves each open pair on the
// whole support by the simplex: on 200 random models with 2–4
// observations and 40 with 8 (suffixes of 512 sequences at depth 1,
// T = 4), compact decision mode at ε among 0, 0.1, 0.2, 0.3 and 0.5,
// under W1 (discrete and ordered grounds) and TV, both stand-ins, 1–3
// workers, the partitions are equal label for label at every listed ε,
// the decision bits bit for bit, and the largest distance the same (to
// the rounding of the product graph, which the full path does not use)
// and equally exact. The product graph takes every problem of more than
// 4 arcs here, so that it is exercised on small supports.
func TestSuffixBoundsKeepDecisions(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 2))
	type run struct {
		name string
		m    *pomdp.Model
		T    int
		opt  Options
	}
	var runs []run
	for trial := range 240 {
		var m *pomdp.Model
		T := 2 + rng.IntN(3)
		if trial < 200 {
			m = gridModel(uint64(5000+trial), 2+rng.IntN(4), 1+rng.IntN(3), 2+rng.IntN(3))
		} else {
			m, T = manyObsModel(uint64(trial), 4+rng.IntN(3), 2, 8), 4
		}
		opt := Options{Workers: 1 + trial%3, Convention: law.Convention(trial / 2 % 2), Compact: true}
		opt.Eps = []float64{0, 0.1 * float64(1+trial%3), 0.5}
		switch {
		case trial%5 == 4:
			opt.Metric = TV
		case trial%7 == 3:
			opt.Ground = ot.Ordered(m.NumObservations())
		}
		runs = append(runs, run{fmt.Sprintf("trial %d (%s, T=%d, %v, %d workers)", trial, m.Name, T, opt.Metric, opt.Workers), m, T, opt})
	}
	defer func(v int64) { denseArcs = v }(denseArcs)
	opened := 0
	for _, r := range runs {
		fam, err := fsc.New(fsc.KindStationary, r.m.NumActions(), r.m.NumObservations(), 1, r.T, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		denseArcs = 4
		got, err := Compute(context.Background(), r.m, fam, r.T, r.opt)
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		denseArcs, noSeqBounds = -1, true
		want, err := Compute(context.Background(), r.m, fam, r.T, r.opt)
		noSeqBounds = false
		if err != nil {
			t.Fatalf("%s: full support: %v", r.name, err)
		}
		samePartitions(t, r.name, got, want, r.opt.Eps)
		sameBits(t, r.name, got.Decisions, want.Decisions)
		gm, wm := got.MaxDistance(), want.MaxDistance()
		if math.Abs(gm-wm) > 1e-12*math.Max(1, wm) || got.MaxDistanceExact() != want.MaxDistanceExact() {
			t.Fatalf("%s: max distance %v (exact %v), full support %v (exact %v)", r.name, gm, got.MaxDistanceExact(), wm, want.MaxDistanceExact())
		}
		if got.Solves < want.Solves {
			opened++
		}
	}
	// The bounds must have saved solves somewhere, or the test compared
	// nothing new.
	if opened == 0 {
		t.Fatal("the suffix-law bounds settled no pair the full path solved")
	}
	t.Logf("%d of %d runs solved fewer transport problems with the bounds", opened, len(runs))
}

// The transport estimate follows the solver: under a uniform ground a
// long suffix costs a dense problem of denseArcs entries and two product
// graphs per worker, not (L/2)²; under another ground it is (L/2)².
func TestTransportBytesProduct(t *testing.T) {
	tree, err := law.NewTree(28, 4)
	if err != nil {
		t.Fatal(err)
	}
	classes := []int{1, 28, 784, 21952, 1}
	for _, c := range []struct {
		name    string
		uniform bool
		want    int64
	}{
		// Depth 1 (k = 3, 10,976² residual entries at most) takes the
		// product graphs of O³ and O²; depth 2 (392² ≤ DenseArcs) stays
		// dense.
		{"uniform", true, 8*ot.DenseArcs*2 + 2*(ot.ProductBytes(28, 3)+ot.ProductBytes(28, 2))},
		{"ordered", false, 8 * (21952 / 2) * (21952 / 2) * 2},
	} {
		if got := transportBytes(tree, classes, nil, nil, 2, c.uniform); got != c.want {
			t.Errorf("%s: %d bytes, want %d", c.name, got, c.want)
		}
	}
}
