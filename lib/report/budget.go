package report

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"slices"
	"strings"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/statbb"
)

// The time model of the pre-flight. Only the laws are estimated from a
// rate, before anything runs, to decide whether the cheap phases may run
// at all; everything else is measured on the model: distance.Plan gives
// the exact classes (so the true class pairs) and the time of the laws,
// and a pilot (runPilot) times a sample of the transport problems.
//
// LawRate is law work (controllers × histories × |S|) per second of one
// core of the project's (shared, loaded) machine, measured with `pomdpq
// quotient --exact-distances --progress lines`: maze4x3 m ≤ 2, T = 3,
// 65 540 × 259 × 11 in the "classes" phase in 4.5 s (4.1·10⁷ per second);
// random:204:4:28:1 (mit's sizes) m ≤ 1, T = 3, 4 × 22 765 × 204 in
// "classes" and "bounds" in 1.4 s (1.3·10⁷); the slower, rounded down.
const (
	// LawRate is law work per second.
	LawRate = 1.3e7
	// PlanPasses is the number of law passes of distance.Plan (the
	// classes and the bounds): the modelled cost of the pre-flight itself.
	PlanPasses = 2
	// Passes is the number of times a report computes the distances of
	// its largest family: once, in decision mode at the curves' grid
	// (CurveGrid), whose partitions serve the curves, the requested ε, the
	// quotient drawn and the planning section (both rewards); one more
	// for the certificates' per-probe tensor when it fits (TensorFits,
	// DefaultTensorEntries). Estimate.Seconds is Estimate.Passes ×
	// Estimate.Compute + Estimate.AfterSeconds.
	Passes = 1
	// DefaultSeconds is the time budget of a report whose horizon is
	// chosen (Options.Seconds, pomdpq analyze --seconds).
	DefaultSeconds = 20
)

// Budget is what a run may use: memory in bytes (negative: no limit) and
// estimated seconds of one core (0 or less: no limit).
type Budget struct {
	Bytes   int64
	Seconds float64
	// Slowdown multiplies the modelled law estimate, which is of native
	// code (0 means 1): the web page runs WebAssembly, WasmSlowdown times
	// slower. Measured times (Plan, the pilot) are of the code that runs
	// them and are not multiplied.
	Slowdown float64
	// CurveTop is the end of the ε grid the run decides (Options.CurveTop;
	// 0: DefaultCurveTop of the discrete metric).
	CurveTop float64
}

// WasmSlowdown is how much slower the engine runs as WebAssembly in a
// browser than natively: maze4x3, m ≤ 1, T = 3, the whole report in 1.4–3.9 s in
// headless Chromium and 1.8 s under Node.js against 0.07–0.22 s natively,
// back to back on the project's machine.
const WasmSlowdown = 10

// String says the budget in words, e.g. "20 s and 11.8 GiB".
func (b Budget) String() string {
	s := "no time limit"
	if b.Seconds > 0 {
		s = fmt.Sprintf("%g s", b.Seconds)
	}
	return s + " and " + budgetText(b.Bytes)
}

