package bb

import (
	"fmt"
	"runtime"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// DefaultMaxNodes is the default bound on the branch-and-bound nodes one
// search may visit (Options.MaxNodes).
const DefaultMaxNodes = 2e8

// Options configure a search. The zero value means: discrete ground
// metric, uniform stand-in, exact values, all cores, DefaultMaxNodes, the
// default memory budget. What one search and the memory estimate cover
// is the searching package's own (see its Options).
type Options struct {
	Ground     ot.Ground      // nil: the discrete metric
	Convention law.Convention // impossible-history stand-in
	// Eps, when not empty, lists the ε values the caller will partition
	// at (decision mode): Partition(ε) is exact for the listed ε only,
	// and Lower holds values in the same ε-bracket as the true distances.
	// Empty: every distance is exact.
	Eps     []float64
	Workers int // 0: runtime.GOMAXPROCS(0)
	// MaxNodes bounds the branch-and-bound nodes of one search
	// (0: DefaultMaxNodes, negative: none); a search past it fails with
	// the package's ErrTooLarge.
	MaxNodes float64
	// Progress, when set, is called with the history pairs done and their
	// total, from one goroutine at a time.
	Progress func(done, total int)
	// MemBudget bounds the estimated memory, in bytes
	// (0: distance.DefaultMemBudget(), negative: none); past it the search
	// fails with the package's ErrTooLarge naming the largest term.
	MemBudget int64
}

// NodeLimit returns the node bound that MaxNodes asks for: DefaultMaxNodes
// for 0, none (a value ≤ 0) for a negative one.
func NodeLimit(maxNodes float64) int64 {
	if maxNodes == 0 {
		return DefaultMaxNodes
	}
	return int64(maxNodes)
}

// Budget returns the memory budget that MemBudget asks for:
// distance.DefaultMemBudget() for 0, none (negative) for a negative one.
func Budget(mem int64) int64 {
	if mem == 0 {
		return distance.DefaultMemBudget()
	}
	return mem
}

// Workers returns the number of workers that Workers asks for:
// runtime.GOMAXPROCS(0) for 0 or less.
func Workers(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// Check returns the error of a search's arguments, named by the searching
// package pkg: a nil model or a horizon below 1.
func Check(pkg string, m *pomdp.Model, T int) error {
	if m == nil {
		return fmt.Errorf("%s: nil model", pkg)
	}
	if T < 1 {
		return fmt.Errorf("%s: horizon T = %d, want T ≥ 1", pkg, T)
	}
	return nil
}

// Ground returns the ground metric over the observations of m that g
// asks for (nil: the discrete metric), after which it checks that the
// history tree of horizon T fits (law.NewTree). Errors of the metric are
// named by the searching package pkg and the model.
func Ground(pkg string, m *pomdp.Model, T int, g ot.Ground) (ot.Ground, error) {
	g, err := ot.ForObservations(g, m.NumObservations())
	if err != nil {
		return nil, fmt.Errorf("%s: model %s: %w", pkg, m.Name, err)
	}
	if _, err := law.NewTree(m.NumObservations(), T); err != nil {
		return nil, err
	}
	return g, nil
}
