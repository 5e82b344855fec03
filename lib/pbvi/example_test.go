package pbvi_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pbvi"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// The paper's PBVI settings on Tiger (T = 3, γ = 1, 50 points, seed 42),
// against the exact optimum, and the classic discounted Tiger.
func ExampleSolve() {
	ctx := context.Background()
	m := pomdp.Must(bench.Lookup("tiger")).Model
	r := pomdp.Must(pbvi.Solve(ctx, m, pbvi.Settings{Horizon: 3, Seed: pbvi.DefaultSeed}))
	opt := pomdp.Must(pbvi.Optimal(ctx, m, 3, 1, 0))
	fmt.Printf("T = 3: PBVI %.2f with %d points (all reachable: %v), optimum %.2f\n", r.Value, len(r.Beliefs), r.Exhausted, opt.Value)
	fmt.Printf("first action: %s\n", m.Actions[r.Action(3, m.B0)])

	inf := pomdp.Must(pbvi.Solve(ctx, m, pbvi.Settings{Discount: 0.95, Points: 100, Seed: 1}))
	fmt.Printf("γ = 0.95: V(b0) = %.2f (%s)\n", inf.Value, inf.Status)
	// Output:
	// T = 3: PBVI 2.72 with 5 points (all reachable: true), optimum 2.72
	// first action: listen
	// γ = 0.95: V(b0) = 19.37 (converged)
}

// Plan on an exact quotient of the goal-reward GridWorld, exported as an
// ordinary model, and measure the policy on the original. The exported
// model aggregates beliefs under one reference probe (stay), so its kernel
// is exact for that probe's actions only and its own value differs; the
// policy planned on it is still optimal on the original.
func ExampleResult_Evaluate() {
	ctx := context.Background()
	m := pomdp.Must(bench.Lookup("gridworld-goal:3")).Model
	const T = 2
	// The exact partition: one class per depth-1 observation, depth 2 one class.
	labels := [][]int{{0}, {0, 1, 2, 3}, make([]int, 16)}
	q := pomdp.Must(quotient.New(m, T, partition.FromLabels(labels)))
	qm := pomdp.Must(q.Export(fsc.Constant(m.NumActions(), m.NumObservations(), 4)))

	settings := pbvi.Settings{Horizon: T, Seed: pbvi.DefaultSeed}
	orig := pomdp.Must(pbvi.Solve(ctx, m, settings))
	quot := pomdp.Must(pbvi.Solve(ctx, qm, settings))
	v := pomdp.Must(quot.Evaluate(ctx, qm, m, T, 0))
	fmt.Printf("|S| %d → %d; PBVI on M %.4f, on Q %.4f; Q's policy on M %.4f\n",
		m.NumStates(), qm.NumStates(), orig.Value, quot.Value, v)
	// Output:
	// |S| 9 → 9; PBVI on M 0.3111, on Q 0.2464; Q's policy on M 0.3111
}
