package render

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/planq"
)

// PayoffRows returns the payoff of a planning run (planq.Payoff) as a
// table with a column for the model and one for the quotient: their sizes,
// the planning time on each side for the planner compared (or why the
// model was not planned on, with the planner's estimate of its steps and a
// lower bound on them), and the value each reaches on the model. No cell
// is left empty or "—": a side not run says why.
func PayoffRows(p planq.Payoff) (header []string, rows [][]string) {
	header = []string{"", "the model", fmt.Sprintf("the ε = %s quotient", FormatNumber(p.Eps, 6))}
	rows = [][]string{
		{"size", fmt.Sprintf("%d states; %s observation histories at T = %d", p.States, FormatNumber(p.HistoriesT, 4), p.T),
			fmt.Sprintf("%d classes over depths 0 … %d", sumInts(p.Classes), len(p.Classes)-1)},
		{"planning time (" + p.Planner + ")", payoffModelTime(p), fmt.Sprintf("%s s (distances %s s, partition %s s, planning %s s)",
			FormatNumber(p.QuotientSec, 3), FormatNumber(p.DistanceSec, 3), FormatNumber(p.PartitionSec, 3), FormatNumber(p.PlanQSec, 3))},
		{"value reached on the model", payoffModelValue(p), fmtValue(p.QuotientValue) + " (the quotient's policy, lifted)"},
	}
	return header, rows
}

// PayoffDepthRows returns the sizes per depth t = 0 … T: the model's
// observation histories |O|^t beside the quotient's classes.
func PayoffDepthRows(p planq.Payoff) (header []string, rows [][]string) {
	header = []string{"depth t"}
	hist, cls := []string{"histories |O|^t (the model)"}, []string{"classes (the quotient)"}
	for t, c := range p.Classes {
		header = append(header, strconv.Itoa(t))
		hist = append(hist, FormatNumber(math.Pow(float64(p.Observations), float64(t)), 4))
		cls = append(cls, strconv.Itoa(c))
	}
	return header, [][]string{hist, cls}
}

// payoffModelTime is the model's planning time, or why it was not
// planned on with the estimate and the lower bound of its steps.
func payoffModelTime(p planq.Payoff) string {
	if p.ModelRefused == "" {
		return FormatNumber(p.ModelSec, 3) + " s"
	}
	s := "not run: " + p.ModelRefused
	if p.Outcome == planq.ModelOutOfReach && p.ModelAtLeast > 0 {
		s += fmt.Sprintf("; at least %.3g steps (%s)", p.ModelAtLeast, p.ModelAtLeastHow)
	}
	return s
}

// payoffModelValue is the planner's value on the model, or why there is
// none.
func payoffModelValue(p planq.Payoff) string {
	if p.ModelRefused == "" {
		return fmtValue(p.ModelValue)
	}
	return "none: the planner did not run on the model"
}

func sumInts(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// PayoffHTML renders the payoff as one HTML fragment: the verdict in bold,
// the table of [PayoffRows] and the sizes per depth of [PayoffDepthRows].
func PayoffHTML(p planq.Payoff) (string, error) {
	header, rows := PayoffRows(p)
	tab, err := TableHTML("Does the quotient pay? The model beside the quotient, for "+p.Planner, header, rows)
	if err != nil {
		return "", err
	}
	dh, drows := PayoffDepthRows(p)
	depth, err := TableHTML("Size per depth", dh, drows)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("<div class=\"pomdpq-payoff\">\n<p class=\"verdict\"><strong>%s</strong>: %s.</p>\n%s\n%s\n</div>",
		html.EscapeString(p.Outcome.String()), html.EscapeString(p.Verdict), tab, depth), nil
}

// PayoffText renders the payoff as plain text: the verdict, the table and
// the sizes per depth.
func PayoffText(p planq.Payoff) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", p.Outcome, p.Verdict)
	header, rows := PayoffRows(p)
	b.WriteString(AlignColumns(append([][]string{header}, rows...), nil, 1))
	dh, drows := PayoffDepthRows(p)
	b.WriteString(AlignColumns(append([][]string{dh}, drows...), nil, 1))
	return b.String()
}
