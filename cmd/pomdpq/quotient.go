package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/clock2"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
)

type classJSON struct {
	Epsilon float64 `json:"epsilon"`
	Count   int     `json:"count"`
}

type quotientJSON struct {
	FamilySize   int     `json:"family_size"`
	Distinct     int     `json:"distinct"`
	Histories    int     `json:"histories"`
	ExactClasses int     `json:"exact_classes"`
	MaxDistance  float64 `json:"max_distance"`
	// MaxDistanceExact is false when some pair lies above the largest ε
	// (decision mode: such pairs are not solved exactly); max_distance is
	// then that ε plus partition.ZeroTol, a lower bound the same in every run.
	// The searched families (clock m = 2, --search) decide every pair only
	// up to its ε-bracket: in decision mode max_distance_exact is always
	// false and max_distance is the lower end of the maximum's bracket (the
	// largest listed ε below it plus partition.ZeroTol; 0 below the
	// smallest ε).
	MaxDistanceExact bool `json:"max_distance_exact"`
	// Seconds is the wall time of the whole command; Phases its parts.
	Seconds float64     `json:"seconds"`
	Phases  []phaseJSON `json:"phases"`
	// EstimateBytes is the estimated peak memory of the whole command: the
	// largest of its phases' estimates (EstimatePhases).
	EstimateBytes  int64          `json:"estimate_bytes"`
	EstimatePhases []estimateJSON `json:"estimate_phases,omitempty"`
	Classes        []classJSON    `json:"classes"`
	StandIns       int            `json:"stand_ins"`
	Convention     string         `json:"convention"`
	// DeltaClk is the cross-family gap δ_clk = ‖d^clk − d^op‖∞ of the m = 1
	// stationary family (cor:op-to-clk-transfer), when it was computed.
	DeltaClk *float64 `json:"delta_clk,omitempty"`
	// Ground is the ground metric d_O the distances were computed with.
	Ground groundJSON `json:"ground"`
	// Summary says each ε's answer in words (the text output's first
	// lines; not in the JSON, which has the numbers).
	Summary []classSummary `json:"-"`
}

// estimateJSON is the estimated peak memory of one phase of a command:
// "distances" (distance.Plan's pre-flight estimate of the probes,
// classes and distances), "delta-clk" (clock.Distances.PeakBytes, the
// metered tables of δ_clk, or the estimate at which they were stopped),
// "search" (lib/clock2's fixed buffers).
type estimateJSON struct {
	Phase string `json:"phase"`
	Bytes int64  `json:"bytes"`
}

// phaseEstimates collects the estimates of a command's phases; Max is
// what the command prints as its estimated peak memory.
type phaseEstimates []estimateJSON

func (p *phaseEstimates) add(phase string, b int64) { *p = append(*p, estimateJSON{phase, b}) }

// Max returns the largest estimate.
func (p phaseEstimates) Max() int64 {
	var m int64
	for _, e := range p {
		m = max(m, e.Bytes)
	}
	return m
}

// String lists the phases' estimates, e.g. "distances 12.0 MiB,
// delta-clk 1.2 GiB".
func (p phaseEstimates) String() string {
	parts := make([]string, len(p))
	for i, e := range p {
		parts[i] = e.Phase + " " + distance.FormatBytes(e.Bytes)
	}
	return strings.Join(parts, ", ")
}

// quotientOptions are the flags of quotient besides the front end's.
type quotientOptions struct {
	q                                    *quotientFlags
	metric                               *string
	samples                              *int
	seed                                 *uint64
	dryRun, exactDist, enumerate, search *bool
	gapWork, maxNodes                    *float64
	sh                                   shardFlags
}

// quotientCommand registers quotient's flags.
func quotientCommand(stdout, stderr io.Writer) (*command, *quotientOptions) {
	c := newCommand("quotient", stdout, stderr)
	fs := c.fs
	o := &quotientOptions{q: c.quotientFlags("stationary or clock", "")}
	o.metric = fs.String("metric", "w1", "w1 or tv")
	o.samples = fs.Int("samples", 100, "controllers of a sampled (stochastic-*) family")
	o.seed = fs.Uint64("seed", 0, "seed of a sampled family (sample i is drawn from the stream (seed, i))")
	c.jsonFlag()
	c.verboseFlag()
	c.progressFlag("progress on stderr: auto (a bar on a terminal, a line per phase otherwise), bar, lines or off")
	c.memFlag()
	o.dryRun = fs.Bool("dry-run", false, "estimate memory and work (runs only the cheap exact-class phase) and stop")
	c.workersFlag()
	o.exactDist = fs.Bool("exact-distances", false, "solve every pair exactly, also above the largest ε (slower; gives the exact max distance)")
	o.gapWork = fs.Float64("delta-clk-work", 1e6, "compute δ_clk (m = 1 stationary) when the exact recursion visits at most this many (history, prefix) pairs; 0 disables")
	o.sh.register(fs)
	o.enumerate = fs.Bool("enumerate", false, "clock m = 2, stationary m = 2 or 3: enumerate the family (the cross-check; implied by --shard) instead of searching it")
	o.search = fs.Bool("search", false, "stationary m ≤ 3: search the family by branch and bound (lib/statbb) instead of enumerating it; implied when the family exceeds --limit")
	o.maxNodes = fs.Float64("max-nodes", clock2.DefaultMaxNodes, "clock m = 2 and stationary searches: largest number of branch-and-bound nodes of one tail (clock) or history-pair (stationary) search")
	return c, o
}

