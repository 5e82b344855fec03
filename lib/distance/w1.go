package distance

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/ot"
)

// w1Solver computes W1 between two suffix laws of length |O|^k under the
// additive sequence cost, reusing an ot.Solver's scratch memory.
type w1Solver struct {
	g      ot.Ground
	s      ot.Solver
	solves int64 // transport problems solved
	// pivots and cells add up the simplex pivots and the residual
	// problems' sources × sinks over the solves: the work done (tests
	// compare it across worker counts).
	pivots, cells int64
}

// count adds a solve's result to the work counters.
func (w *w1Solver) count(r ot.Result) {
	w.pivots += int64(r.Pivots)
	w.cells += int64(r.Sources) * int64(r.Sinks)
}

func newW1Solver(g ot.Ground, nO int) *w1Solver { return &w1Solver{g: g} }

// solve returns W1(p, q). An iteration limit is an error, never a value.
func (w *w1Solver) solve(p, q []float64, k int) (float64, error) {
	w.solves++
	r, err := w.s.SeqW1(w.g, k, p, q)
	w.count(r)
	if err != nil {
		return 0, fmt.Errorf("distance: transport solve on %d sequences failed: %w", len(p), err)
	}
	return r.Value, nil
}

// solveBelow is solve that may stop early: below reports that W1(p, q)
// is less than stop (a transport plan cheaper than stop was found), and
// the value is then not returned.
func (w *w1Solver) solveBelow(p, q []float64, k int, stop float64) (v float64, below bool, err error) {
	w.solves++
	r, err := w.s.SeqW1Below(w.g, k, p, q, stop)
	w.count(r)
	if err != nil {
		return 0, false, fmt.Errorf("distance: transport solve on %d sequences failed: %w", len(p), err)
	}
	return r.Value, r.Status == ot.Below, nil
}
