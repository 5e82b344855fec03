package plan_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/plan"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// tab:latent-planning-exact, goal-reward GridWorld 3×3, T = 3: the best
// open-loop string selected on Q_clk is optimal on the original model.
func ExampleOpenLoop() {
	b, _ := bench.Lookup("gridworld-goal:3")
	r, _ := clock.Quotients(context.Background(), b.Model, 3, nil)
	q, _ := quotient.New(b.Model, 3, r.Clk)
	res, err := plan.OpenLoop(context.Background(), q, value.LatentReward{}, 0)
	if err != nil {
		panic(err)
	}
	i, _, _ := plan.Best(res.Quotient, 1e-9)
	_, vm, _ := plan.Best(res.Original, 1e-9)
	fmt.Printf("%d classes, selected %v, V_Q→M = %.3f, best V_M = %.3f\n", r.Clk.Total(), plan.Decode(i, 5, 3), res.Original[i], vm)
	// Output:
	// 22 classes, selected [1 3 0], V_Q→M = 0.671, best V_M = 0.671
}
