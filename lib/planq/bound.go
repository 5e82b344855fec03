package planq

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/value"
)

// Lipschitz is the observation-Lipschitz constant L_R used by a bound and
// how it was obtained.
type Lipschitz struct {
	// Value is L_R; +Inf when no finite constant exists.
	Value float64
	// How says how Value was computed: "exact" (the supremum of
	// def:obs-lipschitz over the family and horizon, value.EstimateLipschitz
	// with exact W1), "observation reward" (the a-priori Lip(v) of
	// rem:lipschitz-small) or "reward range (not a bound)".
	How string
	// Why explains the value in words (the pair that attains it, or that
	// makes it infinite).
	Why string
	// Certified is false when Value is no proven L_R (the reward-range
	// fallback for a reward that is not observation-based).
	Certified bool
	// Family is the family the constant is computed for.
	Family string
}

// ObsLipschitz returns Lip(v) = max_{o ≠ o'} |v(o) − v(o')| / d(o, o') of the
// observation values v under ground metric g: +Inf when two observations
// at distance 0 have different values. For the observation reward
// R(s,a) = E[v(O') | s, a] this bounds L_R for every deterministic family
// (R̄(h) = E[v(O_{t+1}) | h], and the first-observation marginal of a
// suffix law moves by at most the W1 of the summed sequence metric).
func ObsLipschitz(v []float64, g ot.Ground) float64 {
	out := 0.0
	for i := range v {
		for j := range v {
			if i == j || v[i] == v[j] {
				continue
			}
			d := g[i][j]
			if d <= 0 {
				return math.Inf(1)
			}
			out = max(out, math.Abs(v[i]-v[j])/d)
		}
	}
	return out
}

// lipWork estimates the transport work of value.EstimateLipschitz: per
// probe, per depth t, the pairs of depth-t histories times the squared
// support |O|^{T−t}.
func lipWork(n int, nO, T int) float64 {
	w := 0.0
	for t := 1; t < T; t++ {
		h := math.Pow(float64(nO), float64(t))
		s := math.Pow(float64(nO), float64(T-t))
		w += h * h / 2 * s * s
	}
	return w * float64(n)
}

// ComputeLipschitz returns L_R of m's reward for family fam over horizon
// T: exact when the estimated work fits maxWork, else the a-priori bound
// obsLip when the reward is the observation reward (obsLip ≥ 0), else the
// reward range marked as not certified.
func ComputeLipschitz(ctx context.Context, m *pomdp.Model, g ot.Ground, fam fsc.Family, T int, obsLip float64, maxWork float64, workers int) (Lipschitz, error) {
	w := lipWork(fam.Len(), m.NumObservations(), T)
	if T >= 2 && w <= maxWork {
		l, err := value.EstimateLipschitz(ctx, m, fam, T, value.LipschitzOptions{Ground: g, Workers: workers})
		if err != nil {
			return Lipschitz{}, err
		}
		out := Lipschitz{Value: l.LR, How: "exact", Certified: true, Family: fam.String()}
		switch {
		case l.Violations > 0:
			out.Why = fmt.Sprintf("no finite L_R: %d pairs of histories have equal suffix laws (W1 = 0) but expected rewards differing by up to %.4g (first: probe %d, depth %d, histories %d and %d)",
				l.Violations, l.FirstDeltaR, l.First.Probe, l.First.Depth, l.First.I, l.First.J)
		case l.Argmax.Probe < 0:
			out.Why = fmt.Sprintf("every pair of histories with different expected rewards is at distance 0 or none differs: L_R = 0 over %d pairs", l.Pairs)
		default:
			out.Why = fmt.Sprintf("max |ΔR̄|/W1 = %.6g/%.6g over %d pairs (probe %d, depth %d)", l.DeltaR, l.W1, l.Pairs, l.Argmax.Probe, l.Argmax.Depth)
		}
		return out, nil
	}
	if T < 2 {
		// No history pair of depth 1 … T−1: only the root acts with a
		// suffix law, and R̄ at the root is one number.
		return Lipschitz{Value: 0, How: "exact", Certified: true, Family: fam.String(),
			Why: "T = 1: the only acting history is the empty one, so no pair constrains L_R"}, nil
	}
	if obsLip >= 0 {
		return Lipschitz{Value: obsLip, How: "observation reward", Certified: true, Family: fam.String(),
			Why: fmt.Sprintf("a-priori Lip(v) under the ground metric (rem:lipschitz-small); the exact supremum would take %.3g transport steps, above the limit %.3g", w, maxWork)}, nil
	}
	return Lipschitz{Value: value.RewardRange(m), How: "reward range (not a bound)", Certified: false, Family: fam.String(),
		Why: fmt.Sprintf("R_max − R_min (rem:lipschitz-small, a bound only for observation-based rewards); the exact L_R would take %.3g transport steps, above the limit %.3g", w, maxWork)}, nil
}

