package planq

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// PosteriorTheorem names the a-posteriori certificate (its proof is in
// docs/certificates.md).
const PosteriorTheorem = "thm:a-posteriori (docs/certificates.md; the hybrid argument behind thm:value-bound and cor:sim-to-real)"

// Posterior is the a-posteriori certificate of one ε row: the a-priori
// bound with ε replaced by what the partition actually produced, the
// realized step diameters e_t, and Lip(v) of the observation reward.
type Posterior struct {
	// Applies is false when the certificate's hypotheses do not hold;
	// Reason then says which, and Value is NaN.
	Applies bool
	Reason  string
	// Theorem and Formula name the result and write it out.
	Theorem, Formula string
	// Lip is Lip(v) of the observation values under the ground metric.
	Lip float64
	// Far is the largest ground distance: the W1 between two laws of
	// n-observation suffixes is at most n·Far, the value used for a pair
	// whose distance the run kept only as a lower bound (above the largest
	// ε decided); FarPairs counts the (class, class) pairs that needed it.
	Far      float64
	FarPairs int
	// Steps[t−1] = e_t for t = 1 … T−1: the largest d^Π(h·z, h') over
	// classes c of depth t−1, observations z, members h of c and members
	// h' of the class the quotient moves to from c on z.
	Steps []float64
	// Deviation = Lip·Σ_t e_t bounds |V_M(π) − V_Q(π)| for every π of Π
	// whose quotient enters no stand-in class.
	Deviation float64
	// ChosenDev and OptimumDev are the per-controller bounds (Lip(v)
	// times the expected optimal-coupling costs along Q's own process,
	// controllerDeviation) of the quotient's choice and of the optimum
	// over Π on the model (Deviation when the model was not planned on);
	// NaN when not computed (PerReason says why).
	ChosenDev, OptimumDev float64
	PerReason             string
	// Value bounds the regret of the quotient's choice against the
	// optimum over Π: min(2·Deviation, ChosenDev + OptimumDev).
	Value float64
	// Covers names the policies the certificate is about.
	Covers string
}

// String renders the certificate with every term.
func (p Posterior) String() string {
	if !p.Applies {
		return "no a-posteriori certificate: " + p.Reason
	}
	steps := make([]string, len(p.Steps))
	for i, e := range p.Steps {
		steps[i] = fmt.Sprintf("e_%d = %.6g", i+1, e)
	}
	if p.FarPairs > 0 {
		steps = append(steps, fmt.Sprintf("%d pairs above the decided range taken at (T−t)·%.3g", p.FarPairs, p.Far))
	}
	per := "per-controller terms not computed: " + p.PerReason
	if p.PerReason == "" {
		per = fmt.Sprintf("per controller, ≤ %.6g (choice) + %.6g (optimum) = %.6g", p.ChosenDev, p.OptimumDev, p.ChosenDev+p.OptimumDev)
	}
	return fmt.Sprintf("%s = %.6g by %s with Lip(v) = %.6g, %s (2·Lip(v)·Σ e_t = %.6g; %s); covers %s", p.Formula, p.Value, p.Theorem, p.Lip, strings.Join(steps, ", "), 2*p.Deviation, per, p.Covers)
}

// maxStepPairs bounds the (exact class, exact class) pairs stepDiameters
// examines.
const maxStepPairs = 5e7

