package report

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/planq"
	"github.com/pomdpq/pomdpq/lib/render"
	"github.com/pomdpq/pomdpq/lib/value"
)

// Limits of the planning section.
const (
	// MaxPlanValuations bounds the controllers valued by the planning
	// section: |Π| on the model and on each ε-quotient, per reward. The
	// largest computed family within it is planned with (for a model of
	// maze4x3's size a valuation on a quotient takes about half a
	// millisecond).
	MaxPlanValuations = 10_000
	// PlanMaxWork is planq.Config.MaxWork for the section: the estimated
	// steps of the exact L_R and of the search on the model.
	PlanMaxWork = 1e8
	// PlanEpsPoints is the number of ε values planned at, spread over the
	// curves' grid from 0 to its end.
	PlanEpsPoints = 7
)

// Planning is the section "Planning through the quotient": the best
// controller of Π chosen on each ε-quotient, lifted to the model, valued
// there and compared with the certified bound (package planq), for the
// model's own reward and for an observation reward.
type Planning struct {
	// M is the memory bound of the stationary family Π planned over (0
	// when no family fits; Refused then says why) and Why how it was
	// chosen.
	M   int
	Why string
	Eps []float64
	// Runs holds one run per reward.
	Runs    []PlanRun
	Refused string
}

// PlanRun is the planning run for one reward.
type PlanRun struct {
	// Label names the reward; About says why it is shown.
	Label, About string
	Result       *planq.Result
	// Refused says why the run has no result.
	Refused string
}

// planEps returns PlanEpsPoints values of the grid, from 0 to its end.
func planEps(grid []float64) []float64 {
	if len(grid) == 0 {
		return []float64{0}
	}
	n := min(PlanEpsPoints, len(grid))
	var out []float64
	for k := range n {
		i := 0
		if n > 1 {
			i = k * (len(grid) - 1) / (n - 1)
		}
		out = append(out, grid[i])
	}
	return out
}

// planning fills r.Planning: Π is the largest computed family whose
// valuations fit MaxPlanValuations.
func (r *Report) planning(ctx context.Context, opt Options, budget int64, phase func(string)) error {
	p := &Planning{Eps: planEps(r.Grid)}
	r.Planning = p
	var skipped []string
	var dist *distance.Result // the chosen family's, decided at the grid
	for i := len(r.Families) - 1; i >= 0 && p.M == 0; i-- {
		f := r.Families[i]
		if f.res == nil {
			continue
		}
		if n := f.Size * (len(p.Eps) + 1); n > MaxPlanValuations {
			skipped = append(skipped, fmt.Sprintf("m ≤ %d would value its %d controllers on the model and on %d quotients (%d valuations per reward, more than %d)",
				f.M, f.Size, len(p.Eps), n, MaxPlanValuations))
			continue
		}
		p.M, dist = f.M, f.res
	}
	if p.M == 0 {
		p.Refused = "no computed family fits: " + strings.Join(skipped, "; ")
		if len(skipped) == 0 {
			p.Refused = "no family was computed"
		}
		return nil
	}
	p.Why = fmt.Sprintf("Π = stationary controllers with m ≤ %d nodes: the largest computed family", p.M)
	if len(skipped) > 0 {
		p.Why += " within the limit (" + strings.Join(skipped, "; ") + ")"
	}
	m := r.Model
	om, err := value.WithObsReward(m)
	obsRun := PlanRun{Label: "an observation reward",
		About: "R(s, a) = E[v(O') | s, a], a reward of the observations only, so that L_R is finite and the theorem gives a number. The values v(o) = o/(|O| − 1) follow the order of the observations in the model, an arbitrary choice that the bound depends on through L_R."}
	runs := []PlanRun{{Label: "the model's own reward",
		About: "R(s, a) as the model defines it: what a user plans for. A reward of the hidden state may have no finite L_R, and then no certified bound."}}
	if err != nil {
		obsRun.Refused = err.Error()
	}
	runs = append(runs, obsRun)
	for i := range runs {
		run := &runs[i]
		if run.Refused != "" {
			continue
		}
		cfg := planq.Config{Model: m, Ground: r.ground, Reward: "own (the model's R(s, a))", Kind: r.Kind, M: p.M, T: r.T, Eps: p.Eps,
			Planner: planq.BestFSC{}, MaxWork: PlanMaxWork, Distances: dist,
			Distance: distance.Options{MemBudget: budget, Progress: opt.Progress,
				Phase: func(s string) { phase(strings.TrimSpace(fmt.Sprintf("plan (%s) %s", run.Label, s))) }}}
		if i == 1 {
			v := value.ObsValues(m.NumObservations())
			cfg.Model, cfg.ObsValues = om, v
			cfg.Reward = fmt.Sprintf("observation: R(s, a) = E[v(O') | s, a] with v(o) = o/(|O| − 1) = %v", v)
		}
		res, err := planq.Run(ctx, cfg)
		var be *distance.BudgetError
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.As(err, &be):
			run.Refused = be.Error()
		case err != nil:
			run.Refused = err.Error()
		default:
			run.Result = res
		}
	}
	p.Runs = runs
	return nil
}

// writePlanning writes the section "Planning through the quotient" with
// render.PlanHTML, the renderer of the notebooks' nb.ShowPlan.
func (r *Report) writePlanning(b *strings.Builder) error {
	b.WriteString("<h2 id=\"planning\">Planning through the quotient</h2>\n")
	p := r.Planning
	if p == nil {
		b.WriteString("<p class=\"note\">Not computed.</p>\n")
		return nil
	}
	b.WriteString("<p>For each ε, the best controller of Π is chosen on the ε-quotient (each controller valued on the quotient it sees), lifted to the model (a controller reads observations only, so it runs unchanged there), valued exactly on the model, and its regret against the best controller of Π on the model is compared with the certified bound of cor:sim-to-real, V<sub>M</sub>(π*<sub>M</sub>) − V<sub>M</sub>(π*<sub>M̃</sub>) ≤ 2·L<sub>R</sub>·T·ε. The bound covers the controllers of Π only. <code>pomdpq plan</code> runs the same with other planners (open-loop, PBVI, a solver of yours) and writes the lifted policies.</p>\n")
	if p.Refused != "" {
		fmt.Fprintf(b, "<p class=\"refused\">Not planned: %s</p>\n", esc(p.Refused))
		return nil
	}
	fmt.Fprintf(b, "<p class=\"note\">%s.</p>\n", esc(p.Why))
	for _, run := range p.Runs {
		fmt.Fprintf(b, "<h3>For %s</h3>\n<p class=\"note\">%s</p>\n", esc(run.Label), esc(run.About))
		if run.Refused != "" {
			fmt.Fprintf(b, "<p class=\"refused\">Not planned: %s</p>\n", esc(run.Refused))
			continue
		}
		h, err := render.PlanHTML(run.Result)
		if err != nil {
			return err
		}
		b.WriteString(h + "\n")
	}
	return nil
}
