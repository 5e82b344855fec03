package repro

import (
	"context"
	"fmt"
	"strconv"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

func init() {
	register(Spec{Name: "capacity-sweep-gridworld", Label: "tab:capacity-sweep-gridworld",
		Title: "Quotient class counts, GridWorld 3×3, T = 2, m ∈ {1, 2}", Build: capacitySweepGridWorld})
}

func capacitySweepGridWorld(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "capacity-sweep-gridworld", Paper: "capacity-sweep-gridworld", Label: "tab:capacity-sweep-gridworld",
		Title:   "Quotient class counts, GridWorld 3×3 (|S| = 9, T = 2)",
		Columns: []Column{{"m", Key}, {"eps", Key}, {"classes", Exact}, {"compression", Exact}, {"policies", Exact}}}
	for _, m := range []int{1, 2} {
		r, _, err := distances(ctx, env, "gridworld:3", fsc.KindStationary, m, 2, false)
		if err != nil {
			return nil, err
		}
		if m == 1 {
			t.Title += fmt.Sprintf(". Total histories: %d.", r.Tree.Len())
		}
		for _, eps := range []float64{0, 0.2, 0.35, 0.5} {
			c := r.Partition(eps).Total()
			t.Rows = append(t.Rows, []string{itoa(m), strconv.FormatFloat(eps, 'f', -1, 64), itoa(c),
				strconv.FormatFloat(float64(c)/float64(r.Tree.Len()), 'f', 2, 64), itoa(r.FamilySize)})
		}
	}
	return t, nil
}
