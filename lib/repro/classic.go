package repro

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
	"github.com/pomdpq/pomdpq/lib/runner"
)

// The classic-models table ("a table no one has") runs every model file of a
// folder for the stationary families m = 1 and m ≤ 2 at the largest horizon
// T that fits a time and a memory budget. It is a table of our own results:
// there is no paper column and no verdict. It is not part of `reproduce all`
// (with the default budgets of 60 s and 4 GiB per row it takes tens of
// minutes): run it by name, `pomdpq reproduce classic-models`.

// ClassicName is the file stem of the classic-models table.
const ClassicName = "classic-models"

// Defaults of ClassicOptions.
const (
	DefaultClassicSeconds = 60
	DefaultClassicMem     = 4 << 30
	// DefaultClassicMaxT caps the horizon search (models with one
	// observation would otherwise never run out of budget).
	DefaultClassicMaxT = 40
	// classicNoise is the run time below which measured growth ratios are
	// noise: below it only the growth of the history count is used.
	classicNoise = 0.1
)

// ClassicOptions configure ClassicModels. The zero value means the models
// of datasets/models found from the working directory, 60 s and 4 GiB per
// row, T ≤ 40, m ∈ {1, 2}, all cores and the in-process runner.
type ClassicOptions struct {
	Dir     string  // folder of .pomdp / .json files ("" : FindModelsDir)
	Seconds float64 // time budget of one run (0: DefaultClassicSeconds)
	Mem     int64   // memory budget of one run, bytes (0: DefaultClassicMem)
	MaxT    int     // largest horizon tried (0: DefaultClassicMaxT)
	Ms      []int   // memories (nil: 1, 2)
	Workers int     // 0: all cores
	// FamilyLimit is the largest family enumerated exactly; larger ones
	// are sampled (0: fsc.DefaultLimit).
	FamilyLimit int64
	// Run executes one job; nil means runner.InProcess (peak memory then
	// sampled from runtime/metrics). The CLI runs each job in a child
	// process (runner.InChild), which enforces both budgets on the whole
	// child and reports its peak resident set (getrusage).
	Run func(ctx context.Context, job runner.Job) (*runner.Result, error)
	// Log, when set, receives one line per job.
	Log func(format string, args ...any)
}

func (o *ClassicOptions) defaults() error {
	if o.Dir == "" {
		d, err := FindModelsDir("")
		if err != nil {
			return err
		}
		o.Dir = d
	}
	if o.Seconds <= 0 {
		o.Seconds = DefaultClassicSeconds
	}
	if o.Mem <= 0 {
		o.Mem = DefaultClassicMem
	}
	if o.MaxT <= 0 {
		o.MaxT = DefaultClassicMaxT
	}
	if o.Ms == nil {
		o.Ms = []int{1, 2}
	}
	if o.FamilyLimit <= 0 {
		o.FamilyLimit = fsc.DefaultLimit
	}
	if o.Run == nil {
		o.Run = runner.InProcess
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	return nil
}

// FindModelsDir returns the repository's datasets/models folder, looked up
// from start (the working directory when "") and its parents. The error
// names every place looked at.
func FindModelsDir(start string) (string, error) {
	if start == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		start = wd
	}
	dir, _ := filepath.Abs(start)
	var tried []string
	for {
		cand := filepath.Join(dir, "datasets", "models")
		tried = append(tried, cand)
		if fi, err := os.Stat(cand); err == nil && fi.IsDir() {
			return cand, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", fmt.Errorf("repro: no datasets/models folder found (looked in %s); run from the repository or pass --models DIR",
		strings.Join(tried, ", "))
}

// ModelFiles returns the .pomdp, .pomdpx and .json files of dir (any case),
// sorted.
func ModelFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("repro: models folder: %w", err)
	}
	var out []string
	for _, e := range ents {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if !e.IsDir() && (ext == ".pomdp" || ext == ".pomdpx" || ext == ".json") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("repro: no .pomdp, .pomdpx or .json file in %s", dir)
	}
	slices.SortFunc(out, func(a, b string) int {
		return strings.Compare(strings.ToLower(filepath.Base(a)), strings.ToLower(filepath.Base(b)))
	})
	return out, nil
}

