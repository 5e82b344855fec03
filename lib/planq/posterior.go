package planq

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// PosteriorTheorem names the a-posteriori certificate (its proof is in
// docs/certificates.md).
const PosteriorTheorem = "thm:a-posteriori (docs/certificates.md: a telescoping sum over hybrids of Q and M, and the triangle argument of cor:sim-to-real)"

// Posterior is the a-posteriori certificate of one ε row: the regret of
// the quotient's choice bounded by what the run actually produced, the
// per-controller hybrid terms B(π) of thm:hybrid (docs/certificates.md)
// and, for one-node families under the observation reward, the realized
// step diameters e_t.
type Posterior struct {
	// Applies is false when the certificate's hypotheses do not hold;
	// Reason then says which, and Value is NaN.
	Applies bool
	Reason  string
	// Theorem and Formula name the result and write it out.
	Theorem, Formula string
	// Lip is Lip(v) of the observation values under the ground metric
	// (NaN without the observation reward).
	Lip float64
	// Far is the largest ground distance: the W1 between two laws of
	// n-observation suffixes is at most n·Far, the value used for a pair
	// whose distance the run kept only as a lower bound (above the largest
	// ε decided); FarPairs counts the (class, class) pairs that needed it.
	Far      float64
	FarPairs int
	// Steps[t−1] = e_t for t = 1 … T−1: the largest d^Π(h·z, h') over
	// classes c of depth t−1, observations z, members h of c and members
	// h' of the class the quotient moves to from c on z (one-node
	// families under the observation reward; StepsReason says why not).
	Steps       []float64
	StepsReason string
	// LipDeviation = Lip·Σ_t e_t bounds |V_M(π) − V_Q(π)| for every π of
	// Π whose quotient enters no stand-in class (NaN when Steps is nil).
	LipDeviation float64
	// Deviation bounds |V_M(π) − V_Q(π)| for every π of Π: the largest
	// B(π) over Π when every controller was valued (DeviationHow says
	// so), else LipDeviation when it is proven for every π of Π (no
	// impossible history, or a right-invariant partition), else NaN.
	Deviation    float64
	DeviationHow string
	// ChosenDev and OptimumDev are B(π_Q) and B(π*) of the quotient's
	// choice and of the optimum over Π on the model (Deviation when the
	// model was not planned on); NaN when not computed (PerReason says
	// why).
	ChosenDev, OptimumDev float64
	PerReason             string
	// Value bounds the regret of the quotient's choice against the
	// optimum over Π: ChosenDev + OptimumDev.
	Value float64
	// Covers names the policies the certificate is about.
	Covers string
	// standInHyp is true when LipDeviation was withheld as the optimum's
	// term: its proof needs the optimum's quotient to enter no class
	// without a possible member, unproven when some history is impossible
	// and the partition is not right-invariant. No printed value rests on
	// it.
	standInHyp bool
}

// String renders the certificate with every term.
func (p Posterior) String() string {
	if !p.Applies {
		return "no a-posteriori certificate: " + p.Reason
	}
	fam := "for every π of Π, |V_M(π) − V_Q(π)| ≤ " + fmt.Sprintf("%.6g (%s)", p.Deviation, p.DeviationHow)
	if math.IsNaN(p.Deviation) {
		fam = "no family-wide term: " + p.DeviationHow
	}
	steps := "no step diameters: " + p.StepsReason
	if p.Steps != nil {
		parts := make([]string, len(p.Steps))
		for i, e := range p.Steps {
			parts[i] = fmt.Sprintf("e_%d = %.6g", i+1, e)
		}
		if p.FarPairs > 0 {
			parts = append(parts, fmt.Sprintf("%d pairs above the decided range taken at (T−t)·%.3g", p.FarPairs, p.Far))
		}
		steps = fmt.Sprintf("Lip(v)·Σ e_t = %.6g (for the π of Π whose quotient enters no stand-in class) with Lip(v) = %.6g, %s", p.LipDeviation, p.Lip, strings.Join(parts, ", "))
	}
	return fmt.Sprintf("%s = %.6g + %.6g = %.6g by %s; %s; %s; covers %s", p.Formula, p.ChosenDev, p.OptimumDev, p.Value, p.Theorem, fam, steps, p.Covers)
}

