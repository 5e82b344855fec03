package render_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/planq"
	"github.com/pomdpq/pomdpq/lib/render"
	"github.com/pomdpq/pomdpq/lib/value"
)

// In a notebook, nb.Plan runs planq.Run under a progress bar and
// nb.ShowPlan shows the plot, the dependencies and the per-ε table; the
// table's rows are render.PlanRows, here Tiger with the observation reward
// (m ≤ 2, T = 4).
func ExamplePlanRows() {
	b, _ := bench.Lookup("tiger")
	m, _ := value.WithObsReward(b.Model)
	res, err := planq.Run(context.Background(), planq.Config{Model: m, Ground: b.Ground, Reward: "observation",
		ObsValues: value.ObsValues(2), Kind: fsc.KindStationary, M: 2, T: 4, Eps: []float64{0, 0.5}, Planner: planq.BestFSC{}})
	if err != nil {
		panic(err)
	}
	header, rows := render.PlanRows(res)
	for _, r := range append([][]string{header}, rows...) {
		fmt.Printf("%-4s %-8s %-9s %-16s %s\n", r[0], r[1], r[5], r[6], r[9])
	}
	fmt.Println(render.PlanCovers(res)[0])
	// Output:
	// ε    classes  regret    certified bound  verdict
	// 0    16       0         0                within bound
	// 0.5  10       0.030625  4                within bound
	// cor:sim-to-real (2·L_R·T·ε): the controllers of Π = stationary m≤2 (147 FSCs), each valued on the quotient it sees; regret is measured from the optimum over Π
}
