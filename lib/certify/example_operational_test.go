package certify_test

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/certify"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/value"
)

// tensorOf computes the certify tensor of a built-in model's deterministic
// stationary family with at most m nodes.
func tensorOf(model string, m, T int) (*certify.Tensor, *distance.Result) {
	b, err := bench.Lookup(model)
	if err != nil {
		panic(err)
	}
	fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), m, fsc.Options{})
	if err != nil {
		panic(err)
	}
	r, err := distance.Compute(context.Background(), b.Model, fam, T, distance.Options{Ground: b.Ground, Tensor: true})
	if err != nil {
		panic(err)
	}
	t, err := certify.FromResult(r)
	if err != nil {
		panic(err)
	}
	return t, r
}

// alg:approx-partition on Tiger (m = 2, T = 4): the refinement with the
// clique rule gives the greedy complete-linkage partition, one class per
// pass and depth.
func ExampleRefine() {
	_, r := tensorOf("tiger", 2, 4)
	for _, eps := range []float64{0, 0.3, 0.5} {
		ref := certify.Refine(r.D, eps, certify.SplitClique)
		fmt.Printf("ε=%.1f: %d classes in %d passes, same as greedy linkage: %v, diameter %.3f\n",
			eps, ref.Partition.Total(), ref.Passes, ref.Partition.Equal(r.Partition(eps)), ref.Diameter)
	}
	// Output:
	// ε=0.0: 16 classes in 8 passes, same as greedy linkage: true, diameter 0.000
	// ε=0.3: 14 classes in 6 passes, same as greedy linkage: true, diameter 0.245
	// ε=0.5: 10 classes in 4 passes, same as greedy linkage: true, diameter 0.346
}

// prop:submodular on GridWorld 3×3 (m = 2, T = 2): greedy coverage against
// the exhaustive optimum; at k = 2 greedy is suboptimal but far above the
// (1 − 1/e) guarantee.
func ExampleOptimalCoverage() {
	t, _ := tensorOf("gridworld:3", 2, 2)
	for _, s := range certify.GreedyCurve(t, 3) {
		opt, err := certify.OptimalCoverage(context.Background(), t, s.K, 0)
		if err != nil {
			panic(err)
		}
		fmt.Printf("k=%d greedy %.4f optimum %.4f (1−1/e)·optimum %.4f\n", s.K, s.Coverage, opt.Value, (1-1/math.E)*opt.Value)
	}
	// Output:
	// k=1 greedy 1.7745 optimum 1.7745 (1−1/e)·optimum 1.1217
	// k=2 greedy 2.2205 optimum 2.4171 (1−1/e)·optimum 1.5279
	// k=3 greedy 2.4438 optimum 2.4438 (1−1/e)·optimum 1.5448
}

// The paper's low-rank table, GridWorld 3×3 (m = 2, T = 2): the 6 history
// pairs of depth 1 against the 6,405 controllers.
func ExampleTensor_Spectrum() {
	t, _ := tensorOf("gridworld:3", 2, 2)
	sp := t.Spectrum(1, true)
	fmt.Printf("%d×%d, effective rank 90%%: %d, 95%%: %d, 99%%: %d\n", sp.Rows, sp.Cols, sp.EffectiveRank(0.9), sp.EffectiveRank(0.95), sp.EffectiveRank(0.99))
	// Output:
	// 6×6405, effective rank 90%: 2, 95%: 3, 99%: 5
}

// conj:hankel-rank evidence: three readings of the Hankel rank of
// GridWorld 3×3; the marginal one is the paper's 3.
func ExampleHankelRanks() {
	b, _ := bench.Lookup("gridworld:3")
	hr, err := certify.HankelRanks(b.Model, 2, 0)
	if err != nil {
		panic(err)
	}
	for _, h := range hr {
		fmt.Printf("%s: rank %d (%d×%d)\n", h.Reading, h.Rank, h.Rows, h.Cols)
	}
	// Output:
	// joint: rank 8 (21×20)
	// open-loop: rank 4 (5×4)
	// marginal: rank 3 (36×9)
}

