package planq_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/planq"
	"github.com/pomdpq/pomdpq/lib/value"
)

// Tiger with the observation reward, Π = stationary m ≤ 2, T = 4: plan on
// each ε-quotient, lift, evaluate on Tiger, compare with cor:sim-to-real.
func ExampleRun() {
	b, _ := bench.Lookup("tiger")
	m, _ := value.WithObsReward(b.Model)
	res, err := planq.Run(context.Background(), planq.Config{Model: m, Ground: b.Ground, Kind: fsc.KindStationary, M: 2, T: 4,
		Eps: []float64{0, 0.5}, Planner: planq.BestFSC{}, ObsValues: value.ObsValues(2)})
	if err != nil {
		panic(err)
	}
	for _, r := range res.Rows {
		fmt.Printf("ε = %g: %d classes, regret %.4f ≤ %s = %.4g: %s\n", r.Eps, r.Classes, max(r.Regret, 0), r.Bound.Formula, r.Bound.Value, r.Verdict)
	}
	// Output:
	// ε = 0: 16 classes, regret 0.0000 ≤ 2·L_R·T·ε = 0: within bound
	// ε = 0.5: 10 classes, regret 0.0306 ≤ 2·L_R·T·ε = 4: within bound
}