func cmdQuotient(args []string, stdout, stderr io.Writer) error {
	c, o := quotientCommand(stdout, stderr)
	if err := c.parse(args); err != nil {
		return err
	}
	c.rep.Phase("load")
	in, err := o.q.resolve()
	if err != nil {
		return err
	}
	met, err := distance.ParseMetric(*o.metric)
	if err != nil {
		return usageError{msg: err.Error()}
	}
	unused := ""
	if met == distance.TV {
		unused = "--metric tv compares suffix laws by total variation"
	}
	if err := o.sh.check(in.kind, *o.dryRun); err != nil {
		return err
	}
	if *o.search && (in.kind != fsc.KindStationary || *o.enumerate || o.sh.active()) {
		return usageError{msg: "quotient: --search is for --family stationary, without --enumerate or --shard"}
	}
	md := in.model
	sa := searchArgs{model: md, ground: in.ground, T: in.T, eps: in.eps, metric: met, conv: in.conv, exact: *o.exactDist, dryRun: *o.dryRun,
		workers: c.nworkers(), maxNodes: *o.maxNodes, mem: int64(c.mem), asJSON: c.json(), rep: c.rep, stdout: stdout,
		kind: in.kind, m: in.M, verbose: c.isVerbose()}
	if in.kind == fsc.KindClock && in.M == 2 && !*o.enumerate && !o.sh.active() {
		size, err := fsc.Size(in.kind, md.NumActions(), md.NumObservations(), 2, in.T)
		if err != nil {
			return err
		}
		return quotientClock2(clock2Args{searchArgs: sa, familySize: size.String()})
	}
	if in.kind == fsc.KindStationary {
		size, err := fsc.Size(in.kind, md.NumActions(), md.NumObservations(), in.M, in.T)
		if err != nil {
			return err
		}
		if ok, why := useStatSearch(in.kind, in.M, size, in.limit, *o.search, *o.enumerate, o.sh.active()); ok {
			return quotientStatbb(statbbArgs{searchArgs: sa, M: in.M, size: size, why: why})
		}
	}
	return quotientEnumerated(c, o, in, met, unused)
}

// quotientEnumerated runs quotient over the enumerated (or sampled, or
// sharded) family: the dry run, one shard, or the distances, the class
// counts at every ε and δ_clk.
func quotientEnumerated(c *command, o *quotientOptions, in quotientInput, met distance.Metric, unused string) error {
	md := in.model
	var fam fsc.Family
	var err error
	if o.sh.active() {
		fam, err = o.sh.family(in.kind, md.NumActions(), md.NumObservations(), in.M, in.T, in.limit, *o.samples, *o.seed)
	} else {
		fam, err = fsc.New(in.kind, md.NumActions(), md.NumObservations(), in.M, in.T, fsc.Options{Limit: in.limit, Samples: *o.samples, Seed: *o.seed, Indexed: true})
	}
	if err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	budget := c.budget()
	defer softLimit(budget)()
	rep := c.rep
	opt := distance.Options{Metric: met, Ground: in.ground.Ground, Convention: in.conv, Workers: c.nworkers(), MemBudget: int64(c.mem),
		Phase: rep.Phase, Progress: rep.Progress}
	if !*o.exactDist {
		// Decision mode: the listed ε are all the run reports, so it
		// keeps a bit per pair and ε rather than the distances.
		opt.Eps, opt.Compact = in.eps, true
	}
	if o.sh.active() {
		return o.sh.run(ctx, md, in.ground, unused, fam, in.T, opt, rep, c.json(), c.stdout)
	}
	if *o.dryRun {
		return quotientDryRun(ctx, c, in, fam, met, unused, opt)
	}
	res, err := distance.Compute(ctx, md, fam, in.T, opt)
	if err != nil {
		return err
	}
	out := quotientJSON{FamilySize: res.FamilySize, Distinct: res.Distinct, Histories: res.Tree.Len(), ExactClasses: res.Classes.Total(),
		MaxDistance: res.MaxDistance(), MaxDistanceExact: res.MaxDistanceExact(), StandIns: res.StandIns, Convention: in.conv.String(),
		Ground: newGroundJSON(in.ground, unused)}
	var est phaseEstimates
	est.add("distances", res.Cost.Bytes())
	rep.Phase("linkage")
	for k, e := range in.eps {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := res.Partition(e)
		out.Classes = append(out.Classes, classJSON{Epsilon: e, Count: p.Total()})
		out.Summary = append(out.Summary, newClassSummary(e, p, in.kind, in.M))
		rep.Progress(k+1, len(in.eps))
	}
	var gapNote string
	if in.kind == fsc.KindStationary && in.M == 1 && met == distance.W1 {
		if gapNote, err = quotientDeltaClk(ctx, in, *o.gapWork, budget, rep, &out, &est); err != nil {
			return err
		}
	}
	rep.Phase("")
	out.Seconds, out.Phases = rep.Seconds(), rep.Phases()
	out.EstimateBytes, out.EstimatePhases = est.Max(), est
	head := fmt.Sprintf("model %s, %v, T = %d, metric %s", md.Name, fam, in.T, met)
	return c.emit(out, func(w io.Writer) {
		if !writeQuotientSummary(w, md.Name, fam.String(), in.T, &out, in.ground, unused, c.isVerbose()) {
			return
		}
		printQuotient(w, quotientText{head: head, in: in, unused: unused, gapNote: gapNote, est: est}, &out)
	})
}