// thm:anchor-compression on Tiger (m = 2, T = 3): a subset's envelope gap
// never exceeds its anchor δ.
func ExampleAnchorDelta() {
	t, _ := tensorOf("tiger", 2, 3)
	for k := 1; k <= 3; k++ {
		S := certify.Greedy(t, k)
		an, err := certify.AnchorDelta(context.Background(), t, S)
		if err != nil {
			panic(err)
		}
		fmt.Printf("k=%d δ_S=%.3f ≤ δ_A=%.3f\n", k, certify.Gap(t, S), an.Delta)
	}
	// Output:
	// k=1 δ_S=0.490 ≤ δ_A=0.980
	// k=2 δ_S=0.000 ≤ δ_A=0.490
	// k=3 δ_S=0.000 ≤ δ_A=0.245
}

// r_env of conj:hankel-rank, exactly, against the greedy upper bound.
func ExampleEnvelopeRank() {
	t, _ := tensorOf("tiger", 2, 4)
	cv, err := certify.EnvelopeRank(context.Background(), t, 0, 0)
	if err != nil {
		panic(err)
	}
	for _, s := range certify.GreedyCurve(t, 5) {
		fmt.Printf("greedy k=%d δ_S=%.3f\n", s.K, s.Gap)
	}
	fmt.Println("r_env(δ=0) =", cv.Size)
	// Output:
	// greedy k=1 δ_S=0.980
	// greedy k=2 δ_S=0.245
	// greedy k=3 δ_S=0.245
	// greedy k=4 δ_S=0.000
	// greedy k=5 δ_S=0.000
	// r_env(δ=0) = 4
}

// thm:probe-approx on Tiger (m = 2, T = 3) with the synthetic observation
// reward (L_R = 1, discrete metric): the worst value gap over all probes
// against L_R·T·(ε + δ_S).
func ExampleProbeApprox() {
	b, _ := bench.Lookup("tiger")
	m, _ := value.WithObsReward(b.Model)
	fam, _ := fsc.NewStationary(3, 2, 2, fsc.Options{})
	r, _ := distance.Compute(context.Background(), m, fam, 3, distance.Options{Ground: ot.Discrete(2), Tensor: true})
	t, _ := certify.FromResult(r)
	rows, err := certify.ProbeApprox(context.Background(), m, fam, 3, t, []float64{0.5}, []int{0, 1, 2}, certify.ApproxOptions{})
	if err != nil {
		panic(err)
	}
	for _, c := range rows {
		fmt.Printf("k=%d ε=%.1f δ_S=%.3f classes %d: max gap %.4f ≤ bound %.3f: %v\n", c.K, c.Eps, c.DeltaS, c.Classes, c.MaxGap, c.Bound, c.OK())
	}
	// Output:
	// k=0 ε=0.5 δ_S=0.980 classes 4: max gap 0.2244 ≤ bound 4.440: true
	// k=1 ε=0.5 δ_S=0.490 classes 6: max gap 0.0817 ≤ bound 2.970: true
	// k=2 ε=0.5 δ_S=0.000 classes 6: max gap 0.0817 ≤ bound 1.500: true
}

// lem:lipschitz: trajectory laws move at most T/2 in TV per unit of ℓ1
// change of a stationary controller's parameters.
func ExampleLawLipschitz() {
	b, _ := bench.Lookup("tiger")
	rep, err := certify.LawLipschitz(context.Background(), b.Model, 2, 3, certify.LipschitzOptions{Samples: 100, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d samples, constant %.1f, violations %d, max TV/ℓ1 below the constant: %v\n",
		len(rep.Samples), rep.Constant, rep.Violations, rep.MaxRatio <= rep.Constant)
	// Output:
	// 100 samples, constant 1.5, violations 0, max TV/ℓ1 below the constant: true
}
