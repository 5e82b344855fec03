package repro

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/sample"
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
	// ClassicProbes is the number of random deterministic m-node
	// controllers of a sampled family (besides the |A| constant ones).
	ClassicProbes = 100
	// ClassicTrajectories and ClassicResamples are the sampling protocol of
	// the sampled rows (the paper's: 500 trajectories, 1,000 resamples).
	ClassicTrajectories = 500
	ClassicResamples    = 1000
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
	// Run executes one job; nil means RunClassic in this process (peak
	// memory then sampled from runtime/metrics). The CLI runs each job in
	// its own process and reports its peak resident set (getrusage).
	Run func(ctx context.Context, job ClassicJob) (*ClassicRun, error)
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
		o.Run = RunClassic
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

// Methods of a ClassicJob.
const (
	MethodExact   = "exact"   // distance.Plan, then distance.Compute
	MethodSampled = "sampled" // sample.Compute on a random sub-family, with a bootstrap CI
	MethodClock   = "clock"   // clock.NewDistances (δ_clk, m = 1)
)

// ClassicJob is one run of the classic-models table: a model file, a
// memory m, a horizon T and a method, with the budgets it must respect.
type ClassicJob struct {
	Path    string  `json:"path"`
	M       int     `json:"m"`
	T       int     `json:"T"`
	Method  string  `json:"method"`
	Seconds float64 `json:"seconds"`
	Mem     int64   `json:"mem"`
	Workers int     `json:"workers"`
}

// ClassicRun is the outcome of a ClassicJob. Over is set (and nothing
// else but the estimate) when the job was refused before running.
type ClassicRun struct {
	States, Actions, Observations  int
	Histories                      int
	FamilySize                     int // controllers (sampled: the sub-family)
	Distinct                       int // distinct behaviours (exact) or laws (sampled)
	Classes0, Classes01, Classes03 int
	StandIns                       int
	MaxD                           float64
	CILow, CIHigh                  float64 // sampled: 95% bootstrap CI on max d̂
	Gap                            float64 // clock: δ_clk
	Seconds                        float64 // wall time of the run (Plan excluded)
	PlanSeconds                    float64
	EstBytes                       int64  // distance.Plan's (or our sampled) estimate of the peak
	PeakBytes                      int64  // measured peak (see PeakHow)
	PeakHow                        string // "rss" (getrusage, own process) or "go" (runtime/metrics, sampled)
	Over                           string // reason the run was refused or stopped
}

// errTimeBudget marks a run stopped at its time budget.
var errTimeBudget = errors.New("over the time budget")

// RunClassic executes job in this process. Its peak memory is the largest
// Go-managed memory not released to the operating system (runtime/metrics
// total − heap/released) seen every 10 ms, after memory left by earlier
// jobs is released: close to the job's resident set of Go memory.
func RunClassic(ctx context.Context, job ClassicJob) (*ClassicRun, error) {
	m, err := pomdp.LoadFile(job.Path)
	if err != nil {
		return nil, err
	}
	// Return what earlier jobs left to the operating system, so that this
	// job's peak is its own.
	debug.FreeOSMemory()
	stop := peakSampler()
	r, err := runClassic(ctx, m, job)
	peak := stop()
	if r != nil {
		r.PeakBytes, r.PeakHow = peak, "go"
	}
	return r, err
}

