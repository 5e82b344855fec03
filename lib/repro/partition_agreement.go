package repro

import (
	"context"
	"fmt"
	"strconv"

	"github.com/pomdpq/pomdpq/lib/certify"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

func init() {
	register(Spec{Name: "partition-agreement", Label: "tab:partition-agreement",
		Title: "Greedy controller subsets: δ_S certificate and partition agreement (m = 2)", Build: partitionAgreement})
}

func partitionAgreement(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "partition-agreement", Paper: "partition-agreement", Label: "tab:partition-agreement",
		Title:   "Operational partition recovery and probe-envelope certification (m = 2)",
		Columns: []Column{{"benchmark", Key}, {"horizon", Key}, {"eps", Key}, {"k", Key}, {"delta_s", Exact}, {"op_exact_classes", Exact}, {"approx_classes", Exact}, {"ari", Exact}, {"selected", Info}}}
	for _, c := range []struct {
		name, model string
		T           int
		eps         float64
	}{{"Tiger", "tiger", 4, 0}, {"GridWorld 3x3", "gridworld:3", 2, 0.3}} {
		r, _, err := distances(ctx, env, c.model, fsc.KindStationary, 2, c.T, true)
		if err != nil {
			return nil, err
		}
		tt, err := certify.FromResult(r)
		if err != nil {
			return nil, err
		}
		for _, row := range certify.Agreement(tt, c.eps, paBudgets) {
			t.Rows = append(t.Rows, []string{c.name, itoa(c.T), strconv.FormatFloat(c.eps, 'f', 1, 64), itoa(row.K),
				f3(row.DeltaS), itoa(row.FullClasses), itoa(row.SubClasses), f3(row.ARI), fmt.Sprint(row.Selected)})
		}
	}
	return t, nil
}