// Estimate is the pre-flight of one probe family at one horizon: what
// `pomdpq analyze` and the web page show before they run, from the same
// estimates as `pomdpq quotient --dry-run` (distance.Plan) and a pilot of
// the transport problems.
type Estimate struct {
	Kind fsc.Kind
	M, T int
	// Size is the number of controllers (0 when the family cannot be
	// enumerated); Histories the histories Σ_t |O|^t.
	Size      int
	Histories int
	// Planned says whether distance.Plan ran (Cost, Bytes, Pairs,
	// PairWork, Pilot and Compute are then set).
	Planned bool
	Cost    distance.Cost
	Bytes   int64
	// LawWork is controllers × histories × |S|: the modelled law term
	// (LawRate) that decides whether Plan runs.
	LawWork float64
	// Grid is the ε values the estimate decides, in decision mode as
	// Build does: CurveGrid to Budget.CurveTop, by default that of the
	// discrete metric (the pre-flight measures with distance.Plan's
	// default ground metric).
	Grid []float64
	// Passes is the number of distance computations of a report: Passes,
	// plus one when the certificates' tensor fits (TensorFits).
	Passes int
	// PairWork is the transport problems of one distance computation:
	// distinct probes × Pairs, Pairs being Σ_{t<T} c_t(c_t − 1)/2 over
	// the exact classes c_t (what distance.Compute solves).
	PairWork float64
	Pairs    int64
	// PlanSeconds is the measured time of distance.Plan's phases (probes,
	// classes, bounds), in CPU seconds of the process where the system
	// gives them (cpuNow; else wall time times its workers: a browser),
	// so that a loaded machine does not inflate it; LawSeconds that of its classes
	// phase alone (the laws, which distance.Compute computes once more);
	// PairSeconds is Σ_t Pilot.PerPair[t] × c_t(c_t − 1)/2 × distinct
	// probes, of the problems left after the pairs the decision mode
	// settles without them (the pilot runs it).
	PlanSeconds, LawSeconds, PairSeconds float64
	Pilot                                Pilot
	// Compute is the estimated seconds of one core of one distance
	// computation, PlanSeconds + LawSeconds + PairSeconds; Seconds is
	// Passes × Compute + AfterSeconds (a report), or the modelled law
	// term of Plan alone when Plan did not run.
	Compute float64
	// Valuations is the valuations of the phases after the distances,
	// in soundness checks: the soundness checks themselves (up to
	// DefaultSoundnessProbes probes at two ε) and the planning section
	// (every controller on the model and on PlanEpsPoints quotients, for
	// two rewards, when that fits MaxPlanValuations), one of whose
	// valuations counts PlanValuationWeight of a check. ValuationSeconds
	// is one soundness check timed on the exact quotient, AfterSeconds
	// their product; they are timed (AfterTimed) only when the distances
	// fit the budget (otherwise the estimate is a lower bound).
	AfterTimed       bool
	Valuations       float64
	ValuationSeconds float64
	AfterSeconds     float64
	Seconds          float64
	// Refused says, in words, why the run does not fit (empty when it
	// does).
	Refused string
}

// Fits reports whether the estimate is within the budget.
func (e Estimate) Fits() bool { return e.Refused == "" }

// Summary says the estimate in one line, e.g. "stationary m ≤ 1, T = 3:
// 4 controllers, 259 histories, about 0.01 s or less and 7.1 MiB".
func (e Estimate) Summary() string {
	s := fmt.Sprintf("%s m ≤ %d, T = %d: ", e.Kind, e.M, e.T)
	if e.Size == 0 {
		return s + e.Refused
	}
	s += fmt.Sprintf("%d controllers, %d histories, about %s", e.Size, e.Histories, seconds(e.Seconds))
	if e.Planned {
		name, v := e.Cost.Largest()
		s += fmt.Sprintf(" and %s (largest term %s, %s)", distance.FormatBytes(e.Bytes), name, distance.FormatBytes(v))
	}
	return s
}

// Work says the estimate's time terms in words, e.g. "5 distinct probes ×
// 60241 class pairs = 3.01e+05 transport problems at 1 µs each on
// average (timed on a pilot of 120482), and 0.076 s of laws and classes".
func (e Estimate) Work() string {
	if !e.Planned {
		return fmt.Sprintf("the laws of %d controllers on %d histories (%.3g, modelled at %.2g per second)", e.Size, e.Histories, e.LawWork, LawRate)
	}
	if e.Pairs == 0 {
		return fmt.Sprintf("no class pairs (one exact class per depth), %s of laws and classes", seconds(e.PlanSeconds+e.LawSeconds))
	}
	laws := seconds(e.PlanSeconds + e.LawSeconds)
	if e.Pilot.Lower {
		from := len(e.Pilot.Sampled)
		for t, n := range e.Pilot.Sampled {
			if n > 0 {
				from = min(from, t)
			}
		}
		return fmt.Sprintf("%d distinct probes × %d class pairs = %.3g transport problems, of which those at depths %d and below take %s (timed on a pilot of %d) and the shallower ones, on longer suffix laws, were not timed; and %s of laws and classes",
			e.Cost.Distinct, e.Pairs, e.PairWork, from, seconds(e.PairSeconds), e.Pilot.sampled()*int64(e.Pilot.Probes), laws)
	}
	per := 0.0
	if e.PairWork > 0 {
		per = e.PairSeconds / e.PairWork
	}
	return fmt.Sprintf("%d distinct probes × %d class pairs = %.3g transport problems at %s each on average (timed on a pilot of %d), and %s of laws and classes",
		e.Cost.Distinct, e.Pairs, e.PairWork, shortSeconds(per), e.Pilot.sampled()*int64(e.Pilot.Probes), laws)
}