// Bound is a certified bound on a row's measured regret, with its terms.
type Bound struct {
	// Applies is false when no theorem covers the planner's policy; Reason
	// then says why, and Value is NaN.
	Applies bool
	Reason  string
	// Theorem names the result, e.g. "cor:sim-to-real".
	Theorem string
	// Formula is the bound written out, e.g. "2·L_R·T·ε".
	Formula string
	LR      Lipschitz
	T       int
	Eps     float64
	// Delta is δ_clk when the formula has it (DeltaName "δ_clk"), else 0.
	Delta     float64
	DeltaName string
	// Covers names the policies the bound is about (the family Π).
	Covers string
	Value  float64
}

// String renders the bound with every term.
func (b Bound) String() string {
	if !b.Applies {
		return "no certified bound: " + b.Reason
	}
	terms := fmt.Sprintf("L_R = %s (%s), T = %d, ε = %g", fmtLR(b.LR.Value), b.LR.How, b.T, b.Eps)
	if b.DeltaName != "" {
		terms += fmt.Sprintf(", %s = %.6g", b.DeltaName, b.Delta)
	}
	v := fmt.Sprintf("%.6g", b.Value)
	if math.IsInf(b.Value, 1) {
		v = "none (vacuous: L_R is infinite)"
	}
	return fmt.Sprintf("%s = %s by %s with %s; covers %s", b.Formula, v, b.Theorem, terms, b.Covers)
}

func fmtLR(x float64) string {
	if math.IsInf(x, 1) {
		return "+Inf"
	}
	return fmt.Sprintf("%.6g", x)
}

// Verdict is what a row's measured regret says about its bound. It is
// typed so that nothing reads a verdict back from its text: String gives
// the words printed in tables and JSON, Violated and Alarm what a caller
// acts on.
type Verdict int

// The verdicts of a row.
const (
	// NotCovered: no theorem covers the planner's policy.
	NotCovered Verdict = iota
	// VacuousBound: the bound is +Inf (L_R is infinite).
	VacuousBound
	// NotCertified: L_R is the reward-range fallback, no proven constant.
	NotCertified
	// NotJudged: a bound applies but there is no baseline to measure the
	// regret from.
	NotJudged
	// WithinBound: the measured regret is at most the bound.
	WithinBound
	// BoundViolated: a finding: the theorem's hypotheses hold and its
	// conclusion does not.
	BoundViolated
	// WithinBoundStandIn is WithinBound where a compared controller's
	// quotient enters a class with no possible member (Row.StandInReach >
	// 0): the theorem's hypothesis is not verified, so the row is not
	// certified.
	WithinBoundStandIn
	// BoundViolatedStandIn is BoundViolated under the same proviso: not a
	// certified violation.
	BoundViolatedStandIn
)

var verdictText = [...]string{
	NotCovered:           "not covered",
	VacuousBound:         "vacuous bound",
	NotCertified:         "not certified",
	NotJudged:            "not judged (no baseline)",
	WithinBound:          "within bound",
	BoundViolated:        "BOUND VIOLATED",
	WithinBoundStandIn:   "within bound (not certified: stand-in class reached)",
	BoundViolatedStandIn: "BOUND VIOLATED (not certified: stand-in class reached)",
}

// String returns the verdict in words, as tables and JSON print it.
func (v Verdict) String() string {
	if v < 0 || int(v) >= len(verdictText) {
		return fmt.Sprintf("Verdict(%d)", int(v))
	}
	return verdictText[v]
}

// Violated reports a certified violation: the measured regret exceeds a
// bound whose hypotheses were all verified (BoundViolated).
func (v Verdict) Violated() bool { return v == BoundViolated }

// Alarm reports a measured regret above the bound, certified or not
// (BoundViolated, BoundViolatedStandIn): what a reader must not miss.
func (v Verdict) Alarm() bool { return v == BoundViolated || v == BoundViolatedStandIn }

// Uncertified reports a verdict that is not certified: the bound is the
// reward-range fallback or a stand-in class was reached.
func (v Verdict) Uncertified() bool {
	return v == NotCertified || v == WithinBoundStandIn || v == BoundViolatedStandIn
}

// standIn returns the verdict qualified by a reached stand-in class:
// WithinBound and BoundViolated become their StandIn forms, the others
// are unchanged (they certify nothing to qualify).
func (v Verdict) standIn() Verdict {
	switch v {
	case WithinBound:
		return WithinBoundStandIn
	case BoundViolated:
		return BoundViolatedStandIn
	}
	return v
}

// Judge compares a measured regret with a bound: WithinBound,
// BoundViolated, VacuousBound (L_R infinite), NotCertified (the L_R is the
// reward-range fallback) or NotCovered (no theorem applies). The
// tolerance is 1e-9·max(1, scale).
func Judge(regret float64, b Bound, scale float64) Verdict {
	switch {
	case !b.Applies:
		return NotCovered
	case math.IsInf(b.Value, 1):
		return VacuousBound
	case !b.LR.Certified:
		return NotCertified
	case regret <= b.Value+1e-9*max(1, math.Abs(scale)):
		return WithinBound
	}
	return BoundViolated
}
