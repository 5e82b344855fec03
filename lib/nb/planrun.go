package nb

import (
	"context"
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/planq"
	"github.com/pomdpq/pomdpq/lib/render"
)

// Plan runs planq.Run with an in-place progress bar (one bar, relabelled
// at each phase: distances, L_R, the baseline, then each ε), and returns
// its result for [ShowPlan]. Callbacks already set in cfg.Distance still
// receive every phase and update.
func Plan(ctx context.Context, cfg planq.Config) (*planq.Result, error) {
	name := "plan"
	if cfg.Model != nil {
		name = "plan " + cfg.Model.Name
	}
	bar := NewProgress(name)
	phase, progress := cfg.Distance.Phase, cfg.Distance.Progress
	cfg.Distance.Phase = func(s string) {
		if s != "" { // "" ends the run
			bar.Phase(s)
		}
		if phase != nil {
			phase(s)
		}
	}
	cfg.Distance.Progress = func(done, total int) {
		bar.Update(done, total)
		if progress != nil {
			progress(done, total)
		}
	}
	res, err := planq.Run(ctx, cfg)
	if err == nil {
		// The bar ends on the count of ε planned (a planner without
		// progress would otherwise leave "0 done" on it).
		bar.Phase("ε values planned")
		bar.Update(len(res.Rows), len(res.Rows))
	}
	bar.Finish()
	return res, err
}

// ShowPlan displays a planning run ([render.PlanHTML]); outside a notebook it
// writes [render.PlanText] to [Output].
func ShowPlan(res *planq.Result) error {
	if res == nil {
		return fmt.Errorf("nb: nil planning result")
	}
	if !inNotebook() {
		writeText(strings.TrimRight(render.PlanText(res), "\n"))
		return nil
	}
	h, err := render.PlanHTML(res)
	if err != nil {
		return err
	}
	show("", bundle{html: h, text: render.PlanText(res)})
	return nil
}