// classicRow is the result of the horizon search of one (model, m).
type classicRow struct {
	name          string
	m             int
	stop          string         // what ended the horizon search
	run           *runner.Result // at the chosen T (nil: none fitted)
	T             int
	method        string
	gap           string
	notes         []string
	S, A, O       int
	familyExact   string
	searchSeconds float64
}

// ClassicModels builds the classic-models table (see the package comment
// of this file and the table's notes).
func ClassicModels(ctx context.Context, opt ClassicOptions) (*Table, error) {
	if err := opt.defaults(); err != nil {
		return nil, err
	}
	files, err := ModelFiles(opt.Dir)
	if err != nil {
		return nil, err
	}
	t := &Table{Name: ClassicName, Label: "classic-models (ours)",
		Title: fmt.Sprintf("Quotients of the models of %s: stationary m ∈ %v at the largest T fitting %g s and %s per run",
			opt.Dir, opt.Ms, opt.Seconds, distance.FormatBytes(opt.Mem)),
		Columns: []Column{{"model", Key}, {"m", Key}, {"states", Info}, {"actions", Info}, {"observations", Info},
			{"T", Info}, {"method", Info}, {"family", Info}, {"histories", Info},
			{"classes_eps0", Info}, {"classes_eps0_1", Info}, {"classes_eps0_3", Info}, {"stand_ins", Info},
			{"max_d", Info}, {"ci_low", Info}, {"ci_high", Info}, {"delta_clk", Info},
			{"seconds", Timing}, {"peak_mib", Timing}, {"estimate_mib", Timing}, {"search_seconds", Timing}, {"why_not_larger", Timing}}}
	rowNotes := map[int]string{}
	for _, path := range files {
		name := filepath.Base(path)
		m, err := modelfile.Load(path)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			opt.Log("%s: does not load: %v", name, err)
			for _, mem := range opt.Ms {
				row := make([]string, len(t.Columns))
				row[0], row[1], row[6] = name, itoa(mem), "not loaded"
				rowNotes[len(t.Rows)] = "not loaded: " + oneLine(err.Error())
				t.Rows = append(t.Rows, row)
			}
			continue
		}
		for _, mem := range opt.Ms {
			cr, err := classicSearch(ctx, opt, path, m, mem)
			if err != nil {
				return nil, err
			}
			if mem == 1 && cr.run != nil {
				cr.gap = classicGap(ctx, opt, path, cr)
			}
			rowNotes[len(t.Rows)] = strings.Join(cr.notes, "; ")
			t.Rows = append(t.Rows, cr.cells())
		}
	}
	t.Notes = append(t.Notes,
		"Our results only: no paper column, no verdict (agreement column \"ours only\").",
		"Families: stationary deterministic FSCs with 1 … m nodes (m = 1: the |A| constant controllers); distances W1 under the discrete metric on observations (model files carry no ground metric), uniform stand-in for impossible histories; classes at ε > 0 by greedy complete linkage.",
		fmt.Sprintf("Horizon: T = 1, 2, … (at most %d) until the next T is predicted or measured to break a budget. Before T is started its time is predicted as the time of T−1 (distance.Plan plus the run: a conservative proxy for the run alone) times a growth factor, the larger of the growth of the history count |H(T)|/|H(T−1)| and the measured growth time(T−1)/time(T−2) (used when time(T−2) ≥ %g s); a run predicted over the time budget is not started. Exact runs then call distance.Plan (the exact classes) and are not started when its peak estimate, or the measured peak of T−1 (when above 32 MiB) times the growth of the history count, or its square when the measured peak was more than twice the estimate (a safeguard for memory the estimate misses), exceeds the memory budget. Every job (distance.Plan and the run together, or the δ_clk computation) has one deadline, the time budget, and every phase checks its estimate against the memory budget before allocating (δ_clk meters its tables, beliefs and prefix trees, as they grow and stops them past the budget). With `pomdpq reproduce classic-models` each job is a child process whose process group is killed %g s after the time budget and once its resident set exceeds the memory budget by %s (read every %v), so no job outlives its budgets; a job whose measured peak still exceeds the memory budget is discarded. The row keeps the last T that fitted; why_not_larger says what happened to the first job that did not: predicted over a budget (not started), refused (an estimate over the memory budget, before allocating), stopped at the time limit, stopped at the memory budget, or killed, with its measured peak and wall time.", opt.MaxT, classicNoise, runner.TimeSlack.Seconds(), distance.FormatBytes(runner.MemSlack), runner.PollInterval),
		fmt.Sprintf("Method exact: distance.Compute on the whole family. Method sampled (family larger than %d controllers, the fsc limit): sample.Compute on a sub-family of the |A| constant controllers and %d random deterministic m-node controllers (seed 0), %d trajectories per (history, probe), 95%% bootstrap CI on max d̂ (%d resamples); sampled class counts are estimates (at ε = 0 sampling noise separates almost everything) and lower bounds in family, since the sub-family is part of the family.", opt.FamilyLimit, runner.Probes, runner.Trajectories, runner.Resamples),
		"delta_clk: clock.NewDistances(...).Gap under the discrete metric (m = 1 rows), at the row's T when clock.Work(|A|, |O|, T) and the history pairs Σ_t |O|^{2t}/2 are ≤ 1e8, otherwise at the largest smaller T where they are (written \"gap (T=k)\"), within the same time and memory budgets; blank otherwise with the reason in the note.",
		"peak_mib: with `pomdpq reproduce classic-models` every job (distance.Plan, the run, or the δ_clk computation) is a child process and peak_mib is its peak resident set (getrusage ru_maxrss), exact and per run, as in `pomdpq bench`; in-process (library default, tests, --in-process) it is the largest Go-managed memory not released to the operating system (runtime/metrics total − heap/released) sampled every 10 ms after what earlier runs left is released, which excludes non-Go memory. estimate_mib is distance.Plan's estimate (sampled rows: ours, runner.SampledEstimate).",
		"seconds is the wall time of the run at the chosen T (distance.Compute, including its exact-class phase; distance.Plan's pre-flight not included; sampled: sampling and bootstrap); search_seconds the whole horizon search. Timing columns are not pinned by golden files.",
	)
	if _, err := t.Compare(); err != nil {
		return nil, err
	}
	for i, n := range rowNotes {
		if n != "" {
			t.Note[i] = n
		}
	}
	return t, nil
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

