package bench

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Hallway returns the corridor of L cells with three landmarks
// (docs/benchmarks.md#hallway; the paper uses L = 10, 20). States pos_0 …
// pos_{L−1}, actions left, right, stay, observations lm_0, lm_1, lm_2:
//
//	left/right: T(s, a, s∓1 clipped) += 0.8, T(s, a, s) += 0.2
//	stay:       T(s, stay, s) = 1
//	Z(s', a, lm_k) = 0.8 if k = s' mod 3, else 0.1
//
// R = 0, b0 uniform, discrete metric. It returns an error if L < 1 and
// ErrTooLarge beyond MaxStates. Construction costs O(L).
func Hallway(L int) (Benchmark, error) {
	name := fmt.Sprintf("hallway:%d", L)
	if L < 1 {
		return Benchmark{}, fmt.Errorf("bench: %s: length %d, want L ≥ 1", name, L)
	}
	if err := checkSize(name, float64(L), float64(L)*3*(2+3)); err != nil {
		return Benchmark{}, err
	}
	moves := []int{-1, 1, 0}
	T := make([]pomdp.Kernel, len(moves))
	for a, mv := range moves {
		T[a] = buildCSR(L, L, func(s int, add func(int, float64)) {
			if mv == 0 {
				add(s, 1)
				return
			}
			add(clip(s+mv, 0, L-1), 0.8)
			add(s, 0.2)
		})
	}
	z := buildCSR(L, 3, func(s int, add func(int, float64)) {
		for k := 0; k < 3; k++ {
			if k == s%3 {
				add(k, 0.8)
			} else {
				add(k, 0.1)
			}
		}
	})
	m := &pomdp.Model{
		Name:         name,
		States:       names("pos", L),
		Actions:      []string{"left", "right", "stay"},
		Observations: names("lm", 3),
		T:            T,
		Z:            sameObs(z, len(moves)),
		R:            zeros(L, len(moves)),
		B0:           pomdp.Uniform(L),
	}
	return finish(m, ot.Discrete(3), fmt.Sprintf("hallway of %d cells, landmark = position mod 3", L))
}