// maxStepPairs bounds the (exact class, exact class) pairs stepDiameters
// examines.
const maxStepPairs = 5e7

// posteriorBound returns the a-posteriori certificate of the ε row with
// quotient q and the quotient's plan: B(π_Q), B(π*) (the family-wide term
// for π* when the model was not planned on) and, where they are proven,
// the step diameters e_t from the distances dist of the run. certify adds
// the largest B(π) over Π when every controller was valued.
func posteriorBound(cfg Config, env *Env, res *Result, g ot.Ground, dist *distance.Result, q *quotient.Quotient, plan *Plan) (Posterior, error) {
	nan := math.NaN()
	p := Posterior{Theorem: PosteriorTheorem, Formula: "B(π_Q) + B(π*)", Lip: nan, Value: nan, Deviation: nan, LipDeviation: nan,
		ChosenDev: nan, OptimumDev: nan}
	if _, ok := cfg.Planner.(BestFSC); !ok {
		p.Reason = fmt.Sprintf("the %s planner does not choose over Π by its value on the quotient it sees", cfg.Planner.Name())
		return p, nil
	}
	p.StepsReason = lipSteps(cfg, g, dist, q, &p)
	p.DeviationHow = "the largest B(π) over Π was not computed, and " + p.StepsReason
	// Lip(v)·Σ e_t covers the controllers whose quotient enters no
	// stand-in class: all of Π (one node) when no history is impossible or
	// the partition is right-invariant (quotient.StandInReach), else the
	// hypothesis is unproven for a controller not valued.
	hyp := res.StandIns > 0 && !q.RightInvariant()
	if p.Steps != nil && !hyp {
		p.Deviation, p.DeviationHow = p.LipDeviation, lipAll(res)
	}
	if plan == nil || plan.Controller == nil {
		p.Reason = "the quotient's choice is not a controller at hand"
		return p, nil
	}
	gamma := env.Obj.Discount
	if gamma == 0 {
		gamma = 1
	}
	var err error
	if p.ChosenDev, err = hybridDeviation(q, plan.Controller, gamma); err != nil {
		return p, err
	}
	if base := res.Baseline; base != nil && base.Controller != nil {
		if p.OptimumDev, err = hybridDeviation(q, base.Controller, gamma); err != nil {
			return p, err
		}
	} else {
		// Deviation is NaN when Lip(v)·Σ e_t is unproven for π*: the
		// optimum's term is then withheld (familyDeviation may supply the
		// proven largest B(π)).
		p.OptimumDev, p.standInHyp = p.Deviation, p.Steps != nil && hyp
	}
	p.finish(res)
	return p, nil
}

// lipAll says why Lip(v)·Σ e_t bounds |V_M(π) − V_Q(π)| for every π of a
// one-node family: no quotient seen by π enters a class without a
// possible member.
func lipAll(res *Result) string {
	if res.StandIns == 0 {
		return "Lip(v)·Σ e_t; no history is impossible, so no quotient enters a stand-in class"
	}
	return "Lip(v)·Σ e_t; the partition is right-invariant, so no quotient seen by a one-node controller enters a stand-in class"
}

