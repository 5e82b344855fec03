package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/planq"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpjson"
	"github.com/pomdpq/pomdpq/lib/value"
)

// planRowJSON is one ε of plan --json. Numbers the theorem or the run does
// not give are null (an infinite L_R gives "bound": null with
// "bound_applies": true).
type planRowJSON struct {
	Epsilon        float64  `json:"epsilon"`
	Classes        int      `json:"classes"`
	RightInvariant bool     `json:"right_invariant"`
	Policy         string   `json:"policy"`
	VQ             float64  `json:"v_quotient"`
	VM             float64  `json:"v_original"`
	Reference      *float64 `json:"reference"`
	ReferenceName  string   `json:"reference_name,omitempty"`
	Regret         *float64 `json:"regret"`
	Optimum        *float64 `json:"optimum"`
	RegretOptimum  *float64 `json:"regret_optimum"`
	BoundApplies   bool     `json:"bound_applies"`
	Bound          *float64 `json:"bound"`
	Theorem        string   `json:"theorem,omitempty"`
	Formula        string   `json:"formula,omitempty"`
	Delta          *float64 `json:"delta,omitempty"`
	DeltaName      string   `json:"delta_name,omitempty"`
	Covers         string   `json:"covers,omitempty"`
	Reason         string   `json:"no_bound_reason,omitempty"`
	Verdict        string   `json:"verdict"`
	StandInReach   *float64 `json:"stand_in_reach"`
	LiftedNodes    int      `json:"lifted_nodes"`
	PolicyFile     string   `json:"policy_file,omitempty"`
	PartitionSec   float64  `json:"seconds_partition"`
	PlanQSec       float64  `json:"seconds_plan_quotient"`
	PlanMSec       float64  `json:"seconds_plan_original"`
	Speedup        *float64 `json:"speedup"`
	Note           string   `json:"note,omitempty"`
	// The a-priori bound is bound/theorem/formula above; these are the
	// a-posteriori certificate (docs/certificates.md) and the tightness.
	BoundAPriori    *float64  `json:"bound_a_priori"`
	BoundPosterior  *float64  `json:"bound_a_posteriori"`
	DeviationPost   *float64  `json:"bound_a_posteriori_deviation"`
	DeviationHow    string    `json:"bound_a_posteriori_deviation_how,omitempty"`
	PostChosen      *float64  `json:"bound_a_posteriori_chosen"`
	PostOptimum     *float64  `json:"bound_a_posteriori_optimum"`
	PostLipDev      *float64  `json:"bound_a_posteriori_lip_steps,omitempty"`
	PostTheorem     string    `json:"bound_a_posteriori_theorem,omitempty"`
	PostFormula     string    `json:"bound_a_posteriori_formula,omitempty"`
	PostLip         *float64  `json:"bound_a_posteriori_lip_v,omitempty"`
	PostSteps       []float64 `json:"bound_a_posteriori_step_diameters,omitempty"`
	PostCovers      string    `json:"bound_a_posteriori_covers,omitempty"`
	PostReason      string    `json:"bound_a_posteriori_reason,omitempty"`
	PostVerdict     string    `json:"bound_a_posteriori_verdict"`
	WorstDeviation  *float64  `json:"tightness_worst_deviation"`
	WorstController string    `json:"tightness_worst_controller,omitempty"`
	TightChecked    int       `json:"tightness_controllers_checked"`
	TightnessPrior  *float64  `json:"tightness_a_priori"`
	TightnessPost   *float64  `json:"tightness_a_posteriori"`
	TightnessReason string    `json:"tightness_reason,omitempty"`
	DepthClasses    []int     `json:"classes_per_depth"`
}

