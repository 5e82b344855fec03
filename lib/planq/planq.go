package planq

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/policy"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// DefaultMaxWork bounds the estimated elementary steps of planning on the
// original model and of the exact L_R, unless Config.MaxWork is set.
const DefaultMaxWork = 2e9

// Config describes one planning run.
type Config struct {
	// Model carries the reward planned for (value.WithObsReward for the
	// observation reward); Ground is its observation metric (nil:
	// discrete).
	Model  *pomdp.Model
	Ground ot.Ground
	// GroundLabel names Ground in the result (what it is and where it came
	// from, e.g. ot.Described's Label); empty: a description of the matrix.
	GroundLabel string
	// Reward names the reward ("own", "observation", a file); ObsValues,
	// for the observation reward, are the values v(o) whose Lip(v) is
	// the a-priori L_R.
	Reward    string
	ObsValues []float64
	// Kind, M and T define the family Π and the horizon; Eps the ε values.
	Kind fsc.Kind
	M, T int
	Eps  []float64
	// Planner plans on the quotient and, as the baseline, on the original.
	Planner Planner
	// Distance configures the quotient engine (convention, workers,
	// memory budget, phase and progress callbacks); its Eps, Ground and
	// Metric are set by Run.
	Distance distance.Options
	// Distances, when set, are the distances of the family at horizon T
	// computed already (W1 under Ground, with Distance's convention) for a
	// model with the same transitions and observations as Model (the
	// reward plays no part in them), whose Partition holds at every Eps:
	// Run then uses them instead of computing its own (pomdpq analyze
	// plans for two rewards from the distances of its curves).
	Distances *distance.Result
	// Limit bounds the family size (0: fsc.DefaultLimit).
	Limit int64
	// MaxWork bounds the estimated steps of planning on the original and
	// of the exact L_R (0: DefaultMaxWork).
	MaxWork float64
	// TightnessLimit is the largest family whose every controller is
	// valued on the model and on each quotient for the tightness ratio
	// (0: DefaultTightnessLimit; negative: never).
	TightnessLimit int
}

// DefaultTightnessLimit is Config.TightnessLimit's default: the
// controllers valued per ε for the tightness ratio.
const DefaultTightnessLimit = 5000

// Env is what a planner sees: the model, horizon, objective, family Π and
// the reference probe of exported quotients.
type Env struct {
	Model   *pomdp.Model
	T       int
	Obj     value.LatentReward
	Family  fsc.Family
	Ref     *fsc.FSC
	Workers int
	MaxWork float64
	// Progress, when set, is called as a planner's search advances
	// (done of total candidates); Run passes Config.Distance.Progress.
	Progress func(done, total int)
}

// Plan is a planner's policy on one model.
type Plan struct {
	// Policy renders the policy; Controller is set when the policy is a
	// controller (it then runs unchanged on any model with the same
	// actions and observations).
	Policy     string
	Controller *fsc.FSC
	// Lifted is the policy as a layered graph on the original.
	Lifted *Lifted
	// Value is the policy's value on the model it was planned on.
	Value   float64
	Seconds float64
	// Note adds what the reader must know (e.g. ties).
	Note string
	// search is the exhaustive search behind a plan on the original.
	search *value.Result
}

// Planner plans on a quotient and on the original model.
type Planner interface {
	// Name is the --planner value, e.g. "best-fsc".
	Name() string
	// Quotient plans on quotient q.
	Quotient(ctx context.Context, env *Env, q *quotient.Quotient) (*Plan, error)
	// Original plans on env.Model (the baseline).
	Original(ctx context.Context, env *Env) (*Plan, error)
	// Work estimates the elementary steps of Original (the pre-flight).
	Work(env *Env) float64
}