// lipSteps sets the step diameters e_t and Lip·Σ_t e_t of p where their
// proof holds (one-node family, observation reward), else returns why
// not.
func lipSteps(cfg Config, g ot.Ground, dist *distance.Result, q *quotient.Quotient, p *Posterior) string {
	if cfg.M != 1 || (cfg.Kind != fsc.KindStationary && cfg.Kind != fsc.KindClock) {
		return "the step diameters e_t are proven for one-node families only (stationary or clock-aware m = 1): with more nodes the controller's node in the quotient need not be the node it has after a member of the class"
	}
	if cfg.ObsValues == nil {
		return "the step diameters e_t are proven for the observation reward only (the value is then a Lip(v)-Lipschitz function of the observation sequence)"
	}
	lip := ObsLipschitz(cfg.ObsValues, g)
	if math.IsInf(lip, 1) {
		return "Lip(v) is infinite: two observations at ground distance 0 have different values"
	}
	far := 0.0
	for _, row := range g {
		for _, d := range row {
			far = max(far, d)
		}
	}
	steps, n, why := stepDiameters(dist, q, far)
	if why != "" {
		return why
	}
	sum := 0.0
	for _, e := range steps {
		sum += e
	}
	p.Lip, p.Far, p.FarPairs, p.Steps, p.LipDeviation = lip, far, n, steps, lip*sum
	return ""
}

// finish sets Value, Applies and Covers from the per-controller terms, or
// Reason when the optimum's term is missing.
func (p *Posterior) finish(res *Result) {
	if math.IsNaN(p.OptimumDev) {
		p.Applies, p.Value = false, math.NaN()
		p.Reason = "the model was not planned on, so B(π*) of the optimum is not known, and no family-wide term stands for it: " + p.DeviationHow
		if p.standInHyp {
			p.Reason = fmt.Sprintf("the model was not planned on, so B(π*) of the optimum is not known; Lip(v)·Σ e_t = %.6g would stand for it only if its quotient entered no class without a possible member, which is unproven (%d impossible (history, probe) pairs, partition not right-invariant), and the largest B(π) over Π was not computed", p.LipDeviation, res.StandIns)
		}
		return
	}
	p.Applies, p.Reason = true, ""
	p.Value = p.ChosenDev + p.OptimumDev
	p.Covers = fmt.Sprintf("the regret of the quotient's choice against the optimum over Π = %s, and |V_M(π) − V_Q(π)| ≤ B(π) for every controller π of Π", res.Family)
}

// stepDiameters returns e_t for t = 1 … T−1 (see Posterior.Steps), or why
// they are not known exactly.
func stepDiameters(dist *distance.Result, q *quotient.Quotient, gmax float64) ([]float64, int, string) {
	if dist.ClassD == nil {
		return nil, 0, "the distances were kept only as decisions (compact run), not as numbers"
	}
	T, nO := q.T, q.M.NumObservations()
	steps := make([]float64, 0, max(T-1, 0))
	pairs, far := 0.0, 0
	for t := 0; t+1 < T; t++ {
		lt, lu := q.Partition.Labels[t], q.Partition.Labels[t+1]
		ex := dist.Classes.Labels[t+1]
		// Exact classes of the members of each class at depth t+1.
		members := make([]map[int]bool, q.Partition.Classes(t+1))
		for i, c := range lu {
			if members[c] == nil {
				members[c] = map[int]bool{}
			}
			members[c][ex[i]] = true
		}
		// Exact classes of the extensions h·z of each class at depth t.
		ext := make([][]map[int]bool, q.Partition.Classes(t))
		for h, c := range lt {
			if ext[c] == nil {
				ext[c] = make([]map[int]bool, nO)
			}
			for z := 0; z < nO; z++ {
				if ext[c][z] == nil {
					ext[c][z] = map[int]bool{}
				}
				ext[c][z][ex[h*nO+z]] = true
			}
		}
		e := 0.0
		for c := range ext {
			for z := 0; z < nO; z++ {
				to := members[q.Next[t][c][z]]
				pairs += float64(len(ext[c][z]) * len(to))
				if pairs > maxStepPairs {
					return nil, 0, fmt.Sprintf("the realized step diameters need more than %.3g pairs of exact classes", float64(maxStepPairs))
				}
				for a := range ext[c][z] {
					for b := range to {
						d, above := upperAt(dist, T, t+1, a, b, gmax)
						if above {
							far++
						}
						e = max(e, d)
					}
				}
			}
		}
		steps = append(steps, e)
	}
	return steps, far, ""
}