type planOutJSON struct {
	Model           string        `json:"model"`
	Family          string        `json:"family"`
	FamilySize      int           `json:"family_size"`
	T               int           `json:"T"`
	Planner         string        `json:"planner"`
	PlannerSettings string        `json:"planner_settings,omitempty"`
	Reward          string        `json:"reward"`
	Gamma           float64       `json:"gamma"`
	Metric          string        `json:"metric"`
	Ground          string        `json:"ground"`
	Convention      string        `json:"convention"`
	StandIns        int           `json:"stand_ins"`
	MemBudget       int64         `json:"mem_budget"`
	MaxWork         float64       `json:"max_work"`
	Histories       int           `json:"histories"`
	LR              *float64      `json:"l_r"`
	LRHow           string        `json:"l_r_how"`
	LRWhy           string        `json:"l_r_why"`
	LRCertified     bool          `json:"l_r_certified"`
	DeltaClk        *float64      `json:"delta_clk,omitempty"`
	Baseline        *float64      `json:"baseline"`
	BaselinePolicy  string        `json:"baseline_policy,omitempty"`
	BaselineRefused string        `json:"baseline_refused,omitempty"`
	Optimum         *float64      `json:"optimum"`
	OptimumPolicy   string        `json:"optimum_policy,omitempty"`
	OptimumRefused  string        `json:"optimum_refused,omitempty"`
	DistanceSec     float64       `json:"seconds_distances"`
	Rows            []planRowJSON `json:"rows"`
	ModelFile       string        `json:"model_file,omitempty"`
	Payoff          payoffJSON    `json:"payoff"`
}