func (cr *classicRow) cells() []string {
	row := []string{cr.name, itoa(cr.m), itoa(cr.S), itoa(cr.A), itoa(cr.O)}
	r := cr.run
	if r == nil {
		row = append(row, "", cr.method, cr.familyExact, "", "", "", "", "", "", "", "", "", "", "", "", fmt.Sprintf("%.1f", cr.searchSeconds), whyNot(cr))
		return row
	}
	ci := func(x float64) string {
		if cr.method != runner.MethodSampled {
			return ""
		}
		return f3(x)
	}
	fam := cr.familyExact
	if cr.method == runner.MethodSampled {
		fam = fmt.Sprintf("%d of %s", r.FamilySize, cr.familyExact)
	}
	row = append(row, itoa(cr.T), cr.method, fam, itoa(r.Histories),
		itoa(r.Classes0), itoa(r.Classes01), itoa(r.Classes03), itoa(r.StandIns),
		f3(r.MaxD), ci(r.CILow), ci(r.CIHigh), cr.gap,
		fmt.Sprintf("%.3f", r.Seconds), fmt.Sprintf("%.1f", float64(r.PeakBytes)/(1<<20)),
		fmt.Sprintf("%.1f", float64(r.EstBytes)/(1<<20)), fmt.Sprintf("%.1f", cr.searchSeconds), whyNot(cr))
	return row
}

