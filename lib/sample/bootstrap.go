package sample

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
)

// DefaultResamples is the paper's number of bootstrap resamples.
const DefaultResamples = 1000

// DefaultLevel is the confidence level of bootstrap intervals.
const DefaultLevel = 0.95

// BootstrapOptions configure Result.Bootstrap. The zero value means 1,000
// resamples, a 95% interval, a seed derived from the run's, every transport
// problem, the sampler's workers and no progress.
type BootstrapOptions struct {
	// Resamples is B; 0 means DefaultResamples.
	Resamples int
	// Level is the confidence level in (0, 1); 0 means DefaultLevel.
	Level float64
	// Seed selects the resampling streams; 0 derives one from the run's
	// seed, so each run has its own.
	Seed uint64
	// Prune, when positive, re-solves in each replicate only the transport
	// problems whose estimate is at least MaxDistance − Prune. Pruned
	// problems can only lower a replicate's maximum, so pruning never
	// raises an interval; a problem pruned at Prune = 0.2 would need a
	// deviation of 0.2, several standard errors at N = 500. Zero keeps every
	// problem (exact bootstrap).
	Prune float64
	// Workers is the number of goroutines; 0 means the sampler's.
	Workers int
	// Progress, when set, is called with the replicates done and B.
	Progress func(done, total int)
}

// Interval is a bootstrap confidence interval on max_{h,h'} d̂^Π.
type Interval struct {
	// Estimate is the run's MaxDistance.
	Estimate float64
	// Low and High are the percentile interval's ends.
	Low, High float64
	Level     float64
	Resamples int
	// Problems is the number of transport problems solved per replicate.
	Problems int
	// Replicates holds the B bootstrap maxima, sorted.
	Replicates []float64
}

// Contains reports whether Low ≤ x ≤ High (false for NaN).
func (iv Interval) Contains(x float64) bool { return iv.Low <= x && x <= iv.High }

// Width returns High − Low.
func (iv Interval) Width() float64 { return iv.High - iv.Low }

// String writes the interval as "[low, high]".
func (iv Interval) String() string { return fmt.Sprintf("[%.4g, %.4g]", iv.Low, iv.High) }

// Bootstrap returns the percentile bootstrap interval on the run's maximum
// distance, the paper's protocol (1,000 resamples): in replicate b every
// sampled law is replaced by a resample of its own N trajectories with
// replacement (a multinomial draw from the empirical law), every transport
// problem is re-solved, and
//
//	M*_b = max_{h,h'} max_π W1( P̂*_b(· | h), P̂*_b(· | h') ).
//
// The interval is [q_{(1−level)/2}, q_{(1+level)/2}] of the B maxima, with
// linearly interpolated quantiles (Hyndman–Fan type 7). Replicate b's
// resample of law j comes from its own stream, so the result depends on the
// seed only.
//
// The percentile interval inherits the upward bias of a maximum of noisy
// estimates: Coverage measures how often it contains the exact maximum.
// Within a replicate, problems are visited by decreasing estimate and a
// problem whose bound k·diam(d_O)·TV does not exceed the running maximum
// is not solved: the maximum, and so the interval, is the same as with
// every problem solved.
//
// It returns an error for B < 1, a level outside (0, 1), a cancelled context
// or a transport failure. Cost: B × (one binomial per atom of every law +
// every kept transport problem).
func (r *Result) Bootstrap(ctx context.Context, opt BootstrapOptions) (Interval, error) {
	B := opt.Resamples
	if B == 0 {
		B = DefaultResamples
	}
	level := opt.Level
	if level == 0 {
		level = DefaultLevel
	}
	if B < 1 {
		return Interval{}, fmt.Errorf("sample: %d bootstrap resamples; want at least 1", B)
	}
	if !(level > 0 && level < 1) {
		return Interval{}, fmt.Errorf("sample: bootstrap level %v; want 0 < level < 1", level)
	}
	seed := opt.Seed
	if seed == 0 {
		seed = mix(r.Seed ^ 0x5bd1e9955bd1e995)
	}
	s := r.s
	est := r.MaxDistance()
	bp := r.bootPlan(est, opt.Prune)
	workers := opt.Workers
	if workers <= 0 {
		workers = s.workers
	}
	ws := make([]*bootScratch, workers)
	reps := make([]float64, B)
	var done atomic.Int64
	var mu sync.Mutex
	prog := opt.Progress
	err := parallel(ctx, workers, B, func(w, b int) error {
		sc := ws[w]
		if sc == nil {
			pcg := rand.NewPCG(0, 0)
			sc = &bootScratch{counts: make([]int32, bp.size), pcg: pcg, rng: rand.New(pcg)}
			sc.tr.g = s.ground
			ws[w] = sc
		}
		m, err := r.replicate(sc, bp, seed, b)
		if err != nil {
			return err
		}
		reps[b] = m
		if prog != nil {
			d := done.Add(1)
			if d%int64(max(1, B/100)) == 0 || d == int64(B) {
				mu.Lock()
				prog(int(d), B)
				mu.Unlock()
			}
		}
		return nil
	})
	if err != nil {
		return Interval{}, err
	}
	slices.Sort(reps)
	alpha := (1 - level) / 2
	return Interval{Estimate: est, Low: quantile(reps, alpha), High: quantile(reps, 1-alpha), Level: level,
		Resamples: B, Problems: len(bp.keep), Replicates: reps}, nil
}

