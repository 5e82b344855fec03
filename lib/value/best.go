package value

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Result is the outcome of an exhaustive best-policy search.
type Result struct {
	// Objective is the objective's name and T the horizon.
	Objective string
	T         int
	// Value is the largest expected value over the family.
	Value float64
	// Index is the first controller in family order whose value is within
	// Tol of Value, Controller that controller and Policy its rendering
	// (see Policy).
	Index      int
	Controller *fsc.FSC
	Policy     string
	// Ties is the number of controllers within Tol of Value (≥ 1). When it
	// exceeds 1 the selected policy is a tie-break by family order.
	Ties int
	// Tol is the optimality tolerance used.
	Tol float64
	// FamilySize is the number of controllers evaluated.
	FamilySize int
	// Values[i] is controller i's value (only with Options.KeepValues).
	Values []float64
	// Seconds is the wall-clock time of the search.
	Seconds float64
}

// String summarises the result on one line.
func (r Result) String() string {
	return fmt.Sprintf("%s T=%d: best %.6g by #%d %q (%d tied within %g, %d FSCs)",
		r.Objective, r.T, r.Value, r.Index, r.Policy, r.Ties, r.Tol, r.FamilySize)
}

// Regret returns the shortfall Value − v of a value v relative to the
// search's best value.
func (r Result) Regret(v float64) float64 { return r.Value - v }

// trusted reports families whose controllers are valid by construction.
func trusted(fam fsc.Family) bool {
	switch fam.(type) {
	case *fsc.Stationary, *fsc.Clock, *fsc.Sampled:
		return true
	}
	return false
}