func whyNot(cr *classicRow) string { return cr.stop }

// classicSearch finds the largest T that fits the budgets for one (model, m).
func classicSearch(ctx context.Context, opt ClassicOptions, path string, m *pomdp.Model, mem int) (*classicRow, error) {
	nA, nO := m.NumActions(), m.NumObservations()
	cr := &classicRow{name: filepath.Base(path), m: mem, S: m.NumStates(), A: nA, O: nO}
	size, err := fsc.Size(fsc.KindStationary, nA, nO, mem, 1)
	if err != nil {
		return nil, err
	}
	cr.familyExact = size.String()
	cr.method = runner.MethodExact
	if size.Cmp(big.NewInt(opt.FamilyLimit)) > 0 {
		cr.method = runner.MethodSampled
	}
	start := time.Now()
	defer func() { cr.searchSeconds = time.Since(start).Seconds() }()
	var times []float64
	stop := ""
	for T := 1; T <= opt.MaxT; T++ {
		if n := len(times); n > 0 {
			h := float64(nO) * (1 - math.Pow(float64(nO), -float64(T+1))) / (1 - math.Pow(float64(nO), -float64(T)))
			if nO == 1 {
				h = float64(T+1) / float64(T)
			}
			g := h
			if n >= 2 && times[n-2] >= classicNoise {
				g = max(g, times[n-1]/times[n-2])
			}
			if pred := times[n-1] * g; pred > opt.Seconds {
				stop = fmt.Sprintf("T = %d predicted %.1f s > %g s (%.2f s × growth %.2f)", T, pred, opt.Seconds, times[n-1], g)
				break
			}
			// The measured peak grows at least with the histories once it
			// is well above the runtime's own 32 MiB. When it is more than
			// twice distance.Plan's estimate, the excess is what the estimate
			// leaves out, the transport problems on supports of up to
			// |O|^{T−1} points, whose memory can grow with their square.
			if p := cr.run.PeakBytes; p > 32<<20 {
				mg := h
				if p > 2*cr.run.EstBytes {
					mg = h * h
				}
				if pred := int64(float64(p) * mg); pred > opt.Mem {
					stop = fmt.Sprintf("T = %d predicted peak %s > %s (measured %s × growth %.2f)", T,
						distance.FormatBytes(pred), distance.FormatBytes(opt.Mem), distance.FormatBytes(p), mg)
					break
				}
			}
		}
		job := runner.Job{Path: path, M: mem, T: T, Method: cr.method, Seconds: opt.Seconds, Mem: opt.Mem, Workers: opt.Workers}
		r, err := opt.Run(ctx, job)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			stop = fmt.Sprintf("T = %d failed: %s", T, oneLine(err.Error()))
			opt.Log("%s m=%d T=%d %s: %s", cr.name, mem, T, cr.method, stop)
			break
		}
		if r.Over != "" {
			stop = fmt.Sprintf("%s (peak %s, %.1f s)", r.Over, distance.FormatBytes(r.PeakBytes), r.Wall)
			opt.Log("%s m=%d T=%d %s: %s", cr.name, mem, T, cr.method, stop)
			break
		}
		if r.PeakBytes > opt.Mem {
			stop = fmt.Sprintf("T = %d: measured peak %s > %s (result discarded)", T, distance.FormatBytes(r.PeakBytes), distance.FormatBytes(opt.Mem))
			opt.Log("%s m=%d T=%d %s: %s", cr.name, mem, T, cr.method, stop)
			break
		}
		if r.Seconds > opt.Seconds {
			stop = fmt.Sprintf("T = %d took %.1f s > %g s", T, r.Seconds, opt.Seconds)
			break
		}
		opt.Log("%s m=%d T=%d %s: %.3f s, peak %s, %d exact classes", cr.name, mem, T, cr.method, r.Seconds, distance.FormatBytes(r.PeakBytes), r.Classes0)
		cr.run, cr.T = r, T
		times = append(times, r.Seconds+r.PlanSeconds)
		if T == opt.MaxT {
			stop = fmt.Sprintf("T capped at %d", opt.MaxT)
		}
	}
	cr.stop = stop
	if cr.method == runner.MethodSampled {
		cr.notes = append(cr.notes, fmt.Sprintf("sampled: the family has %s controllers (> %d)", cr.familyExact, opt.FamilyLimit))
	}
	if cr.run == nil {
		cr.notes = append(cr.notes, "no horizon fits the budgets: "+stop)
	}
	return cr, nil
}