// payoffJSON is planq.Payoff in plan --json.
type payoffJSON struct {
	Verdict       string   `json:"verdict"`
	States        int      `json:"model_states"`
	HistoriesT    float64  `json:"model_histories_at_T"`
	Eps           float64  `json:"epsilon"`
	Classes       []int    `json:"quotient_classes_per_depth"`
	ModelSec      *float64 `json:"seconds_plan_model"`
	ModelRefused  string   `json:"model_refused,omitempty"`
	ModelWork     float64  `json:"model_estimated_steps"`
	ModelAtLeast  float64  `json:"model_at_least_steps,omitempty"`
	AtLeastHow    string   `json:"model_at_least_how,omitempty"`
	Outcome       string   `json:"outcome"`
	Pays          bool     `json:"quotient_pays"`
	QuotientSec   float64  `json:"seconds_build_and_plan_quotient"`
	ModelValue    *float64 `json:"value_model"`
	QuotientValue float64  `json:"value_quotient_policy_on_model"`
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// planOptions are the flags of plan besides the front end's.
type planOptions struct {
	q                       *quotientFlags
	planner, reward, outDir *string
	maxWork, solverDiscount *float64
	timeout                 *time.Duration
	tightnessLimit          *int
}

// planCommand registers plan's flags.
func planCommand(stdout, stderr io.Writer) (*command, *planOptions) {
	c := newCommand("plan", stdout, stderr)
	fs := c.fs
	o := &planOptions{q: c.quotientFlags("probe family Π: stationary or clock", " of Π")}
	o.planner = fs.String("planner", "best-fsc", "best-fsc, open-loop, pbvi or cmd:'COMMAND {model} … {policy}'")
	o.reward = fs.String("reward", "own", "own (the model's reward), observation (R(s,a) = E[v(O') | s, a]) or a FILE of |S| lines of |A| rewards")
	o.outDir = fs.String("out", "", "directory for the lifted policies (.pg, .json), the model planned on and the result")
	c.jsonFlag()
	c.verboseFlag()
	c.workersFlag()
	o.maxWork = fs.Float64("max-work", planq.DefaultMaxWork, "largest estimated steps of planning on the original or of the exact L_R")
	o.tightnessLimit = fs.Int("tightness-limit", planq.DefaultTightnessLimit, "largest family whose every controller is valued on the model and each quotient for the tightness ratio (0: never)")
	o.timeout = fs.Duration("timeout", 60*time.Second, "time limit of a cmd: planner's command, per run")
	o.solverDiscount = fs.Float64("solver-discount", 0, "discount in (0, 1] written into the models a cmd: planner's solver is given ({discount}; SARSOP needs one below 1); 0: the model's own, 1 when it has none")
	c.memFlag()
	c.progressFlag(progressUsage)
	return c, o
}

func cmdPlan(args []string, stdout, stderr io.Writer) error {
	c, o := planCommand(stdout, stderr)
	if err := c.parse(args); err != nil {
		return err
	}
	rep := c.rep
	rep.Phase("load")
	in, err := o.q.resolve()
	if err != nil {
		return err
	}
	if in.kind != fsc.KindStationary && in.kind != fsc.KindClock {
		return usageError{msg: "plan: --family must be stationary or clock"}
	}
	if in.T < 1 || in.M < 1 {
		return usageError{msg: fmt.Sprintf("plan: need --T ≥ 1 and --m ≥ 1 (got --T %d, --m %d)", in.T, in.M)}
	}
	planner, err := o.plannerOf(c)
	if err != nil {
		return err
	}
	pm, rewardText, obsValues, err := withReward(in.model, *o.reward)
	if err != nil {
		return err
	}
	// SIGTERM too (a scheduler's or timeout(1)'s stop): a cmd: planner's
	// solver runs in its own process group, which only a cancelled
	// context kills.
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	cfg := planq.Config{Model: pm, Ground: in.ground.Ground, GroundLabel: in.ground.Label(), Reward: rewardText, ObsValues: obsValues,
		Kind: in.kind, M: in.M, T: in.T, Eps: in.eps, Planner: planner, Limit: in.limit, MaxWork: *o.maxWork, TightnessLimit: tightnessLimit(*o.tightnessLimit),
		Distance: distance.Options{Convention: in.conv, Workers: c.nworkers(), MemBudget: int64(c.mem), Phase: rep.Phase, Progress: rep.Progress}}
	res, err := planq.Run(ctx, cfg)
	if err != nil {
		return err
	}
	rep.Phase("")
	out := planJSONOf(res, *o.maxWork)
	if *o.outDir != "" {
		if err := writePlanFiles(*o.outDir, pm, res, &out); err != nil {
			return err
		}
	}
	err = c.emit(out, func(w io.Writer) {
		sum := planSummary(res)
		if *o.outDir != "" {
			sum = append(sum, fmt.Sprintf("wrote to %s the model planned on, each ε's lifted policy (.pg, .json) and result.json", *o.outDir))
		}
		writeSummary(w, sum...)
		if !c.isVerbose() {
			writeSummary(w, "ground metric "+res.Ground, verboseHint)
			return
		}
		fmt.Fprintln(w)
		printPlan(w, res, out)
	})
	return errors.Join(err, violations(res))
}

// plannerOf resolves --planner, and --solver-discount for a cmd: planner.
func (o *planOptions) plannerOf(c *command) (planq.Planner, error) {
	planner, err := parsePlanner(*o.planner, *o.timeout)
	if err != nil {
		return nil, err
	}
	if !c.given("solver-discount") {
		return planner, nil
	}
	cmd, ok := planner.(planq.Command)
	if !ok {
		return nil, usageError{msg: fmt.Sprintf("plan: --solver-discount applies to a cmd: planner, not %s", *o.planner)}
	}
	if planner, err = cmd.WithDiscount(*o.solverDiscount); err != nil {
		return nil, usageError{msg: "plan: --solver-discount: " + err.Error()}
	}
	return planner, nil
}

// violations returns an error naming every ε whose certified bound the
// measured regret exceeds (planq.Verdict.Violated: a finding against the
// theorem, so plan exits non-zero after printing its result), or nil.
func violations(res *planq.Result) error {
	var at, post []string
	var first *planq.Bound
	for _, r := range res.Rows {
		if r.PosteriorVerdict.Violated() {
			post = append(post, fmt.Sprintf("ε = %g (regret %.6g > %.6g)", r.Eps, r.Regret, r.Posterior.Value))
		}
		if r.Verdict.Violated() {
			at = append(at, fmt.Sprintf("ε = %g (regret %.6g > bound %.6g)", r.Eps, r.Regret, r.Bound.Value))
			if first == nil {
				first = &r.Bound
			}
		}
	}
	var errs []error
	if len(post) > 0 {
		errs = append(errs, fmt.Errorf("plan: BOUND VIOLATED: the a-posteriori certificate of %s is exceeded at %s; the result above has its terms",
			planq.PosteriorTheorem, strings.Join(post, ", ")))
	}
	if len(at) > 0 {
		errs = append(errs, fmt.Errorf("plan: BOUND VIOLATED: the certified bound %s of %s is exceeded at %s; the result above has its terms",
			first.Formula, first.Theorem, strings.Join(at, ", ")))
	}
	return errors.Join(errs...)
}

// parsePlanner resolves --planner.
func parsePlanner(name string, timeout time.Duration) (planq.Planner, error) {
	switch {
	case name == "best-fsc":
		return planq.BestFSC{}, nil
	case name == "open-loop":
		return planq.OpenLoop{}, nil
	case name == "pbvi":
		return planq.PBVI{}, nil
	case strings.HasPrefix(name, "cmd:"):
		return planq.NewCommand(strings.TrimPrefix(name, "cmd:"), timeout)
	}
	return nil, usageError{msg: fmt.Sprintf("plan: --planner %q: want best-fsc, open-loop, pbvi or cmd:'COMMAND'", name)}
}

// withReward returns the model carrying the reward planned for, a
// description of it and, for the observation reward, the values v(o).
func withReward(m *pomdp.Model, spec string) (*pomdp.Model, string, []float64, error) {
	switch spec {
	case "own", "":
		return m, "own (the model's R(s, a))", nil, nil
	case "observation":
		om, err := value.WithObsReward(m)
		if err != nil {
			return nil, "", nil, err
		}
		v := value.ObsValues(m.NumObservations())
		return om, fmt.Sprintf("observation: R(s, a) = E[v(O') | s, a] with v(o) = o/(|O| − 1) = %v", v), v, nil
	}
	R, err := readRewardFile(spec, m)
	if err != nil {
		return nil, "", nil, err
	}
	cp := &pomdp.Model{Name: m.Name + "+" + filepath.Base(spec), States: m.States, Actions: m.Actions, Observations: m.Observations,
		Discount: m.Discount, HasDiscount: m.HasDiscount, T: m.T, Z: m.Z, R: R, B0: m.B0}
	if err := cp.Validate(); err != nil {
		return nil, "", nil, err
	}
	return cp, "file " + spec + " (R(s, a) per line s, column a)", nil, nil
}

// readRewardFile reads |S| lines of |A| numbers ('#' comments, blank
// lines skipped); errors name the file, line and field.
func readRewardFile(path string, m *pomdp.Model) ([][]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, usageError{msg: fmt.Sprintf("plan: --reward %q: not own, observation or an existing file", path)}
		}
		return nil, err
	}
	defer f.Close()
	nS, nA := m.NumStates(), m.NumActions()
	var R [][]float64
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(R) == nS {
			return nil, fmt.Errorf("%s:%d: more than %d reward rows (one per state)", path, line, nS)
		}
		if len(fields) != nA {
			return nil, fmt.Errorf("%s:%d: state %s: %d rewards, want one per action (%d)", path, line, m.States[len(R)], len(fields), nA)
		}
		row := make([]float64, nA)
		for a, s := range fields {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s:%d: state %s, action %s: %q is not a finite number", path, line, m.States[len(R)], m.Actions[a], s)
			}
			row[a] = v
		}
		R = append(R, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(R) != nS {
		return nil, fmt.Errorf("%s:%d: %d reward rows, want one per state (%d)", path, line, len(R), nS)
	}
	return R, nil
}

