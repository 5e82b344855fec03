package repro

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/pomdpq/pomdpq/lib/baseline"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

func init() {
	register(Spec{Name: "noise-sensitivity", Label: "app:experiments (Observation Noise Sensitivity)",
		Title: "Tiger (m = 1, T = 2) over listening accuracy 0.70 … 0.95", Build: noiseSensitivity})
}

// ---------------------------------------------------------------------
// noise sensitivity (unlabeled table)

var plTigerAccuracies = []float64{0.70, 0.75, 0.80, 0.85, 0.90, 0.95}

func noiseSensitivity(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "noise-sensitivity", Paper: "noise-sensitivity", Label: "app:experiments",
		Title: "Noise sensitivity (Tiger full actions, m = 1, T = 2): range over accuracy ∈ {0.70, …, 0.95}",
		Columns: []Column{{"eps", Key}, {"min_classes", Exact}, {"max_classes", Exact}, {"min_value_error", Exact},
			{"max_value_error", Exact}, {"classes_by_accuracy", Info}, {"error_by_accuracy", Info}, {"d_LR_by_accuracy", Info},
			{"classes_T_apart", Info}}}
	const T = 2
	apart := map[int]map[string]float64{} // the table's reading, per row
	for _, eps := range []float64{0, 0.2, 0.4, 0.6} {
		minC, maxC, minE, maxE, minApart, maxApart := math.MaxInt, 0, math.Inf(1), math.Inf(-1), math.MaxInt, 0
		var cs, es, ds []string
		for _, acc := range plTigerAccuracies {
			model := fmt.Sprintf("tiger:%g", acc)
			r, _, err := distances(ctx, env, model, fsc.KindStationary, 1, T, false)
			if err != nil {
				return nil, err
			}
			s, _, err := plAssess(ctx, env, model, 1, T, r.Partition(eps), baseline.AllFirst(T))
			if err != nil {
				return nil, err
			}
			minC, maxC = min(minC, s.Classes), max(maxC, s.Classes)
			maxApart = max(maxApart, depthTApart(r.Partition(eps)))
			minApart = min(minApart, depthTApart(r.Partition(eps)))
			minE, maxE = min(minE, s.ValueError), max(maxE, s.ValueError)
			cs, es, ds = append(cs, itoa(s.Classes)), append(es, f3(s.ValueError)), append(ds, f3(r.D[1].At(0, 1)))
		}
		t.Rows = append(t.Rows, []string{plEps(eps), itoa(minC), itoa(maxC), f3(minE), f3(maxE),
			strings.Join(cs, " "), strings.Join(es, " "), strings.Join(ds, " "), itoa(minApart) + "–" + itoa(maxApart)})
		i := len(t.Rows) - 1
		apart[i] = map[string]float64{"min_classes": float64(minApart), "max_classes": float64(maxApart)}
		t.Remark(i, fmt.Sprintf("d(L, R) = (2a − 1)² over the accuracies: %s; value errors over the accuracies: %s", strings.Join(ds, " "), strings.Join(es, " ")))
	}
	t.Reading = &verdict.Reading{
		How: fmt.Sprintf("the depth-%d histories counted apart, one class each (the listen-only figure's convention)", T),
		Covers: map[string]string{
			"min_classes": fmt.Sprintf("the smallest class count over the accuracies with the depth-%d histories counted apart", T),
			"max_classes": fmt.Sprintf("the largest class count over the accuracies with the depth-%d histories counted apart", T),
		},
		Value: func(i int, col string) (float64, bool) { v, ok := apart[i][col]; return v, ok },
	}
	acc := plTigerAccuracies
	t.Notes = append(t.Notes,
		fmt.Sprintf("Each accuracy a ∈ {%s, …, %s} is the full-action Tiger with Z(listen) = a; classes are totals over the depths up to %d (depth %d one class), value error as in tab:baseline-full. d(L, R) = (2a − 1)², so L and R merge once ε ≥ (2a − 1)²; merging them costs ½(a² + (1 − a)² − ½) in P(LL).",
			plF2(acc[0]), plF2(acc[len(acc)-1]), T, T))
	return t, nil
}