// classicGap computes δ_clk at the row's T or, when clock.Work or the
// history pairs exceed clock.DefaultMaxWork there, at the largest smaller
// horizon where they do not (said in the cell and the note); blank with
// the reason in the row's notes when that fails too.
func classicGap(ctx context.Context, opt ClassicOptions, path string, cr *classicRow) string {
	fits := func(T int) bool {
		pairs := 0.0
		for t := 0; t <= T; t++ {
			pairs += math.Pow(float64(cr.O), 2*float64(t)) / 2
		}
		return clock.Work(cr.A, cr.O, T) <= clock.DefaultMaxWork && pairs <= clock.DefaultMaxWork
	}
	T := cr.T
	for T > 0 && !fits(T) {
		T--
	}
	if T == 0 {
		cr.notes = append(cr.notes, fmt.Sprintf("δ_clk not computed: clock.Work(%d, %d, 1) or the history pairs exceed %.0g", cr.A, cr.O, clock.DefaultMaxWork))
		return ""
	}
	r, err := opt.Run(ctx, runner.Job{Path: path, M: 1, T: T, Method: runner.MethodClock, Seconds: opt.Seconds, Mem: opt.Mem, Workers: opt.Workers})
	note := ""
	switch {
	case err != nil:
		note = fmt.Sprintf("δ_clk not computed (T = %d): %s", T, oneLine(err.Error()))
	case r.Over != "":
		note = fmt.Sprintf("δ_clk not computed (T = %d): %s (peak %s, %.1f s)", T, oneLine(r.Over), distance.FormatBytes(r.PeakBytes), r.Wall)
	case r.PeakBytes > opt.Mem:
		note = fmt.Sprintf("δ_clk not kept (T = %d): measured peak %s > %s", T, distance.FormatBytes(r.PeakBytes), distance.FormatBytes(opt.Mem))
	}
	if note != "" {
		opt.Log("%s %s", cr.name, note)
		cr.notes = append(cr.notes, note)
		return ""
	}
	opt.Log("%s δ_clk T=%d: %.4f in %.2f s", cr.name, T, r.Gap, r.Seconds)
	if T < cr.T {
		cr.notes = append(cr.notes, fmt.Sprintf("δ_clk at T = %d, the largest horizon where clock.Work(%d, %d, T) and the history pairs are ≤ %.0g", T, cr.A, cr.O, clock.DefaultMaxWork))
		return fmt.Sprintf("%.4f (T=%d)", r.Gap, T)
	}
	return fmt.Sprintf("%.4f", r.Gap)
}

func init() {
	registerExtra(Spec{Name: ClassicName, Label: "classic-models (ours)", Heavy: true,
		Title: "Quotients of every model of datasets/models, m = 1 and m ≤ 2, largest T within 60 s / 4 GiB (ours; not in `all`)",
		Build: func(ctx context.Context, env *Env) (*Table, error) {
			return ClassicModels(ctx, ClassicOptions{Workers: env.workers()})
		}})
}
