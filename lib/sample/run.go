package sample

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Result holds the sampled per-depth distance matrices of one run, shaped
// like distance.Result: D[t] over the depth-t histories, zero at depths that
// are not sampled.
type Result struct {
	Tree law.Tree
	// D[t] is the sampled d̂^Π over the depth-t histories.
	D []partition.Matrix
	// FamilySize is the number of controllers (duplicates included); Laws
	// the number of distinct laws sampled; Problems the number of distinct
	// transport problems solved.
	FamilySize, Laws, Problems int
	// StandIns counts the (sampled history, controller) pairs that used
	// the impossible-history stand-in.
	StandIns int
	// Trajectories is N; Seed the run's seed; Suffix the fixed suffix
	// length (0: T − t).
	Trajectories int
	Seed         uint64
	Suffix       int
	Convention   law.Convention
	// Seconds is the wall-clock time of the run (sampling and transport;
	// the plan's time is PlanSeconds).
	Seconds, PlanSeconds float64

	s    *Sampler
	laws []Empirical
	est  []float64 // per pair
}

// Compute plans and runs a sampling estimate of d^Π for model m, family fam
// and horizon T with opt.Trajectories trajectories per (history, probe)
// and seed opt.Seed: New followed by Sampler.Run. Errors are those of New
// and Run.
func Compute(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, opt Options) (*Result, error) {
	s, err := New(ctx, m, fam, T, opt)
	if err != nil {
		return nil, err
	}
	n := opt.Trajectories
	if n == 0 {
		n = DefaultTrajectories
	}
	return s.Run(ctx, n, opt.Seed)
}

// Run samples every planned law with n trajectories from the streams of
// seed, and solves the transport problems:
//
//	D[t](h, h') = max_{π} W1( P̂^π_n(· | h), P̂^π_n(· | h') ).
//
// It returns an error for n < 1 or n ≥ 2³¹, a cancelled context, or a
// transport failure. Cost: n·k transition and observation draws per law
// (O(nnz of a row) each, O(Σ d_k) for Kronecker kernels) plus one transport
// problem on the empirical supports per distinct pair.
func (s *Sampler) Run(ctx context.Context, n int, seed uint64) (*Result, error) {
	if n < 1 || n >= math.MaxInt32 {
		return nil, fmt.Errorf("sample: %d trajectories; want 1 ≤ N < 2³¹", n)
	}
	start := time.Now()
	r := &Result{Tree: s.tree, FamilySize: s.fam.Len(), Laws: len(s.jobs), Problems: len(s.pairs),
		StandIns: s.standIns, Trajectories: n, Seed: seed, Suffix: s.suffix, Convention: s.conv,
		PlanSeconds: s.seconds, s: s, laws: make([]Empirical, len(s.jobs)), est: make([]float64, len(s.pairs))}
	total := len(s.jobs) + len(s.pairs)
	var done atomic.Int64
	report := s.reporter(&done, total)
	maxK := 0
	for _, t := range s.sampled {
		maxK = max(maxK, s.k(t))
	}
	scratch := make([][]int32, s.workers)
	err := parallel(ctx, s.workers, len(s.jobs), func(w, j int) error {
		if scratch[w] == nil {
			scratch[w] = make([]int32, pow(s.tree.NumObs, maxK))
		}
		r.laws[j] = s.sampleJob(&s.jobs[j], n, seed, scratch[w])
		report()
		return nil
	})
	if err != nil {
		return nil, err
	}
	tr := make([]transport, s.workers)
	err = parallel(ctx, s.workers, len(s.pairs), func(w, k int) error {
		p := s.pairs[k]
		tr[w].g = s.ground
		v, err := tr[w].dist(r.laws[p.a], r.laws[p.b], r.laws[p.a].Counts, r.laws[p.b].Counts)
		if err != nil {
			return fmt.Errorf("sample: W1 between laws of histories (%d, %d) and (%d, %d): %w",
				s.jobs[p.a].t, s.jobs[p.a].i, s.jobs[p.b].t, s.jobs[p.b].i, err)
		}
		r.est[k] = v
		report()
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.D = make([]partition.Matrix, s.T+1)
	for t := range r.D {
		r.D[t] = partition.NewMatrix(s.tree.Count(t))
	}
	for k, p := range s.pairs {
		d := r.D[p.t].Data
		d[p.idx] = math.Max(d[p.idx], r.est[k])
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// reporter returns a function that counts one unit of work done and calls
// the progress callback (serialised) about 200 times over the run.
func (s *Sampler) reporter(done *atomic.Int64, total int) func() {
	if s.prog == nil {
		return func() {}
	}
	var mu sync.Mutex
	step := int64(max(1, total/200))
	return func() {
		d := done.Add(1)
		if d%step == 0 || d == int64(total) {
			mu.Lock()
			s.prog(int(d), total)
			mu.Unlock()
		}
	}
}

// parallel calls work(w, i) for i in [0, n) on the given number of workers
// (w is the worker's index, for its scratch memory), stopping at the first
// error or when ctx is cancelled.
func parallel(ctx context.Context, workers, n int, work func(w, i int) error) error {
	workers = max(1, min(workers, n))
	var next atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if i%64 == 0 && ctx.Err() != nil {
					once.Do(func() { firstErr = ctx.Err() })
					next.Store(int64(n))
					return
				}
				if err := work(w, i); err != nil {
					once.Do(func() { firstErr = err })
					next.Store(int64(n))
					return
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// MaxDistance returns the largest sampled distance max_{h,h'} d̂^Π(h, h')
// over all depths.
func (r *Result) MaxDistance() float64 {
	m := 0.0
	for _, d := range r.D {
		m = math.Max(m, d.Max())
	}
	return m
}

// Argmax returns a pair of histories (t, i) and (t, j), i < j, attaining
// MaxDistance (the first in depth and index order), or ok = false when every
// distance is 0.
func (r *Result) Argmax() (t, i, j int, ok bool) {
	best := 0.0
	for d, m := range r.D {
		for a := 0; a < m.N; a++ {
			for b := a + 1; b < m.N; b++ {
				if v := m.At(a, b); v > best {
					best, t, i, j, ok = v, d, a, b, true
				}
			}
		}
	}
	return
}

// Partition returns the greedy complete-linkage ε-partition of the sampled
// distances (docs/conventions.md#partitions).
func (r *Result) Partition(eps float64) *partition.Partition { return partition.Greedy(r.D, eps) }

// Law returns the empirical suffix law of history (t, i) under family
// member, as sampled by the run; ok is false when depth t is not sampled.
func (r *Result) Law(t, i, member int) (e Empirical, ok bool) {
	s := r.s
	if t < 0 || t > s.T || s.soff[t] < 0 || member < 0 || member >= s.fam.Len() {
		return Empirical{}, false
	}
	return r.laws[s.jobOf[member*s.nHist+s.soff[t]+i]], true
}

// String summarises the run.
func (r *Result) String() string {
	return fmt.Sprintf("sampled d^Π: %d controllers, %d distinct laws × %d trajectories, %d transport problems, max %.4g, seed %d, %.3gs",
		r.FamilySize, r.Laws, r.Trajectories, r.Problems, r.MaxDistance(), r.Seed, r.Seconds)
}
