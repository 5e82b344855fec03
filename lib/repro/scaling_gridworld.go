package repro

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

func init() {
	register(Spec{Name: "scaling-gridworld", Label: "app:experiments (Scaling and Timing)",
		Title: "GridWorld n×n (T = 2, m = 1, ε = 0.3), exact", Build: scalingGridWorld})
}

func scalingGridWorld(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "scaling-gridworld", Paper: "scaling-gridworld", Label: "app:experiments",
		Title:   "GridWorld n×n (T = 2, m = 1, ε = 0.3): classes, compression (classes / histories), time",
		Columns: []Column{{"benchmark", Key}, {"n_states", Setting}, {"classes", Exact}, {"compression", Exact}, {"time_s", Timing}}}
	for _, n := range []int{3, 4, 5, 6} {
		b, err := bench.Lookup("gridworld:" + itoa(n))
		if err != nil {
			return nil, err
		}
		start := time.Now()
		fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), 1, fsc.Options{})
		if err != nil {
			return nil, err
		}
		r, err := distance.Compute(ctx, b.Model, fam, 2, distance.Options{Ground: b.Ground, Workers: env.workers()})
		if err != nil {
			return nil, err
		}
		c := r.Partition(0.3).Total()
		secs := time.Since(start).Seconds()
		t.Rows = append(t.Rows, []string{fmt.Sprintf("GridWorld %dx%d", n, n), itoa(n * n), itoa(c),
			strconv.FormatFloat(float64(c)/float64(r.Tree.Len()), 'f', 2, 64), strconv.FormatFloat(secs, 'f', 4, 64)})
	}
	t.Notes = append(t.Notes, "time_s is ours (family, exact distances, partition): pattern only.")
	return t, nil
}
