package bb

import (
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/partition"
)

// BoundSlack is the slack of exact mode: a subtree whose bound is at most
// the best value plus BoundSlack cannot raise it by more than that.
const BoundSlack = 1e-12

// Decision is the decision-mode bookkeeping of a search. In decision mode
// a search stops as soon as a value exceeds the cap and otherwise prunes
// against the smallest listed ε above its best value, so every pair's
// best value lies in the same ε-bracket as its distance.
type Decision struct {
	// Eps lists the decided ε, sorted (nil in exact mode).
	Eps []float64
	// Cap is max(Eps) + partition.ZeroTol, +Inf in exact mode: a pair
	// whose value exceeds it is decided above every listed ε.
	Cap float64
}

// NewDecision returns the bookkeeping of Options.Eps: exact mode when eps
// is empty. It does not modify eps.
func NewDecision(eps []float64) Decision {
	if len(eps) == 0 {
		return Decision{Cap: math.Inf(1)}
	}
	d := Decision{Eps: slices.Clone(eps)}
	slices.Sort(d.Eps)
	d.Cap = d.Eps[len(d.Eps)-1] + partition.ZeroTol
	return d
}

// Theta returns the pruning threshold for a best value lb: lb + BoundSlack
// in exact mode, else the smallest listed ε (+ partition.ZeroTol) at or
// above lb, +Inf above them all.
func (d Decision) Theta(lb float64) float64 {
	if len(d.Eps) == 0 {
		return lb + BoundSlack
	}
	for _, e := range d.Eps {
		if lb <= e+partition.ZeroTol {
			return e + partition.ZeroTol
		}
	}
	return math.Inf(1)
}

// NodeAdvice is the advice that ends a node-limit refusal: lower T or
// raise the limit, and in exact mode decide only the listed ε.
func (d Decision) NodeAdvice() string {
	advice := "lower T or raise the node limit (--max-nodes)"
	if d.Eps == nil {
		advice += ", or decide only the listed ε (Options.Eps; drop --exact-distances)"
	}
	return advice
}
