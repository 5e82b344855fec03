package report

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// The time model of the pre-flight: the distance computation's two
// terms, per second of one core of the project's (shared, loaded) machine,
// measured with `pomdpq quotient --exact-distances --progress lines` on
// two models far apart:
//
//   - law work, controllers × histories × |S|: maze4x3 m ≤ 2, T = 3,
//     65 540 × 259 × 11 in the "classes" phase in 4.5 s (4.1·10⁷ per
//     second); random:204:4:28:1 (mit's sizes) m ≤ 1, T = 3, 4 × 22 765 ×
//     204 in "classes" and "bounds" in 1.4 s (1.3·10⁷);
//   - transport work, distinct probes × Σ_t (class pairs at depth t) ×
//     |O|^(T−t) (the atoms of a suffix law): maze4x3 m ≤ 2, T = 3,
//     1.26·10⁸ in the "distances" phase in 10.7 s (1.2·10⁷ per second);
//     random:204:4:28:1 m ≤ 1, T = 3, 3.56·10⁷ in 13.6 s (2.6·10⁶).
//
// The rates are the slower of each pair, rounded down, so that the
// estimate errs long (by up to about 5× on maze4x3).
const (
	// LawRate is law work per second.
	LawRate = 1.3e7
	// PairRate is transport work per second.
	PairRate = 2.5e6
	// Passes is the number of times a report may compute the distances of
	// its largest family: for the classes and curves, for the
	// certificates' per-probe tensor, and in the planning section once per
	// reward (two).
	Passes = 4
	// DefaultSeconds is the time budget of a report whose horizon is
	// chosen (Options.Seconds, pomdpq analyze --seconds).
	DefaultSeconds = 20
)

// Budget is what a run may use: memory in bytes (negative: no limit) and
// estimated seconds of one core (0 or less: no limit).
type Budget struct {
	Bytes   int64
	Seconds float64
	// Slowdown multiplies the time estimates, which are of native code
	// (0 means 1): the web page runs WebAssembly, WasmSlowdown times
	// slower.
	Slowdown float64
}

// WasmSlowdown is how much slower the engine runs as WebAssembly in a
// browser than natively: maze4x3, m ≤ 1, T = 3, the whole report in 1.4–3.9 s in
// headless Chromium and 1.8 s under Node.js against 0.07–0.22 s natively,
// back to back on the project's machine.
const WasmSlowdown = 10

// String says the budget in words, e.g. "20 s and 11.8 GiB".
func (b Budget) String() string {
	s := "no time limit"
	if b.Seconds > 0 {
		s = fmt.Sprintf("%g s", b.Seconds)
	}
	return s + " and " + budgetText(b.Bytes)
}

// Estimate is the pre-flight of one probe family at one horizon: what
// `pomdpq analyze` and the web page show before they run, from the same
// estimates as `pomdpq quotient --dry-run` (distance.Plan).
type Estimate struct {
	Kind fsc.Kind
	M, T int
	// Size is the number of controllers (0 when the family cannot be
	// enumerated); Histories the histories Σ_t |O|^t.
	Size      int
	Histories int
	// Planned says whether distance.Plan ran (Cost, Bytes and PairWork
	// are then set).
	Planned bool
	Cost    distance.Cost
	Bytes   int64
	// LawWork is controllers × histories × |S|, PairWork distinct probes
	// × Σ_t (class pairs at depth t) × |O|^(T−t); Seconds is Passes ×
	// (LawWork/LawRate + PairWork/PairRate), or the law term alone when
	// not planned.
	LawWork, PairWork float64
	Seconds           float64
	// Refused says, in words, why the run does not fit (empty when it
	// does).
	Refused string
}

// Fits reports whether the estimate is within the budget.
func (e Estimate) Fits() bool { return e.Refused == "" }

// Summary says the estimate in one line, e.g. "stationary m ≤ 1, T = 3:
// 4 controllers, 259 histories, about 0.001 s and 7.1 MiB".
func (e Estimate) Summary() string {
	s := fmt.Sprintf("%s m ≤ %d, T = %d: ", e.Kind, e.M, e.T)
	if e.Size == 0 {
		return s + e.Refused
	}
	s += fmt.Sprintf("%d controllers, %d histories, about %s", e.Size, e.Histories, seconds(e.Seconds))
	if e.Planned {
		name, v := e.Cost.Largest()
		s += fmt.Sprintf(" and %s (largest term %s, %s)", distance.FormatBytes(e.Bytes), name, distance.FormatBytes(v))
	}
	return s
}