// upperAt returns an upper bound on d^Π between the depth-t exact classes
// a and b: the distance when the run decided it exactly, else (above the
// largest ε decided, where it is a lower bound) (T−t)·gmax, the largest
// W1 between laws of T−t observations; above reports the second case.
func upperAt(dist *distance.Result, T, t, a, b int, gmax float64) (float64, bool) {
	d := dist.ClassD[t].At(a, b)
	if d <= dist.Cap {
		return d, false
	}
	return max(d, float64(T-t)*gmax), true
}

// Tightness is the worst exact deviation max_π |V_M(π) − V_Q(π)| over the
// controllers of Π a certificate covers, for the tightness ratio.
type Tightness struct {
	// Worst is the largest |V_M(π) − V_Q(π)|, Controller the π attaining
	// it and Checked the controllers compared (those whose quotient enters
	// no stand-in class, as the a-priori bound needs); Reason says why it
	// was not measured.
	Worst      float64
	Controller string
	Checked    int
	Reason     string
	// WorstBound is the largest a-posteriori deviation bound B(π) over
	// the controllers checked (0 when the certificate does not apply).
	WorstBound float64
	// AllBound is the largest B(π) over every controller of Π, stand-in
	// classes or not (NaN when not computed): the family-wide deviation.
	AllBound float64
	// pairs are (|V_M(π) − V_Q(π)|, B(π)) per controller of Π, stand-in
	// classes or not, for the tests.
	pairs [][2]float64
}

// worstDeviation returns max over the family of |V_M(π) − V_Q(π)|, each π
// valued on the quotient it sees, over the controllers whose quotient
// enters no class without a possible member, and, when bound is not nil,
// the largest bound(π) over those and over all of Π.
func worstDeviation(ctx context.Context, env *Env, q *quotient.Quotient, bound func(*quotient.Seen) float64) (Tightness, error) {
	out := Tightness{Worst: math.NaN(), AllBound: math.NaN()}
	fam := env.Family
	if w := 2 * familyWork(env, fam); w > env.MaxWork {
		out.Reason = fmt.Sprintf("valuing every controller of %s on the model and on its quotient would take an estimated %.3g steps, above the limit %.3g", fam, w, env.MaxWork)
		return out, nil
	}
	worst, all := -1.0, 0.0
	for i := 0; i < fam.Len(); i++ {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		c := fam.At(i)
		seen, err := q.See(c) // once per controller: a pass over the histories
		if err != nil {
			return out, err
		}
		r := seen.StandInReach()
		if r > 0 && bound == nil {
			continue
		}
		d, err := deviation(env, seen)
		if err != nil {
			return out, err
		}
		if bound != nil {
			b := bound(seen)
			all = max(all, b)
			out.pairs = append(out.pairs, [2]float64{d, b})
			if r == 0 {
				out.WorstBound = max(out.WorstBound, b)
			}
		}
		if r > 0 {
			continue
		}
		out.Checked++
		if d > worst {
			worst, out.Controller = d, c.String()
		}
	}
	if out.Checked > 0 {
		out.Worst = worst
	}
	if bound != nil {
		out.AllBound = all
	}
	return out, nil
}

// deviation returns the exact |V_M(π) − V_Q(π)|, π the probe of s and Q
// the quotient it sees.
func deviation(env *Env, s *quotient.Seen) (float64, error) {
	c := s.Probe
	vm, err := value.Evaluate(env.Model, c, env.T, env.Obj)
	if err != nil {
		return 0, err
	}
	qm, err := s.Model()
	if err != nil {
		return 0, err
	}
	vq, err := value.Evaluate(qm, c, env.T, env.Obj)
	if err != nil {
		return 0, err
	}
	return math.Abs(vm - vq), nil
}