// Row is the outcome for one ε.
type Row struct {
	Eps     float64
	Classes int
	// DepthClasses[t] is the number of classes at depth t = 0 … T.
	DepthClasses []int
	// RightInvariant is false when a member h of a class has h·z outside
	// the class the quotient moves to (greedy ε-partitions).
	RightInvariant bool
	Policy         string
	// VQ is V_Q(π_Q) (on the quotient the planner used), VM is
	// V_M(lift(π_Q)) on the original.
	VQ, VM float64
	Lifted *Lifted
	// Reference is the value the regret is measured from (the baseline's
	// V_M) and RefName what it is; Regret = Reference − VM (NaN when the
	// baseline was refused).
	Reference float64
	RefName   string
	Regret    float64
	// Optimum is the exact optimum over Π on the original (NaN when
	// refused); RegretOptimum = Optimum − VM.
	Optimum, RegretOptimum float64
	Bound                  Bound
	Verdict                Verdict
	// Posterior is the a-posteriori certificate (docs/certificates.md);
	// PosteriorVerdict judges the regret against it like Verdict.
	Posterior        Posterior
	PosteriorVerdict Verdict
	// Tightness is the worst exact |V_M(π) − V_Q(π)| over Π (when Π is
	// enumerable within MaxWork); TightnessPrior and TightnessPosterior
	// are the deviation bounds L_R·T·ε and max_π B(π) (thm:a-posteriori)
	// over it (NaN when either side is missing).
	Tightness                          Tightness
	TightnessPrior, TightnessPosterior float64
	// StandInReach is the largest probability, over the quotient's choice
	// and the baseline controller, that the quotient a controller sees
	// enters a class with no member possible under it
	// (quotient.StandInReach); 0 when the model has no impossible history,
	// NaN when a policy is no controller. A positive value makes the
	// verdict not certified (WithinBoundStandIn, BoundViolatedStandIn).
	StandInReach float64
	// Times in seconds: the partition (linkage and quotient for this ε;
	// the shared distance computation is Result.DistanceSeconds), planning
	// on Q, planning on M (the baseline, shared by all rows) and the
	// speed-up PlanM / PlanQ.
	PartitionSec, PlanQSec, PlanMSec, Speedup float64
	Note                                      string
}

// Result is a whole planning run.
type Result struct {
	Model, Family, Planner, Reward string
	T                              int
	Gamma                          float64
	Metric, Ground, Convention     string
	MemBudget                      int64
	// MaxWork is the limit on estimated steps that refused or allowed the
	// baseline, the exact optimum and the exact L_R.
	MaxWork    float64
	Histories  int
	FamilySize int
	// StandIns counts the (history, probe) pairs of impossible histories
	// (their laws in the distance computation are stand-ins). Class
	// beliefs give impossible members no weight (quotient.ClassBeliefs),
	// so the bound does not depend on the stand-ins' beliefs; the count is
	// printed beside the results as a setting.
	StandIns        int
	DistanceSeconds float64
	// Baseline is the planner on the original; BaselineRefused says why it
	// was not run.
	Baseline        *Plan
	BaselineRefused string
	// BaselineWork is the planner's estimate of the steps of planning on
	// the original (its pre-flight), a measure of the cost refused.
	BaselineWork float64
	// BaselineAtLeast is a lower bound on those steps and
	// BaselineAtLeastHow how it is counted (payoff.go; 0 and "" when the
	// planner has none).
	BaselineAtLeast    float64
	BaselineAtLeastHow string
	// States is the model's number of states; HistoriesT the number of
	// observation histories of length T (|O|^T).
	States     int
	HistoriesT float64
	// Observations is the model's number of observations.
	Observations int
	// Optimum is the exact optimum over Π on the original.
	Optimum        *value.Result
	OptimumRefused string
	LR             Lipschitz
	DeltaClk       *float64
	DeltaNote      string
	Rows           []Row

	// PlannerSettings is what the planner was given besides the model
	// (a cmd: planner's solver discount), empty when nothing.
	PlannerSettings string
}

// distances returns cfg.Distances, checked against the family and the
// horizon, or computes them in decision mode at cfg.Eps.
func (cfg Config) distances(ctx context.Context, fam fsc.Family, g ot.Ground) (*distance.Result, error) {
	if d := cfg.Distances; d != nil {
		if d.Tree.T != cfg.T || d.FamilySize != fam.Len() || d.Metric != distance.W1 {
			return nil, fmt.Errorf("planq: the distances given are of T = %d, %d controllers, %v, not of T = %d, %s (W1)", d.Tree.T, d.FamilySize, d.Metric, cfg.T, fam)
		}
		for _, e := range cfg.Eps {
			if e+partition.ZeroTol > d.Cap || (d.Decisions != nil && !slices.Contains(d.Decisions.Eps, e)) {
				return nil, fmt.Errorf("planq: the distances given do not decide ε = %g", e)
			}
		}
		return d, nil
	}
	dopt := cfg.Distance
	dopt.Metric, dopt.Ground, dopt.Eps = distance.W1, g, cfg.Eps
	return distance.Compute(ctx, cfg.Model, fam, cfg.T, dopt)
}

