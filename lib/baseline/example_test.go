package baseline_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/baseline"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// The GridWorld rows of tab:baseline-full at ε = 0.5: the ε-quotient
// against truncation, belief-distance and bisimulation partitions, scored
// by D = max_π W1(P_M^π, P_Q^π) and the value error of the paper's
// functional.
func ExampleAssess() {
	ctx := context.Background()
	b := pomdp.Must(bench.Lookup("gridworld:3"))
	m := b.Model
	const T, eps = 2, 0.5
	fam := pomdp.Must(fsc.NewStationary(m.NumActions(), m.NumObservations(), 1, fsc.Options{}))
	r := pomdp.Must(distance.Compute(ctx, m, fam, T, distance.Options{Ground: b.Ground}))

	beliefs := pomdp.Must(baseline.BeliefDistances(ctx, m, T, baseline.BeliefOptions{}))
	bis := pomdp.Must(baseline.Bisimulation(ctx, m, baseline.BisimOptions{}))
	lifted := pomdp.Must(baseline.BeliefDistances(ctx, m, T, baseline.BeliefOptions{Metric: baseline.BeliefW1, States: bis.Metric}))
	for _, c := range []struct {
		name string
		p    *partition.Partition
	}{
		{"ε-quotient", r.Partition(eps)},
		{"truncation (d=1)", baseline.Truncation(r.Tree, 1)},
		{"belief distance", beliefs.Partition(eps)},
		{"bisimulation", lifted.Partition(eps)},
	} {
		s := pomdp.Must(baseline.Assess(ctx, m, b.Ground, fam, T, c.p, baseline.AllFirst(T), r.D))
		fmt.Printf("%-17s %d classes  value error %.3f  D %.3f  diameter %.3f\n", c.name, s.Classes, s.ValueError, s.D, s.Diameter)
	}
	// Output:
	// ε-quotient        3 classes  value error 0.104  D 0.166  diameter 0.343
	// truncation (d=1)  9 classes  value error 0.000  D 0.000  diameter 0.000
	// belief distance   6 classes  value error 0.099  D 0.111  diameter 0.305
	// bisimulation      3 classes  value error 0.104  D 0.166  diameter 0.343
}
