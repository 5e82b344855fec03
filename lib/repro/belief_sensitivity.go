package repro

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
)

func init() {
	register(Spec{Name: "belief-sensitivity", Label: "tab:belief-sensitivity",
		Title: "Partition stability under initial-belief perturbation (Tiger, m = 1, T = 2)", Build: beliefSensitivity})
}

// ---------------------------------------------------------------------
// tab:belief-sensitivity

func beliefSensitivity(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "belief-sensitivity", Paper: "belief-sensitivity", Label: "tab:belief-sensitivity",
		Title: "Partition stability under initial-belief perturbation (Tiger full actions, m = 1, T = 2); ARI against b0 = (0.5, 0.5)",
		Columns: []Column{{"b0_left", Key}, {"classes_eps0", Exact}, {"ari_eps0", Exact}, {"classes_eps0_3", Exact}, {"ari_eps0_3", Exact},
			{"classes_eps0_5", Exact}, {"ari_eps0_5", Exact}, {"d_LR", Info}}}
	const T = 2
	grid := []float64{0, 0.3, 0.5}
	ref, _, err := distances(ctx, env, "tiger", fsc.KindStationary, 1, T, false)
	if err != nil {
		return nil, err
	}
	for _, b0 := range []float64{0.5, 0.3, 0.1, 0.7, 0.9} {
		r, _, err := distances(ctx, env, fmt.Sprintf("tiger:0.85:%g", b0), fsc.KindStationary, 1, T, false)
		if err != nil {
			return nil, err
		}
		row := []string{strconv.FormatFloat(b0, 'f', 1, 64)}
		for _, eps := range grid {
			p := r.Partition(eps)
			row = append(row, itoa(p.Total()), plF2(partition.ARIPartitions(ref.Partition(eps), p)))
		}
		t.Rows = append(t.Rows, append(row, f3(r.D[1].At(0, 1))))
	}
	t.Notes = append(t.Notes, beliefNote(t, grid))
	return t, nil
}

// beliefNote says how far d(L, R) falls from the first row (the uniform
// b0) and which partitions change, from the cells of tab:belief-sensitivity.
func beliefNote(t *Table, grid []float64) string {
	low := 0
	for i := range t.Rows {
		if t.at(i, "d_LR") < t.at(low, "d_LR") {
			low = i
		}
	}
	var lows []string
	for i := range t.Rows {
		if t.at(i, "d_LR") == t.at(low, "d_LR") {
			lows = append(lows, t.at(i, "b0_left"))
		}
	}
	dLow, _ := strconv.ParseFloat(t.at(low, "d_LR"), 64)
	var changes []string
	for _, eps := range grid {
		e := strings.ReplaceAll(fg(eps), ".", "_")
		cc, ac := "classes_eps"+e, "ari_eps"+e
		var at []string
		for i := 1; i < len(t.Rows); i++ {
			if t.at(i, cc) != t.at(0, cc) {
				at = append(at, fmt.Sprintf("b0 = %s (%s vs %s classes, ARI %s)", t.at(i, "b0_left"), t.at(i, cc), t.at(0, cc), t.at(i, ac)))
			}
		}
		if len(at) > 0 {
			below := "above"
			if dLow < eps {
				below = "below"
			}
			changes = append(changes, fmt.Sprintf("at ε = %s, where the lowest d(L, R) is %s it, for %s", fg(eps), below, strings.Join(at, ", ")))
		}
	}
	what := "no partition changes"
	if len(changes) > 0 {
		what = "the partition changes only " + strings.Join(changes, "; ")
	}
	return fmt.Sprintf("d(L, R) falls from %s at b0 = %s to %s at b0 ∈ {%s}; %s.", t.at(0, "d_LR"), t.at(0, "b0_left"), t.at(low, "d_LR"), strings.Join(lows, ", "), what)
}