// shortSeconds writes a short duration: "12 µs", "3.4 ms", "1.2 s".
func shortSeconds(s float64) string {
	switch {
	case s < 1e-3:
		return fmt.Sprintf("%.2g µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.2g ms", s*1e3)
	default:
		return fmt.Sprintf("%.2g s", s)
	}
}

func seconds(s float64) string {
	switch {
	case s < 0.01:
		return "0.01 s or less"
	case s < 10:
		return fmt.Sprintf("%.2g s", s)
	default:
		return fmt.Sprintf("%.0f s", s)
	}
}

// maxHistories bounds the histories a pre-flight considers at all: past
// it even the history tree does not fit a computer's memory.
const maxHistories = 1 << 31

// Preflight estimates the report's distance computation for the family
// (kind, mm) of model m at horizon T against budget b: the family size
// and the modelled law work first (free), then, when the laws fit the
// time budget, distance.Plan (the cheap phases: the exact classes and the
// memory estimate) and a pilot of the transport problems (runPilot, about
// PilotSeconds), extrapolated to every class pair and distinct probe. A
// run that does not fit has Refused set, in words; errors are only
// cancellation and failures of the model.
func Preflight(ctx context.Context, m *pomdp.Model, kind fsc.Kind, mm, T int, b Budget) (Estimate, error) {
	if kind == "" {
		kind = fsc.KindStationary
	}
	e := Estimate{Kind: kind, M: mm, T: T}
	nO := m.NumObservations()
	h, p := 0, 1
	for t := 0; t <= T; t++ {
		h += p
		if p > maxHistories/max(nO, 1) && t < T {
			e.Refused = fmt.Sprintf("T = %d has more than %d histories (|O| = %d observations per step): the history tree alone does not fit in memory", T, maxHistories, nO)
			return e, nil
		}
		p *= nO
	}
	e.Histories = h
	fam, err := fsc.New(kind, m.NumActions(), nO, mm, T, fsc.Options{})
	if err != nil {
		var tl *fsc.TooLargeError
		if errors.As(err, &tl) {
			e.Refused = Infeasible(tl, m, T, b)
			return e, nil
		}
		return e, err
	}
	e.Size = fam.Len()
	e.LawWork = float64(e.Size) * float64(h) * float64(m.NumStates())
	slow := b.Slowdown
	if slow <= 0 {
		slow = 1
	}
	e.Seconds = slow * PlanPasses * e.LawWork / LawRate
	if b.Seconds > 0 && e.Seconds > b.Seconds {
		e.Refused = fmt.Sprintf("about %s and more: the laws of %d controllers on %d histories over %d states (%.3g) take more than the %s budget before any distance", seconds(e.Seconds), e.Size, h, m.NumStates(), e.LawWork, seconds(b.Seconds))
		return e, nil
	}
	return e, e.measure(ctx, m, fam, b)
}

