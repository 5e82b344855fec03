package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/clock2"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
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

func parseEps(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v < 0 {
			return nil, usageError{msg: fmt.Sprintf("--eps: %q is not a non-negative number", f)}
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, usageError{msg: "--eps: give at least one value, e.g. --eps 0,0.1,0.5"}
	}
	return out, nil
}

func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// progressFlag is --progress: a boolean flag (--progress forces the bar)
// that also takes auto, bar, lines or off.
type progressFlag string

func (p *progressFlag) String() string { return string(*p) }
func (p *progressFlag) Set(v string) error {
	if b, err := strconv.ParseBool(v); err == nil {
		v = "off"
		if b {
			v = "bar"
		}
	}
	switch v {
	case "auto", "bar", "lines", "off":
		*p = progressFlag(v)
		return nil
	}
	return fmt.Errorf("want auto, bar, lines or off")
}
func (p *progressFlag) IsBoolFlag() bool { return true }

// softLimit sets the Go runtime's soft memory limit to a command's memory
// budget (when it has one) and returns what restores the previous limit:
// near the budget the collector runs more often instead of letting
// garbage double the heap, so the estimates checked against the budget
// (which allow for that doubling) hold with room.
func softLimit(budget int64) (restore func()) {
	if budget <= 0 {
		return func() {}
	}
	old := debug.SetMemoryLimit(budget)
	return func() { debug.SetMemoryLimit(old) }
}

// memFlag is --mem: a memory size such as 8G.
type memFlag int64

func (m *memFlag) String() string { return distance.FormatBytes(int64(*m)) }
func (m *memFlag) Set(v string) error {
	if v == "unlimited" || v == "none" {
		*m = -1
		return nil
	}
	b, err := distance.ParseBytes(v)
	if err != nil {
		return err
	}
	*m = memFlag(b)
	return nil
}

