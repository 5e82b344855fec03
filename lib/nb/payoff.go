package nb

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/planq"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/render"
)

// ShowPayoff displays whether planning on the quotient paid in run res
// ([render.PayoffHTML]: the verdict, the model beside the quotient, sizes
// per depth; outside a notebook [render.PayoffText] on [Output]) and
// returns the payoff.
func ShowPayoff(res *planq.Result) (planq.Payoff, error) {
	if res == nil {
		return planq.Payoff{}, fmt.Errorf("nb: nil planning result")
	}
	p := res.Payoff()
	if !inNotebook() {
		writeText(strings.TrimRight(render.PayoffText(p), "\n"))
		return p, nil
	}
	h, err := render.PayoffHTML(p)
	if err != nil {
		return p, err
	}
	show("", bundle{html: h, text: render.PayoffText(p)})
	return p, nil
}

// PayoffFacts are the facts of a payoff that do not depend on the clock
// (times and which side was faster do, and are not among them).
type PayoffFacts struct {
	// States and HistoriesT are the model's size, Classes the quotient's
	// classes (all depths) and DepthClasses them per depth ("1,3,3,1").
	States       int
	HistoriesT   float64
	Classes      int
	DepthClasses string
	// Refused is whether the model was not planned on; OutOfReach whether
	// for its estimated cost (then AtLeast is the lower bound on its
	// steps). ModelValue is NaN when refused.
	Refused, OutOfReach  bool
	AtLeast              float64
	ModelValue, Quotient float64
}

// CheckPayoff checks payoff p of a run on model m against the model, where
// it can be recounted: its states, |O|^T histories, no depth with more
// classes than histories (|O|^t), and for a model refused to PBVI the
// lower bound T·|O|·nnz(T). It then writes the facts as key numbers
// name_states, name_classes, name_depth_classes, name_refused, and
// name_value_model (when planned on), name_value_quotient, name_at_least
// (when out of reach), and returns them.
func CheckPayoff(name string, m *pomdp.Model, p planq.Payoff) (PayoffFacts, error) {
	f := PayoffFacts{States: p.States, HistoriesT: p.HistoriesT, Refused: p.ModelRefused != "", OutOfReach: p.Outcome == planq.ModelOutOfReach,
		AtLeast: p.ModelAtLeast, ModelValue: p.ModelValue, Quotient: p.QuotientValue}
	O := m.NumObservations()
	if p.States != m.NumStates() || p.Observations != O || p.HistoriesT != math.Pow(float64(O), float64(p.T)) {
		return f, fmt.Errorf("nb: payoff of %d states, %d observations, %g histories at T = %d; the model has %d states and %d observations", p.States, p.Observations, p.HistoriesT, p.T, m.NumStates(), O)
	}
	if len(p.Classes) != p.T+1 {
		return f, fmt.Errorf("nb: payoff has classes at %d depths, want T + 1 = %d", len(p.Classes), p.T+1)
	}
	var depth []string
	for t, c := range p.Classes {
		if h := math.Pow(float64(O), float64(t)); c < 1 || float64(c) > h {
			return f, fmt.Errorf("nb: depth %d has %d classes for %g histories", t, c, h)
		}
		f.Classes += c
		depth = append(depth, strconv.Itoa(c))
	}
	f.DepthClasses = strings.Join(depth, ",")
	if f.OutOfReach && p.Planner == (planq.PBVI{}).Name() {
		nnz := 0
		for a := range m.T {
			nnz += m.T[a].NNZ()
		}
		if want := float64(p.T * O * nnz); p.ModelAtLeast != want {
			return f, fmt.Errorf("nb: PBVI's lower bound %g steps, recounted T·|O|·nnz(T) = %g", p.ModelAtLeast, want)
		}
	}
	Check(name+"_states", f.States)
	Check(name+"_classes", f.Classes)
	Check(name+"_depth_classes", f.DepthClasses)
	Check(name+"_refused", f.Refused)
	if !f.Refused {
		Check(name+"_value_model", f.ModelValue)
	}
	Check(name+"_value_quotient", f.Quotient)
	if f.OutOfReach {
		Check(name+"_at_least", f.AtLeast)
	}
	return f, nil
}
