package repro

import (
	"context"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/value"
)

func init() {
	register(Spec{Name: "latent-planning-exact", Label: "tab:latent-planning-exact",
		Title: "Latent-state planning on exact clock-aware quotients", Build: latentPlanning})
}
func latent(bench.Benchmark) value.Objective { return value.LatentReward{} }

func latentPlanning(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "latent-planning-exact", Paper: "latent-planning-exact", Label: "tab:latent-planning-exact",
		Title: "Latent-state planning on exact clock-aware quotients (values on the original model)",
		Columns: []Column{{"benchmark", Key}, {"reward", Key}, {"horizon", Key}, {"histories", Exact}, {"classes", Exact},
			{"t_orig", Timing}, {"t_quotient", Timing}, {"policy", Exact}, {"v_orig", Exact}, {"v_quotient_on_orig", Exact}, {"regret", Exact}}}
	var cases []planCase
	for _, T := range []int{2, 4, 6, 8, 10} {
		cases = append(cases, planCase{"Tiger", "tiger", "Tiger reward", T, latent})
	}
	for _, T := range []int{2, 3} {
		cases = append(cases, planCase{"GridWorld 3x3", "gridworld-goal:3", "Goal reward", T, latent})
	}
	if err := planningTable(ctx, env, t, cases, true); err != nil {
		return nil, err
	}
	return t, nil
}
