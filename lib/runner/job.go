package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/pomdpq/pomdpq/internal/memsample"
	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
	"github.com/pomdpq/pomdpq/lib/sample"
)

// Methods of a Job.
const (
	MethodExact   = "exact"   // distance.Plan, then distance.Compute
	MethodSampled = "sampled" // sample.Compute on a random sub-family, with a bootstrap CI
	MethodClock   = "clock"   // clock.NewDistances (δ_clk, m = 1)
)

// The sampling protocol of sampled jobs.
const (
	// Probes is the number of random deterministic m-node controllers of
	// a sampled family (besides the |A| constant ones).
	Probes = 100
	// Trajectories and Resamples are the paper's: 500 trajectories per
	// (history, probe), 1,000 bootstrap resamples.
	Trajectories = 500
	Resamples    = 1000
)

// Job is one run of the classic-models table: a model file, a memory m, a
// horizon T and a method, with the budgets it must respect.
type Job struct {
	Path    string  `json:"path"`
	M       int     `json:"m"`
	T       int     `json:"T"`
	Method  string  `json:"method"`
	Seconds float64 `json:"seconds"` // time limit of the whole job
	Mem     int64   `json:"mem"`     // memory budget, bytes
	Workers int     `json:"workers"`
}

// Result is the outcome of a Job. When the job did not finish, Over says
// why (and only the estimate, the peak and the times are set).
type Result struct {
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
	EstBytes                       int64  // the estimate of the peak checked against the budget (see Job methods)
	PeakBytes                      int64  // measured peak (see PeakHow)
	PeakHow                        string // "rss" (getrusage of the child) or "go" (runtime/metrics, sampled in process)
	// Over says why the job did not finish ("" when it did), Reason the
	// kind of stop (one of the Reason constants).
	Over   string
	Reason string
	// Wall is the whole job's wall time, in seconds (in a child: the
	// child process's, as the parent saw it).
	Wall float64
}

// Reasons a job did not finish (Result.Reason).
const (
	ReasonRefused = "refused" // an estimate exceeded the memory budget before allocating
	ReasonMemory  = "memory"  // a metered table grew past the memory budget and was stopped
	ReasonTime    = "time"    // the job's own deadline (Job.Seconds)
	// ReasonKilledTime and ReasonKilledMemory: InChild killed the child
	// at Job.Seconds + TimeSlack, or at a resident set above Job.Mem +
	// MemSlack.
	ReasonKilledTime   = "killed-time"
	ReasonKilledMemory = "killed-memory"
	// ReasonFailed: the child exited with an error (Over holds it).
	ReasonFailed = "failed"
)

// ErrTimeLimit marks a job stopped at its time limit (its own deadline).
var ErrTimeLimit = errors.New("stopped at the time limit")

// InProcess executes job in this process within one deadline of
// job.Seconds for the whole job, every phase bounded by job.Mem. Its peak
// memory is the largest Go-managed memory not released to the operating
// system (runtime/metrics total − heap/released) seen every 10 ms, after
// memory left by earlier jobs is released: close to the job's resident set
// of Go memory. A job stopped at its deadline or by a budget returns a
// Result with Over set, not an error.
func InProcess(ctx context.Context, job Job) (*Result, error) {
	start := time.Now()
	m, err := modelfile.Load(job.Path)
	if err != nil {
		return nil, err
	}
	// Return what earlier jobs left to the operating system, so that this
	// job's peak is its own.
	debug.FreeOSMemory()
	stop := memsample.Peak(10 * time.Millisecond)
	c := ctx
	if job.Seconds > 0 {
		var cancel context.CancelFunc
		c, cancel = context.WithTimeout(ctx, time.Duration(job.Seconds*float64(time.Second)))
		defer cancel()
	}
	r, err := run(c, m, job)
	peak := stop()
	if err != nil && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		r = &Result{States: m.NumStates(), Actions: m.NumActions(), Observations: m.NumObservations(), Reason: ReasonTime,
			Over: fmt.Sprintf("T = %d: %v of %g s", job.T, ErrTimeLimit, job.Seconds)}
		err = nil
	}
	if r != nil {
		r.PeakBytes, r.PeakHow = peak, "go"
		r.Wall = time.Since(start).Seconds()
	}
	return r, err
}

// Serve is the child's side of InChild (`pomdpq classic-row JOB`): it
// decodes the job, sets the Go runtime's soft memory limit to its budget,
// runs it in this process and writes the Result as JSON to w.
func Serve(ctx context.Context, jobJSON string, w io.Writer) error {
	var job Job
	if err := json.Unmarshal([]byte(jobJSON), &job); err != nil {
		return fmt.Errorf("runner: job: %w", err)
	}
	if job.Mem > 0 {
		debug.SetMemoryLimit(job.Mem)
	}
	r, err := InProcess(ctx, job)
	if err != nil {
		return err
	}
	return json.NewEncoder(w).Encode(r)
}

