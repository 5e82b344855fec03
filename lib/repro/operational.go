package repro

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

// distances computes d^Π for a built-in model and a deterministic family.
func distances(ctx context.Context, env *Env, model string, kind fsc.Kind, m, T int, tensor bool) (*distance.Result, bench.Benchmark, error) {
	return distancesOpt(ctx, env, model, kind, m, T, distance.Options{Tensor: tensor})
}

// distancesOpt is distances with explicit options (metric, convention);
// results are cached in env.
func distancesOpt(ctx context.Context, env *Env, model string, kind fsc.Kind, m, T int, opt distance.Options) (*distance.Result, bench.Benchmark, error) {
	b, err := bench.Lookup(model)
	if err != nil {
		return nil, b, err
	}
	key := fmt.Sprintf("dist|%s|%s|%d|%d|%v|%v|%v", model, kind, m, T, opt.Tensor, opt.Metric, opt.Convention)
	r, err := memo(env, key, func() (*distance.Result, error) { return computeDist(ctx, env, b, kind, m, T, opt) })
	return r, b, err
}

func computeDist(ctx context.Context, env *Env, b bench.Benchmark, kind fsc.Kind, m, T int, opt distance.Options) (*distance.Result, error) {
	model := b.Name
	fam, err := fsc.New(kind, b.Model.NumActions(), b.Model.NumObservations(), m, T, fsc.Options{})
	if err != nil {
		return nil, err
	}
	opt.Ground = b.Ground
	opt.Progress = env.progress(fmt.Sprintf("%s %s m=%d T=%d", model, kind, m, T))
	opt.Workers = env.workers()
	return distance.Compute(ctx, b.Model, fam, T, opt)
}

// paBudgets are the subset budgets k of tab:partition-agreement's greedy
// FSC subsets (tab:tractability echoes the largest as a setting).
var paBudgets = []int{1, 3, 5}

func (e *Env) workers() int {
	if e == nil {
		return 0
	}
	return e.Workers
}
