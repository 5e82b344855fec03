package repro

import (
	"context"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

func init() {
	register(Spec{Name: "new-benchmarks", Label: "tab:new-benchmarks",
		Title: "Hallway and Network Monitoring (m = 1, T = 2), exact", Build: newBenchmarks})
}

func newBenchmarks(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "new-benchmarks", Paper: "new-benchmarks", Label: "tab:new-benchmarks",
		Title: "Hallway and Network Monitoring (m = 1, T = 2), exact class counts",
		Columns: []Column{{"benchmark", Key}, {"n_states", Setting}, {"n_actions", Setting}, {"n_obs", Setting},
			{"classes_eps0", Exact}, {"classes_eps0_3", Exact}, {"classes_eps0_5", Exact}, {"max_distance", Info}}}
	for _, c := range []struct{ name, model string }{
		{"Hallway (L=10)", "hallway:10"}, {"Hallway (L=20)", "hallway:20"},
		{"Network Monitoring (n=4)", "netmon:4"}, {"Network Monitoring (n=5)", "netmon:5"},
	} {
		r, b, err := distances(ctx, env, c.model, fsc.KindStationary, 1, 2, false)
		if err != nil {
			return nil, err
		}
		m := b.Model
		row := []string{c.name, itoa(m.NumStates()), itoa(m.NumActions()), itoa(m.NumObservations())}
		for _, e := range []float64{0, 0.3, 0.5} {
			row = append(row, itoa(r.Partition(e).Total()))
		}
		t.Rows = append(t.Rows, append(row, f3(r.MaxDistance())))
	}
	return t, nil
}
