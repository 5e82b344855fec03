package planq

import (
	"fmt"
	"math"
)

// Payoff says whether planning on the quotient paid on this run: the
// model's size beside the quotient's, the planning time on each side (or
// why the model was refused, with the planner's estimate of its cost and
// a lower bound on it), the value each reaches, and a verdict in words.
type Payoff struct {
	// Planner is the planner compared (the --planner value) and T the
	// horizon.
	Planner string
	T       int
	// States and HistoriesT are the model's size: states and observation
	// histories of length T (|O|^T); Observations is |O|, so that depth t
	// has |O|^t histories.
	States       int
	Observations int
	HistoriesT   float64
	// Eps is the row the verdict speaks of (the coarsest quotient, the
	// largest ε); Classes its classes per depth 0 … T.
	Eps     float64
	Classes []int
	// Outcome is the verdict as a type.
	Outcome Outcome
	// ModelSec is the time of planning on the model (NaN when refused);
	// ModelRefused says why, and ModelWork is the planner's estimate of
	// the steps it would take (a measure of the cost, not a time).
	ModelSec     float64
	ModelRefused string
	ModelWork    float64
	// ModelAtLeast is a lower bound on the elementary steps of planning on
	// the model with this planner as implemented, and ModelAtLeastHow how
	// it is counted (0 and "" when the planner has none).
	ModelAtLeast    float64
	ModelAtLeastHow string
	// QuotientSec is the time of building the quotient (the distances,
	// shared by every ε, and this ε's partition) and planning on it:
	// DistanceSec + PartitionSec + PlanQSec.
	QuotientSec                         float64
	DistanceSec, PartitionSec, PlanQSec float64
	// ModelValue is the planner's value on the model (NaN when refused);
	// QuotientValue the value on the model of the quotient's policy.
	ModelValue, QuotientValue float64
	// Verdict is the one-line verdict.
	Verdict string
}

// Outcome is a payoff verdict as a type.
type Outcome int

// The outcomes of a payoff.
const (
	// NoPayoff: the run has no row.
	NoPayoff Outcome = iota
	// ModelOutOfReach: planning on the model was refused by its estimated
	// cost; the quotient was planned on.
	ModelOutOfReach
	// NotCompared: the model was not planned on for another reason (the
	// planner cannot value its policy there), so times are not compared.
	NotCompared
	// QuotientFaster: building and planning on the quotient took less time
	// than planning on the model.
	QuotientFaster
	// ModelFaster: planning on the model took no more time.
	ModelFaster
)

