package quotient_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// Tiger → family → distances → partition → quotient, and the soundness
// check of thm:myhill-nerode (ii) for every probe of the family.
func ExampleNew() {
	b, _ := bench.Lookup("tiger")
	fam, _ := fsc.NewStationary(3, 2, 2, fsc.Options{})
	r, _ := distance.Compute(context.Background(), b.Model, fam, 3, distance.Options{Ground: b.Ground})
	q, err := quotient.New(b.Model, 3, r.Partition(0))
	if err != nil {
		panic(err)
	}
	worst := 0.0
	for i := 0; i < fam.Len(); i++ {
		gap, _, _ := q.SoundnessGap(fam.At(i))
		worst = max(worst, gap)
	}
	fmt.Println(q.Classes(), "classes; depth-1 classes:", q.ClassLabel(1, 0), q.ClassLabel(1, 1))
	fmt.Printf("max |P_M − P_Q| over %d probes ≤ 1e-12: %v\n", fam.Len(), worst <= 1e-12)
	// Output:
	// 8 classes; depth-1 classes: {L} {R}
	// max |P_M − P_Q| over 147 probes ≤ 1e-12: true
}
