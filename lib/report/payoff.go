package report

import (
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/render"
)

// payoffSection writes "Does the quotient pay?": for each planning run
// with a result, the payoff of its coarsest quotient (planq.Payoff drawn
// by render.PayoffHTML): the model's size beside the quotient's, per
// depth, the planning time on each side (or why the model was not planned
// on, with a lower bound on its cost), the value each reaches on the
// model and the verdict in one line. Without planning it says why.
func (r *Report) payoffSection(b *strings.Builder) error {
	b.WriteString("<h2 id=\"payoff\">Does the quotient pay?</h2>\n")
	p := r.Planning
	switch {
	case p == nil:
		b.WriteString("<p class=\"note\">Not computed: nothing was planned.</p>\n")
		return nil
	case p.Refused != "":
		fmt.Fprintf(b, "<p class=\"refused\">Not compared: nothing was planned (%s).</p>\n", esc(p.Refused))
		return nil
	}
	b.WriteString("<p>Planning on the quotient pays when building it and planning on it costs less than planning on the model, for a value close to the model's. The quotient's time counts everything it needs: the distances (shared by every ε), the partition and the planning. The planner here is the exhaustive search over Π (best-fsc), on the coarsest quotient planned on; <code>pomdpq plan --planner pbvi</code> or <code>cmd:…</code> compares other planners, and docs/benchmarks.md shows where the quotient pays (large models whose bounded-agent view is small).</p>\n")
	for _, run := range p.Runs {
		fmt.Fprintf(b, "<h3>For %s</h3>\n", esc(run.Label))
		if run.Result == nil {
			fmt.Fprintf(b, "<p class=\"refused\">Not compared: %s</p>\n", esc(run.Refused))
			continue
		}
		h, err := render.PayoffHTML(run.Result.Payoff())
		if err != nil {
			return err
		}
		b.WriteString(h + "\n")
	}
	return nil
}