// peakSampler starts sampling the Go runtime's mapped memory not
// released to the operating system (total − heap/released: close to the
// resident set of Go memory); the returned function stops and returns the
// largest value seen.
func peakSampler() func() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	var mu sync.Mutex
	var peak int64
	read := func() {
		metrics.Read(s)
		if s[0].Value.Kind() == metrics.KindUint64 && s[1].Value.Kind() == metrics.KindUint64 {
			v := int64(s[0].Value.Uint64()) - int64(s[1].Value.Uint64())
			mu.Lock()
			peak = max(peak, v)
			mu.Unlock()
		}
	}
	read()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tk := time.NewTicker(10 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-done:
				return
			case <-tk.C:
				read()
			}
		}
	})
	return func() int64 {
		close(done)
		wg.Wait()
		read()
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

func runClassic(ctx context.Context, m *pomdp.Model, job ClassicJob) (*ClassicRun, error) {
	nA, nO := m.NumActions(), m.NumObservations()
	r := &ClassicRun{States: m.NumStates(), Actions: nA, Observations: nO}
	budget := time.Duration(job.Seconds * float64(time.Second))
	timed := func(f func(ctx context.Context) error) error {
		c, cancel := context.WithTimeout(ctx, budget)
		defer cancel()
		err := f(c)
		if err != nil && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return fmt.Errorf("T = %d: %w (%g s)", job.T, errTimeBudget, job.Seconds)
		}
		return err
	}
	switch job.Method {
	case MethodExact:
		fam, err := fsc.New(fsc.KindStationary, nA, nO, job.M, job.T, fsc.Options{Limit: math.MaxInt64})
		if err != nil {
			return nil, err
		}
		opt := distance.Options{Workers: job.Workers, MemBudget: job.Mem}
		start := time.Now()
		var cost distance.Cost
		if err := timed(func(ctx context.Context) error {
			var err error
			cost, _, err = distance.Plan(ctx, m, fam, job.T, opt)
			return err
		}); err != nil {
			return nil, err
		}
		r.PlanSeconds = time.Since(start).Seconds()
		r.EstBytes = cost.Bytes()
		if r.EstBytes > job.Mem {
			name, v := cost.Largest()
			r.Over = fmt.Sprintf("T = %d: distance.Plan estimates %s > %s (largest term %s, %s)",
				job.T, distance.FormatBytes(r.EstBytes), distance.FormatBytes(job.Mem), name, distance.FormatBytes(v))
			return r, nil
		}
		var res *distance.Result
		if err := timed(func(ctx context.Context) error {
			var err error
			res, err = distance.Compute(ctx, m, fam, job.T, opt)
			return err
		}); err != nil {
			var be *distance.BudgetError
			if errors.As(err, &be) {
				r.Over = fmt.Sprintf("T = %d: %v", job.T, err)
				return r, nil
			}
			return nil, err
		}
		r.Seconds = res.Seconds
		r.Histories = res.Tree.Len()
		r.FamilySize, r.Distinct = res.FamilySize, res.Distinct
		r.Classes0 = res.Classes.Total()
		r.Classes01 = res.Partition(0.1).Total()
		r.Classes03 = res.Partition(0.3).Total()
		r.StandIns = res.StandIns
		r.MaxD = res.MaxDistance()
		return r, nil
	case MethodSampled:
		fam := classicSampledFamily(nA, nO, job.M)
		r.EstBytes = sampledEstimate(nO, job.T, fam.Len(), job.Workers)
		if r.EstBytes > job.Mem {
			r.Over = fmt.Sprintf("T = %d: our estimate of the sampled run %s > %s (pair matrices over the histories)",
				job.T, distance.FormatBytes(r.EstBytes), distance.FormatBytes(job.Mem))
			return r, nil
		}
		start := time.Now()
		err := timed(func(ctx context.Context) error {
			res, err := sample.Compute(ctx, m, fam, job.T, sample.Options{Trajectories: ClassicTrajectories, Workers: job.Workers})
			if err != nil {
				return err
			}
			iv, err := res.Bootstrap(ctx, sample.BootstrapOptions{Resamples: ClassicResamples, Prune: 0.2})
			if err != nil {
				return err
			}
			r.Histories = res.Tree.Len()
			r.FamilySize, r.Distinct = res.FamilySize, res.Laws
			r.Classes0 = res.Partition(0).Total()
			r.Classes01 = res.Partition(0.1).Total()
			r.Classes03 = res.Partition(0.3).Total()
			r.StandIns = res.StandIns
			r.MaxD = res.MaxDistance()
			r.CILow, r.CIHigh = iv.Low, iv.High
			return nil
		})
		if err != nil {
			return nil, err
		}
		r.Seconds = time.Since(start).Seconds()
		return r, nil
	case MethodClock:
		if w := clock.Work(nA, nO, job.T); w > clock.DefaultMaxWork {
			r.Over = fmt.Sprintf("clock.Work = %.3g > %.0g", w, clock.DefaultMaxWork)
			return r, nil
		}
		start := time.Now()
		err := timed(func(ctx context.Context) error {
			d, err := clock.NewDistances(ctx, m, ot.Discrete(nO), job.T, nil)
			if err != nil {
				return err
			}
			r.Gap = d.Gap
			return nil
		})
		if err != nil {
			if errors.Is(err, clock.ErrTooLarge) {
				r.Over = err.Error()
				return r, nil
			}
			return nil, err
		}
		r.Seconds = time.Since(start).Seconds()
		return r, nil
	}
	return nil, fmt.Errorf("repro: unknown method %q", job.Method)
}