// Run plans through the ε-quotients of cfg.Model for every cfg.Eps.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.T < 1 {
		return nil, fmt.Errorf("planq: horizon T = %d, want ≥ 1", cfg.T)
	}
	if cfg.Planner == nil {
		return nil, errors.New("planq: no planner")
	}
	env, res, g, err := cfg.setup()
	if err != nil {
		return nil, err
	}
	phase := func(s string) {
		if cfg.Distance.Phase != nil {
			cfg.Distance.Phase(s)
		}
	}

	// The ε-quotients: the engine of `pomdpq quotient`.
	dist, err := cfg.distances(ctx, env.Family, g)
	if err != nil {
		return nil, err
	}
	res.DistanceSeconds = dist.Seconds
	res.Histories = dist.Tree.Len()
	res.StandIns = dist.StandIns

	// The constant L_R and, where the planner needs it, δ_clk.
	phase("lipschitz")
	if err := cfg.lipschitz(ctx, res, g, env.Family, phase); err != nil {
		return nil, err
	}
	// The baseline and the exact optimum over Π on the original.
	phase("plan-original")
	if err := cfg.original(ctx, env, res); err != nil {
		return nil, err
	}

	qs, partSec, err := quotients(cfg, dist)
	if err != nil {
		return nil, err
	}
	plans, err := planQuotients(ctx, cfg, env, qs, phase)
	if err != nil {
		return nil, err
	}
	for i, eps := range cfg.Eps {
		row, err := planRow(ctx, cfg, res, qs[i], plans[i], eps, partSec[i])
		if err != nil {
			return nil, err
		}
		if err := certify(ctx, cfg, env, res, g, dist, qs[i], plans[i], &row); err != nil {
			return nil, err
		}
		res.Rows = append(res.Rows, row)
	}
	phase("")
	return res, nil
}

// setup returns what every planner sees (the family, the objective, the
// reference probe), the result's settings and the ground metric (cfg's,
// or the discrete one).
func (cfg Config) setup() (*Env, *Result, ot.Ground, error) {
	m := cfg.Model
	g := cfg.Ground
	if g == nil {
		g = ot.Discrete(m.NumObservations())
	}
	maxWork := cfg.MaxWork
	if maxWork == 0 {
		maxWork = DefaultMaxWork
	}
	fam, err := fsc.New(cfg.Kind, m.NumActions(), m.NumObservations(), cfg.M, cfg.T, fsc.Options{Limit: cfg.Limit})
	if err != nil {
		return nil, nil, nil, err
	}
	gamma := 1.0
	if m.HasDiscount {
		gamma = m.Discount
	}
	ref, err := ExportProbe(m, cfg.T)
	if err != nil {
		return nil, nil, nil, err
	}
	env := &Env{Model: m, T: cfg.T, Obj: value.LatentReward{Discount: gamma}, Family: fam, Ref: ref, Workers: cfg.Distance.Workers, MaxWork: maxWork,
		Progress: cfg.Distance.Progress}
	if gamma == 0 {
		return nil, nil, nil, fmt.Errorf("planq: model %s has discount 0 (only the first stage counts); give it a discount in (0, 1] or none", m.Name)
	}
	res := &Result{Model: m.Name, Family: fam.String(), Planner: cfg.Planner.Name(), Reward: cfg.Reward, T: cfg.T, Gamma: gamma,
		Metric: "w1", Ground: groundLabel(cfg.GroundLabel, g), Convention: cfg.Distance.Convention.String(), MemBudget: cfg.Distance.MemBudget, MaxWork: maxWork, FamilySize: fam.Len()}
	res.States, res.HistoriesT = m.NumStates(), math.Pow(float64(m.NumObservations()), float64(cfg.T))
	res.Observations = m.NumObservations()
	if res.MemBudget == 0 {
		res.MemBudget = distance.DefaultMemBudget()
	}
	if s, ok := cfg.Planner.(interface{ Settings() string }); ok {
		res.PlannerSettings = s.Settings()
	}
	return env, res, g, nil
}

