package nb

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/wrap"
)

// FlipSearch compares D(W(M), W(N)) with L_C·D(M, N) = (1 − 2p)·D(M, N)
// for pairs random pairs of 2-state, 2-action, 2-observation models (seeds
// 2s+1 and 2s+2 of bench.RandomStructured) and flip channels of random
// p ∈ [0.05, 0.45), over the deterministic clock-aware family with two
// nodes at horizon T (the stochastic family's supremum). It returns the
// pairs where the contraction fails by more than tol and the largest ratio
// D(W(M), W(N)) / ((1 − 2p)·D(M, N)) over pairs with D(M, N) > 0.
func FlipSearch(ctx context.Context, pairs, T int, tol float64) (violations int, maxRatio float64, err error) {
	fam, err := fsc.NewClock(2, 2, 2, T, fsc.Options{})
	if err != nil {
		return 0, 0, err
	}
	for s := uint64(0); s < uint64(pairs); s++ {
		d, dw, p, err := flipPair(ctx, fam, T, s)
		if err != nil {
			return violations, maxRatio, fmt.Errorf("pair %d: %w", s, err)
		}
		if !(dw <= (1-2*p)*d+tol) {
			violations++
		}
		if d > 0 {
			maxRatio = math.Max(maxRatio, dw/((1-2*p)*d))
		}
	}
	return violations, maxRatio, nil
}

// flipPair returns D(M, N), D(W(M), W(N)) and the flip probability p of
// FlipSearch's pair s.
func flipPair(ctx context.Context, fam fsc.Family, T int, s uint64) (d, dw, p float64, err error) {
	bm, err := bench.RandomStructured(2, 2, 2, 2*s+1)
	if err != nil {
		return 0, 0, 0, err
	}
	bn, err := bench.RandomStructured(2, 2, 2, 2*s+2)
	if err != nil {
		return 0, 0, 0, err
	}
	M, N := bm.Model, bn.Model
	N.Name = M.Name // same spaces; Models compares names
	p = 0.05 + 0.4*rand.New(rand.NewPCG(s, 9)).Float64()
	ch, err := wrap.NewChannel([][]float64{{1 - p, p}, {p, 1 - p}}, M.Observations, nil)
	if err != nil {
		return 0, 0, 0, err
	}
	WM, err := ch.Apply(M)
	if err != nil {
		return 0, 0, 0, err
	}
	WN, err := ch.Apply(N)
	if err != nil {
		return 0, 0, 0, err
	}
	rd, err := distance.Models(ctx, M, N, fam, T, distance.Options{Workers: 1})
	if err != nil {
		return 0, 0, 0, err
	}
	rw, err := distance.Models(ctx, WM, WN, fam, T, distance.Options{Workers: 1})
	if err != nil {
		return 0, 0, 0, err
	}
	return rd.Distance, rw.Distance, p, nil
}
