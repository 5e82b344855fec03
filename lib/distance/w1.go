package distance

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/ot"
)

// w1Solver computes W1 between two suffix laws of length |O|^k under the
// additive sequence cost, reusing an ot.Solver's scratch memory. Under a
// uniform ground metric a residual problem of more than denseArcs arcs
// (sources × sinks) is solved on the product graph of O^k (ot.ProductW1,
// one per suffix length), whose memory does not grow with the supports.
type w1Solver struct {
	g       ot.Ground
	s       ot.Solver
	uniform bool
	product map[int]*ot.ProductW1 // per suffix length k
	solves  int64                 // transport problems solved
	// pivots and cells add up the simplex pivots and the residual
	// problems' sources × sinks over the solves: the work done (tests
	// compare it across worker counts).
	pivots, cells int64
}

// denseArcs is ot.DenseArcs, a variable so that tests can send every
// problem to the product graph, or none (negative).
var denseArcs int64 = ot.DenseArcs

// count adds a solve's result to the work counters.
func (w *w1Solver) count(r ot.Result) {
	w.pivots += int64(r.Pivots)
	w.cells += int64(r.Sources) * int64(r.Sinks)
}

func newW1Solver(g ot.Ground, nO int) *w1Solver {
	_, err := ot.NewProductW1(g, 0)
	return &w1Solver{g: g, uniform: err == nil}
}

// large returns W1(p, q) on the product graph when the residual problem
// has more than denseArcs arcs under a uniform ground (ok false
// otherwise).
func (w *w1Solver) large(p, q []float64, k int) (v float64, ok bool, err error) {
	if !w.uniform || denseArcs < 0 || k < 2 {
		return 0, false, nil
	}
	arcs := ot.ResidualArcs(p, q)
	if arcs <= denseArcs {
		return 0, false, nil
	}
	pf := w.product[k]
	if pf == nil {
		if pf, err = ot.NewProductW1(w.g, k); err != nil {
			return 0, false, err
		}
		if w.product == nil {
			w.product = make(map[int]*ot.ProductW1)
		}
		w.product[k] = pf
	}
	w.solves++
	w.cells += arcs
	v, err = pf.W1(p, q)
	if err != nil {
		return 0, true, fmt.Errorf("distance: transport solve on %d sequences failed: %w", len(p), err)
	}
	return v, true, nil
}

// solve returns W1(p, q). An iteration limit is an error, never a value.
func (w *w1Solver) solve(p, q []float64, k int) (float64, error) {
	if v, ok, err := w.large(p, q, k); ok || err != nil {
		return v, err
	}
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
// the value is then not returned. (On the product graph the value is
// always exact.)
func (w *w1Solver) solveBelow(p, q []float64, k int, stop float64) (v float64, below bool, err error) {
	if v, ok, err := w.large(p, q, k); ok || err != nil {
		return v, false, err
	}
	w.solves++
	r, err := w.s.SeqW1Below(w.g, k, p, q, stop)
	w.count(r)
	if err != nil {
		return 0, false, fmt.Errorf("distance: transport solve on %d sequences failed: %w", len(p), err)
	}
	return r.Value, r.Status == ot.Below, nil
}