// measure runs distance.Plan and the pilot and fills the estimate.
func (e *Estimate) measure(ctx context.Context, m *pomdp.Model, fam fsc.Family, b Budget) error {
	times := map[string]float64{}
	var last string
	at := cpuNow()
	phase := func(name string) {
		now := cpuNow()
		times[last] += now - at
		last, at = name, now
	}
	e.Grid = CurveGrid(curveTop(b.CurveTop, 1), DefaultGridPoints)
	dopt := distance.Options{MemBudget: b.Bytes, Phase: phase, Eps: e.Grid, Compact: true}
	cost, classes, err := distance.Plan(ctx, m, fam, e.T, dopt)
	phase("")
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var be *distance.BudgetError
		if errors.As(err, &be) {
			e.Refused = be.Error()
			return nil
		}
		return err
	}
	busy := 1.0 // CPU time is of every thread already
	if !cpuClock {
		busy = float64(min(max(cost.Workers, 1), max(cost.Distinct, 1)))
	}
	e.Planned, e.Cost, e.Bytes, e.Pairs = true, cost, cost.Bytes(), cost.Pairs
	e.PairWork = float64(cost.Distinct) * float64(cost.Pairs)
	e.PlanSeconds = busy * (times["probes"] + times["classes"] + times["bounds"])
	e.LawSeconds = busy * times["classes"]
	e.Compute = e.PlanSeconds + e.LawSeconds
	e.Passes = Passes
	if TensorFits(cost) {
		e.Passes++
	}
	e.Seconds = float64(e.Passes) * e.Compute
	if b.Bytes > 0 && e.Bytes > b.Bytes {
		name, v := cost.Largest()
		e.Refused = fmt.Sprintf("an estimated %s of memory (largest term %s, %s), over the budget %s", distance.FormatBytes(e.Bytes), name, distance.FormatBytes(v), distance.FormatBytes(b.Bytes))
		return nil
	}
	if cost.Pairs > 0 {
		limit := 0.0
		if b.Seconds > 0 {
			limit = b.Seconds / float64(e.Passes)
		}
		if e.Pilot, err = runPilot(ctx, m, fam, e.T, classes, cost.Distinct, times["classes"]/float64(max(cost.Distinct, 1))*busy, limit, dopt); err != nil {
			return err
		}
		for t, per := range e.Pilot.PerPair {
			c := float64(classes.Classes(t))
			e.PairSeconds += per * c * (c - 1) / 2 * float64(cost.Distinct)
		}
	}
	e.Compute += e.PairSeconds
	e.Seconds = float64(e.Passes) * e.Compute
	if !e.Pilot.Lower && (b.Seconds <= 0 || e.Seconds <= b.Seconds) {
		// The distances fit: time the phases after them too.
		if err := e.timeValuation(ctx, m, fam, classes); err != nil {
			return err
		}
		e.Seconds += e.AfterSeconds
	}
	about := "about"
	if e.Pilot.Lower || !e.AfterTimed {
		about = "at least"
	}
	name, v := cost.Largest()
	switch {
	case b.Seconds > 0 && e.Seconds > b.Seconds:
		e.Refused = fmt.Sprintf("%s %s (%s) and %s of memory (largest term %s, %s), more than the %s budget",
			about, seconds(e.Seconds), e.timeText(), distance.FormatBytes(e.Bytes), name, distance.FormatBytes(v), seconds(b.Seconds))
	case e.Pilot.Lower:
		e.Refused = fmt.Sprintf("at least %s (%s) and %s of memory (largest term %s, %s): the pilot of the transport problems did not finish within its own bound of %s of transport problems, so the time is not known",
			seconds(e.Seconds), e.timeText(), distance.FormatBytes(e.Bytes), name, distance.FormatBytes(v), seconds(PilotSeconds))
	}
	return nil
}

// timeText says the time terms: the distance passes and the phases
// after them.
func (e Estimate) timeText() string {
	pass := "passes"
	if e.Passes == 1 {
		pass = "pass"
	}
	s := fmt.Sprintf("%d %s of %s: %s", e.Passes, pass, seconds(e.Compute), e.Work())
	if !e.AfterTimed {
		return s + "; and the soundness checks and planning, not timed since the distances alone do not fit"
	}
	return s + fmt.Sprintf("; and %s of soundness checks and planning, %g soundness checks at %s each (one timed)", seconds(e.AfterSeconds), e.Valuations, shortSeconds(e.ValuationSeconds))
}

// PlanValuationWeight is the cost of one valuation of the planning
// section (a controller on the model or on a quotient) in soundness
// checks: measured on hallway, m ≤ 1, T = 4 (pomdpq analyze --T 4
// --progress lines), 10 soundness checks took 37 s and 2 × 40 planning
// valuations 136 s of wall time, about 0.43 of a check each; rounded up.
const PlanValuationWeight = 0.5

// afterValuations returns the valuations, in soundness checks, of a
// report's phases after the distances for a family of size controllers
// (Estimate.Valuations).
func afterValuations(size int) float64 {
	n := 2 * float64(min(size, DefaultSoundnessProbes))
	if plan := size * (PlanEpsPoints + 1); plan <= MaxPlanValuations {
		n += 2 * PlanValuationWeight * float64(plan)
	}
	return n
}

// timeValuation times one soundness check, of the family's first
// controller on the exact quotient (classes), and sets the estimate's
// Valuations, ValuationSeconds and AfterSeconds.
func (e *Estimate) timeValuation(ctx context.Context, m *pomdp.Model, fam fsc.Family, classes *partition.Partition) error {
	e.Valuations = afterValuations(e.Size)
	q, err := quotient.New(m, e.T, classes)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	t0 := cpuNow()
	if _, _, err := q.SoundnessGap(fam.At(0)); err != nil {
		return err
	}
	e.ValuationSeconds, e.AfterTimed = cpuNow()-t0, true
	e.AfterSeconds = e.Valuations * e.ValuationSeconds
	return nil
}

