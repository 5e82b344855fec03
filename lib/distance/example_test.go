package distance_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

// Tiger (full actions), the m ≤ 2 stationary family, T = 4: probe distances,
// then class counts of the ε-quotients.
func ExampleCompute() {
	b, _ := bench.Lookup("tiger")
	fam, _ := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), 2, fsc.Options{})
	r, err := distance.Compute(context.Background(), b.Model, fam, 4, distance.Options{Ground: b.Ground})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d controllers (%d distinct), %d histories, max distance %.3f\n", r.FamilySize, r.Distinct, r.Tree.Len(), r.MaxDistance())
	for _, eps := range []float64{0, 0.3, 0.5} {
		fmt.Printf("ε = %.1f: %d classes\n", eps, r.Partition(eps).Total())
	}
	// Output:
	// 147 controllers (75 distinct), 31 histories, max distance 1.470
	// ε = 0.0: 16 classes
	// ε = 0.3: 14 classes
	// ε = 0.5: 10 classes
}

// The same run in decision mode with the compact layout: only the listed
// ε are decided, with a bit per pair of classes and ε, and the class counts
// are those of ExampleCompute. The exact classes are 1, 2, 4, 8 at depths
// 0–3: 0, 1, 6 and 28 pairs, one 64-bit word per depth with a pair and ε.
func ExampleCompute_compact() {
	b, _ := bench.Lookup("tiger")
	fam, _ := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), 2, fsc.Options{})
	eps := []float64{0, 0.3, 0.5}
	r, err := distance.Compute(context.Background(), b.Model, fam, 4, distance.Options{Ground: b.Ground, Eps: eps, Compact: true})
	if err != nil {
		panic(err)
	}
	for _, e := range eps {
		fmt.Printf("ε = %.1f: %d classes\n", e, r.Partition(e).Total())
	}
	fmt.Printf("max distance above ε = 0.5 (reported as a lower bound): %v\n", !r.MaxDistanceExact())
	fmt.Printf("pair storage: %d bytes for %d ε\n", r.Cost.Matrix, r.Cost.Decisions)
	// Output:
	// ε = 0.0: 16 classes
	// ε = 0.3: 14 classes
	// ε = 0.5: 10 classes
	// max distance above ε = 0.5 (reported as a lower bound): true
	// pair storage: 72 bytes for 3 ε
}

// Before a long run: the estimate of its peak memory and work, from the
// cheap phases only (grouping by behaviour and the exact classes), and the
// refusal of a run over the budget.
func ExamplePlan() {
	b, _ := bench.Lookup("tiger")
	fam, _ := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), 2, fsc.Options{})
	cost, exact, err := distance.Plan(context.Background(), b.Model, fam, 12, distance.Options{Ground: b.Ground})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d histories in %d exact classes, %d distinct probes, %d pairs per probe\n",
		len(exact.Flat()), exact.Total(), cost.Distinct, cost.Pairs)
	_, err = distance.Compute(context.Background(), b.Model, fam, 12, distance.Options{Ground: b.Ground, MemBudget: 1 << 20})
	fmt.Println(errors.Is(err, distance.ErrBudget))
	// Output:
	// 8191 histories in 2048 exact classes, 75 distinct probes, 494827 pairs per probe
	// true
}