func planJSONOf(res *planq.Result, maxWork float64) planOutJSON {
	out := planOutJSON{Model: res.Model, Family: res.Family, FamilySize: res.FamilySize, T: res.T, Planner: res.Planner, PlannerSettings: res.PlannerSettings, Reward: res.Reward,
		Gamma: res.Gamma, Metric: res.Metric, Ground: res.Ground, Convention: res.Convention, StandIns: res.StandIns, MemBudget: res.MemBudget,
		MaxWork: maxWork, Histories: res.Histories, LR: finite(res.LR.Value), LRHow: res.LR.How, LRWhy: res.LR.Why, LRCertified: res.LR.Certified,
		DeltaClk: res.DeltaClk, BaselineRefused: res.BaselineRefused, OptimumRefused: res.OptimumRefused, DistanceSec: res.DistanceSeconds}
	if b := res.Baseline; b != nil {
		out.Baseline, out.BaselinePolicy = finite(b.Value), b.Policy
	}
	if o := res.Optimum; o != nil {
		out.Optimum, out.OptimumPolicy = finite(o.Value), o.Policy
	}
	for _, r := range res.Rows {
		j := planRowJSON{Epsilon: r.Eps, Classes: r.Classes, RightInvariant: r.RightInvariant, Policy: r.Policy, VQ: r.VQ, VM: r.VM,
			Reference: finite(r.Reference), ReferenceName: r.RefName, Regret: finite(r.Regret), Optimum: finite(r.Optimum),
			RegretOptimum: finite(r.RegretOptimum), BoundApplies: r.Bound.Applies, Bound: finite(r.Bound.Value), Theorem: r.Bound.Theorem,
			Formula: r.Bound.Formula, DeltaName: r.Bound.DeltaName, Covers: r.Bound.Covers, Reason: r.Bound.Reason, Verdict: r.Verdict.String(), StandInReach: finite(r.StandInReach),
			LiftedNodes: len(r.Lifted.Nodes), PartitionSec: r.PartitionSec, PlanQSec: r.PlanQSec, PlanMSec: r.PlanMSec, Speedup: finite(r.Speedup), Note: r.Note}
		if r.Bound.DeltaName != "" {
			j.Delta = finite(r.Bound.Delta)
		}
		if r.Speedup == 0 {
			j.Speedup = nil
		}
		certifyJSON(&j, r)
		out.Rows = append(out.Rows, j)
	}
	p := res.Payoff()
	out.Payoff = payoffJSON{Verdict: p.Verdict, States: p.States, HistoriesT: p.HistoriesT, Eps: p.Eps, Classes: p.Classes, ModelSec: finite(p.ModelSec),
		ModelRefused: p.ModelRefused, ModelWork: p.ModelWork, ModelAtLeast: p.ModelAtLeast, AtLeastHow: p.ModelAtLeastHow, Outcome: p.Outcome.String(), Pays: p.Outcome.Pays(), QuotientSec: p.QuotientSec, ModelValue: finite(p.ModelValue), QuotientValue: p.QuotientValue}
	return out
}