// TensorFits reports whether the certificates' per-probe tensor of a run
// with this cost (every pair of histories times every distinct probe)
// fits DefaultTensorEntries, so that Build computes it: one more pass.
func TensorFits(c distance.Cost) bool {
	pairs := int64(0)
	for _, n := range c.Histories {
		pairs += int64(n) * int64(n-1) / 2
	}
	return pairs*int64(c.Distinct) <= DefaultTensorEntries
}

// Infeasible explains in words why a family of model m at horizon T
// cannot be enumerated and what would work instead: for a stationary family of 2 or
// 3 nodes the exact branch-and-bound search (package statbb, `pomdpq
// quotient --search`) when its memory estimate fits budget b; the largest
// smaller memory bound that can be enumerated; and a sampled family.
func Infeasible(e *fsc.TooLargeError, m *pomdp.Model, T int, b Budget) string {
	nA, nO := m.NumActions(), m.NumObservations()
	what := "controllers"
	if e.Kind == fsc.KindClock {
		what = fmt.Sprintf("clock-aware controllers at T = %d", e.T)
	}
	s := fmt.Sprintf("m ≤ %d has %s %s: enumerating them is impossible (the enumeration stops at %s)", e.M, Magnitude(e.Size), what, Magnitude(big.NewInt(e.Limit)))
	var alt []string
	if w := searchWords(e, m, T, b); w != "" {
		alt = append(alt, w)
	}
	for k := e.M - 1; k >= 1; k-- {
		size, err := fsc.Size(e.Kind, nA, nO, k, e.T)
		if err == nil && size.IsInt64() && size.Int64() <= e.Limit {
			alt = append(alt, fmt.Sprintf("the m ≤ %d family (%s controllers) can be enumerated", k, Magnitude(size)))
			break
		}
	}
	alt = append(alt, fmt.Sprintf("a sampled family (pomdpq quotient --family stochastic-%s --samples 1000) gives the quotient for the probes drawn, not for every m ≤ %d controller", e.Kind, e.M))
	return s + "; what would work: " + strings.Join(alt, "; ")
}

// searchWords says whether the exact branch-and-bound search of package
// statbb would compute the stationary family of e at horizon T within
// budget b's memory (its own pre-flight, statbb.EstimateCost); empty when
// the search does not apply (another kind, m < 2 or m > statbb.MaxM, no
// horizon). The search shares one belief table among its workers
// (statbb's table.go) but gives each worker its own scratch buffers
// (statbb.Cost.Scratch, 2·8·|O|^T bytes per worker), so when all cores
// (runtime.GOMAXPROCS) do not fit but fewer workers do, the command named
// carries the largest --workers that fits: the verdict is then the same
// on every machine, only the worker count follows its cores.
func searchWords(e *fsc.TooLargeError, m *pomdp.Model, T int, b Budget) string {
	if e.Kind != fsc.KindStationary || e.M < 2 || e.M > statbb.MaxM {
		return ""
	}
	cmd := fmt.Sprintf("pomdpq quotient --family stationary --m %d --search", e.M)
	if T < 1 {
		return fmt.Sprintf("the exact branch-and-bound search (%s --T T) computes the distances of every m ≤ %d controller without enumerating them, at small horizons", cmd, e.M)
	}
	workers := runtime.GOMAXPROCS(0)
	cost := statbb.EstimateCost(m, T, workers)
	fits := func(c statbb.Cost) bool { return b.Bytes <= 0 || c.Bytes() <= b.Bytes }
	flag := ""
	for !fits(cost) && workers > 1 {
		workers--
		cost = statbb.EstimateCost(m, T, workers)
		flag = fmt.Sprintf(" --workers %d", workers)
	}
	name, v := cost.Largest()
	work := statbb.Work(m.NumActions(), m.NumObservations(), e.M, T)
	mem := fmt.Sprintf("estimated memory %s (largest term %s, %s)", distance.FormatBytes(cost.Bytes()), name, distance.FormatBytes(v))
	if !fits(cost) {
		return fmt.Sprintf("the exact branch-and-bound search (%s --T %d) does not fit either: %s with one worker, over the budget %s", cmd, T, mem, distance.FormatBytes(b.Bytes))
	}
	return fmt.Sprintf("the exact branch-and-bound search (%s --T %d%s) computes the distances of every m ≤ %d controller without enumerating them: %s; its worst case is %.2g combinations, and each history pair's search stops after %.2g nodes (--max-nodes)",
		cmd, T, flag, e.M, mem, work, statbb.DefaultMaxNodes)
}

