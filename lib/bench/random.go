package bench

import (
	"fmt"
	"math/rand/v2"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// dirichlet fills dst with a draw from Dirichlet(alpha, …, alpha) for a
// positive integer alpha: Gamma(alpha, 1) variables, each the sum of alpha
// standard exponential draws, normalised to sum 1. It does not allocate.
func dirichlet(dst []float64, alpha int, rnd *rand.Rand) {
	sum := 0.0
	for i := range dst {
		g := 0.0
		for range alpha {
			g += rnd.ExpFloat64()
		}
		dst[i] = g
		sum += g
	}
	for i := range dst {
		dst[i] /= sum
	}
}

// RandomStructured returns the random structured POMDP with nS states, nA
// actions and nO observations drawn from the seeded source
// rand.NewPCG(seed, 0) (docs/benchmarks.md#random-models; the paper
// uses nA = 3, nO = 4). See RandomStructuredSource for the definition. The
// same arguments give the same model (math/rand/v2's PCG and ExpFloat64 are
// specified, stable algorithms).
func RandomStructured(nS, nA, nO int, seed uint64) (Benchmark, error) {
	return randomStructured(fmt.Sprintf("random:%d:%d:%d:%d", nS, nA, nO, seed), nS, nA, nO, rand.NewPCG(seed, 0))
}

// RandomStructuredSource returns a random structured POMDP drawn from src
// (nil means rand.NewPCG(0, 0)). States s_0 …, actions a_0 …, observations
// o_0 …:
//
//	T(s, a, ·) = 0.9·Dirichlet(1, …, 1) + 0.1/nS
//	Z(s', a, ·) ~ Dirichlet(2, …, 2)
//
// R = 0, b0 uniform, discrete metric. Draw order: the rows of T for action
// 0, 1, … (states in order), then the rows of Z likewise; Dirichlet(α) draws
// are normalised sums of α standard exponentials per coordinate. The paper's
// own draw cannot be repeated, so its random-model rows are comparable only
// qualitatively. It returns an error if a size is < 1 and ErrTooLarge when
// the tables of T and Z, or the nO² entries of the discrete ground metric,
// exceed MaxEntries. It costs O(nA·nS·(nS + nO) + nO²).
func RandomStructuredSource(nS, nA, nO int, src rand.Source) (Benchmark, error) {
	if src == nil {
		src = rand.NewPCG(0, 0)
	}
	return randomStructured(fmt.Sprintf("random:%d:%d:%d", nS, nA, nO), nS, nA, nO, src)
}

func randomStructured(name string, nS, nA, nO int, src rand.Source) (Benchmark, error) {
	if nS < 1 || nA < 1 || nO < 1 {
		return Benchmark{}, fmt.Errorf("bench: %s: sizes |S|=%d |A|=%d |O|=%d, want all ≥ 1", name, nS, nA, nO)
	}
	if err := checkSize(name, float64(nS), float64(nA)*float64(nS)*(float64(nS)+float64(nO))); err != nil {
		return Benchmark{}, err
	}
	if g := float64(nO) * float64(nO); g > MaxEntries {
		return Benchmark{}, fmt.Errorf("%w: %s: its discrete ground metric over %d observations has |O|² = %.3g entries, the limit is %d", ErrTooLarge, name, nO, g, MaxEntries)
	}
	rnd := rand.New(src)
	row := make([]float64, max(nS, nO))
	T := make([]pomdp.Kernel, nA)
	for a := range T {
		T[a] = buildCSR(nS, nS, func(s int, add func(int, float64)) {
			dirichlet(row[:nS], 1, rnd)
			for j, p := range row[:nS] {
				add(j, 0.9*p+0.1/float64(nS))
			}
		})
	}
	Z := make([]*pomdp.Sparse, nA)
	for a := range Z {
		Z[a] = buildCSR(nS, nO, func(s int, add func(int, float64)) {
			dirichlet(row[:nO], 2, rnd)
			for o, p := range row[:nO] {
				add(o, p)
			}
		})
	}
	m := &pomdp.Model{
		Name:         name,
		States:       names("s", nS),
		Actions:      names("a", nA),
		Observations: names("o", nO),
		T:            T,
		Z:            Z,
		R:            zeros(nS, nA),
		B0:           pomdp.Uniform(nS),
	}
	return finish(m, ot.Discrete(nO), fmt.Sprintf("random structured POMDP (%d states, %d actions, %d observations)", nS, nA, nO))
}
