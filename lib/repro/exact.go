package repro

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/datasets"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/plan"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

// clockQuotients returns the exact m = 1 quotients (cached).
func clockQuotients(ctx context.Context, env *Env, model string, T int) (*clock.Result, bench.Benchmark, error) {
	b, err := bench.Lookup(model)
	if err != nil {
		return nil, b, err
	}
	r, err := memo(env, fmt.Sprintf("clock|%s|%d", model, T), func() (*clock.Result, error) {
		return clock.Quotients(ctx, b.Model, T, nil)
	})
	return r, b, err
}

// planOn selects the best open-loop string on a quotient for obj and
// returns the selection and values.
type planning struct {
	index            int     // selected string (first maximum on the quotient)
	ties             int     // strings tied at the maximum on the quotient
	strings          int     // open-loop strings searched
	policy           string  // its action abbreviations
	vQuotient        float64 // its value on the quotient
	vSelectedOnOrig  float64 // its value on the original
	vOrig            float64 // best value on the original (exhaustive search)
	tOrig, tQuotient float64 // seconds
}

func planOn(ctx context.Context, b bench.Benchmark, q *quotient.Quotient, obj value.Objective, tQuotient float64) (planning, error) {
	m := b.Model
	var p planning
	start := time.Now()
	fam, err := fsc.NewClock(m.NumActions(), m.NumObservations(), 1, q.T, fsc.Options{})
	if err != nil {
		return p, err
	}
	best, err := value.Best(ctx, m, fam, q.T, obj, value.Options{})
	if err != nil {
		return p, err
	}
	p.tOrig = time.Since(start).Seconds()
	p.vOrig = best.Value
	p.strings = fam.Len()
	start = time.Now()
	res, err := plan.OpenLoop(ctx, q, obj, 0)
	if err != nil {
		return p, err
	}
	p.index, p.vQuotient, p.ties = plan.Best(res.Quotient, value.DefaultTol)
	p.tQuotient = tQuotient + time.Since(start).Seconds()
	p.vSelectedOnOrig = res.Original[p.index]
	p.policy = fam.At(p.index).ActionString(value.Abbrev(m.Actions), q.T)
	return p, nil
}

// paperCell returns the printed value of column col in the row of the
// transcribed paper table name whose key columns equal key ("" if none).
func paperCell(name string, keys map[string]string, col string) string {
	header, rows, err := datasets.Paper(name)
	if err != nil {
		return ""
	}
	idx := map[string]int{}
	for i, h := range header {
		idx[h] = i
	}
	j, ok := idx[col]
	if !ok {
		return ""
	}
	for _, r := range rows {
		match := true
		for k, v := range keys {
			if i, ok := idx[k]; !ok || normNum(r[i]) != normNum(v) {
				match = false
				break
			}
		}
		if match {
			return r[j]
		}
	}
	return ""
}

type planCase struct {
	name, model, objName string
	T                    int
	obj                  func(b bench.Benchmark) value.Objective
}

func planningTable(ctx context.Context, env *Env, t *Table, cases []planCase, onOrig bool) error {
	maximisers := map[int]func(printed string) verdict.Judgement{}
	for _, c := range cases {
		start := time.Now()
		r, b, err := clockQuotients(ctx, env, c.model, c.T)
		if err != nil {
			return err
		}
		q, err := quotient.New(b.Model, c.T, r.Clk)
		if err != nil {
			return err
		}
		p, err := planOn(ctx, b, q, c.obj(b), time.Since(start).Seconds())
		if err != nil {
			return err
		}
		v := p.vQuotient
		if onOrig {
			v = p.vSelectedOnOrig
		}
		t.Rows = append(t.Rows, []string{c.name, c.objName, itoa(c.T), itoa(q.Tree.Len()), itoa(r.Clk.Total()),
			f3(p.tOrig), f3(p.tQuotient), p.policy, f3(p.vOrig), f3(v), f3(p.vOrig - p.vSelectedOnOrig)})
		i := len(t.Rows) - 1
		printed := paperCell(t.Paper, map[string]string{t.Columns[0].Name: c.name, t.Columns[1].Name: c.objName, t.Columns[2].Name: itoa(c.T)}, "policy")
		if p.ties == p.strings {
			if printed != "" && !Agrees(p.policy, printed) {
				// Every action string is a maximum on the quotient and the
				// printed one is not ours: it is judged as a maximiser (a
				// computed condition on the printed string), not by a
				// tie-break the paper does not state.
				t.SetKind(i, "policy", Pattern)
				maximisers[i] = maximiser(value.Abbrev(b.Model.Actions), c.T, p)
			}
		} else if p.ties > 1 {
			t.Remark(i, fmt.Sprintf("%d of %d action strings tie at the maximum on the quotient", p.ties, p.strings))
		}
	}
	if len(maximisers) > 0 {
		t.PatternOK = func(i int) verdict.Judgement {
			c := slices.IndexFunc(t.Columns, func(c Column) bool { return c.Name == "policy" })
			return maximisers[i](t.Printed[i][c])
		}
	}
	return nil
}

// maximiser judges a printed policy on a row where every action string
// ties at the maximum on the quotient: it is a maximiser when it is an
// action string of length T over the model's actions.
func maximiser(actions []string, T int, p planning) func(printed string) verdict.Judgement {
	return func(printed string) verdict.Judgement {
		words := strings.Fields(printed)
		ok := len(words) == T
		for _, w := range words {
			ok = ok && slices.Contains(actions, w)
		}
		if !ok {
			return verdict.Differ(fmt.Sprintf("the printed policy %q is not a string of %d actions among %s", printed, T, strings.Join(actions, ", ")), "policy")
		}
		return verdict.ByPattern(fmt.Sprintf("all %d action strings tie at the maximum %s on the quotient (tolerance %s), so the printed %s is a maximiser, as ours (%s, the first in enumeration order) is",
			p.strings, f3(p.vQuotient), fg(value.DefaultTol), printed, p.policy))
	}
}