func seconds(s float64) string {
	switch {
	case s < 0.01:
		return "0.01 s or less"
	case s < 10:
		return fmt.Sprintf("%.2g s", s)
	default:
		return fmt.Sprintf("%.0f s", s)
	}
}

// maxHistories bounds the histories a pre-flight considers at all: past
// it even the history tree does not fit a computer's memory.
const maxHistories = 1 << 31

// Preflight estimates the report's distance computation for the family
// (kind, mm) of model m at horizon T against budget b, without computing
// distances: the family size and the law work first (free), then
// distance.Plan (the cheap phases, run only when the law work fits the
// time budget), its memory estimate and the transport work. A run that
// does not fit has Refused set, in words; errors are only cancellation
// and failures of the model.
func Preflight(ctx context.Context, m *pomdp.Model, kind fsc.Kind, mm, T int, b Budget) (Estimate, error) {
	if kind == "" {
		kind = fsc.KindStationary
	}
	e := Estimate{Kind: kind, M: mm, T: T}
	nO := m.NumObservations()
	h, p := 0, 1
	for t := 0; t <= T; t++ {
		h += p
		if p > maxHistories/max(nO, 1) && t < T {
			e.Refused = fmt.Sprintf("T = %d has more than %d histories (|O| = %d observations per step): the history tree alone does not fit in memory", T, maxHistories, nO)
			return e, nil
		}
		p *= nO
	}
	e.Histories = h
	fam, err := fsc.New(kind, m.NumActions(), nO, mm, T, fsc.Options{})
	if err != nil {
		var tl *fsc.TooLargeError
		if errors.As(err, &tl) {
			e.Refused = Infeasible(tl, m.NumActions(), nO)
			return e, nil
		}
		return e, err
	}
	e.Size = fam.Len()
	e.LawWork = float64(e.Size) * float64(h) * float64(m.NumStates())
	slow := b.Slowdown
	if slow <= 0 {
		slow = 1
	}
	e.Seconds = slow * Passes * e.LawWork / LawRate
	if b.Seconds > 0 && e.Seconds > b.Seconds {
		e.Refused = fmt.Sprintf("about %s: the laws of %d controllers on %d histories over %d states (%.3g) take more than the %s budget", seconds(e.Seconds), e.Size, h, m.NumStates(), e.LawWork, seconds(b.Seconds))
		return e, nil
	}
	cost, _, err := distance.Plan(ctx, m, fam, T, distance.Options{MemBudget: b.Bytes})
	if err != nil {
		if ctx.Err() != nil {
			return e, ctx.Err()
		}
		var be *distance.BudgetError
		if errors.As(err, &be) {
			e.Refused = be.Error()
			return e, nil
		}
		return e, err
	}
	e.Planned, e.Cost, e.Bytes = true, cost, cost.Bytes()
	e.PairWork = float64(cost.Distinct) * pairAtoms(cost.Classes, T, nO)
	e.Seconds = slow * Passes * (e.LawWork/LawRate + e.PairWork/PairRate)
	if b.Bytes > 0 && e.Bytes > b.Bytes {
		name, v := cost.Largest()
		e.Refused = fmt.Sprintf("an estimated %s of memory (largest term %s, %s), over the budget %s", distance.FormatBytes(e.Bytes), name, distance.FormatBytes(v), distance.FormatBytes(b.Bytes))
		return e, nil
	}
	if b.Seconds > 0 && e.Seconds > b.Seconds {
		e.Refused = fmt.Sprintf("about %s: %d distinct probes × %d class pairs, on suffix laws of up to %d atoms (%.3g), take more than the %s budget", seconds(e.Seconds), cost.Distinct, cost.Pairs, pow(nO, T), e.PairWork, seconds(b.Seconds))
	}
	return e, nil
}

// pairAtoms is Σ_{t<T} c_t(c_t − 1)/2 × |O|^(T−t) for classes c_t per depth.
func pairAtoms(classes []int, T, nO int) float64 {
	w, L := 0.0, 1.0
	for t := T; t >= 0; t-- {
		if t < T && t < len(classes) {
			c := float64(classes[t])
			w += c * (c - 1) / 2 * L
		}
		L *= float64(nO)
	}
	return w
}

