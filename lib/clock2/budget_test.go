package clock2

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// TestFixedCostRefused checks that the search's fixed buffers (dense
// transitions and bases over 2|S| numbers, per-worker frontiers, the
// matrices over all history pairs) are checked against the budget before
// they are allocated: RockSample 4×4 (257 states) at T = 2 allocates more
// than 4 MiB of them, so a budget of 4 MiB is refused at once, allocating
// almost nothing.
func TestFixedCostRefused(t *testing.T) {
	b := lookup(t, "rocksample:4:4")
	c := EstimateCost(b.Model, 2, 1)
	if name, v := c.Largest(); !strings.Contains(name, "transition") || v != 2*c.Transitions || c.Transitions != 8*9*257*257 {
		t.Errorf("largest term %s %d, want the dense transitions 8·|A|·|S|² = %d (×2)", name, v, 8*9*257*257)
	}
	const budget = 4 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Compute(context.Background(), b.Model, 2, Options{MemBudget: budget, Workers: 1, Eps: []float64{0}})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "transition") {
		t.Errorf("budget 4 MiB: got %v, want ErrTooLarge naming the transitions", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > budget {
		t.Errorf("allocated %.1f MiB before refusing, above the budget of 4 MiB", float64(n)/(1<<20))
	}
	// With room for them a run goes ahead.
	tiger := lookup(t, "tiger")
	if _, err := Compute(context.Background(), tiger.Model, 4, Options{MemBudget: 4 * EstimateCost(tiger.Model, 4, 1).Bytes(), Workers: 1}); err != nil {
		t.Errorf("Tiger T = 4, budget 4× the fixed estimate: %v", err)
	}
}

// TestFixedCostRockSample11 is RockSample 11×11 (247,809 states): its
// dense transitions alone would need 7.2 TiB, and the run is refused
// before any of them is allocated.
func TestFixedCostRockSample11(t *testing.T) {
	if testing.Short() {
		t.Skip("short: builds RockSample 11×11 (170 MiB)")
	}
	b := lookup(t, "rocksample:11:11")
	_, err := Compute(context.Background(), b.Model, 2, Options{MemBudget: 2 << 30})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "transition") {
		t.Errorf("got %v, want ErrTooLarge naming the dense transitions", err)
	}
}