// run executes job on m. Refusals and budget stops give a Result with
// Over set; the deadline gives an error wrapping context.DeadlineExceeded.
func run(ctx context.Context, m *pomdp.Model, job Job) (*Result, error) {
	nA, nO := m.NumActions(), m.NumObservations()
	r := &Result{States: m.NumStates(), Actions: nA, Observations: nO}
	switch job.Method {
	case MethodExact, MethodSampled:
		f := runExact
		if job.Method == MethodSampled {
			f = runSampled
		}
		if err := f(ctx, m, job, r); err != nil {
			return nil, err
		}
		return r, nil
	case MethodClock:
		if w := clock.Work(nA, nO, job.T); w > clock.DefaultMaxWork {
			r.Reason = ReasonRefused
			r.Over = fmt.Sprintf("T = %d: refused: clock.Work = %.3g > %.0g", job.T, w, clock.DefaultMaxWork)
			return r, nil
		}
		start := time.Now()
		d, err := clock.NewDistances(ctx, m, ot.Discrete(nO), job.T, &clock.Options{MaxBytes: float64(job.Mem)})
		var be *clock.BudgetError
		switch {
		case errors.As(err, &be):
			r.EstBytes = int64(be.Need)
			r.Reason = ReasonMemory
			if be.Refused {
				r.Reason = ReasonRefused
			}
			how := "stopped at the memory budget"
			if be.Refused {
				how = "refused"
			}
			r.Over = fmt.Sprintf("T = %d: %s: %v", job.T, how, err)
			return r, nil
		case errors.Is(err, clock.ErrTooLarge):
			r.Reason = ReasonRefused
			r.Over = fmt.Sprintf("T = %d: refused: %v", job.T, err)
			return r, nil
		case err != nil:
			return nil, err
		}
		r.Gap, r.EstBytes = d.Gap, d.PeakBytes
		r.Seconds = time.Since(start).Seconds()
		return r, nil
	}
	return nil, fmt.Errorf("runner: unknown method %q", job.Method)
}

func runExact(ctx context.Context, m *pomdp.Model, job Job, r *Result) error {
	fam, err := fsc.New(fsc.KindStationary, m.NumActions(), m.NumObservations(), job.M, job.T, fsc.Options{Limit: math.MaxInt64})
	if err != nil {
		return err
	}
	opt := distance.Options{Workers: job.Workers, MemBudget: job.Mem}
	start := time.Now()
	cost, _, err := distance.Plan(ctx, m, fam, job.T, opt)
	var be *distance.BudgetError
	if errors.As(err, &be) {
		r.EstBytes, r.Reason = be.Cost.Bytes(), ReasonRefused
		r.Over = fmt.Sprintf("T = %d: refused: %v", job.T, err)
		return nil
	}
	if err != nil {
		return err
	}
	r.PlanSeconds = time.Since(start).Seconds()
	r.EstBytes = cost.Bytes()
	if r.EstBytes > job.Mem {
		name, v := cost.Largest()
		r.Reason = ReasonRefused
		r.Over = fmt.Sprintf("T = %d: refused: distance.Plan estimates %s > %s (largest term %s, %s)",
			job.T, distance.FormatBytes(r.EstBytes), distance.FormatBytes(job.Mem), name, distance.FormatBytes(v))
		return nil
	}
	res, err := distance.Compute(ctx, m, fam, job.T, opt)
	if errors.As(err, &be) {
		r.Reason = ReasonRefused
		r.Over = fmt.Sprintf("T = %d: refused: %v", job.T, err)
		return nil
	}
	if err != nil {
		return err
	}
	r.Seconds = res.Seconds
	r.Histories = res.Tree.Len()
	r.FamilySize, r.Distinct = res.FamilySize, res.Distinct
	r.Classes0 = res.Classes.Total()
	r.Classes01 = res.Partition(0.1).Total()
	r.Classes03 = res.Partition(0.3).Total()
	r.StandIns = res.StandIns
	r.MaxD = res.MaxDistance()
	return nil
}

func runSampled(ctx context.Context, m *pomdp.Model, job Job, r *Result) error {
	fam := SampledFamily(m.NumActions(), m.NumObservations(), job.M)
	r.EstBytes = SampledEstimate(m.NumObservations(), job.T, fam.Len(), job.Workers)
	if r.EstBytes > job.Mem {
		r.Reason = ReasonRefused
		r.Over = fmt.Sprintf("T = %d: refused: our estimate of the sampled run %s > %s (pair matrices over the histories)",
			job.T, distance.FormatBytes(r.EstBytes), distance.FormatBytes(job.Mem))
		return nil
	}
	start := time.Now()
	res, err := sample.Compute(ctx, m, fam, job.T, sample.Options{Trajectories: Trajectories, Workers: job.Workers})
	if err != nil {
		return err
	}
	iv, err := res.Bootstrap(ctx, sample.BootstrapOptions{Resamples: Resamples, Prune: 0.2})
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
	r.Seconds = time.Since(start).Seconds()
	return nil
}

// SampledFamily returns the probes of a sampled job: the |A| constant
// controllers (the m = 1 family) and Probes deterministic stationary
// controllers with m nodes, every action and next-node entry uniform,
// drawn with seed 0.
func SampledFamily(nA, nO, m int) *fsc.List {
	l := &fsc.List{Name: fmt.Sprintf("sampled stationary m=%d (%d constant + %d random)", m, nA, Probes), K: fsc.KindStationary, Mem: m}
	for a := range nA {
		l.Ctrls = append(l.Ctrls, fsc.Constant(nA, nO, a))
	}
	rng := rand.New(rand.NewPCG(0, uint64(m)))
	for range Probes {
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

// SampledEstimate is our rough peak-memory estimate of a sampled run
// (package sample has no Plan): the per-depth matrices over all history
// pairs (8 bytes each) kept per worker and merged, and the sampled laws
// (min(N, |O|^{T−t}) atoms of 8 bytes per depth-t history and probe, an
// upper bound since probes that behave alike share laws), times the
// garbage-collector factor 1.5, plus 12 MiB of runtime.
func SampledEstimate(nO, T, probes, workers int) int64 {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var pairs, atoms float64
	for t := 0; t <= T; t++ {
		k := math.Pow(float64(nO), float64(t))
		atoms += k * min(Trajectories, math.Pow(float64(nO), float64(T-t)))
		pairs += k * (k - 1) / 2
	}
	b := 1.5*(8*pairs*float64(workers+1)+8*atoms*float64(probes)) + 12<<20
	if b > math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(b)
}