// Best evaluates every controller of fam on model m over horizon T and
// returns the best expected value of obj,
//
//	V* = max_{π ∈ fam} E^π[obj],
//
// with the first controller in family order whose value is within Tol
// (default 1e-9) of V*. The tie-break is deliberate: the paper's "Policy"
// column (tab:observation-planning, tab:latent-planning-exact) lists the
// first optimal controller in enumeration order, which for the clock-aware
// m = 1 family (fsc.NewClock(|A|, |O|, 1, T)) is lexicographic order of
// action strings with the first stage most significant. Where several
// policies tie, Result.Ties says so.
//
// The family is split into chunks evaluated by Options.Workers goroutines
// (default GOMAXPROCS); each value is a pure function of the controller,
// so the result does not depend on scheduling. Progress is reported per
// chunk; ctx cancels the search (its error is returned).
//
// Errors: an empty family, a family larger than Options.Limit (default
// fsc.DefaultLimit; ErrTooLarge wrapped), a controller that does not fit
// the model or horizon (checked for every member of families that are not
// valid by construction, e.g. fsc.List), an invalid objective, a trace
// enumeration above MaxTraces, or a NaN value. Cost: |fam| evaluations
// (see Evaluator.Value) divided over the workers, plus 8 bytes per
// controller for the values.
func Best(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, obj Objective, opt Options) (Result, error) {
	start := time.Now()
	n := fam.Len()
	if n == 0 {
		return Result{}, errors.New("value: empty controller family")
	}
	limit := opt.Limit
	if limit == 0 {
		limit = fsc.DefaultLimit
	}
	if int64(n) > limit {
		return Result{}, fmt.Errorf("%w: family %s has %d controllers, above the limit %d (Options.Limit)", ErrTooLarge, fam, n, limit)
	}
	tol := opt.Tol
	if tol == 0 {
		tol = DefaultTol
	}
	if !(tol >= 0) {
		return Result{}, fmt.Errorf("value: tolerance %v is not a non-negative number", tol)
	}
	proto, err := NewEvaluator(m, T, obj, opt)
	if err != nil {
		return Result{}, err
	}
	if trusted(fam) {
		if err := proto.checkDims(fam.At(0)); err != nil {
			return Result{}, fmt.Errorf("value: controller 0 of %s: %w", fam, err)
		}
	} else {
		for i := 0; i < n; i++ {
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
			if _, err := proto.Value(fam.At(i)); err != nil {
				return Result{}, fmt.Errorf("value: controller %d of %s: %w", i, fam, err)
			}
		}
	}
	values, err := valueAll(ctx, proto, fam, opt)
	if err != nil {
		return Result{}, err
	}

	best := math.Inf(-1)
	for i, v := range values {
		if math.IsNaN(v) {
			return Result{}, fmt.Errorf("value: controller %d of %s has value NaN", i, fam)
		}
		best = math.Max(best, v)
	}
	res := Result{Objective: obj.Name(), T: T, Value: best, Index: -1, Tol: tol, FamilySize: n}
	for i, v := range values {
		if v >= best-tol {
			if res.Index < 0 {
				res.Index = i
			}
			res.Ties++
		}
	}
	res.Controller = fam.At(res.Index)
	res.Policy = Policy(m, res.Controller, T)
	if opt.KeepValues {
		res.Values = values
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// valueAll evaluates every controller of fam on opt.Workers goroutines,
// the first with proto and the others with evaluators like it, reporting
// progress; it fails if ctx ends before all are done.
func valueAll(ctx context.Context, proto *Evaluator, fam fsc.Family, opt Options) ([]float64, error) {
	m, T, obj := proto.m, proto.T, proto.obj
	n := fam.Len()
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	chunk := max(1, min(512, n/(8*workers)))
	workers = min(workers, (n+chunk-1)/chunk)

	evs := make([]*Evaluator, workers)
	ats := make([]func(int) *fsc.FSC, workers)
	for w := range workers {
		evs[w] = proto
		if w > 0 {
			evs[w], _ = NewEvaluator(m, T, obj, opt) // cannot fail: proto succeeded
		}
		ats[w] = fam.At
		if d := newOpenLoopDecoder(fam); d != nil {
			ats[w] = d.at
		}
	}
	values := make([]float64, n)
	finished := forChunks(ctx, n, chunk, workers, func(w, lo, hi int) bool {
		for i := lo; i < hi; i++ {
			values[i] = evs[w].value(ats[w](i))
		}
		return true
	}, opt.Progress)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if finished != n {
		return nil, fmt.Errorf("value: search stopped after %d of %d controllers", finished, n)
	}
	return values, nil
}

// Regret returns the regret on model m of a selected controller relative
// to a best value (usually Result.Value of a Best search on m):
//
//	regret = best − E_m^{selected}[obj]   over horizon T.
//
// With selected the controller chosen on a quotient model and best the
// optimum on the original, this is the left-hand side of cor:sim-to-real
// (bounded by RegretBound). Errors are those of Evaluate.
func Regret(m *pomdp.Model, T int, obj Objective, selected *fsc.FSC, best float64) (float64, error) {
	v, err := Evaluate(m, selected, T, obj)
	if err != nil {
		return 0, err
	}
	return best - v, nil
}

// openLoopDecoder decodes controller i of a one-node clock-aware family
// (the open-loop action strings) into one reusable FSC, avoiding the
// allocations of fsc.Clock.At in the search's inner loop. The order is
// fsc.Clock's: the action of stage 0 is the most significant base-|A|
// digit of i (a test checks the agreement with At).
type openLoopDecoder struct {
	c  *fsc.FSC
	nA int
}

// newOpenLoopDecoder returns a decoder for fam, or nil when fam is not a
// one-node *fsc.Clock family.
func newOpenLoopDecoder(fam fsc.Family) *openLoopDecoder {
	f, ok := fam.(*fsc.Clock)
	if !ok || f.M() != 1 {
		return nil
	}
	c := f.At(0) // a fresh controller: ours to overwrite
	return &openLoopDecoder{c: c, nA: c.NumActions}
}

func (d *openLoopDecoder) at(i int) *fsc.FSC {
	for tau := d.c.Stages - 1; tau >= 0; tau-- {
		d.c.Act[tau][0] = i % d.nA
		i /= d.nA
	}
	return d.c
}