// lipschitz computes res.LR over fam (over the clock-aware m = 1 family
// for open-loop strings planned with a stationary Π, with δ_clk when
// m = 1).
func (cfg Config) lipschitz(ctx context.Context, res *Result, g ot.Ground, fam fsc.Family, phase func(string)) error {
	m := cfg.Model
	lfam := fam
	var err error
	_, openLoop := cfg.Planner.(OpenLoop)
	if openLoop && cfg.Kind == fsc.KindStationary {
		if lfam, err = fsc.NewClock(m.NumActions(), m.NumObservations(), 1, cfg.T, fsc.Options{Limit: cfg.Limit}); err != nil {
			return err
		}
		if cfg.M == 1 {
			phase("delta-clk")
			d, err := clock.NewDistances(ctx, m, g, cfg.T, &clock.Options{})
			if err == nil {
				res.DeltaClk = &d.Gap
			} else if ctx.Err() != nil {
				return ctx.Err()
			} else {
				res.DeltaNote = err.Error()
			}
		}
	}
	obsLip := -1.0
	if cfg.ObsValues != nil {
		obsLip = ObsLipschitz(cfg.ObsValues, g)
	}
	res.LR, err = ComputeLipschitz(ctx, m, g, lfam, cfg.T, obsLip, res.MaxWork, cfg.Distance.Workers)
	return err
}

// original runs the planner on the original (the baseline) and finds the
// exact optimum over Π there, each unless its estimated work is above
// res.MaxWork (then the result says why it was refused).
func (cfg Config) original(ctx context.Context, env *Env, res *Result) error {
	var err error
	maxWork, fam := res.MaxWork, env.Family
	res.BaselineWork = cfg.Planner.Work(env)
	res.BaselineAtLeast, res.BaselineAtLeastHow = atLeast(cfg.Planner, env)
	if w := res.BaselineWork; w > maxWork {
		res.BaselineRefused = fmt.Sprintf("%s on the original: estimated %.3g steps, above the limit %.3g (--max-work)", cfg.Planner.Name(), w, maxWork)
	} else if res.Baseline, err = cfg.Planner.Original(ctx, env); errors.Is(err, ErrNoBaseline) {
		res.BaselineRefused = err.Error()
	} else if err != nil {
		return fmt.Errorf("planq: %s on the original: %w", cfg.Planner.Name(), err)
	}
	if _, ok := cfg.Planner.(BestFSC); ok && res.Baseline != nil && res.Baseline.search != nil {
		res.Optimum = res.Baseline.search // the baseline is that search
	} else if w := familyWork(env, fam); w > maxWork {
		res.OptimumRefused = fmt.Sprintf("exact optimum over %s: estimated %.3g steps, above the limit %.3g (--max-work)", fam, w, maxWork)
	} else {
		r, err := value.Best(ctx, cfg.Model, fam, cfg.T, env.Obj, value.Options{Workers: cfg.Distance.Workers})
		if err != nil {
			return err
		}
		res.Optimum = &r
	}
	return nil
}

// quotients builds the quotient of every ε and times each.
func quotients(cfg Config, dist *distance.Result) ([]*quotient.Quotient, []float64, error) {
	qs := make([]*quotient.Quotient, len(cfg.Eps))
	sec := make([]float64, len(cfg.Eps))
	for i, eps := range cfg.Eps {
		start := time.Now()
		q, err := quotient.New(cfg.Model, cfg.T, dist.Partition(eps))
		if err != nil {
			return nil, nil, err
		}
		qs[i], sec[i] = q, time.Since(start).Seconds()
	}
	return qs, sec, nil
}

// planQuotients runs the planner on every quotient: in one pass (phase
// "plan quotients") when it is a BatchPlanner, else ε by ε (phase
// "plan ε=…").
func planQuotients(ctx context.Context, cfg Config, env *Env, qs []*quotient.Quotient, phase func(string)) ([]*Plan, error) {
	if bp, ok := cfg.Planner.(BatchPlanner); ok {
		phase("plan quotients")
		plans, err := bp.Quotients(ctx, env, qs)
		if err != nil {
			return nil, fmt.Errorf("planq: %s on the quotients (ε = %v): %w", cfg.Planner.Name(), cfg.Eps, err)
		}
		return plans, nil
	}
	plans := make([]*Plan, len(qs))
	for i, q := range qs {
		phase(fmt.Sprintf("plan ε=%g", cfg.Eps[i]))
		p, err := cfg.Planner.Quotient(ctx, env, q)
		if err != nil {
			return nil, fmt.Errorf("planq: %s on the ε = %g quotient: %w", cfg.Planner.Name(), cfg.Eps[i], err)
		}
		plans[i] = p
	}
	return plans, nil
}