// certifyJSON fills the a-posteriori certificate and tightness of a row.
func certifyJSON(j *planRowJSON, r planq.Row) {
	j.DepthClasses = r.DepthClasses
	if r.Bound.Applies {
		j.BoundAPriori = finite(r.Bound.Value)
	}
	p := r.Posterior
	j.PostTheorem, j.PostFormula, j.PostReason, j.PostVerdict = p.Theorem, p.Formula, p.Reason, r.PosteriorVerdict.String()
	if p.Applies {
		j.BoundPosterior, j.DeviationPost, j.PostLip, j.PostSteps, j.PostCovers = finite(p.Value), finite(p.Deviation), finite(p.Lip), p.Steps, p.Covers
		j.DeviationHow, j.PostChosen, j.PostOptimum, j.PostLipDev = p.DeviationHow, finite(p.ChosenDev), finite(p.OptimumDev), finite(p.LipDeviation)
	}
	t := r.Tightness
	j.WorstDeviation, j.WorstController, j.TightChecked, j.TightnessReason = finite(t.Worst), t.Controller, t.Checked, t.Reason
	j.TightnessPrior, j.TightnessPost = finite(r.TightnessPrior), finite(r.TightnessPosterior)
}

// writePlanFiles writes the model planned on (JSON, with the reward
// used), each ε's lifted policy as .pg and .json, and result.json.
func writePlanFiles(dir string, m *pomdp.Model, res *planq.Result, out *planOutJSON) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	out.ModelFile = filepath.Join(dir, "model.json")
	f, err := os.Create(out.ModelFile)
	if err != nil {
		return err
	}
	if err := pomdpjson.Write(f, m); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	for i, r := range res.Rows {
		base := filepath.Join(dir, "lifted-eps-"+strconv.FormatFloat(r.Eps, 'g', -1, 64))
		if err := writeOutFile(base+".pg", func(w io.Writer) error { return r.Lifted.WritePG(w) }); err != nil {
			return err
		}
		if err := writeOutFile(base+".json", func(w io.Writer) error { return r.Lifted.WriteJSON(w, m) }); err != nil {
			return err
		}
		out.Rows[i].PolicyFile = base + ".pg"
	}
	return writeOutFile(filepath.Join(dir, "result.json"), func(w io.Writer) error { return writeJSON(w, out) })
}

