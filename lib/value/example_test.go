package value_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/value"
)

// Evaluate one open-loop controller on Tiger: listen, then open the left
// door, under the latent reward and the paper's two trace objectives.
func ExampleEvaluate() {
	m := pomdp.Must(bench.Tiger(0.85, 0.5)).Model
	c := fsc.OpenLoop(m.NumActions(), m.NumObservations(), []int{0, 1}) // listen, open_left
	for _, obj := range []value.Objective{
		value.LatentReward{},
		value.ObsScore(m.NumObservations()),
		value.ActionObsScore(value.DefaultPref(m)),
	} {
		v, err := value.Evaluate(m, c, 2, obj)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-16s %s: %.3f\n", obj.Name(), value.Policy(m, c, 2), v)
	}
	// Output:
	// latent reward    L OL: -46.000
	// obs score        L OL: 1.000
	// action+obs score L OL: 0.500
}

// Search every open-loop string of GridWorld 3×3 at T = 3 (125 of them)
// for the best observation score: a row of tab:observation-planning.
func ExampleBest() {
	m := pomdp.Must(bench.GridWorld(3)).Model
	const T = 3
	fam := pomdp.Must(fsc.NewClock(m.NumActions(), m.NumObservations(), 1, T, fsc.Options{}))
	res, err := value.Best(context.Background(), m, fam, T, value.ObsScore(m.NumObservations()), value.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("V = %.3f with %s (%d of %d controllers optimal)\n", res.Value, res.Policy, res.Ties, res.FamilySize)
	// Output:
	// V = 1.787 with D D R (1 of 125 controllers optimal)
}

// The value bounds of thm:value-bound, cor:sim-to-real and
// thm:cross-family-transfer for Tiger's reward range and the synthetic
// observation reward.
func ExampleBound() {
	tiger := pomdp.Must(bench.Tiger(0.85, 0.5)).Model
	LR := value.RewardRange(tiger)
	fmt.Printf("Tiger: L_R ≤ %.0f, bound at T=2, ε=0.49: %.1f\n", LR, value.Bound(LR, 2, 0.49))
	fmt.Printf("obs reward: bound %.2f, regret bound %.2f, transfer bound %.2f\n",
		value.Bound(1, 4, 0.25), value.RegretBound(1, 4, 0.25), value.TransferBound(1, 4, 0.25, 0.1))
	// Output:
	// Tiger: L_R ≤ 110, bound at T=2, ε=0.49: 107.8
	// obs reward: bound 1.00, regret bound 2.00, transfer bound 1.40
}

// Measure the empirical observation-Lipschitz constant of the synthetic
// observation reward on listen-only Tiger (def:obs-lipschitz: L_R = 1),
// and see that Tiger's own reward has none under open-loop probes.
func ExampleEstimateLipschitz() {
	ctx := context.Background()
	listen := pomdp.Must(value.WithObsReward(pomdp.Must(bench.TigerListen(0.85)).Model))
	fam := pomdp.Must(fsc.NewClock(1, 2, 1, 3, fsc.Options{}))
	l := pomdp.Must(value.EstimateLipschitz(ctx, listen, fam, 3, value.LipschitzOptions{}))
	fmt.Printf("obs reward: L_R ≈ %.3f\n", l.LR)

	tiger := pomdp.Must(bench.Tiger(0.85, 0.5)).Model
	fam = pomdp.Must(fsc.NewClock(3, 2, 1, 2, fsc.Options{}))
	l = pomdp.Must(value.EstimateLipschitz(ctx, tiger, fam, 2, value.LipschitzOptions{}))
	fmt.Printf("Tiger reward: L_R = %v (%d equal-law pairs, first with ΔR̄ = %.0f; range %.0f)\n",
		l.LR, l.Violations, l.FirstDeltaR, l.RewardRange)
	// Output:
	// obs reward: L_R ≈ 1.000
	// Tiger reward: L_R = +Inf (2 equal-law pairs, first with ΔR̄ = 77; range 110)
}

func ExampleAbbrev() {
	fmt.Println(value.Abbrev([]string{"listen", "open_left", "open_right"}))
	fmt.Println(value.Abbrev([]string{"up", "down", "left", "right", "stay"}))
	// Output:
	// [L OL OR]
	// [U D L R S]
}
