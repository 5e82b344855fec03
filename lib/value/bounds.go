package value

import (
	"fmt"
	"math"
)

func checkBoundArgs(fn string, LR float64, T int, eps float64, deltas []float64) {
	if !(LR >= 0) || T < 0 || !(eps >= 0) {
		panic(fmt.Sprintf("value: %s: need L_R ≥ 0, T ≥ 0, ε ≥ 0 (have %v, %d, %v)", fn, LR, T, eps))
	}
	for i, d := range deltas {
		if !(d >= 0) {
			panic(fmt.Sprintf("value: %s: gap δ_%d = %v is not a non-negative number", fn, i, d))
		}
	}
}

// scale returns LR·T·x, with +Inf when LR is +Inf (an infinite Lipschitz
// constant gives no guarantee, even at x = 0).
func scale(LR float64, T int, x float64) float64 {
	if math.IsInf(LR, 1) {
		return math.Inf(1)
	}
	return LR * float64(T) * x
}

// Bound returns the value-function error bound of thm:value-bound,
//
//	|V_M^π − V_M̃^π| ≤ L_R · T · ε,
//
// for an ε-quotient M̃ and an L_R-observation-Lipschitz reward. An
// infinite L_R gives +Inf. It panics if an argument is negative or NaN.
func Bound(LR float64, T int, eps float64) float64 {
	checkBoundArgs("Bound", LR, T, eps, nil)
	return scale(LR, T, eps)
}

// RegretBound returns the sim-to-real regret bound of cor:sim-to-real,
//
//	V_M^{π*_M} − V_M^{π*_M̃} ≤ 2 · L_R · T · ε.
//
// An infinite L_R gives +Inf. It panics if an argument is negative or NaN.
func RegretBound(LR float64, T int, eps float64) float64 {
	checkBoundArgs("RegretBound", LR, T, eps, nil)
	return 2 * scale(LR, T, eps)
}

// TransferBound returns the cross-family value-transfer bound
//
//	|V_M^π − V_M̃^π| ≤ L_R · T · (ε + Σ_i δ_i),
//
// with one gap δ = δ_{1,2} for thm:cross-family-transfer (and
// cor:op-to-clk-transfer, δ = δ_clk), or two gaps δ_S, δ_{1,2} for
// cor:subset-cross-family-transfer. With no gaps it is Bound. An infinite
// L_R gives +Inf. It panics if an argument is negative or NaN.
func TransferBound(LR float64, T int, eps float64, deltas ...float64) float64 {
	checkBoundArgs("TransferBound", LR, T, eps, deltas)
	x := eps
	for _, d := range deltas {
		x += d
	}
	return scale(LR, T, x)
}
