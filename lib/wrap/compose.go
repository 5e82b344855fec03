package wrap

import (
	"fmt"
	"math"
	"math/big"
)

// Segments returns the segment lengths of the layered decomposition of
// horizon T into segments of length τ: L = ⌈T/τ⌉ segments, all of length τ
// except the last, which takes the remainder (T = 6, τ = 4 gives [4 2]).
// It returns an error unless T ≥ 1 and τ ≥ 1.
func Segments(T, tau int) ([]int, error) {
	if T < 1 || tau < 1 {
		return nil, fmt.Errorf("wrap: layering needs horizon T ≥ 1 and segment length τ ≥ 1 (have T = %d, τ = %d)", T, tau)
	}
	var segs []int
	for left := T; left > 0; left -= tau {
		segs = append(segs, min(tau, left))
	}
	return segs, nil
}

// HistoriesDirect returns the number of histories the direct (monolithic)
// method processes, the nodes of the history tree of depth T:
//
//	Σ_{t=0..T} |O|^t = (|O|^{T+1} − 1)/(|O| − 1)
//
// (Tiger, |O| = 2: 31, 127, 511, 2,047 for T = 4, 6, 8, 10). It saturates at
// math.MaxInt instead of overflowing.
func HistoriesDirect(nO, T int) int {
	total, p := 0, 1
	for t := 0; t <= T; t++ {
		if total > math.MaxInt-p {
			return math.MaxInt
		}
		total += p
		if t < T {
			if nO > 0 && p > math.MaxInt/nO {
				p = math.MaxInt
			} else {
				p *= nO
			}
		}
	}
	return total
}

// HistoriesLayered returns the number of histories the layered method
// processes: one history tree per segment,
//
//	Σ_{k=1..L} Σ_{t=0..τ_k} |O|^t
//
// (Tiger: T = 6, τ = 4 gives 31 + 7 = 38; T = 8, τ = 4 gives 62; T = 10,
// τ = 5 gives 126 — the paper's tab:hierarchical-scaling). It returns an error
// when Segments does.
func HistoriesLayered(nO, T, tau int) (int, error) {
	segs, err := Segments(T, tau)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, s := range segs {
		total += HistoriesDirect(nO, s)
	}
	return total, nil
}

// Complexity returns the operation counts of prop:layered-complexity for
// |S| = nS, |A| = nA, |O| = nO, memory m, horizon T and segment length τ:
//
//	monolithic: (|O|^{T+1} − 1)/(|O| − 1) · |A|^m m^{m|O|} · T |S|² |O|
//	layered:    Σ_k (|O|^{τ_k+1} − 1)/(|O| − 1) · |A|^m m^{m|O|} · τ_k |S|² |O|
//
// (the paper writes the layered sum as L times one segment for T = Lτ; a
// shorter last segment is counted at its own length). They are returned as
// floats (they overflow integers quickly; +Inf beyond float64). It returns an
// error for sizes below 1 or a bad segmentation.
func Complexity(nS, nA, nO, m, T, tau int) (mono, layered float64, err error) {
	if nS < 1 || nA < 1 || nO < 1 || m < 1 {
		return 0, 0, fmt.Errorf("wrap: complexity needs |S|, |A|, |O|, m ≥ 1 (have %d, %d, %d, %d)", nS, nA, nO, m)
	}
	segs, err := Segments(T, tau)
	if err != nil {
		return 0, 0, err
	}
	fsc := new(big.Float).SetInt(new(big.Int).Exp(big.NewInt(int64(nA)), big.NewInt(int64(m)), nil))
	fsc.Mul(fsc, new(big.Float).SetInt(new(big.Int).Exp(big.NewInt(int64(m)), big.NewInt(int64(m*nO)), nil)))
	step := new(big.Float).SetInt64(int64(nS) * int64(nS) * int64(nO))
	cost := func(t int) float64 {
		h := new(big.Int).Exp(big.NewInt(int64(nO)), big.NewInt(int64(t+1)), nil)
		h.Sub(h, big.NewInt(1))
		hf := new(big.Float).SetInt(h)
		if nO > 1 {
			hf.Quo(hf, big.NewFloat(float64(nO-1)))
		} else {
			hf.SetInt64(int64(t + 1))
		}
		hf.Mul(hf, fsc)
		hf.Mul(hf, step)
		hf.Mul(hf, big.NewFloat(float64(t)))
		v, _ := hf.Float64()
		return v
	}
	mono = cost(T)
	for _, s := range segs {
		layered += cost(s)
	}
	return mono, layered, nil
}

// Compose returns the bounds Γ_1, …, Γ_{L+1} of the recursion
// eq:layered-recursion of thm:layered-composition,
//
//	Γ_{i+1} = L_i Γ_i + ε_i,   i = 1 … L,
//
// from Γ_1 = gamma1, the wrappers' Lipschitz constants lip = (L_1 … L_L) and
// the per-layer residuals eps = (ε_1 … ε_L). Its last element equals
// ComposedBound. It returns an error when the lengths differ or an input is
// negative or NaN.
func Compose(gamma1 float64, lip, eps []float64) ([]float64, error) {
	if err := checkCompose(gamma1, lip, eps); err != nil {
		return nil, err
	}
	g := []float64{gamma1}
	for i := range lip {
		g = append(g, lip[i]*g[i]+eps[i])
	}
	return g, nil
}

// ComposedBound returns the closed form eq:layered-composition,
//
//	Γ_{L+1} ≤ (Π_{j=1..L} L_j) Γ_1 + Σ_{i=1..L} (Π_{j=i+1..L} L_j) ε_i,
//
// with the same arguments and errors as Compose.
func ComposedBound(gamma1 float64, lip, eps []float64) (float64, error) {
	if err := checkCompose(gamma1, lip, eps); err != nil {
		return 0, err
	}
	prod := 1.0
	for _, l := range lip {
		prod *= l
	}
	b := prod * gamma1
	for i := range eps {
		w := 1.0
		for _, l := range lip[i+1:] {
			w *= l
		}
		b += w * eps[i]
	}
	return b, nil
}

func checkCompose(gamma1 float64, lip, eps []float64) error {
	if len(lip) != len(eps) {
		return fmt.Errorf("wrap: %d Lipschitz constants for %d residuals (one of each per layer)", len(lip), len(eps))
	}
	if !(gamma1 >= 0) {
		return fmt.Errorf("wrap: Γ_1 = %v must be ≥ 0", gamma1)
	}
	for i := range lip {
		if !(lip[i] >= 0) || !(eps[i] >= 0) {
			return fmt.Errorf("wrap: layer %d has L = %v, ε = %v; both must be ≥ 0", i+1, lip[i], eps[i])
		}
	}
	return nil
}