// classicSampledFamily returns the probes of a sampled row: the |A|
// constant controllers (the m = 1 family) and ClassicProbes deterministic
// stationary controllers with m nodes, every action and next-node entry
// uniform, drawn with seed 0.
func classicSampledFamily(nA, nO, m int) *fsc.List {
	l := &fsc.List{Name: fmt.Sprintf("sampled stationary m=%d (%d constant + %d random)", m, nA, ClassicProbes), K: fsc.KindStationary, Mem: m}
	for a := range nA {
		l.Ctrls = append(l.Ctrls, fsc.Constant(nA, nO, a))
	}
	rng := rand.New(rand.NewPCG(0, uint64(m)))
	for range ClassicProbes {
		c := &fsc.FSC{Nodes: m, NumActions: nA, NumObs: nO, Act: [][]int{make([]int, m)}, Next: [][][]int{make([][]int, m)}}
		for n := range m {
			c.Act[0][n] = rng.IntN(nA)
			c.Next[0][n] = make([]int, nO)
			for o := range nO {
				c.Next[0][n][o] = rng.IntN(m)
			}
		}
		l.Ctrls = append(l.Ctrls, c)
	}
	return l
}

// sampledEstimate is our rough peak-memory estimate of a sampled run
// (package sample has no Plan): the per-depth matrices over all history
// pairs (8 bytes each) kept per worker and merged, and the sampled laws
// (min(N, |O|^{T−t}) atoms of 8 bytes per depth-t history and probe, an
// upper bound since probes that behave alike share laws), times the
// garbage-collector factor 1.5, plus 12 MiB of runtime.
func sampledEstimate(nO, T, probes, workers int) int64 {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var pairs, atoms float64
	for t := 0; t <= T; t++ {
		k := math.Pow(float64(nO), float64(t))
		atoms += k * min(ClassicTrajectories, math.Pow(float64(nO), float64(T-t)))
		pairs += k * (k - 1) / 2
	}
	b := 1.5*(8*pairs*float64(workers+1)+8*atoms*float64(probes)) + 12<<20
	if b > math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(b)
}