// posteriorBound returns the a-posteriori certificate of the ε row with
// quotient q, from the distances dist of the run.
func posteriorBound(cfg Config, res *Result, g ot.Ground, dist *distance.Result, q *quotient.Quotient) Posterior {
	p := Posterior{Theorem: PosteriorTheorem, Formula: "min(2·Lip(v)·Σ_{t=1}^{T−1} e_t, B(π_Q) + B(π*))", Value: math.NaN(), Deviation: math.NaN(),
		ChosenDev: math.NaN(), OptimumDev: math.NaN()}
	fail := func(why string) Posterior { p.Reason = why; return p }
	if _, ok := cfg.Planner.(BestFSC); !ok {
		return fail(fmt.Sprintf("the %s planner does not choose over Π by its value on the quotient it sees", cfg.Planner.Name()))
	}
	if cfg.M != 1 || (cfg.Kind != fsc.KindStationary && cfg.Kind != fsc.KindClock) {
		return fail("proven for one-node families only (stationary or clock-aware m = 1): with more nodes the controller's node in the quotient need not be the node it has after a member of the class, and the probe distances compare members each with its own node")
	}
	if cfg.ObsValues == nil {
		return fail("proven for the observation reward only (the value is then a Lip(v)-Lipschitz function of the observation sequence)")
	}
	p.Lip = ObsLipschitz(cfg.ObsValues, g)
	if math.IsInf(p.Lip, 1) {
		return fail("Lip(v) is infinite: two observations at ground distance 0 have different values")
	}
	for _, row := range g {
		for _, d := range row {
			p.Far = max(p.Far, d)
		}
	}
	steps, far, why := stepDiameters(dist, q, p.Far)
	p.FarPairs = far
	if why != "" {
		return fail(why)
	}
	p.Applies, p.Steps = true, steps
	sum := 0.0
	for _, e := range steps {
		sum += e
	}
	p.Deviation = p.Lip * sum
	p.Value = 2 * p.Deviation
	p.Covers = fmt.Sprintf("every controller of Π = %s whose quotient enters no class without a possible member (|V_M(π) − V_Q(π)| ≤ %.6g), and the regret of the quotient's choice against the optimum over Π", res.Family, p.Deviation)
	if res.StandIns > 0 {
		p.Covers += " when neither enters such a class (the row's stand-in check; unchecked for the optimum when the model was not planned on)"
	}
	return p
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
	// no stand-in class); Reason says why it was not measured.
	Worst      float64
	Controller string
	Checked    int
	Reason     string
	// WorstBound is the largest a-posteriori deviation bound over the
	// controllers checked (0 when the certificate does not apply).
	WorstBound float64
	// pairs are (|V_M(π) − V_Q(π)|, its a-posteriori bound) per
	// controller checked, for the tests.
	pairs [][2]float64
}

// worstDeviation returns max over the family of |V_M(π) − V_Q(π)|, each π
// valued on the quotient it sees, skipping controllers whose quotient
// enters a class without a possible member.
func worstDeviation(ctx context.Context, env *Env, q *quotient.Quotient, bound func(*fsc.FSC) (float64, error)) (Tightness, error) {
	out := Tightness{Worst: math.NaN()}
	fam := env.Family
	if w := 2 * familyWork(env, fam); w > env.MaxWork {
		out.Reason = fmt.Sprintf("valuing every controller of %s on the model and on its quotient would take an estimated %.3g steps, above the limit %.3g", fam, w, env.MaxWork)
		return out, nil
	}
	worst := -1.0
	for i := 0; i < fam.Len(); i++ {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		c := fam.At(i)
		if r, err := q.StandInReach(c); err != nil {
			return out, err
		} else if r > 0 {
			continue
		}
		vm, err := value.Evaluate(env.Model, c, env.T, env.Obj)
		if err != nil {
			return out, err
		}
		qm, err := q.ForProbe(c)
		if err != nil {
			return out, err
		}
		vq, err := value.Evaluate(qm, c, env.T, env.Obj)
		if err != nil {
			return out, err
		}
		out.Checked++
		if bound != nil {
			b, err := bound(c)
			if err != nil {
				return out, err
			}
			out.WorstBound = max(out.WorstBound, b)
			out.pairs = append(out.pairs, [2]float64{math.Abs(vm - vq), b})
		}
		if d := math.Abs(vm - vq); d > worst {
			worst, out.Controller = d, c.String()
		}
	}
	if out.Checked > 0 {
		out.Worst = worst
	}
	return out, nil
}