func writeOutFile(path string, fn func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func fmtVal(p *float64) string {
	if p == nil {
		return "—"
	}
	x := *p
	if math.Abs(x) < 5e-7 {
		x = 0 // no "-0.000000"
	}
	return strconv.FormatFloat(x, 'f', 6, 64)
}

func printPlan(w io.Writer, res *planq.Result, out planOutJSON) {
	fmt.Fprintf(w, "model %s, family Π = %s, T = %d, planner %s\n", res.Model, res.Family, res.T, res.Planner)
	if res.PlannerSettings != "" {
		fmt.Fprintf(w, "planner: %s\n", res.PlannerSettings)
	}
	fmt.Fprintf(w, "reward: %s\n", res.Reward)
	fmt.Fprintf(w, "values: expected return over T = %d stages with γ = %g (the model's discount, 1 if none; as `pomdpq evaluate --horizon T`)\n", res.T, res.Gamma)
	fmt.Fprintf(w, "metric %s, ground %s, stand-in %s (%d impossible (history, probe) pairs), memory budget %s, --max-work %.3g\n",
		res.Metric, res.Ground, res.Convention, res.StandIns, distance.FormatBytes(res.MemBudget), out.MaxWork)
	lr := "+Inf"
	if out.LR != nil {
		lr = strconv.FormatFloat(*out.LR, 'g', 6, 64)
	}
	fmt.Fprintf(w, "L_R = %s over %s (%s): %s\n", lr, res.LR.Family, res.LR.How, res.LR.Why)
	if res.DeltaClk != nil {
		fmt.Fprintf(w, "δ_clk = %.6g (‖d^clk − d^op‖∞, m = 1)\n", *res.DeltaClk)
	}
	if b := res.Baseline; b != nil {
		fmt.Fprintf(w, "baseline: %s on the original: value %.6f (%s), %.3fs\n", res.Planner, b.Value, b.Policy, b.Seconds)
	} else {
		fmt.Fprintf(w, "baseline REFUSED: %s\n", res.BaselineRefused)
	}
	if o := res.Optimum; o != nil {
		fmt.Fprintf(w, "exact optimum over Π on the original: %.6f (%s, %d tied)\n", o.Value, o.Policy, o.Ties)
	} else {
		fmt.Fprintf(w, "exact optimum over Π REFUSED: %s\n", res.OptimumRefused)
	}
	if note := res.StandInNote(); note != "" {
		fmt.Fprintf(w, "stand-ins: %s\n", note)
	}
	fmt.Fprintf(w, "distances %.3fs (shared by every ε)\n", res.DistanceSeconds)
	fmt.Fprintf(w, "%6s %7s %11s %11s %11s %10s %10s  %-40s %8s %8s %8s %8s\n", "eps", "classes", "V_Q(π_Q)", "V_M(lift)", "reference", "regret", "bound", "verdict", "t_part", "t_planQ", "t_planM", "speedup")
	for _, r := range out.Rows {
		bound := "n/a"
		if r.BoundApplies {
			bound = "none"
			if r.Bound != nil {
				bound = strconv.FormatFloat(*r.Bound, 'f', 6, 64)
			}
		}
		sp := "—"
		if r.Speedup != nil {
			sp = fmt.Sprintf("%.3gx", *r.Speedup)
		}
		fmt.Fprintf(w, "%6g %7d %11.6f %11.6f %11s %10s %10s  %-40s %8.3f %8.3f %8.3f %8s\n", r.Epsilon, r.Classes, r.VQ, r.VM, fmtVal(r.Reference),
			fmtVal(r.Regret), bound, r.Verdict, r.PartitionSec, r.PlanQSec, r.PlanMSec, sp)
	}
	for i, r := range res.Rows {
		fmt.Fprintf(w, "ε = %g: policy %s; a priori: %s\n", r.Eps, r.Policy, r.Bound)
		fmt.Fprintf(w, "  a posteriori: %s", r.Posterior)
		if r.Posterior.Applies {
			fmt.Fprintf(w, ": %s", r.PosteriorVerdict)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  %s\n", tightnessLine(r))
		if !math.IsNaN(r.RegretOptimum) && res.Planner != "best-fsc" {
			fmt.Fprintf(w, "  regret from the exact optimum over Π: %.6g\n", r.RegretOptimum)
		}
		if r.Note != "" {
			fmt.Fprintf(w, "  %s\n", r.Note)
		}
		if r.Verdict.Alarm() {
			fmt.Fprintf(w, "  !!! %s: measured regret %.6g exceeds the bound %.6g !!!\n", r.Verdict, r.Regret, r.Bound.Value)
		}
		if f := out.Rows[i].PolicyFile; f != "" {
			fmt.Fprintf(w, "  lifted policy %s (%d nodes): pomdpq evaluate --model %s --policy %s --horizon %d\n", f, len(r.Lifted.Nodes), out.ModelFile, f, res.T)
		}
	}
	printPayoff(w, res.Payoff())
	fmt.Fprintln(w, "The certified bound covers only the policies it names (the family Π the quotient was built for); a row without a theorem shows the measured regret alone.")
}

// planSummary says a planning run's answer in words: what was planned,
// what the planner earns on the model itself, and for each ε what the
// lifted quotient policy earns, its regret against the bound and the
// verdict; a regret above its bound gets its own line.
func planSummary(res *planq.Result) []string {
	lines := []string{"payoff: " + res.Payoff().Verdict, fmt.Sprintf("%s, Π = %s, T = %d: %s on each ε-quotient, lifted to the model",
		res.Model, res.Family, res.T, res.Planner)}
	if b := res.Baseline; b != nil {
		lines = append(lines, fmt.Sprintf("%s on the model itself earns %.6g (%s)", res.Planner, b.Value, b.Policy))
	} else {
		lines = append(lines, fmt.Sprintf("%s on the model itself: not run (%s)", res.Planner, res.BaselineRefused))
	}
	for _, r := range res.Rows {
		lines = append(lines, planRowSummary(r))
	}
	for _, r := range res.Rows {
		if r.Verdict.Alarm() {
			lines = append(lines, fmt.Sprintf("!!! %s at ε = %g: measured regret %.6g exceeds the bound %.6g !!!", r.Verdict, r.Eps, r.Regret, r.Bound.Value))
		}
		if r.PosteriorVerdict.Alarm() {
			lines = append(lines, fmt.Sprintf("!!! %s at ε = %g: measured regret %.6g exceeds the a-posteriori bound %.6g !!!", r.PosteriorVerdict, r.Eps, r.Regret, r.Posterior.Value))
		}
	}
	return lines
}

// planRowSummary is one ε of planSummary, e.g. "at ε = 0.1, 7 classes:
// the lifted policy earns -3, regret 0 ≤ bound 0: within bound".
func planRowSummary(r planq.Row) string {
	regret := "regret not measured (no baseline)"
	if !math.IsNaN(r.Regret) {
		regret = fmt.Sprintf("regret %.3g", zero(r.Regret))
	}
	bound := ", no certified bound"
	switch {
	case r.Bound.Applies && math.IsInf(r.Bound.Value, 1):
		bound = ", bound +Inf (L_R infinite)"
	case r.Bound.Applies && !math.IsNaN(r.Bound.Value):
		rel := "≤"
		if r.Regret > r.Bound.Value {
			rel = ">"
		}
		bound = fmt.Sprintf(" %s bound %.3g", rel, zero(r.Bound.Value))
	}
	if p := r.Posterior; p.Applies {
		bound += fmt.Sprintf(" (a posteriori %.3g: %s)", zero(p.Value), r.PosteriorVerdict)
	}
	return fmt.Sprintf("at ε = %g, %s %s: the lifted policy earns %.6g, %s%s: %s",
		r.Eps, thousands(r.Classes), plural(r.Classes, "class", "classes"), zero(r.VM), regret, bound, r.Verdict)
}

// zero returns x with a negative zero or a rounding residue below 5e-13
// in magnitude printed as 0.
func zero(x float64) float64 {
	if math.Abs(x) < 5e-13 {
		return 0
	}
	return x
}

// pgStartHint returns the start node a policy graph written by plan names
// in its first line ("# pomdpq lifted policy: start node N, …"), or −1.
// pomdp-solve's graphs name none: evaluate then starts at the best node.
func pgStartHint(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return -1
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	const prefix = "# pomdpq lifted policy: start node "
	if !strings.HasPrefix(line, prefix) {
		return -1
	}
	rest := strings.TrimPrefix(line, prefix)
	if i := strings.IndexByte(rest, ','); i >= 0 {
		rest = rest[:i]
	}
	n, err := strconv.Atoi(strings.TrimSpace(rest))
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// flagSet reports whether flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// tightnessLine says how far each deviation bound is from the worst exact
// |V_M(π) − V_Q(π)| over Π, or why that was not measured.
func tightnessLine(r planq.Row) string {
	t := r.Tightness
	switch {
	case t.Reason != "":
		return "tightness not measured: " + t.Reason
	case math.IsNaN(t.Worst):
		return "tightness not measured: every controller of Π enters a stand-in class"
	}
	ratio := func(x float64) string {
		if math.IsNaN(x) {
			return "—"
		}
		return fmt.Sprintf("%.3g", x)
	}
	return fmt.Sprintf("tightness: worst exact |V_M(π) − V_Q(π)| over %d controllers of Π = %.6g (%s); a-priori L_R·T·ε / worst = %s, a-posteriori max_π B(π) / worst = %s",
		t.Checked, t.Worst, t.Controller, ratio(r.TightnessPrior), ratio(r.TightnessPosterior))
}

// printPayoff writes the payoff detail of --verbose.
func printPayoff(w io.Writer, p planq.Payoff) {
	fmt.Fprintf(w, "payoff: model %d states, %.3g histories at T; ε = %g quotient classes per depth %v\n", p.States, p.HistoriesT, p.Eps, p.Classes)
	if p.ModelRefused != "" {
		fmt.Fprintf(w, "  model: not run (%s)\n", p.ModelRefused)
		if p.Outcome == planq.ModelOutOfReach && p.ModelAtLeast > 0 {
			fmt.Fprintf(w, "  model: at least %.3g steps (%s)\n", p.ModelAtLeast, p.ModelAtLeastHow)
		}
	} else {
		fmt.Fprintf(w, "  model: planned in %.3g s, value %.6g\n", p.ModelSec, p.ModelValue)
	}
	fmt.Fprintf(w, "  quotient: distances, partition and planning %.3g s; its policy earns %.6g on the model\n", p.QuotientSec, p.QuotientValue)
	fmt.Fprintf(w, "  verdict: %s\n", p.Verdict)
}

// tightnessLimit maps --tightness-limit to planq.Config.TightnessLimit
// (0 there is the default, so "never" is −1).
func tightnessLimit(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}