// bootPlan is what every bootstrap replicate recomputes: the problems
// kept and the laws they use.
type bootPlan struct {
	keep []int // problems, largest estimates first
	// active[j]−1 is law j's offset in the scratch counts (0: unused).
	active  []int32
	offsets []int // the laws used, in law order
	size    int   // total atoms of the laws used
}

// bootScratch is one bootstrap worker's scratch space.
type bootScratch struct {
	counts []int32
	pcg    *rand.PCG
	rng    *rand.Rand
	tr     transport
}

// bootPlan keeps the problems whose estimate is within prune of est
// (all if prune ≤ 0), sorted by decreasing estimate, and lays out the
// counts of the laws they use.
func (r *Result) bootPlan(est, prune float64) bootPlan {
	s := r.s
	var keep []int
	used := make([]bool, len(r.laws))
	for k, p := range s.pairs {
		if prune > 0 && r.est[k] < est-prune {
			continue
		}
		keep = append(keep, k)
		used[p.a], used[p.b] = true, true
	}
	// Largest estimates first: the running maximum then rises early and
	// most problems are settled by the bound k·diam·TV ≤ maximum.
	slices.SortStableFunc(keep, func(x, y int) int { return cmp.Compare(r.est[y], r.est[x]) })
	bp := bootPlan{keep: keep, active: make([]int32, len(r.laws))}
	for j, u := range used {
		if u {
			bp.offsets = append(bp.offsets, j)
			bp.active[j] = int32(bp.size + 1)
			bp.size += len(r.laws[j].Atoms)
		}
	}
	return bp
}

// replicate draws bootstrap replicate b of every law used (streams from
// seed and b) and returns the largest distance over the problems kept.
func (r *Result) replicate(sc *bootScratch, bp bootPlan, seed uint64, b int) (float64, error) {
	s := r.s
	rb := mix(uint64(b) + 1)
	for _, j := range bp.offsets {
		e := r.laws[j]
		off := int(bp.active[j]) - 1
		sc.pcg.Seed(seed, s.jobs[j].stream^rb)
		e.resample(sc.counts[off:off+len(e.Atoms)], sc.rng)
	}
	m := 0.0
	for _, k := range bp.keep {
		p := s.pairs[k]
		la, lb := r.laws[p.a], r.laws[p.b]
		oa, ob := int(bp.active[p.a])-1, int(bp.active[p.b])-1
		v, err := sc.tr.distAbove(la, lb, sc.counts[oa:oa+len(la.Atoms)], sc.counts[ob:ob+len(lb.Atoms)], m)
		if err != nil {
			return 0, fmt.Errorf("sample: bootstrap replicate %d: %w", b, err)
		}
		m = math.Max(m, v)
	}
	return m, nil
}

// quantile returns the type-7 quantile q of sorted x.
func quantile(x []float64, q float64) float64 {
	if len(x) == 1 {
		return x[0]
	}
	h := float64(len(x)-1) * q
	lo := int(math.Floor(h))
	if lo >= len(x)-1 {
		return x[len(x)-1]
	}
	return x[lo] + (h-float64(lo))*(x[lo+1]-x[lo])
}
