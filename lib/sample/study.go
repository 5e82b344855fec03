package sample

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/partition"
)

// ConvergencePoint summarises the runs of one sample size against the exact
// distances (tab:convergence, rem:sample-complexity).
type ConvergencePoint struct {
	N, Replications int
	// ARI[r][e] is the ARI between the exact and the sampled greedy
	// partitions of replicate r at tolerance Eps[e].
	ARI [][]float64
	// Classes[r][e] is the sampled class count.
	Classes [][]int
	// MeanARI is the mean of ARI over replicates and tolerances; MinARI its
	// smallest entry.
	MeanARI, MinARI float64
	// MeanAbsError is the mean over replicates of the mean |d̂ − d| over
	// history pairs, MeanError that of the mean signed d̂ − d (each entry is
	// a maximum over probes, so it is biased upward); MaxAbsError is the
	// largest |d̂ − d| met.
	MeanAbsError, MeanError, MaxAbsError float64
	// MeanBias is the mean over replicates of max d̂ − max d (the upward
	// bias of a maximum of noisy estimates).
	MeanBias float64
}

// Convergence runs the sampler reps times at each sample size in ns and
// compares every run with the exact distances exact (from Exact) at the
// tolerances eps: the paper's convergence study (tab:convergence; 5
// replications, ε ∈ {0, 0.3, 0.5}), which it measured against the
// operational exact partition. Replicate r uses seed+r at every sample
// size, so its smaller samples are prefixes of its larger ones.
//
// progress, when set, is called with the runs done and their total. It
// returns an error for reps < 1, an empty ns, and the errors of Run.
// Cost: reps·len(ns) runs.
func Convergence(ctx context.Context, s *Sampler, exact []partition.Matrix, ns []int, reps int, eps []float64, seed uint64, progress func(done, total int)) ([]ConvergencePoint, error) {
	if reps < 1 || len(ns) == 0 || len(eps) == 0 {
		return nil, fmt.Errorf("sample: convergence needs replications ≥ 1 (got %d), sample sizes (got %d) and tolerances (got %d)", reps, len(ns), len(eps))
	}
	var out []ConvergencePoint
	done, total := 0, reps*len(ns)
	for _, n := range ns {
		pt := ConvergencePoint{N: n, Replications: reps, MinARI: math.Inf(1)}
		sum := 0.0
		for r := range reps {
			res, err := s.Run(ctx, n, seed+uint64(r))
			if err != nil {
				return nil, err
			}
			c := Compare(res, exact, eps)
			pt.ARI = append(pt.ARI, c.ARI)
			pt.Classes = append(pt.Classes, c.SampledClasses)
			for _, a := range c.ARI {
				sum += a
				pt.MinARI = math.Min(pt.MinARI, a)
			}
			pt.MeanAbsError += c.MeanAbsError / float64(reps)
			pt.MeanError += c.MeanError / float64(reps)
			pt.MaxAbsError = math.Max(pt.MaxAbsError, c.MaxError)
			pt.MeanBias += c.Bias / float64(reps)
			done++
			if progress != nil {
				progress(done, total)
			}
		}
		pt.MeanARI = sum / float64(reps*len(eps))
		out = append(out, pt)
	}
	return out, nil
}

// StabilityRow is the class count at one tolerance over several seeds.
type StabilityRow struct {
	Eps float64
	// Counts[r] is the class count with seed r.
	Counts    []int
	Mean, Std float64 // Std: sample standard deviation (n − 1)
	Min, Max  int
}

// Stability runs the sampler with n trajectories and seeds seed, seed+1, …,
// seed+seeds−1 and returns the class counts of the greedy partitions at each
// tolerance: the paper's seed-stability study (tab:sampling-variance, ten
// seeds, N = 500). progress, when set, is called with the runs done and
// seeds. It returns an error for seeds < 1 and the errors of Run. Cost:
// seeds runs.
func Stability(ctx context.Context, s *Sampler, n, seeds int, seed uint64, eps []float64, progress func(done, total int)) ([]StabilityRow, error) {
	if seeds < 1 {
		return nil, fmt.Errorf("sample: stability needs at least one seed (got %d)", seeds)
	}
	rows := make([]StabilityRow, len(eps))
	for e := range eps {
		rows[e] = StabilityRow{Eps: eps[e], Min: math.MaxInt}
	}
	for r := range seeds {
		res, err := s.Run(ctx, n, seed+uint64(r))
		if err != nil {
			return nil, err
		}
		for e, x := range eps {
			c := res.Partition(x).Total()
			rows[e].Counts = append(rows[e].Counts, c)
			rows[e].Min, rows[e].Max = min(rows[e].Min, c), max(rows[e].Max, c)
		}
		if progress != nil {
			progress(r+1, seeds)
		}
	}
	for e := range rows {
		rows[e].Mean, rows[e].Std = meanStd(rows[e].Counts)
	}
	return rows, nil
}

func meanStd(x []int) (mean, std float64) {
	for _, v := range x {
		mean += float64(v)
	}
	mean /= float64(len(x))
	if len(x) < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, v := range x {
		ss += (float64(v) - mean) * (float64(v) - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)-1))
}

// CoverageResult is the empirical coverage of bootstrap intervals.
type CoverageResult struct {
	N, Replications int
	// Truth is the exact maximum the intervals should contain.
	Truth float64
	// Covered counts the intervals containing Truth; Below those lying
	// entirely below it, Above entirely above.
	Covered, Below, Above int
	// Rate is Covered/Replications.
	Rate float64
	// MeanWidth, MeanEstimate, MeanLow and MeanHigh average the intervals
	// and the point estimates (MaxDistance) over the replications.
	MeanWidth, MeanEstimate, MeanLow, MeanHigh float64
	// Intervals holds each replication's interval (Replicates dropped).
	Intervals []Interval
}

// Coverage runs the sampler reps times with n trajectories (seeds seed,
// seed+1, …), computes each run's bootstrap interval with boot, and counts
// how often it contains truth, the exact max_{h,h'} d^Π (from Exact): the
// paper's coverage study (tab:bootstrap-coverage, 200 replications), here
// against the exact value it could not compute. progress, when set, is
// called with the replications done and reps. It returns an error for
// reps < 1 or a NaN truth, and the errors of Run and Bootstrap. Cost: reps
// runs and bootstraps.
func Coverage(ctx context.Context, s *Sampler, truth float64, n, reps int, boot BootstrapOptions, seed uint64, progress func(done, total int)) (CoverageResult, error) {
	if reps < 1 || math.IsNaN(truth) {
		return CoverageResult{}, fmt.Errorf("sample: coverage needs replications ≥ 1 (got %d) and a true value (got %v)", reps, truth)
	}
	c := CoverageResult{N: n, Replications: reps, Truth: truth}
	for r := range reps {
		res, err := s.Run(ctx, n, seed+uint64(r))
		if err != nil {
			return c, err
		}
		iv, err := res.Bootstrap(ctx, boot)
		if err != nil {
			return c, err
		}
		iv.Replicates = nil
		c.Intervals = append(c.Intervals, iv)
		switch {
		case iv.Contains(truth):
			c.Covered++
		case iv.High < truth:
			c.Below++
		default:
			c.Above++
		}
		f := 1 / float64(reps)
		c.MeanWidth += iv.Width() * f
		c.MeanEstimate += iv.Estimate * f
		c.MeanLow += iv.Low * f
		c.MeanHigh += iv.High * f
		if progress != nil {
			progress(r+1, reps)
		}
	}
	c.Rate = float64(c.Covered) / float64(reps)
	return c, nil
}