// certify adds the a-posteriori certificate, its verdict and the
// tightness ratios to row.
func certify(ctx context.Context, cfg Config, env *Env, res *Result, g ot.Ground, dist *distance.Result, q *quotient.Quotient, plan *Plan, row *Row) error {
	p, err := posteriorBound(cfg, env, res, g, dist, q, plan)
	if err != nil {
		return err
	}
	row.Posterior = p
	row.TightnessPrior, row.TightnessPosterior = math.NaN(), math.NaN()
	defer func() { row.PosteriorVerdict = posteriorVerdict(*row) }()
	if _, ok := cfg.Planner.(BestFSC); !ok {
		row.Tightness = Tightness{Worst: math.NaN(), AllBound: math.NaN(), Reason: "the bound is not about the family Π"}
		return nil
	}
	gamma := env.Obj.Discount
	if gamma == 0 {
		gamma = 1
	}
	bound := func(s *quotient.Seen) float64 { b, _ := hybridSum(s, gamma); return b }
	limit := cfg.TightnessLimit
	if limit == 0 {
		limit = DefaultTightnessLimit
	}
	if n := env.Family.Len(); n > limit {
		row.Tightness = Tightness{Worst: math.NaN(), AllBound: math.NaN(), Reason: fmt.Sprintf("Π has %d controllers, above the limit %d of controllers valued on the model and the quotient (--tightness-limit)", n, max(limit, 0))}
		return nil
	}
	t, err := worstDeviation(ctx, env, q, bound)
	if err != nil {
		return err
	}
	row.Tightness = t
	familyDeviation(&row.Posterior, t, env.Family.Len(), res)
	if t.Worst <= 1e-9*max(1, math.Abs(row.Reference)) {
		row.Tightness.Reason = fmt.Sprintf("the worst exact |V_M(π) − V_Q(π)| over %d controllers is %.3g, within rounding of 0: no ratio", t.Checked, t.Worst)
		return nil
	}
	if row.Bound.Applies && row.Bound.LR.Certified {
		row.TightnessPrior = row.Bound.Value / 2 / t.Worst
	}
	if !math.IsNaN(row.Posterior.Deviation) {
		row.TightnessPosterior = t.WorstBound / t.Worst
	}
	return nil
}

// familyDeviation makes the largest B(π) over every controller of Π the
// certificate's family-wide term (and the optimum's term when the model
// was not planned on, where it is smaller).
func familyDeviation(p *Posterior, t Tightness, n int, res *Result) {
	if math.IsNaN(t.AllBound) {
		return
	}
	p.Deviation, p.DeviationHow = t.AllBound, fmt.Sprintf("the largest B(π) over the %d controllers of Π", n)
	if math.IsNaN(p.ChosenDev) {
		return
	}
	// Both terms are proven here (an unproven Lip(v)·Σ e_t was withheld
	// as NaN), so the smaller one stands for B(π*).
	if res.Baseline == nil || res.Baseline.Controller == nil {
		if math.IsNaN(p.OptimumDev) || t.AllBound < p.OptimumDev {
			p.OptimumDev = t.AllBound
		}
		p.standInHyp = false
	}
	p.finish(res)
}

// posteriorVerdict judges the row's regret against its a-posteriori
// certificate (every term it prints is proven, so it is never qualified).
func posteriorVerdict(row Row) Verdict {
	p := row.Posterior
	if !p.Applies {
		return NotCovered
	}
	return judgeValue(row.Regret, p.Value, row.Reference)
}

// judgeValue is Judge for a bare bound value: NotJudged without a
// regret, else WithinBound or BoundViolated (tolerance 1e-9·max(1, scale)).
func judgeValue(regret, bound, scale float64) Verdict {
	switch {
	case math.IsNaN(regret):
		return NotJudged
	case regret <= bound+1e-9*max(1, math.Abs(scale)):
		return WithinBound
	}
	return BoundViolated
}