func pow(b, e int) int {
	p := 1
	for range e {
		p *= b
	}
	return p
}

// Infeasible explains in words why a family cannot be enumerated and what
// would work instead: the largest smaller memory bound that can, and a
// sampled family.
func Infeasible(e *fsc.TooLargeError, nA, nO int) string {
	what := "controllers"
	if e.Kind == fsc.KindClock {
		what = fmt.Sprintf("clock-aware controllers at T = %d", e.T)
	}
	s := fmt.Sprintf("m ≤ %d has %s %s: enumerating them is impossible (the enumeration stops at %s)", e.M, Magnitude(e.Size), what, Magnitude(big.NewInt(e.Limit)))
	var alt []string
	for k := e.M - 1; k >= 1; k-- {
		size, err := fsc.Size(e.Kind, nA, nO, k, e.T)
		if err == nil && size.IsInt64() && size.Int64() <= e.Limit {
			alt = append(alt, fmt.Sprintf("the m ≤ %d family (%s controllers) can be enumerated", k, Magnitude(size)))
			break
		}
	}
	alt = append(alt, fmt.Sprintf("a sampled family (pomdpq quotient --family stochastic-%s --samples 1000) gives the quotient for the probes drawn, not for every m ≤ %d controller", e.Kind, e.M))
	return s + "; what would work: " + strings.Join(alt, "; ")
}

// Magnitude writes a count in words a reader can weigh: exactly up to
// 10⁷, else rounded to two digits as 1.2·10^18.
func Magnitude(n *big.Int) string {
	s := n.String()
	if len(s) <= 7 {
		return s
	}
	e := new(big.Float).SetInt(n).Text('e', 1) // "1.2e+18"
	mant, exp, _ := strings.Cut(e, "e")
	return mant + "·10^" + strings.TrimLeft(strings.TrimPrefix(exp, "+"), "0")
}

// ChooseT returns the largest horizon T ≤ MaxDefaultT at which the largest
// family of ms (of kind) fits budget b by Preflight, and a sentence saying
// which T the budget allowed and what the next would cost.
//
// When the largest family fits at no horizon, the next smaller memory bound
// of ms decides (the larger family is then refused by Build).
func ChooseT(ctx context.Context, m *pomdp.Model, kind fsc.Kind, ms []int, b Budget) (int, string, error) {
	sorted := append([]int(nil), ms...)
	slices.Sort(sorted)
	var whys []string
	for i := len(sorted) - 1; i >= 0; i-- {
		T, why, err := chooseT(ctx, m, kind, sorted[i], b)
		if err != nil {
			return 0, "", err
		}
		if T > 0 {
			if len(whys) > 0 {
				why += " (" + strings.Join(whys, "; ") + ")"
			}
			return T, why, nil
		}
		whys = append(whys, fmt.Sprintf("m ≤ %d fits at no horizon: %s", sorted[i], why))
	}
	return 0, "", fmt.Errorf("report: no horizon fits the budget of %s: %s", b, strings.Join(whys, "; "))
}

// chooseT is ChooseT for one memory bound mm; T = 0 when none fits.
func chooseT(ctx context.Context, m *pomdp.Model, kind fsc.Kind, mm int, b Budget) (int, string, error) {
	var best Estimate
	why := ""
	for T := 1; T <= MaxDefaultT; T++ {
		e, err := Preflight(ctx, m, kind, mm, T, b)
		if err != nil {
			return 0, "", err
		}
		if !e.Fits() {
			why = fmt.Sprintf("T = %d would need %s", T, e.Refused)
			if e.Size == 0 {
				why = e.Refused // the family, at any horizon
			}
			break
		}
		best = e
		if T == MaxDefaultT {
			why = fmt.Sprintf("the default stops at T = %d (--T for more)", MaxDefaultT)
		}
	}
	if best.T == 0 {
		return 0, why, nil
	}
	return best.T, fmt.Sprintf("T = %d is the largest horizon the budget of %s allows for %s m ≤ %d (estimated %s); %s",
		best.T, b, best.Kind, mm, strings.TrimPrefix(best.Summary(), fmt.Sprintf("%s m ≤ %d, T = %d: ", best.Kind, mm, best.T)), why), nil
}