// String names the outcome.
func (o Outcome) String() string {
	switch o {
	case NoPayoff:
		return "no payoff"
	case ModelOutOfReach:
		return "model out of reach"
	case NotCompared:
		return "not compared"
	case QuotientFaster:
		return "quotient faster"
	case ModelFaster:
		return "model faster"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// Pays reports whether the quotient paid: the model was out of reach, or
// the quotient was faster.
func (o Outcome) Pays() bool { return o == ModelOutOfReach || o == QuotientFaster }

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
	p := Payoff{Planner: r.Planner, T: r.T, States: r.States, Observations: r.Observations, HistoriesT: r.HistoriesT, Eps: row.Eps, Classes: row.DepthClasses,
		ModelSec: math.NaN(), ModelValue: math.NaN(), ModelRefused: r.BaselineRefused, ModelWork: r.BaselineWork,
		ModelAtLeast: r.BaselineAtLeast, ModelAtLeastHow: r.BaselineAtLeastHow,
		DistanceSec: r.DistanceSeconds, PartitionSec: row.PartitionSec, PlanQSec: row.PlanQSec,
		QuotientSec: r.DistanceSeconds + row.PartitionSec + row.PlanQSec, QuotientValue: row.VM}
	q := fmt.Sprintf("the ε = %g quotient (%d classes)", row.Eps, row.Classes)
	if r.Baseline == nil {
		p.Outcome, p.Verdict = r.refusedVerdict(p, q)
		return p
	}
	p.ModelSec, p.ModelValue = r.Baseline.Seconds, r.Baseline.Value
	loss := p.ModelValue - p.QuotientValue
	lose := fmt.Sprintf("loses %.3g", zeroed(loss))
	if loss <= 1e-9*max(1, math.Abs(p.ModelValue)) {
		lose = "loses nothing"
	}
	if p.QuotientSec >= p.ModelSec {
		p.Outcome = ModelFaster
		p.Verdict = fmt.Sprintf("on this model %s is %s slower to build and plan on (%s against %s on the model) and %s: plan on the model",
			q, times(p.QuotientSec, p.ModelSec), secs(p.QuotientSec), secs(p.ModelSec), lose)
		return p
	}
	advice := "plan on the quotient"
	if loss > 1e-9*max(1, math.Abs(p.ModelValue)) {
		advice = "the quotient pays if the loss is acceptable"
	}
	p.Outcome = QuotientFaster
	p.Verdict = fmt.Sprintf("%s is %s faster to build and plan on (%s against %s on the model) and %s: %s",
		q, times(p.ModelSec, p.QuotientSec), secs(p.QuotientSec), secs(p.ModelSec), lose, advice)
	return p
}

// refusedVerdict is the outcome and verdict of a run whose planner did not
// run on the model: out of reach when its estimated cost was above the
// limit, else not compared (the planner cannot be valued there).
func (r *Result) refusedVerdict(p Payoff, q string) (Outcome, string) {
	if r.BaselineWork <= r.MaxWork {
		return NotCompared, fmt.Sprintf("%s was not valued on the model (%s), so the times are not compared; %s is built and planned on in %s and its policy earns %.6g on the model",
			r.Planner, r.BaselineRefused, q, secs(p.QuotientSec), p.QuotientValue)
	}
	why := fmt.Sprintf("an estimated %.3g steps, above the limit %.3g of --max-work", r.BaselineWork, r.MaxWork)
	if r.BaselineAtLeast > 0 {
		why += fmt.Sprintf(", and at least %.3g", r.BaselineAtLeast)
	}
	return ModelOutOfReach, fmt.Sprintf("the model (%d states, %.3g histories at T = %d) is out of reach for %s here (%s); %s is built and planned on in %s and its policy earns %.6g on the model: plan on the quotient",
		r.States, r.HistoriesT, r.T, r.Planner, why, q, secs(p.QuotientSec), p.QuotientValue)
}

// atLeast returns a lower bound on the elementary steps of planner pl on
// env's model, as its loops are written, and how it is counted; 0 and ""
// for a planner this package does not know.
func atLeast(pl Planner, env *Env) (float64, string) {
	m := env.Model
	T, S, O := float64(env.T), float64(m.NumStates()), float64(m.NumObservations())
	nnzT, nnz := 0.0, 0.0
	for a := range m.T {
		nnzT += float64(m.T[a].NNZ())
		nnz += float64(m.T[a].NNZ() + m.Z[a].NNZ())
	}
	switch pl.(type) {
	case BestFSC:
		n := float64(env.Family.Len())
		return n * T * S, fmt.Sprintf("|Π|·T·|S| = %.0f·%d·%d: every controller is valued by a forward pass over the |S| states at each stage", n, env.T, m.NumStates())
	case OpenLoop:
		fam, err := openLoopFamily(env)
		if err != nil {
			return 0, ""
		}
		n := float64(fam.Len())
		return n * T * S, fmt.Sprintf("|A|^T·T·|S| = %.0f·%d·%d: every action string is valued by a forward pass over the |S| states at each stage", n, env.T, m.NumStates())
	case PBVI:
		return T * O * nnzT, fmt.Sprintf("T·|O|·nnz(T) = %d·%d·%.0f: each of the T backups projects at least one α-vector through every transition entry for every observation", env.T, m.NumObservations(), nnzT)
	case Command:
		return nnz, fmt.Sprintf("nnz(T) + nnz(Z) = %.0f: the model written for the solver", nnz)
	}
	return 0, ""
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
