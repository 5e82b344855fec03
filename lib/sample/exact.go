package sample

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Exact returns the exact distances d^Π that a sampling run with the same
// model, family, horizon and options estimates, computed by package distance
// (exact laws, exact W1): distance.Compute at horizon T, or, with a fixed
// Suffix L, distance.Compute at horizon t + L for each depth t (taking its
// depth-t matrix). Errors are those of distance.Compute. Cost: that of
// distance.Compute, T + 1 times with a fixed suffix.
func Exact(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, opt Options) ([]partition.Matrix, error) {
	dopt := distance.Options{Ground: opt.Ground, Convention: opt.Convention, Workers: opt.Workers, Progress: opt.Progress}
	if opt.Suffix <= 0 {
		r, err := distance.Compute(ctx, m, fam, T, dopt)
		if err != nil {
			return nil, err
		}
		return r.D, nil
	}
	out := make([]partition.Matrix, T+1)
	for t := 0; t <= T; t++ {
		r, err := distance.Compute(ctx, m, fam, t+opt.Suffix, dopt)
		if err != nil {
			return nil, err
		}
		out[t] = r.D[t]
	}
	return out, nil
}

// Comparison sets a sampled result beside the exact distances.
type Comparison struct {
	// ExactMax and SampledMax are max_{h,h'} of the exact and the sampled
	// distances; Bias is SampledMax − ExactMax.
	ExactMax, SampledMax, Bias float64
	// MaxError is max |d̂ − d| and MeanError the mean of d̂ − d, over the
	// Entries history pairs of the sampled depths.
	MaxError, MeanError, MeanAbsError float64
	Entries                           int
	// Eps, and the class counts of the greedy ε-partitions of both, and
	// their adjusted Rand index (labels of all depths concatenated).
	Eps                          []float64
	ExactClasses, SampledClasses []int
	ARI                          []float64
}

// Compare returns the comparison of r with the exact distances exact
// (from Exact or distance.Compute for the same setting) at the tolerances eps.
// It panics if the matrices do not match r's tree.
func Compare(r *Result, exact []partition.Matrix, eps []float64) Comparison {
	if len(exact) != len(r.D) {
		panic(fmt.Sprintf("sample: %d exact matrices for a tree of depth %d", len(exact), len(r.D)-1))
	}
	c := Comparison{Eps: append([]float64(nil), eps...)}
	sum, sumAbs := 0.0, 0.0
	for _, t := range r.s.sampled {
		e, d := exact[t], r.D[t]
		if e.N != d.N {
			panic(fmt.Sprintf("sample: exact depth-%d matrix has %d histories, want %d", t, e.N, d.N))
		}
		for k, v := range d.Data {
			diff := v - e.Data[k]
			sum += diff
			sumAbs += math.Abs(diff)
			c.MaxError = math.Max(c.MaxError, math.Abs(diff))
			c.Entries++
		}
	}
	for _, e := range exact {
		c.ExactMax = math.Max(c.ExactMax, e.Max())
	}
	c.SampledMax = r.MaxDistance()
	c.Bias = c.SampledMax - c.ExactMax
	if c.Entries > 0 {
		c.MeanError = sum / float64(c.Entries)
		c.MeanAbsError = sumAbs / float64(c.Entries)
	}
	for _, e := range eps {
		pe, ps := partition.Greedy(exact, e), partition.Greedy(r.D, e)
		c.ExactClasses = append(c.ExactClasses, pe.Total())
		c.SampledClasses = append(c.SampledClasses, ps.Total())
		c.ARI = append(c.ARI, partition.ARIPartitions(pe, ps))
	}
	return c
}