func planRow(ctx context.Context, cfg Config, res *Result, q *quotient.Quotient, p *Plan, eps, partSec float64) (Row, error) {
	m := cfg.Model
	row := Row{Eps: eps, Classes: q.Classes(), RightInvariant: q.RightInvariant(), PartitionSec: partSec,
		Reference: math.NaN(), Regret: math.NaN(), Optimum: math.NaN(), RegretOptimum: math.NaN()}
	for t := 0; t <= cfg.T; t++ {
		row.DepthClasses = append(row.DepthClasses, q.Partition.Classes(t))
	}
	var err error
	row.Policy, row.VQ, row.Lifted, row.PlanQSec, row.Note = p.Policy, p.Value, p.Lifted, p.Seconds, p.Note
	if row.VM, err = LiftedValue(ctx, m, p.Lifted); err != nil {
		return Row{}, err
	}
	if b := res.Baseline; b != nil {
		row.Reference, row.RefName = b.Value, cfg.Planner.Name()+" on the original"
		row.Regret = b.Value - row.VM
		row.PlanMSec = b.Seconds
		if row.PlanQSec > 0 {
			row.Speedup = b.Seconds / row.PlanQSec
		}
	}
	if res.Optimum != nil {
		row.Optimum = res.Optimum.Value
		row.RegretOptimum = res.Optimum.Value - row.VM
	}
	row.Bound = rowBound(cfg, res, eps)
	row.Verdict = Judge(row.Regret, row.Bound, row.Reference)
	if math.IsNaN(row.Regret) && row.Bound.Applies {
		row.Verdict = NotJudged
	}
	if res.StandIns > 0 && row.Bound.Applies {
		if err := standInCheck(&row, q, p, res.Baseline); err != nil {
			return Row{}, err
		}
	}
	return row, nil
}

// StandInNote says what the impossible histories mean for the results:
// how many (history, probe) pairs there are, that class beliefs give them
// no weight, and whether the quotient seen by a compared controller
// entered a class with no possible member (Row.StandInReach), naming the
// rows that are therefore not certified. It is empty when there are none.
func (r *Result) StandInNote() string {
	if r.StandIns == 0 {
		return ""
	}
	note := fmt.Sprintf("%d (history, probe) pairs are impossible (%s stand-in in the distances); class beliefs average only the members possible under the controller, so they carry no weight (a class with none keeps the uniform stand-in); ", r.StandIns, r.Convention)
	var reached []string
	checked := 0
	for _, row := range r.Rows {
		switch {
		case row.StandInReach > 0:
			reached = append(reached, fmt.Sprintf("ε = %g: probability %.3g", row.Eps, row.StandInReach))
		case row.StandInReach == 0 && row.Bound.Applies:
			checked++
		}
	}
	switch {
	case len(reached) > 0:
		return note + "the quotient enters a class with no possible member (" + strings.Join(reached, "; ") + "): those rows are not certified"
	case checked == 0:
		return note + "no row has a bound for them to affect"
	}
	return note + "no quotient the compared controllers see enters a class with no possible member, so no bound depends on them"
}

// standInCheck measures, for the two controllers cor:sim-to-real compares
// (the quotient's choice and the baseline on the original), the
// probability that the quotient each sees enters a class with no possible
// member (quotient.StandInReach). Class beliefs weight only possible
// members, so when both are 0 no stand-in belief enters a value the bound
// speaks of; otherwise the row says so (WithinBoundStandIn,
// BoundViolatedStandIn), as the theorem's hypothesis is then not verified.
func standInCheck(row *Row, q *quotient.Quotient, p *Plan, base *Plan) error {
	var ctrls []*fsc.FSC
	for _, pl := range []*Plan{p, base} {
		if pl == nil {
			continue
		}
		if pl.Controller == nil {
			row.StandInReach = math.NaN()
			return nil
		}
		ctrls = append(ctrls, pl.Controller)
	}
	for _, c := range ctrls {
		r, err := q.StandInReach(c)
		if err != nil {
			return err
		}
		row.StandInReach = max(row.StandInReach, r)
	}
	if row.StandInReach > 0 {
		row.Verdict = row.Verdict.standIn()
	}
	return nil
}

