package bench

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// NetworkNodeFactor returns the 2×2 transition matrix of one network node,
// rows and columns indexed by 0 = down, 1 = up:
//
//	down → down 0.7, down → up 0.3 (recovers with 0.3)
//	up   → down 0.1, up   → up 0.9 (stays up with 0.9)
func NetworkNodeFactor() [][]float64 {
	return [][]float64{
		{0.7, 0.3},
		{0.1, 0.9},
	}
}

// NetworkMonitoring returns the network of n independent nodes
// (docs/benchmarks.md#network-monitoring; the paper uses n = 4, 5, 9, 10, 12).
// There are 2ⁿ states; bit k of the state index is 1 when node k is up, and
// the state name lists the nodes 0 … n−1 as U (up) or D (down), e.g. s_UDD
// is index 1. Actions probe_0 … probe_{n−1}, do_nothing; observations
// alert_0, alert_1, alert_2.
//
//	T(s, a, s') = Π_k F(bit_k(s), bit_k(s'))   (F = NetworkNodeFactor, every action)
//	Z(s', probe_k, ·) = (0.1, 0.1, 0.8) if node k is up in s', (0.8, 0.1, 0.1) if down
//	Z(s', do_nothing, ·) = (⅓, ⅓, ⅓)
//
// R = 0, b0 uniform, discrete metric. T is one *pomdp.Kron of n factors
// (factor 0 is the least significant bit) shared by all actions, so a belief
// prediction costs O(n·2ⁿ) and T takes O(n) memory; n = 12 builds in well
// under a second. It returns an error if n < 1 and ErrTooLarge beyond
// MaxStates (n > 18).
func NetworkMonitoring(n int) (Benchmark, error) {
	name := fmt.Sprintf("netmon:%d", n)
	if n < 1 {
		return Benchmark{}, fmt.Errorf("bench: %s: %d nodes, want n ≥ 1", name, n)
	}
	if err := checkSize(name, math.Ldexp(1, n), math.Ldexp(1, n)*float64(n+1)*3); err != nil {
		return Benchmark{}, err
	}
	nS := 1 << n
	factors := make([][][]float64, n)
	for k := range factors {
		factors[k] = NetworkNodeFactor()
	}
	kron := pomdp.NewKron(factors...)

	states := make([]string, nS)
	buf := make([]byte, 2+n)
	buf[0], buf[1] = 's', '_'
	for s := range states {
		for k := 0; k < n; k++ {
			if s>>k&1 == 1 {
				buf[2+k] = 'U'
			} else {
				buf[2+k] = 'D'
			}
		}
		states[s] = string(buf)
	}
	actions := make([]string, n+1)
	Z := make([]*pomdp.Sparse, n+1)
	for k := 0; k < n; k++ {
		actions[k] = fmt.Sprintf("probe_%d", k)
		Z[k] = buildCSR(nS, 3, func(s int, add func(int, float64)) {
			if s>>k&1 == 1 {
				add(0, 0.1)
				add(1, 0.1)
				add(2, 0.8)
			} else {
				add(0, 0.8)
				add(1, 0.1)
				add(2, 0.1)
			}
		})
	}
	actions[n] = "do_nothing"
	Z[n] = buildCSR(nS, 3, func(s int, add func(int, float64)) {
		for o := 0; o < 3; o++ {
			add(o, 1.0/3)
		}
	})
	m := &pomdp.Model{
		Name:         name,
		States:       states,
		Actions:      actions,
		Observations: names("alert", 3),
		T:            sameKernel(kron, n+1),
		Z:            Z,
		R:            zeros(nS, n+1),
		B0:           pomdp.Uniform(nS),
	}
	return finish(m, ot.Discrete(3), fmt.Sprintf("network of %d independent nodes, probe one per step", n))
}
