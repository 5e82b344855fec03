package clock2

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/partition"
)

// TestDecisionMaxDistance: in decision mode the reported maximum is the
// same for every number of workers, never claimed exact, a lower bound of
// the exact maximum, and MaxBracket holds the exact maximum. Decision mode
// decides each pair only up to its ε-bracket and the value a pair keeps
// inside its bracket depends on the order in which the workers meet the
// tail problems (a shared memo): Tiger T = 3 and T = 4 runs differed in
// one entry from run to run. Before, a maximum below the largest ε was
// returned as exact: Tiger (listening accuracy 0.7, p = 0.2) at T = 4 with
// ε ∈ {0, 0.3, 5} gave 0.426 for an exact 0.524 (GridWorld 3×3 at T = 3:
// 0.568 for 0.944).
func TestDecisionMaxDistance(t *testing.T) {
	for _, c := range []struct {
		spec string
		T    int
		eps  [][]float64
	}{
		{"tiger:0.7:0.2", 4, [][]float64{{0, 0.3, 5}, {0, 0.3, 0.5}, {1, 2}}},
		{"tiger", 3, [][]float64{{0, 0.3, 5}, {0, 0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5}}},
		{"gridworld:3", 2, [][]float64{{0, 0.3, 5}}},
	} {
		b := lookup(t, c.spec)
		ex, err := Compute(context.Background(), b.Model, c.T, Options{Ground: b.Ground})
		if err != nil {
			t.Fatal(err)
		}
		exMax := ex.MaxDistance()
		if lo, hi := ex.MaxBracket(); !ex.MaxDistanceExact() || lo != exMax || hi != exMax {
			t.Fatalf("%s T=%d exact mode: max %v, exact %v, bracket (%v, %v]", c.spec, c.T, exMax, ex.MaxDistanceExact(), lo, hi)
		}
		for _, eps := range c.eps {
			name := fmt.Sprintf("%s T=%d ε ∈ %v", c.spec, c.T, eps)
			first := math.NaN()
			for w := 1; w <= 4; w++ {
				r, err := Compute(context.Background(), b.Model, c.T, Options{Ground: b.Ground, Eps: eps, Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				got := r.MaxDistance()
				if r.MaxDistanceExact() {
					t.Fatalf("%s, %d workers: max distance %v reported exact (exact run: %v)", name, w, got, exMax)
				}
				if w == 1 {
					first = got
				} else if math.Float64bits(got) != math.Float64bits(first) {
					t.Fatalf("%s: max distance %v with %d workers, %v with 1", name, got, w, first)
				}
				if got > exMax {
					t.Fatalf("%s, %d workers: max distance %v above the exact %v", name, w, got, exMax)
				}
				lo, hi := r.MaxBracket()
				if !(exMax > lo+partition.ZeroTol || (lo == 0 && hi == eps[0])) || exMax > hi+partition.ZeroTol {
					t.Fatalf("%s, %d workers: bracket (%v, %v] does not hold the exact max %v", name, w, lo, hi, exMax)
				}
			}
		}
	}
}
