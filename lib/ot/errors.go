package ot

import (
	"errors"
	"fmt"
)

// ErrIterationLimit is returned, together with a Result whose Status is
// IterationLimit and whose Value is NaN, when the network simplex stops at
// Settings.MaxPivots before reaching an optimal plan.
var ErrIterationLimit = errors.New("ot: pivot limit reached before optimality")

// ErrOverflow is returned when costs and masses are so large that the
// transport cost, or the simplex potentials (sums of up to n+k costs),
// would overflow float64.
var ErrOverflow = errors.New("ot: costs or masses too large: transport cost overflows float64")

// errNoOptimum reports an internal failure of the simplex (no blocking arc,
// or flow left on artificial arcs); it cannot happen for valid input.
var errNoOptimum = errors.New("ot: network simplex ended without a feasible optimum")

// MassError reports an invalid entry of a mass vector: negative, NaN or
// infinite.
type MassError struct {
	Side  string // "p" or "q"
	Index int
	Value float64
}

func (e *MassError) Error() string {
	return fmt.Sprintf("ot: mass %s[%d] = %v is not a finite non-negative number", e.Side, e.Index, e.Value)
}

// TotalError reports two mass vectors whose totals disagree beyond TotalTol
// (see TotalTol), or a total that is not finite.
type TotalError struct {
	P, Q float64 // the totals Σp and Σq
}

func (e *TotalError) Error() string {
	return fmt.Sprintf("ot: total masses differ: Σp = %v, Σq = %v (tolerance %g)", e.P, e.Q, TotalTol)
}

// CostError reports an invalid cost entry: negative, NaN or infinite.
type CostError struct {
	I, J  int
	Value float64
}

func (e *CostError) Error() string {
	return fmt.Sprintf("ot: cost(%d,%d) = %v is not a finite non-negative number", e.I, e.J, e.Value)
}
