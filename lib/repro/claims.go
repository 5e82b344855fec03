package repro

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/datasets"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

// claim computes one inline claim of datasets/paper/inline-claims.csv.
type claim struct {
	id      string
	pattern bool // compared by shape only (reconstructed or sampled settings)
	setting bool // an input echoed back (a sample size, a default): shown, never counted
	// formula marks arithmetic on the paper's own constants (a bound at
	// the paper's L_R, T and ε): checked, counted apart as a formula
	// check, never as a reproduction (verdict.Formula).
	formula bool
	value   func(ctx context.Context, env *Env) (string, error)
	// rebuild, when set, computes the paper's value a second way (another
	// convention or setting) for this claim alone. It is shown as a
	// remark and explains nothing: a claims table has no reading of its
	// own, and a setting found for one row is not one (verdict.Reading).
	rebuild func(ctx context.Context, env *Env) (value, how string, err error)
	// judge, when set, judges a pattern claim from a computation.
	judge func(ctx context.Context, env *Env) verdict.Judgement
}

// depthTApart returns the class count of p with the depth-T histories
// (empty suffix) counted one class each instead of one class together:
// the convention of the paper's listen-only Tiger figure.
func depthTApart(p *partition.Partition) int {
	T := p.Depths() - 1
	return p.Total() - p.Classes(T) + len(p.Labels[T])
}

func classes(model string, kind fsc.Kind, m, T int, eps float64) func(context.Context, *Env) (string, error) {
	return func(ctx context.Context, env *Env) (string, error) {
		r, _, err := distances(ctx, env, model, kind, m, T, false)
		if err != nil {
			return "", err
		}
		return itoa(r.Partition(eps).Total()), nil
	}
}

func pairDistance(model string, kind fsc.Kind, m, T, depth int, h1, h2 string, metric distance.Metric) func(context.Context, *Env) (string, error) {
	return func(ctx context.Context, env *Env) (string, error) {
		r, b, err := distancesOpt(ctx, env, model, kind, m, T, distance.Options{Metric: metric})
		if err != nil {
			return "", err
		}
		i, j := historyIndex(b, h1), historyIndex(b, h2)
		if i < 0 || j < 0 {
			return "", fmt.Errorf("repro: unknown history %q or %q of %s", h1, h2, model)
		}
		return strconv.FormatFloat(r.D[depth].At(i, j), 'f', 4, 64), nil
	}
}

// historyIndex parses a space-separated observation sequence.
func historyIndex(b bench.Benchmark, h string) int {
	i := 0
	for _, name := range strings.Fields(h) {
		o := b.Model.ObsIndex(name)
		if o < 0 {
			return -1
		}
		i = i*b.Model.NumObservations() + o
	}
	return i
}

// The m = 2 paragraph of §7.1 compares the families of memory
// m2ParagraphM on Tiger at T = m2ParagraphT.
const m2ParagraphM, m2ParagraphT = 2, 2

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// addClaims evaluates the claims into rows (id, section label, quantity,
// value) of t, records their reconstructions and settings, and returns
// the judges of the rows compared by pattern only. all is
// datasets.Claims().
func addClaims(ctx context.Context, env *Env, t *Table, all map[string]datasets.Claim, list []claim) (map[int]func() verdict.Judgement, error) {
	patterns := map[int]func() verdict.Judgement{}
	for _, c := range list {
		pc, ok := all[c.id]
		if !ok {
			return nil, fmt.Errorf("repro: claim %q is not in datasets/paper/inline-claims.csv", c.id)
		}
		v, err := c.value(ctx, env)
		if err != nil {
			return nil, fmt.Errorf("repro: claim %s: %w", c.id, err)
		}
		i := len(t.Rows)
		t.Rows = append(t.Rows, []string{c.id, pc.Label, pc.Quantity, v})
		if c.pattern {
			judge := func() verdict.Judgement { return verdict.NotJudgedBecause("no judge for this pattern claim") }
			if c.judge != nil {
				judge = func() verdict.Judgement { return c.judge(ctx, env) }
			}
			patterns[i] = judge
		}
		switch {
		case c.setting:
			t.SetKind(i, "value", Setting)
		case c.formula:
			t.SetKind(i, "value", Formula)
		}
		if c.rebuild != nil {
			rv, how, err := c.rebuild(ctx, env)
			if err != nil {
				return nil, fmt.Errorf("repro: claim %s: %w", c.id, err)
			}
			t.Remark(i, perRowReading(rv, how, pc.Value))
		}
	}
	return patterns, nil
}

// claimJudges sets t's pattern rows and judges from addClaims' result.
func claimJudges(t *Table, patterns map[int]func() verdict.Judgement) {
	t.PatternRow = func(i int) bool { return patterns[i] != nil }
	t.PatternOK = func(i int) verdict.Judgement { return patterns[i]() }
}

// perRowReading is the remark for a second computation of one claim
// (rebuild): it says whether the computed value gives the printed one,
// and that it explains nothing either way, since it is a reading of this
// row alone, not of the table.
func perRowReading(value, how, printed string) string {
	if verdict.AgreesText(value, printed) {
		return fmt.Sprintf("not explained: %s gives the printed %s (%s), but that is a reading of this row alone, not of the table", how, strings.TrimSpace(printed), value)
	}
	return fmt.Sprintf("%s gives %s, not the printed %s", how, value, strings.TrimSpace(printed))
}