// rowBound returns the bound that covers the planner's policies, if any.
func rowBound(cfg Config, res *Result, eps float64) Bound {
	b := Bound{LR: res.LR, T: cfg.T, Eps: eps, Value: math.NaN()}
	switch cfg.Planner.(type) {
	case BestFSC:
		b.Applies, b.Theorem, b.Formula = true, "cor:sim-to-real", "2·L_R·T·ε"
		b.Covers = fmt.Sprintf("the controllers of Π = %s, each valued on the quotient it sees; regret is measured from the optimum over Π", res.Family)
		b.Value = value.RegretBound(res.LR.Value, cfg.T, eps)
	case OpenLoop:
		switch {
		case cfg.Kind == fsc.KindClock:
			b.Applies, b.Theorem, b.Formula = true, "cor:sim-to-real (open-loop strings are clock-aware controllers of Π)", "2·L_R·T·ε"
			b.Covers = fmt.Sprintf("open-loop strings, a subset of Π = %s; regret is measured from the best open-loop string", res.Family)
			b.Value = value.RegretBound(res.LR.Value, cfg.T, eps)
		case cfg.M == 1 && res.DeltaClk != nil:
			b.Applies, b.Theorem, b.Formula = true, "cor:op-to-clk-transfer with the triangle argument of cor:sim-to-real", "2·L_R·T·(ε + δ_clk)"
			b.DeltaName, b.Delta = "δ_clk", *res.DeltaClk
			b.Covers = "open-loop strings (clock-aware m = 1, outside the stationary Π); L_R is computed for the clock-aware m = 1 family; regret is measured from the best open-loop string"
			b.Value = 2 * value.TransferBound(res.LR.Value, cfg.T, eps, *res.DeltaClk)
		default:
			b.Reason = "open-loop strings lie outside the stationary Π and δ_clk is not available for this family"
			if res.DeltaNote != "" {
				b.Reason += " (" + res.DeltaNote + ")"
			}
		}
	default:
		b.Reason = fmt.Sprintf("the %s policy is not chosen over Π (its regret is measured from the same planner on the original) and the quotient it solves aggregates beliefs under one reference probe; thm:value-bound and cor:sim-to-real cover only controllers of Π valued on the quotient they see", cfg.Planner.Name())
	}
	return b
}

// LiftedValue returns the exact value of the lifted policy on m from its
// start node: the number `pomdpq evaluate --horizon T` prints for it.
func LiftedValue(ctx context.Context, m *pomdp.Model, l *Lifted) (float64, error) {
	ev, err := policy.EvaluateContext(ctx, m, l.FSC(), l.T, policy.Options{})
	if err != nil {
		return 0, err
	}
	return ev.Start[0], nil
}

// familyWork estimates the steps of valuing every controller of fam on
// env.Model: per controller, T stages of (nodes × (nnz(T) + nnz(Z))).
func familyWork(env *Env, fam fsc.Family) float64 {
	nnz := 0.0
	for a := range env.Model.T {
		nnz += float64(env.Model.T[a].NNZ() + env.Model.Z[a].NNZ())
	}
	return float64(fam.Len()) * float64(env.T) * float64(max(1, fam.M())) * nnz
}

// ExportProbe returns the constant probe under which the fewest histories
// of the depth-T tree are impossible (first in action order): the
// reference whose member beliefs an exported quotient aggregates.
func ExportProbe(m *pomdp.Model, T int) (*fsc.FSC, error) {
	e, err := law.NewEngine(m, T, law.UniformStandIn)
	if err != nil {
		return nil, err
	}
	var best *fsc.FSC
	fewest := math.MaxInt
	for a := 0; a < m.NumActions(); a++ {
		c := fsc.Constant(m.NumActions(), m.NumObservations(), a)
		_, imp, err := e.Beliefs(c)
		if err != nil {
			return nil, err
		}
		n := 0
		for _, x := range imp {
			if x {
				n++
			}
		}
		if n < fewest {
			best, fewest = c, n
		}
	}
	return best, nil
}

// groundLabel is label when given, else groundName(g).
func groundLabel(label string, g ot.Ground) string {
	if label != "" {
		return label
	}
	return groundName(g)
}

func groundName(g ot.Ground) string {
	disc := true
	for i := range g {
		for j := range g[i] {
			if (i == j) != (g[i][j] == 0) || (i != j && g[i][j] != 1) {
				disc = false
			}
		}
	}
	if disc {
		return "discrete (d(o, o') = 1 for o ≠ o')"
	}
	return fmt.Sprintf("the model's %d×%d metric", len(g), len(g))
}