// Magnitude writes a count in words a reader can weigh: exactly up to
// 10⁷, else rounded to two digits as 1.2·10^18.
func Magnitude(n *big.Int) string {
	s := n.String()
	if len(s) <= 7 {
		return s
	}
	e := new(big.Float).SetInt(n).Text('e', 1) // "1.2e+18"
	mant, exp, _ := strings.Cut(e, "e")
	return mant + "·10^" + strings.TrimLeft(strings.TrimPrefix(exp, "+"), "0")
}

// ChooseT returns the largest horizon T ≤ MaxDefaultT at which the largest
// family of ms (of kind) fits budget b by Preflight, and a sentence saying
// which T the budget allowed and what the next would cost.
//
// When the largest family fits at no horizon, the next smaller memory bound
// of ms decides (the larger family is then refused by Build).
func ChooseT(ctx context.Context, m *pomdp.Model, kind fsc.Kind, ms []int, b Budget) (int, string, error) {
	c, err := Choose(ctx, m, kind, ms, b, Preflight)
	return c.T, c.Why, err
}

// PreflightFunc is the signature of Preflight: Choose takes one, so that
// a caller can count or reuse the pre-flights it runs.
type PreflightFunc func(ctx context.Context, m *pomdp.Model, kind fsc.Kind, mm, T int, b Budget) (Estimate, error)

// Choice is the horizon Choose picked, the sentence saying why, and the
// estimates it made at that horizon (by memory bound), which a caller
// reuses instead of running the pre-flight again.
type Choice struct {
	T         int
	Why       string
	Estimates map[int]Estimate
}

// Choose is ChooseT with the pre-flight pf (Preflight, or a wrapper), and
// returns the estimates at the chosen horizon too: the deciding family's
// and those of the larger families of ms.
func Choose(ctx context.Context, m *pomdp.Model, kind fsc.Kind, ms []int, b Budget, pf PreflightFunc) (Choice, error) {
	sorted := append([]int(nil), ms...)
	slices.Sort(sorted)
	var whys []string
	for i := len(sorted) - 1; i >= 0; i-- {
		best, why, err := chooseT(ctx, m, kind, sorted[i], b, pf)
		if err != nil {
			return Choice{}, err
		}
		if T := best.T; T > 0 {
			c := Choice{T: T, Estimates: map[int]Estimate{sorted[i]: best}}
			// Say the larger families' refusals at the horizon chosen.
			for j, k := range sorted[i+1:] {
				e, err := pf(ctx, m, kind, k, T, b)
				if err != nil {
					return Choice{}, err
				}
				c.Estimates[k] = e
				if e.Size == 0 {
					whys[len(whys)-1-j] = fmt.Sprintf("m ≤ %d fits at no horizon: %s", k, e.Refused)
				}
			}
			if len(whys) > 0 {
				why += " (" + strings.Join(whys, "; ") + ")"
			}
			c.Why = why
			return c, nil
		}
		whys = append(whys, fmt.Sprintf("m ≤ %d fits at no horizon: %s", sorted[i], why))
	}
	return Choice{}, fmt.Errorf("report: no horizon fits the budget of %s: %s", b, strings.Join(whys, "; "))
}

// chooseT is Choose for one memory bound mm: the estimate at the largest
// horizon that fits (T = 0 when none does) and the sentence saying why.
func chooseT(ctx context.Context, m *pomdp.Model, kind fsc.Kind, mm int, b Budget, pf PreflightFunc) (Estimate, string, error) {
	var best Estimate
	why := ""
	for T := 1; T <= MaxDefaultT; T++ {
		e, err := pf(ctx, m, kind, mm, T, b)
		if err != nil {
			return Estimate{}, "", err
		}
		if !e.Fits() {
			why = fmt.Sprintf("T = %d would need %s", T, e.Refused)
			if e.Size == 0 {
				why = e.Refused // the family, at any horizon
			}
			break
		}
		best = e
		if T == MaxDefaultT {
			why = fmt.Sprintf("the default stops at T = %d (--T for more)", MaxDefaultT)
		}
	}
	if best.T == 0 {
		return Estimate{}, why, nil
	}
	return best, fmt.Sprintf("T = %d is the largest horizon the budget of %s allows for %s m ≤ %d (estimated %s); %s",
		best.T, b, best.Kind, mm, strings.TrimPrefix(best.Summary(), fmt.Sprintf("%s m ≤ %d, T = %d: ", best.Kind, mm, best.T)), why), nil
}