// quotientDryRun prints (or writes as JSON) the pre-flight estimate of
// the distances of fam against the memory budget, and stops.
func quotientDryRun(ctx context.Context, c *command, in quotientInput, fam fsc.Family, met distance.Metric, unused string, opt distance.Options) error {
	md, rep, budget := in.model, c.rep, c.budget()
	cost, exact, err := distance.Plan(ctx, md, fam, in.T, opt)
	if err != nil {
		return err
	}
	rep.Phase("")
	name, v := cost.Largest()
	out := planJSON{FamilySize: cost.FamilySize, Distinct: cost.Distinct, Histories: cost.Histories,
		ExactClasses: cost.Classes, Pairs: cost.Pairs, EstimateBytes: cost.Bytes(), BudgetBytes: budget,
		Fits: budget < 0 || cost.Bytes() <= budget, Largest: name, LargestBytes: v, Seconds: rep.Seconds(), Phases: rep.Phases(),
		Ground: newGroundJSON(in.ground, unused), ClassesPhaseBytes: cost.ClassesPhaseBytes(false), ClassesPhaseAheadBytes: cost.ClassesPhaseBytes(true)}
	if !cost.Known {
		out.ExactClasses = nil
	}
	return c.emit(out, func(w io.Writer) {
		if exact == nil {
			fmt.Fprintf(w, "model %s, %v, T = %d, metric %s (dry run: stopped before the exact classes, whose phase does not fit the budget)\n", md.Name, fam, in.T, met)
		} else {
			fmt.Fprintf(w, "model %s, %v, T = %d, metric %s (dry run: exact classes only, %d in all)\n", md.Name, fam, in.T, met, exact.Total())
		}
		fmt.Fprintln(w, groundLine(in.ground, unused))
		fmt.Fprintln(w, cost)
		verdict := "fits"
		if budget > 0 && cost.Bytes() > budget {
			verdict = "does NOT fit"
		}
		if budget < 0 {
			fmt.Fprintln(w, "no memory budget (--mem unlimited)")
		} else {
			fmt.Fprintf(w, "budget %s: the run %s\n", distance.FormatBytes(budget), verdict)
		}
		if in.kind == fsc.KindStationary && in.M == 1 && met == distance.W1 {
			fmt.Fprintln(w, "δ_clk (m = 1) is not in this estimate: its tables (beliefs, prefix trees, belief pairs) are metered against the budget as they grow and stopped past it")
		}
	})
}

