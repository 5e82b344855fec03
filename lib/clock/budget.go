package clock

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/internal/memsample"
	"github.com/pomdpq/pomdpq/lib/distance"
)

// The memory of a computation of this package is mostly tables that only
// grow (interned beliefs, prefix-tree nodes, memoised belief pairs), whose
// final size is not known before they are built. A guard meters them as
// they grow: every allocation of a table is added to a running total
// before it is made, and once the estimated peak, base + gcFactor × total,
// exceeds Options.MaxBytes the computation stops with a *BudgetError
// naming its phase and largest term. What can be sized beforehand (the
// history vectors, the first block of beliefs, the class-level stage once
// the quotients are known) is checked before it is allocated.

// gcFactor converts the metered bytes of live tables into peak resident
// memory: the Go collector lets the heap grow to twice the live data
// before it collects (GOGC = 100), objects allocated while it marks
// survive that cycle, and a table that grows by append or a map that
// grows keeps its old storage until then. Measured without a soft memory
// limit (debug.SetMemoryLimit): the peak of Go memory reached about 1.2
// times the metered tables on GridWorld 3×3 at T = 4 and 2.6 times on
// hallway-10 at T = 7 (0.81 GiB metered, about 0.6 GiB live, 2.1 GiB
// mapped when δ_clk was stopped at 2 GiB); with the soft limit set to the
// budget, as the pomdpq commands do, the collector keeps the heap near the
// budget instead. TestMeteredPeak checks the estimate against the
// measured peak on several models.
const gcFactor = 2.5

// runtimeBytes is the resident memory of the Go runtime and the binary,
// counted once in every estimate.
const runtimeBytes = 20 << 20

// Terms of the metered memory (BudgetError.Term names one).
const (
	termHistories = iota // the prefix-tree reference of every history, labels
	termBeliefs          // interned beliefs (packed keys, masses over the support once stepped) and the scratch of a step
	termSteps            // one-step rows (observation probabilities, successors)
	termNodes            // interned prefix-tree and class-tree nodes, memo entries
	termClasses          // belief-class memo and signatures
	termPairs            // memoised belief pairs, nested vectors, alignments
	termMatrices         // class-pair matrices and transport buffers
	nTerms
)

var termNames = [nTerms]string{
	"history vectors and labels",
	"interned beliefs (packed keys, and masses over the support once stepped)",
	"one-step rows of the beliefs",
	"prefix-tree nodes and their memo",
	"belief classes",
	"memoised belief pairs and nested vectors",
	"class-pair matrices and transport buffers",
}

var termHelp = [nTerms]string{
	"lower T (the histories grow with |O|^T)",
	"lower T (every distinct belief reached is stored over its support)",
	"lower T",
	"lower T (the prefix trees grow with |A|^t per history)",
	"lower T",
	"lower T, or skip δ_clk (the exact quotients alone, clock.Quotients, need no belief pairs)",
	"lower T, or skip δ_clk (the exact quotients alone, clock.Quotients, need no class matrices)",
}

// BudgetError is returned (it wraps ErrTooLarge) when a computation of this
// package would exceed, or has exceeded, Options.MaxBytes: the estimated
// peak memory at that point, the phase, and the largest metered term.
type BudgetError struct {
	Model string
	T     int
	// Phase is "history vectors" (before anything is built), "prefix
	// trees" (interning beliefs and prefix-tree nodes), "quotients" (the
	// exact classes) or "distances" (the class-level stage).
	Phase string
	// Refused is true when the estimate was checked before allocating
	// (the run did not start the phase), false when the tables were
	// stopped as they grew past the budget.
	Refused bool
	// Need is the estimated peak memory in bytes (runtime, base and
	// gcFactor included), Budget the limit.
	Need, Budget float64
	// Term and TermBytes name the largest metered term and its bytes.
	Term      string
	TermBytes float64
	// Help says what would make the computation fit.
	Help string
}

func (e *BudgetError) Error() string {
	how := "stopped as its tables grew past it"
	if e.Refused {
		how = "refused before allocating"
	}
	return fmt.Sprintf("clock: %s at T = %d, phase %s: estimated peak memory %s exceeds the budget %s (%s); largest term: %s, %s; %s, or raise the budget (--mem, Options.MaxBytes)",
		e.Model, e.T, e.Phase, distance.FormatBytes(int64(e.Need)), distance.FormatBytes(int64(e.Budget)), how,
		e.Term, distance.FormatBytes(int64(e.TermBytes)), e.Help)
}