// classicRow is the result of the horizon search of one (model, m).
type classicRow struct {
	name          string
	m             int
	stop          string      // what ended the horizon search
	run           *ClassicRun // at the chosen T (nil: none fitted)
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
		m, err := pomdp.LoadFile(path)
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
		fmt.Sprintf("Horizon: T = 1, 2, … (at most %d) until the next T is predicted or measured to break a budget. Before T is started its time is predicted as the time of T−1 (distance.Plan plus the run: a conservative proxy for the run alone) times a growth factor, the larger of the growth of the history count |H(T)|/|H(T−1)| and the measured growth time(T−1)/time(T−2) (used when time(T−2) ≥ %g s); a run predicted over the time budget is not started. Exact runs then call distance.Plan (the exact classes) and are not started when its peak estimate, or the measured peak of T−1 (when above 32 MiB) times the growth of the history count, or its square when the measured peak was more than twice the estimate (a safeguard for memory the estimate misses), exceeds the memory budget; a run that still exceeds the time budget is cancelled at it, and one whose measured peak exceeds the memory budget is discarded; the row keeps the last T that fitted (why_not_larger says what stopped the search).", opt.MaxT, classicNoise),
		fmt.Sprintf("Method exact: distance.Compute on the whole family. Method sampled (family larger than %d controllers, the fsc limit): sample.Compute on a sub-family of the |A| constant controllers and %d random deterministic m-node controllers (seed 0), %d trajectories per (history, probe), 95%% bootstrap CI on max d̂ (%d resamples); sampled class counts are estimates (at ε = 0 sampling noise separates almost everything) and lower bounds in family, since the sub-family is part of the family.", opt.FamilyLimit, ClassicProbes, ClassicTrajectories, ClassicResamples),
		"delta_clk: clock.NewDistances(...).Gap under the discrete metric (m = 1 rows), at the row's T when clock.Work(|A|, |O|, T) and the history pairs Σ_t |O|^{2t}/2 are ≤ 1e8, otherwise at the largest smaller T where they are (written \"gap (T=k)\"), within the same time and memory budgets; blank otherwise with the reason in the note.",
		"peak_mib: with `pomdpq reproduce classic-models` every job (distance.Plan, the run, or the δ_clk computation) is a child process and peak_mib is its peak resident set (getrusage ru_maxrss), exact and per run, as in `pomdpq bench`; in-process (library default, tests, --in-process) it is the largest Go-managed memory not released to the operating system (runtime/metrics total − heap/released) sampled every 10 ms after what earlier runs left is released, which excludes non-Go memory. estimate_mib is distance.Plan's estimate (sampled rows: ours, see sampledEstimate).",
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
		if cr.method != MethodSampled {
			return ""
		}
		return f3(x)
	}
	fam := cr.familyExact
	if cr.method == MethodSampled {
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
	cr.method = MethodExact
	if size.Cmp(big.NewInt(opt.FamilyLimit)) > 0 {
		cr.method = MethodSampled
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
		job := ClassicJob{Path: path, M: mem, T: T, Method: cr.method, Seconds: opt.Seconds, Mem: opt.Mem, Workers: opt.Workers}
		r, err := opt.Run(ctx, job)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			stop = oneLine(err.Error())
			if !strings.Contains(stop, errTimeBudget.Error()) {
				stop = fmt.Sprintf("T = %d failed: %s", T, stop)
			}
			opt.Log("%s m=%d T=%d %s: %s", cr.name, mem, T, cr.method, stop)
			break
		}
		if r.Over != "" {
			stop = r.Over
			opt.Log("%s m=%d T=%d %s: %s", cr.name, mem, T, cr.method, stop)
			break
		}
		if r.PeakBytes > opt.Mem {
			stop = fmt.Sprintf("T = %d measured peak %s > %s", T, distance.FormatBytes(r.PeakBytes), distance.FormatBytes(opt.Mem))
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
	if cr.method == MethodSampled {
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
	r, err := opt.Run(ctx, ClassicJob{Path: path, M: 1, T: T, Method: MethodClock, Seconds: opt.Seconds, Mem: opt.Mem, Workers: opt.Workers})
	switch {
	case err != nil:
		cr.notes = append(cr.notes, fmt.Sprintf("δ_clk not computed (T = %d): %s", T, oneLine(err.Error())))
		return ""
	case r.Over != "":
		cr.notes = append(cr.notes, fmt.Sprintf("δ_clk not computed (T = %d): %s", T, oneLine(r.Over)))
		return ""
	case r.PeakBytes > opt.Mem:
		cr.notes = append(cr.notes, fmt.Sprintf("δ_clk not kept (T = %d): measured peak %s > %s", T, distance.FormatBytes(r.PeakBytes), distance.FormatBytes(opt.Mem)))
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
