package planq

import (
	"fmt"
	"math"
)

// Payoff says whether planning on the quotient paid on this run: the
// model's size beside the quotient's, the planning time on each side (or
// why the model was refused, with the planner's estimate of its cost),
// the value each reaches, and a verdict in words.
type Payoff struct {
	// States and HistoriesT are the model's size: states and observation
	// histories of length T.
	States     int
	HistoriesT float64
	// Eps is the row the verdict speaks of (the coarsest quotient, the
	// largest ε); Classes its classes per depth.
	Eps     float64
	Classes []int
	// ModelSec is the time of planning on the model (NaN when refused);
	// ModelRefused says why, and ModelWork is the planner's estimate of
	// the steps it would take (a measure of the cost, not a time).
	ModelSec     float64
	ModelRefused string
	ModelWork    float64
	// QuotientSec is the time of building the quotient (the distances,
	// shared by every ε, and this ε's partition) and planning on it.
	QuotientSec float64
	// ModelValue is the planner's value on the model (NaN when refused);
	// QuotientValue the value on the model of the quotient's policy.
	ModelValue, QuotientValue float64
	// Verdict is the one-line verdict.
	Verdict string
}

// Payoff returns the payoff verdict of the run, for the row of the largest
// ε (the coarsest quotient); the zero Payoff when there is no row.
func (r *Result) Payoff() Payoff {
	if len(r.Rows) == 0 {
		return Payoff{}
	}
	row := r.Rows[0]
	for _, x := range r.Rows[1:] {
		if x.Eps > row.Eps {
			row = x
		}
	}
	p := Payoff{States: r.States, HistoriesT: r.HistoriesT, Eps: row.Eps, Classes: row.DepthClasses,
		ModelSec: math.NaN(), ModelValue: math.NaN(), ModelRefused: r.BaselineRefused, ModelWork: r.BaselineWork,
		QuotientSec: r.DistanceSeconds + row.PartitionSec + row.PlanQSec, QuotientValue: row.VM}
	q := fmt.Sprintf("the ε = %g quotient (%d classes)", row.Eps, row.Classes)
	if r.Baseline == nil {
		why := fmt.Sprintf("an estimated %.3g steps, above the limit %.3g of --max-work", r.BaselineWork, r.MaxWork)
		if r.BaselineWork <= r.MaxWork {
			why = r.BaselineRefused
		}
		p.Verdict = fmt.Sprintf("the model (%d states, %.3g histories at T = %d) is out of reach for %s here (%s); %s is built and planned on in %s and its policy earns %.6g on the model: plan on the quotient",
			r.States, r.HistoriesT, r.T, r.Planner, why, q, secs(p.QuotientSec), row.VM)
		return p
	}
	p.ModelSec, p.ModelValue = r.Baseline.Seconds, r.Baseline.Value
	loss := p.ModelValue - p.QuotientValue
	lose := fmt.Sprintf("loses %.3g", zeroed(loss))
	if loss <= 1e-9*max(1, math.Abs(p.ModelValue)) {
		lose = "loses nothing"
	}
	if p.QuotientSec >= p.ModelSec {
		p.Verdict = fmt.Sprintf("on this model %s is %s slower to build and plan on (%s against %s on the model) and %s: plan on the model",
			q, times(p.QuotientSec, p.ModelSec), secs(p.QuotientSec), secs(p.ModelSec), lose)
		return p
	}
	advice := "plan on the quotient"
	if loss > 1e-9*max(1, math.Abs(p.ModelValue)) {
		advice = "the quotient pays if the loss is acceptable"
	}
	p.Verdict = fmt.Sprintf("%s is %s faster to build and plan on (%s against %s on the model) and %s: %s",
		q, times(p.ModelSec, p.QuotientSec), secs(p.QuotientSec), secs(p.ModelSec), lose, advice)
	return p
}

// times renders the ratio a/b, e.g. "80×" ("∞×" when b is 0).
func times(a, b float64) string {
	if b <= 0 {
		return "∞×"
	}
	return fmt.Sprintf("%.3g×", a/b)
}

// secs renders seconds, e.g. "0.7 s".
func secs(s float64) string { return fmt.Sprintf("%.3g s", s) }

// zeroed returns x with a rounding residue below 5e-13 as 0.
func zeroed(x float64) float64 {
	if math.Abs(x) < 5e-13 {
		return 0
	}
	return x
}
