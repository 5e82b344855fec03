package sample_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/sample"
)

// The paper's sampling protocol on GridWorld 3×3 (m = 1, T = 2): 500
// trajectories per (history, probe), a 1,000-resample bootstrap interval on
// the maximum distance, and the exact values beside the estimates.
func Example() {
	ctx := context.Background()
	b, _ := bench.Lookup("gridworld:3")
	m := b.Model
	fam, _ := fsc.NewStationary(m.NumActions(), m.NumObservations(), 1, fsc.Options{})
	opt := sample.Options{Ground: b.Ground, Trajectories: 500, Seed: 1}
	r, err := sample.Compute(ctx, m, fam, 2, opt)
	if err != nil {
		panic(err)
	}
	iv, err := r.Bootstrap(ctx, sample.BootstrapOptions{Resamples: 1000})
	if err != nil {
		panic(err)
	}
	exact, err := sample.Exact(ctx, m, fam, 2, opt)
	if err != nil {
		panic(err)
	}
	c := sample.Compare(r, exact, []float64{0, 0.25, 0.3, 0.45})
	fmt.Printf("%d laws sampled, %d transport problems\n", r.Laws, r.Problems)
	fmt.Printf("max W1: sampled %.3f, 95%% CI [%.3f, %.3f], exact %.3f\n", c.SampledMax, iv.Low, iv.High, c.ExactMax)
	fmt.Printf("largest error %.3f\n", c.MaxError)
	fmt.Println("classes: sampled", c.SampledClasses, "exact", c.ExactClasses)
	fmt.Printf("ARI at ε = 0.3: %.3f\n", c.ARI[2])
	// Output:
	// 20 laws sampled, 30 transport problems
	// max W1: sampled 0.376, 95% CI [0.330, 0.421], exact 0.343
	// largest error 0.043
	// classes: sampled [6 4 4 3] exact [6 4 4 3]
	// ARI at ε = 0.3: 0.971
}

// Seed stability (tab:sampling-variance): class counts of GridWorld 10×10
// over ten seeds at N = 500.
func ExampleStability() {
	ctx := context.Background()
	b, _ := bench.Lookup("gridworld:10")
	fam, _ := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), 1, fsc.Options{})
	s, err := sample.New(ctx, b.Model, fam, 2, sample.Options{Ground: b.Ground})
	if err != nil {
		panic(err)
	}
	rows, err := sample.Stability(ctx, s, 500, 10, 0, []float64{0, 0.1, 0.25, 0.45}, nil)
	if err != nil {
		panic(err)
	}
	for _, r := range rows {
		fmt.Printf("ε = %-4v mean %.1f std %.1f min %d max %d\n", r.Eps, r.Mean, r.Std, r.Min, r.Max)
	}
	// Output:
	// ε = 0    mean 6.0 std 0.0 min 6 max 6
	// ε = 0.1  mean 6.0 std 0.0 min 6 max 6
	// ε = 0.25 mean 4.0 std 0.0 min 4 max 4
	// ε = 0.45 mean 3.0 std 0.0 min 3 max 3
}
