package bb

import (
	"fmt"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// Distances are what a search computes over the history tree, with the
// decision-mode bookkeeping that says which of them are exact.
type Distances struct {
	Tree law.Tree
	// Lower[t] is the matrix over the depth-t histories of the best probe
	// values found: the exact distance in exact mode, a value in the same
	// ε-bracket as the distance in decision mode. Upper[t] holds proven
	// upper bounds (+Inf where a pair exceeded the decision cap).
	Lower, Upper []partition.Matrix
	// Cap is +Inf in exact mode, else max(Eps) + partition.ZeroTol; Eps
	// lists the decided ε (nil in exact mode).
	Cap float64
	Eps []float64
	pkg string // the searching package, for Partition's panic
}

// NewDistances returns the distances of package pkg (named in panics)
// over tree, decided as d says, with Lower and Upper of one (unset)
// matrix per depth 0 … tree's horizon for the caller to fill.
func NewDistances(pkg string, tree law.Tree, d Decision) Distances {
	n := tree.T + 1
	return Distances{Tree: tree, Cap: d.Cap, Eps: d.Eps, pkg: pkg,
		Lower: make([]partition.Matrix, n), Upper: make([]partition.Matrix, n)}
}

// Partition returns the greedy complete-linkage ε-partition (as
// lib/distance's). In decision mode only the listed ε are decided: it
// panics for any other.
func (r *Distances) Partition(eps float64) *partition.Partition {
	if r.Eps != nil && !slices.Contains(r.Eps, eps) {
		panic(fmt.Sprintf("%s: Partition(%g) of a run that decided only ε ∈ %v (Options.Eps)", r.pkg, eps, r.Eps))
	}
	return partition.Greedy(r.Lower, eps)
}

// MaxDistance returns the largest distance over all pairs and depths in
// exact mode. In decision mode (Options.Eps) a pair's value is known only
// up to its ε-bracket: which value inside it the search keeps depends on
// where the pruning stopped (and, in lib/clock2, on the order in which
// the workers meet the tail problems, a memo they share), so it can
// differ from run to run and from the exact maximum. MaxDistance then
// returns the lower end of the maximum's bracket (MaxBracket: the largest
// listed ε below it plus partition.ZeroTol, Cap above the largest ε, 0
// below the smallest), the same in every run, and MaxDistanceExact is
// false.
func (r *Distances) MaxDistance() float64 {
	if r.Eps == nil {
		return r.rawMax()
	}
	lo, hi := r.MaxBracket()
	if hi == r.Eps[0] {
		return 0
	}
	return lo + partition.ZeroTol
}

// MaxDistanceExact reports whether MaxDistance is the exact largest
// distance (exact mode) rather than a lower bound (decision mode).
func (r *Distances) MaxDistanceExact() bool { return r.Eps == nil }

// MaxBracket returns the listed ε around the largest distance: in
// decision mode, max(d) ∈ (lo, hi] with lo, hi consecutive listed ε (lo =
// 0 when max(d) ≤ min(Eps), hi = +Inf when max(d) > max(Eps)), each ε
// with partition.ZeroTol; in exact mode lo = hi = max(d). The bracket is
// the same in every run (every value of Lower lies in its distance's).
func (r *Distances) MaxBracket() (lo, hi float64) {
	m := r.rawMax()
	if r.Eps == nil {
		return m, m
	}
	for _, e := range r.Eps {
		if m <= e+partition.ZeroTol {
			return lo, e
		}
		lo = e
	}
	return lo, math.Inf(1)
}

func (r *Distances) rawMax() float64 {
	m := 0.0
	for _, d := range r.Lower {
		m = max(m, d.Max())
	}
	return m
}