// Unwrap makes errors.Is(err, ErrTooLarge) hold.
func (e *BudgetError) Unwrap() error { return ErrTooLarge }

// guard meters the tables of one computation against its memory budget
// and polls its context, so that every phase stops promptly when either
// runs out. Once err is set, tables stop growing: interning returns the
// stand-in and expansions return at once, and the computation returns err
// at its next check. No result is ever built from a halted computation.
type guard struct {
	ctx   context.Context
	model string
	T     int
	phase string
	limit float64 // bytes; ≤ 0: none
	base  float64 // live heap before the computation
	terms [nTerms]float64
	used  float64 // Σ terms
	peak  float64 // largest used seen
	// pending counts the work since the context was last polled.
	pending float64
	err     error
}

func newGuard(ctx context.Context, model string, T int, limit float64) *guard {
	return &guard{ctx: ctx, model: model, T: T, limit: limit, base: float64(memsample.LiveHeap()), phase: "history vectors"}
}

// estimate returns the estimated peak resident memory for used bytes of
// tables.
func (g *guard) estimate(used float64) float64 { return runtimeBytes + g.base + gcFactor*used }

// Peak returns the estimated peak resident memory of the computation so
// far (the largest metered total).
func (g *guard) Peak() float64 { return g.estimate(g.peak) }

// add meters b bytes of term before they are allocated and reports
// whether the computation may go on. It counts as work b/64 + 1 (see
// work).
func (g *guard) add(term int, b float64) bool {
	if g.err != nil {
		return false
	}
	g.terms[term] += b
	g.used += b
	g.peak = max(g.peak, g.used)
	if g.limit > 0 && g.estimate(g.used) > g.limit {
		g.err = g.budgetError(false, g.used)
		return false
	}
	return g.work(b/64 + 1)
}

// pollEvery is the work between two polls of the context: about a
// millisecond (a unit is a few nanoseconds: a map operation, 64 bytes
// allocated, or a few entries of a belief update).
const pollEvery = 1 << 16

// work counts units of work done and polls the context every pollEvery
// units; it reports whether the computation may go on.
func (g *guard) work(units float64) bool {
	if g.err != nil {
		return false
	}
	g.pending += units
	if g.pending >= pollEvery {
		g.pending = 0
		if err := g.ctx.Err(); err != nil {
			g.err = err
			return false
		}
	}
	return true
}

// release un-meters b bytes of term (scratch freed by the computation).
func (g *guard) release(term int, b float64) {
	g.terms[term] -= b
	g.used -= b
}

// check refuses, before allocating, extra bytes of term on top of the
// tables so far. It returns nil when they fit.
func (g *guard) check(term int, extra float64) error {
	if g.err != nil {
		return g.err
	}
	if g.limit > 0 && g.estimate(g.used+extra) > g.limit {
		g.terms[term] += extra // named as the largest term when it is
		g.err = g.budgetError(true, g.used+extra)
		g.terms[term] -= extra
		return g.err
	}
	return nil
}

// halted returns the error that stopped the computation, after polling
// the context.
func (g *guard) halted() error {
	if g.err == nil {
		if err := g.ctx.Err(); err != nil {
			g.err = err
		}
	}
	return g.err
}

func (g *guard) budgetError(refused bool, used float64) *BudgetError {
	big := 0
	for k, v := range g.terms {
		if v > g.terms[big] {
			big = k
		}
	}
	e := &BudgetError{Model: g.model, T: g.T, Phase: g.phase, Refused: refused, Need: g.estimate(used), Budget: g.limit,
		Term: termNames[big], TermBytes: gcFactor * g.terms[big], Help: termHelp[big]}
	if g.base+runtimeBytes >= g.limit {
		e.Term, e.TermBytes = "the heap in use before the computation (the model among it) and the runtime", g.base+runtimeBytes
		e.Help = "free what the process holds (a smaller model loads less)"
	}
	return e
}

// mapEntry is the metered size of one map entry with a key of k bytes and
// a value of v bytes (the slot, its share of a half-empty table, and the
// old table kept while the map grows).
func mapEntry(k, v int) float64 { return float64(2*(k+v) + 16) }
