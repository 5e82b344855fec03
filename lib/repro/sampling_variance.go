package repro

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/sample"
)

func init() {
	register(Spec{Name: "sampling-variance", Label: "tab:sampling-variance",
		Title: "Seed stability: class counts over 10 seeds, GridWorld 10×10 (500 trajectories)", Build: samplingVariance})
}

func samplingVariance(ctx context.Context, env *Env) (*Table, error) {
	eps := []float64{0, 0.1, 0.25, 0.45}
	t := &Table{Name: "sampling-variance", Paper: "sampling-variance", Label: "tab:sampling-variance",
		Title: "Class counts over seeds 0–9, GridWorld 10×10 (m = 1, T = 2, 500 trajectories)",
		Columns: []Column{{"eps", Key}, {"mean_classes", Exact}, {"std_classes", Exact}, {"min_classes", Exact}, {"max_classes", Exact},
			{"exact_classes", Info}, {"counts", Info}}}
	ms, err := newM1Sampler(ctx, env, "gridworld:10", 2)
	if err != nil {
		return nil, err
	}
	exact := ms.exact
	rows, err := sample.Stability(ctx, ms.s, scaleN, scaleSeeds, 0, eps, env.progress("seed stability"))
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{strconv.FormatFloat(r.Eps, 'f', -1, 64), strconv.FormatFloat(r.Mean, 'f', 1, 64),
			strconv.FormatFloat(r.Std, 'f', 1, 64), itoa(r.Min), itoa(r.Max), itoa(partition.Greedy(exact, r.Eps).Total()), joinInts(r.Counts)})
	}
	same, exactToo := true, true
	for i := range t.Rows {
		same = same && t.at(i, "min_classes") == t.at(i, "max_classes")
		exactToo = exactToo && t.at(i, "min_classes") == t.at(i, "exact_classes")
	}
	printedZero := true
	for i := range t.Rows {
		sd, _, err := paperFloat(t.Paper, map[string]string{"eps": t.at(i, "eps")}, "std_classes")
		if err != nil {
			return nil, err
		}
		printedZero = printedZero && sd == 0
	}
	what := "Class counts vary across seeds"
	if same {
		what = "Class counts are equal across seeds (zero variance"
		if printedZero {
			what += ", as printed"
		}
		what += ")"
		if exactToo {
			what += " and equal to the exact counts"
		}
	}
	var near []string
	gap := math.Inf(1)
	for _, e := range eps {
		if e > 0 {
			d := nearestDistance(exact, e)
			gap = min(gap, math.Abs(d-e))
			near = append(near, fmt.Sprintf("%s at ε = %s", f3(d), fe(e)))
		}
	}
	t.Notes = append(t.Notes, fmt.Sprintf("%s: the positive exact distance nearest a threshold is %s away (nearest each: %s).", what, f3(gap), strings.Join(near, ", ")))
	return t, nil
}