func cmdQuotient(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("quotient", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	model := fs.String("model", "", "built-in model name or model file")
	family := fs.String("family", "stationary", "stationary or clock")
	m := fs.Int("m", 1, "memory bound (nodes)")
	T := fs.Int("T", 2, "horizon")
	epsList := fs.String("eps", "0", "comma-separated ε values")
	metric := fs.String("metric", "w1", "w1 or tv")
	ground := groundFlag(fs)
	conv := fs.String("stand-in", "uniform", "impossible-history stand-in: uniform or point-mass")
	limit := fs.Int64("limit", 0, "largest family size to enumerate (0: the default limit)")
	samples := fs.Int("samples", 100, "controllers of a sampled (stochastic-*) family")
	seed := fs.Uint64("seed", 0, "seed of a sampled family (sample i is drawn from the stream (seed, i))")
	asJSON := fs.Bool("json", false, "print JSON")
	progress := progressFlag("auto")
	fs.Var(&progress, "progress", "progress on stderr: auto (a bar on a terminal, a line per phase otherwise), bar, lines or off")
	var mem memFlag
	fs.Var(&mem, "mem", "memory budget, e.g. 8G (default: half of the physical memory or of the cgroup limit; unlimited: none)")
	dryRun := fs.Bool("dry-run", false, "estimate memory and work (runs only the cheap exact-class phase) and stop")
	workers := fs.Int("workers", 0, "worker goroutines (0: all cores)")
	exactDist := fs.Bool("exact-distances", false, "solve every pair exactly, also above the largest ε (slower; gives the exact max distance)")
	gapWork := fs.Float64("delta-clk-work", 1e6, "compute δ_clk (m = 1 stationary) when the exact recursion visits at most this many (history, prefix) pairs; 0 disables")
	var sh shardFlags
	sh.register(fs)
	enumerate := fs.Bool("enumerate", false, "clock m = 2, stationary m = 2 or 3: enumerate the family (the cross-check; implied by --shard) instead of searching it")
	search := fs.Bool("search", false, "stationary m ≤ 3: search the family by branch and bound (lib/statbb) instead of enumerating it; implied when the family exceeds --limit")
	maxNodes := fs.Float64("max-nodes", clock2.DefaultMaxNodes, "clock m = 2 and stationary searches: largest number of branch-and-bound nodes of one tail (clock) or history-pair (stationary) search")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		msg := fmt.Sprintf("quotient: unexpected argument %q (flags take the form --name value)", pos[0])
		switch pos[0] {
		case "auto", "bar", "lines", "off":
			msg = fmt.Sprintf("quotient: unexpected argument %q (write --progress=%s)", pos[0], pos[0])
		}
		return usageError{msg: msg}
	}
	rep := newReporter(stderr, string(progress))
	rep.Phase("load")
	md, gd, err := loadModelGround(*model, *ground)
	if err != nil {
		return err
	}
	g := gd.Ground
	kind, err := fsc.ParseKind(*family)
	if err != nil {
		return usageError{msg: err.Error()}
	}
	eps, err := parseEps(*epsList)
	if err != nil {
		return err
	}
	met, err := distance.ParseMetric(*metric)
	if err != nil {
		return usageError{msg: err.Error()}
	}
	unused := ""
	if met == distance.TV {
		unused = "--metric tv compares suffix laws by total variation"
	}
	cv, err := law.ParseConvention(*conv)
	if err != nil {
		return usageError{msg: err.Error()}
	}
	if err := sh.check(kind, *dryRun); err != nil {
		return err
	}
	if *search && (kind != fsc.KindStationary || *enumerate || sh.active()) {
		return usageError{msg: "quotient: --search is for --family stationary, without --enumerate or --shard"}
	}
	sa := searchArgs{model: md, ground: gd, T: *T, eps: eps, metric: met, conv: cv, exact: *exactDist, dryRun: *dryRun,
		workers: *workers, maxNodes: *maxNodes, mem: int64(mem), asJSON: *asJSON, rep: rep, stdout: stdout}
	if kind == fsc.KindClock && *m == 2 && !*enumerate && !sh.active() {
		size, err := fsc.Size(kind, md.NumActions(), md.NumObservations(), 2, *T)
		if err != nil {
			return err
		}
		return quotientClock2(clock2Args{searchArgs: sa, familySize: size.String()})
	}
	if kind == fsc.KindStationary {
		size, err := fsc.Size(kind, md.NumActions(), md.NumObservations(), *m, *T)
		if err != nil {
			return err
		}
		if ok, why := useStatSearch(kind, *m, size, *limit, *search, *enumerate, sh.active()); ok {
			return quotientStatbb(statbbArgs{searchArgs: sa, M: *m, size: size, why: why})
		}
	}
	var fam fsc.Family
	if sh.active() {
		fam, err = sh.family(kind, md.NumActions(), md.NumObservations(), *m, *T, *limit, *samples, *seed)
	} else {
		fam, err = fsc.New(kind, md.NumActions(), md.NumObservations(), *m, *T, fsc.Options{Limit: *limit, Samples: *samples, Seed: *seed, Indexed: true})
	}
	if err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	budget := int64(mem)
	if budget == 0 {
		budget = distance.DefaultMemBudget()
	}
	defer softLimit(budget)()
	opt := distance.Options{Metric: met, Ground: g, Convention: cv, Workers: *workers, MemBudget: int64(mem),
		Phase: rep.Phase, Progress: rep.Progress}
	if !*exactDist {
		// Decision mode: the listed ε are all the run reports, so it
		// keeps a bit per pair and ε rather than the distances.
		opt.Eps, opt.Compact = eps, true
	}
	if sh.active() {
		return sh.run(ctx, md, gd, unused, fam, *T, opt, rep, *asJSON, stdout)
	}
	if *dryRun {
		cost, exact, err := distance.Plan(ctx, md, fam, *T, opt)
		if err != nil {
			return err
		}
		rep.Phase("")
		if *asJSON {
			name, v := cost.Largest()
			return writeJSON(stdout, planJSON{FamilySize: cost.FamilySize, Distinct: cost.Distinct, Histories: cost.Histories,
				ExactClasses: cost.Classes, Pairs: cost.Pairs, EstimateBytes: cost.Bytes(), BudgetBytes: budget,
				Fits: budget < 0 || cost.Bytes() <= budget, Largest: name, LargestBytes: v, Seconds: rep.Seconds(), Phases: rep.Phases(),
				Ground: newGroundJSON(gd, unused)})
		}
		fmt.Fprintf(stdout, "model %s, %v, T = %d, metric %s (dry run: exact classes only, %d in all)\n", md.Name, fam, *T, met, exact.Total())
		fmt.Fprintln(stdout, groundLine(gd, unused))
		fmt.Fprintln(stdout, cost)
		verdict := "fits"
		if budget > 0 && cost.Bytes() > budget {
			verdict = "does NOT fit"
		}
		if budget < 0 {
			fmt.Fprintln(stdout, "no memory budget (--mem unlimited)")
		} else {
			fmt.Fprintf(stdout, "budget %s: the run %s\n", distance.FormatBytes(budget), verdict)
		}
		if kind == fsc.KindStationary && *m == 1 && met == distance.W1 {
			fmt.Fprintln(stdout, "δ_clk (m = 1) is not in this estimate: its tables (beliefs, prefix trees, belief pairs) are metered against the budget as they grow and stopped past it")
		}
		return nil
	}
	res, err := distance.Compute(ctx, md, fam, *T, opt)
	if err != nil {
		return err
	}
	out := quotientJSON{FamilySize: res.FamilySize, Distinct: res.Distinct, Histories: res.Tree.Len(), ExactClasses: res.Classes.Total(),
		MaxDistance: res.MaxDistance(), MaxDistanceExact: res.MaxDistanceExact(), StandIns: res.StandIns, Convention: cv.String(),
		Ground: newGroundJSON(gd, unused)}
	var est phaseEstimates
	est.add("distances", res.Cost.Bytes())
	rep.Phase("linkage")
	for k, e := range eps {
		if err := ctx.Err(); err != nil {
			return err
		}
		out.Classes = append(out.Classes, classJSON{Epsilon: e, Count: res.Partition(e).Total()})
		rep.Progress(k+1, len(eps))
	}
	// δ_clk certifies an operational (m = 1 stationary) quotient for the
	// clock-aware family; compute it where the exact recursion is tractable.
	var gapNote string
	if kind == fsc.KindStationary && *m == 1 && met == distance.W1 {
		if w := clock.Work(md.NumActions(), md.NumObservations(), *T); w <= *gapWork {
			rep.Phase("delta-clk")
			copt := clock.Options{Progress: rep.Progress, MaxBytes: float64(budget)}
			if budget < 0 {
				// "unlimited" still stops δ_clk short of the machine's
				// memory: a refusal, not an out-of-memory crash.
				copt.MaxBytes = float64(2 * distance.DefaultMemBudget())
			}
			// δ_clk's tables are metered against the budget as they grow
			// (the distances' result, still held, counts as heap in use).
			d, err := clock.NewDistances(ctx, md, g, *T, &copt)
			var be *clock.BudgetError
			switch {
			case err == nil:
				out.DeltaClk = &d.Gap
				est.add("delta-clk", d.PeakBytes)
			case ctx.Err() != nil:
				return ctx.Err()
			case errors.As(err, &be):
				// Stopped at the budget: the estimate it reached.
				est.add("delta-clk", int64(be.Need))
				gapNote = err.Error()
			default:
				gapNote = err.Error()
			}
		} else {
			gapNote = fmt.Sprintf("the exact recursion would visit %.3g (history, prefix) pairs, above --delta-clk-work %g", w, *gapWork)
		}
	}
	rep.Phase("")
	out.Seconds, out.Phases = rep.Seconds(), rep.Phases()
	out.EstimateBytes, out.EstimatePhases = est.Max(), est
	if *asJSON {
		return writeJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "model %s, %v, T = %d, metric %s\n", md.Name, fam, *T, met)
	fmt.Fprintln(stdout, groundLine(gd, unused))
	maxd := fmt.Sprintf("%.6g", out.MaxDistance)
	if !out.MaxDistanceExact {
		maxd = fmt.Sprintf("> %g (pairs above the largest ε decided by bounds; --exact-distances for the exact value)", slices.Max(eps))
	}
	fmt.Fprintf(stdout, "histories %d in %d exact classes, distinct probes %d, max distance %s\n", out.Histories, out.ExactClasses, res.Distinct, maxd)
	fmt.Fprintf(stdout, "impossible-history stand-ins (%s): %d (history, probe) pairs\n", cv, res.StandIns)
	if out.DeltaClk != nil {
		fmt.Fprintf(stdout, "cross-family gap δ_clk = %.6g: an ε-quotient here is an (ε + δ_clk)-quotient for clock-aware m = 1 probes\n", *out.DeltaClk)
	} else if gapNote != "" {
		fmt.Fprintf(stdout, "cross-family gap δ_clk not computed: %s\n", gapNote)
	}
	printClasses(stdout, &out)
	fmt.Fprintf(stdout, "; estimated peak memory %s", distance.FormatBytes(out.EstimateBytes))
	if len(est) > 1 {
		fmt.Fprintf(stdout, " (%s)", est)
	}
	fmt.Fprintln(stdout)
	return nil
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
}