// certify adds the a-posteriori certificate, its verdict and the
// tightness ratios to row.
func certify(ctx context.Context, cfg Config, env *Env, res *Result, g ot.Ground, dist *distance.Result, q *quotient.Quotient, plan *Plan, row *Row) error {
	row.Posterior = posteriorBound(cfg, res, g, dist, q)
	if row.Posterior.Applies {
		if err := perController(&row.Posterior, dist, q, plan, res.Baseline); err != nil {
			return err
		}
	}
	row.TightnessPrior, row.TightnessPosterior = math.NaN(), math.NaN()
	row.PosteriorVerdict = NotCovered
	if row.Posterior.Applies {
		row.PosteriorVerdict = judgeValue(row.Regret, row.Posterior.Value, row.Reference)
		if row.StandInReach > 0 || math.IsNaN(row.StandInReach) {
			row.PosteriorVerdict = row.PosteriorVerdict.standIn()
		}
	}
	if !row.Bound.Applies && !row.Posterior.Applies {
		row.Tightness = Tightness{Worst: math.NaN(), Reason: "no bound to compare"}
		return nil
	}
	if _, ok := cfg.Planner.(BestFSC); !ok {
		row.Tightness = Tightness{Worst: math.NaN(), Reason: "the bound is not about the family Π"}
		return nil
	}
	var bound func(c *fsc.FSC) (float64, error)
	if p := row.Posterior; p.Applies {
		bound = func(c *fsc.FSC) (float64, error) {
			d, why, err := controllerDeviation(q, dist, c, p.Lip, p.Far)
			if why != "" || d > p.Deviation {
				d = p.Deviation
			}
			return d, err
		}
	}
	limit := cfg.TightnessLimit
	if limit == 0 {
		limit = DefaultTightnessLimit
	}
	if n := env.Family.Len(); n > limit {
		row.Tightness = Tightness{Worst: math.NaN(), Reason: fmt.Sprintf("Π has %d controllers, above the limit %d of controllers valued on the model and the quotient (--tightness-limit)", n, max(limit, 0))}
		return nil
	}
	t, err := worstDeviation(ctx, env, q, bound)
	if err != nil {
		return err
	}
	row.Tightness = t
	if t.Worst <= 1e-9*max(1, math.Abs(row.Reference)) {
		row.Tightness.Reason = fmt.Sprintf("the worst exact |V_M(π) − V_Q(π)| over %d controllers is %.3g, within rounding of 0: no ratio", t.Checked, t.Worst)
	} else {
		if row.Bound.Applies && row.Bound.LR.Certified {
			row.TightnessPrior = row.Bound.Value / 2 / t.Worst
		}
		if row.Posterior.Applies {
			row.TightnessPosterior = t.WorstBound / t.Worst
		}
	}
	return nil
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

// controllerDeviation returns the a-posteriori bound on |V_M(π) − V_Q(π)|
// for one controller π of a one-node family: Lip(v) times, summed over
// the steps k = 0 … T−2, the expectation under Q's own process of the
// optimal-coupling cost min_γ Σ_{x,y} γ_xy d^Π(x, y) between the members'
// extensions x = h·z (weights ∝ P(z | b^π_h, a)) and the members y of
// the class Q moves to (uniform); docs/certificates.md, Step 3. It
// returns why when a class without a possible member is reached; a
// distance kept only as a lower bound is replaced by upperAt's bound.
func controllerDeviation(q *quotient.Quotient, dist *distance.Result, pi *fsc.FSC, lip, gmax float64) (float64, string, error) {
	m := q.M
	nS, nO := m.NumStates(), m.NumObservations()
	e, err := law.NewEngine(m, q.T, law.UniformStandIn)
	if err != nil {
		return 0, "", err
	}
	beliefs, imp, err := e.Beliefs(pi)
	if err != nil {
		return 0, "", err
	}
	tree := dist.Tree
	pred, probs := make([]float64, nS), make([]float64, nO)
	reach := []float64{1}
	total := 0.0
	for k := 0; k+1 < q.T; k++ {
		a := pi.Action(k, 0)
		off, offN := tree.Offset(k), tree.Offset(k+1)
		cb, si := q.AggregateDepth(k, nS, func(i int) []float64 { return beliefs[off+i] }, func(i int) bool { return imp[off+i] })
		_, siN := q.AggregateDepth(k+1, nS, func(i int) []float64 { return beliefs[offN+i] }, func(i int) bool { return imp[offN+i] })
		memK := possibleMembers(q.Partition.Labels[k], q.Partition.Classes(k), func(i int) bool { return imp[off+i] })
		memN := possibleMembers(q.Partition.Labels[k+1], q.Partition.Classes(k+1), func(i int) bool { return imp[offN+i] })
		// P(z | b^π_h, a) of every depth-k history.
		obs := make([][]float64, tree.Count(k))
		for h := range obs {
			m.Predict(pred, beliefs[off+h], a)
			obs[h] = make([]float64, nO)
			m.ObsProbs(obs[h], pred, a)
		}
		ex := dist.Classes.Labels[k+1]
		next := make([]float64, q.Partition.Classes(k+1))
		for c, p := range reach {
			if p <= 0 {
				continue
			}
			if si[c] {
				return 0, fmt.Sprintf("the quotient seen by %v reaches a depth-%d class without a possible member", pi, k), nil
			}
			m.Predict(pred, cb[c*nS:(c+1)*nS], a)
			m.ObsProbs(probs, pred, a)
			tot := 0.0
			for _, x := range probs {
				tot += x
			}
			for z, pz := range probs {
				if pz <= 0 {
					continue
				}
				pz /= tot
				c2 := q.Next[k][c][z]
				next[c2] += p * pz
				if siN[c2] {
					return 0, fmt.Sprintf("the quotient seen by %v reaches a depth-%d class without a possible member", pi, k+1), nil
				}
				lam, mu := map[int]float64{}, map[int]float64{}
				ls := 0.0
				for _, h := range memK[c] {
					if w := obs[h][z]; w > 0 {
						lam[ex[h*nO+z]] += w
						ls += w
					}
				}
				for _, y := range memN[c2] {
					mu[ex[y]] += 1 / float64(len(memN[c2]))
				}
				cost, err := couplingCost(lam, ls, mu, func(a, b int) float64 {
					d, _ := upperAt(dist, q.T, k+1, a, b, gmax)
					return d
				})
				if err != nil {
					return 0, "", err
				}
				total += p * pz * cost
			}
		}
		reach = next
	}
	return lip * total, "", nil
}

// couplingCost returns the optimal transport cost between the weights
// lam/ls and mu over exact classes under cost d: the cheapest coupling of
// the two mixtures' components (docs/certificates.md, Step 3).
func couplingCost(lam map[int]float64, ls float64, mu map[int]float64, d func(a, b int) float64) (float64, error) {
	xs, ys := slices.Sorted(maps.Keys(lam)), slices.Sorted(maps.Keys(mu))
	p, q := make([]float64, len(xs)), make([]float64, len(ys))
	for i, x := range xs {
		p[i] = lam[x] / ls
	}
	for j, y := range ys {
		q[j] = mu[y]
	}
	cost := make([]float64, 0, len(xs)*len(ys))
	for _, x := range xs {
		for _, y := range ys {
			cost = append(cost, d(x, y))
		}
	}
	return ot.W1(p, q, cost)
}

// possibleMembers lists, per class, the members not impossible.
func possibleMembers(labels []int, k int, imp func(i int) bool) [][]int {
	out := make([][]int, k)
	for i, c := range labels {
		if !imp(i) {
			out[c] = append(out[c], i)
		}
	}
	return out
}

// perController sets the per-controller terms of p for the quotient's
// choice and the optimum over Π (the baseline of best-fsc; when it was
// refused, the family-wide Lip(v)·Σ_t e_t stands for its term), and
// lowers p.Value to their sum when that is smaller.
func perController(p *Posterior, dist *distance.Result, q *quotient.Quotient, plan, base *Plan) error {
	if plan == nil || plan.Controller == nil {
		p.PerReason = "the quotient's choice is not a controller at hand"
		return nil
	}
	ctrls := []*fsc.FSC{plan.Controller}
	if base != nil && base.Controller != nil {
		ctrls = append(ctrls, base.Controller)
	}
	// Without the optimum over Π on the model (refused), its term is the
	// family-wide Lip(v)·Σ_t e_t.
	devs := [2]float64{p.Deviation, p.Deviation}
	for i, c := range ctrls {
		d, why, err := controllerDeviation(q, dist, c, p.Lip, p.Far)
		if err != nil {
			return err
		}
		if why != "" {
			p.PerReason = why
			return nil
		}
		devs[i] = min(d, p.Deviation)
	}
	p.ChosenDev, p.OptimumDev = devs[0], devs[1]
	p.Value = min(p.Value, p.ChosenDev+p.OptimumDev)
	return nil
}