// quotientDeltaClk computes the cross-family gap δ_clk of an m = 1
// stationary quotient into out where the exact recursion is tractable,
// adding its tables' peak to est; the note says why it was not computed.
// δ_clk certifies an operational quotient for the clock-aware family.
func quotientDeltaClk(ctx context.Context, in quotientInput, gapWork float64, budget int64, rep *reporter, out *quotientJSON, est *phaseEstimates) (string, error) {
	md := in.model
	w := clock.Work(md.NumActions(), md.NumObservations(), in.T)
	if w > gapWork {
		return fmt.Sprintf("the exact recursion would visit %.3g (history, prefix) pairs, above --delta-clk-work %g", w, gapWork), nil
	}
	rep.Phase("delta-clk")
	copt := clock.Options{Progress: rep.Progress, MaxBytes: float64(budget)}
	if budget < 0 {
		// "unlimited" still stops δ_clk short of the machine's
		// memory: a refusal, not an out-of-memory crash.
		copt.MaxBytes = float64(2 * distance.DefaultMemBudget())
	}
	// δ_clk's tables are metered against the budget as they grow
	// (the distances' result, still held, counts as heap in use).
	d, err := clock.NewDistances(ctx, md, in.ground.Ground, in.T, &copt)
	var be *clock.BudgetError
	switch {
	case err == nil:
		out.DeltaClk = &d.Gap
		est.add("delta-clk", d.PeakBytes)
	case ctx.Err() != nil:
		return "", ctx.Err()
	case errors.As(err, &be):
		// Stopped at the budget: the estimate it reached.
		est.add("delta-clk", int64(be.Need))
		return err.Error(), nil
	default:
		return err.Error(), nil
	}
	return "", nil
}

// quotientText is what the text output of an enumerated quotient needs
// besides its JSON: the heading, the input, why the ground metric is
// unused, why δ_clk was not computed and the memory estimates.
type quotientText struct {
	head    string
	in      quotientInput
	unused  string
	gapNote string
	est     phaseEstimates
}

// writeQuotientSummary starts the text output of a quotient: what was
// computed and each ε's answer in words (classSummary), then the ground
// metric and, without --verbose, the hint; it reports whether the full
// report is to follow (verbose).
func writeQuotientSummary(w io.Writer, model, family string, T int, q *quotientJSON, gd ot.Described, unused string, verbose bool) bool {
	lines := []string{fmt.Sprintf("%s, %s, T = %d: %s histories in %s exact classes",
		model, family, T, thousands(q.Histories), thousands(q.ExactClasses))}
	for _, s := range q.Summary {
		lines = append(lines, s.String())
	}
	writeSummary(w, lines...)
	if verbose {
		fmt.Fprintln(w)
		return true
	}
	writeSummary(w, groundLine(gd, unused), verboseHint)
	return false
}

// printQuotient writes the text output of an enumerated quotient.
func printQuotient(w io.Writer, t quotientText, out *quotientJSON) {
	fmt.Fprintln(w, t.head)
	fmt.Fprintln(w, groundLine(t.in.ground, t.unused))
	maxd := fmt.Sprintf("%.6g", out.MaxDistance)
	if !out.MaxDistanceExact {
		maxd = fmt.Sprintf("> %g (pairs above the largest ε decided by bounds; --exact-distances for the exact value)", slices.Max(t.in.eps))
	}
	fmt.Fprintf(w, "histories %d in %d exact classes, distinct probes %d, max distance %s\n", out.Histories, out.ExactClasses, out.Distinct, maxd)
	fmt.Fprintf(w, "impossible-history stand-ins (%s): %d (history, probe) pairs\n", t.in.conv, out.StandIns)
	if out.DeltaClk != nil {
		fmt.Fprintf(w, "cross-family gap δ_clk = %.6g: an ε-quotient here is an (ε + δ_clk)-quotient for clock-aware m = 1 probes\n", *out.DeltaClk)
	} else if t.gapNote != "" {
		fmt.Fprintf(w, "cross-family gap δ_clk not computed: %s\n", t.gapNote)
	}
	printClasses(w, out)
	fmt.Fprintf(w, "; estimated peak memory %s", distance.FormatBytes(out.EstimateBytes))
	if len(t.est) > 1 {
		fmt.Fprintf(w, " (%s)", t.est)
	}
	fmt.Fprintln(w)
}

type planJSON struct {
	FamilySize    int         `json:"family_size"`
	Distinct      int         `json:"distinct"`
	Histories     []int       `json:"histories"`
	ExactClasses  []int       `json:"exact_classes"`
	Pairs         int64       `json:"pairs"`
	EstimateBytes int64       `json:"estimate_bytes"`
	BudgetBytes   int64       `json:"budget_bytes"`
	Fits          bool        `json:"fits"`
	Largest       string      `json:"largest_term"`
	LargestBytes  int64       `json:"largest_term_bytes"`
	Seconds       float64     `json:"seconds"`
	Phases        []phaseJSON `json:"phases"`
	Ground        groundJSON  `json:"ground"`
	// ClassesPhaseBytes is the estimated peak memory of the class path's
	// classes phase (distance.Cost.ClassesPhaseBytes: the probes'
	// posterior DAGs, the labels and the grouping), from the counted
	// nodes once they are built; ClassesPhaseAheadBytes the estimate
	// made before any DAG was built. Both 0 off the class path.
	ClassesPhaseBytes      int64 `json:"classes_phase_bytes,omitempty"`
	ClassesPhaseAheadBytes int64 `json:"classes_phase_ahead_bytes,omitempty"`
}
