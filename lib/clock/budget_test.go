package clock

import (
	"context"
	"errors"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pomdpq/pomdpq/internal/memsample"
	"github.com/pomdpq/pomdpq/lib/ot"
)

// allocated returns the bytes allocated by f on the heap (cumulative, so
// memory freed during f counts too) and f's error.
func allocated(f func() error) (int64, error) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := f()
	runtime.ReadMemStats(&after)
	return int64(after.TotalAlloc - before.TotalAlloc), err
}

// TestBudgetStopsPrefixTrees checks that the interned tables are stopped
// at the memory budget, not built first and refused after: GridWorld 3×3
// at T = 4 builds about 100 MiB of beliefs and prefix trees (127,172
// beliefs); with a budget of 40 MiB the run must fail with ErrTooLarge
// having allocated less than the budget in all.
func TestBudgetStopsPrefixTrees(t *testing.T) {
	b := lookup(t, "gridworld:3")
	const budget = 40 << 20
	for _, run := range []struct {
		name string
		f    func(o *Options) error
	}{
		{"NewDistances", func(o *Options) error {
			_, err := NewDistances(context.Background(), b.Model, b.Ground, 4, o)
			return err
		}},
		{"Quotients", func(o *Options) error {
			_, err := Quotients(context.Background(), b.Model, 4, o)
			return err
		}},
	} {
		n, err := allocated(func() error { return run.f(&Options{MaxBytes: budget}) })
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s at a budget of 40 MiB: got %v, want ErrTooLarge", run.name, err)
		}
		if n > budget {
			t.Errorf("%s allocated %.1f MiB before failing, above the budget of 40 MiB", run.name, float64(n)/(1<<20))
		}
		t.Logf("%s: %.1f MiB allocated: %v", run.name, float64(n)/(1<<20), err)
	}
}

// TestBudgetRockSample11 is the case that peaked at 11.1 GB resident and
// was stopped at the budget before beliefs were stored sparse: RockSample
// 11×11 (247,809 states, a dense belief is 1.9 MiB) at T = 3. Its beliefs
// lie on at most 2,048 states (the rocks' configurations, the position
// being known), so with a budget of 1 GiB the whole of δ_clk must fit,
// allocating less than the budget in all, with the value 048f40f printed
// after 90.8 s and 11.1 GB (δ_clk = 1). Below the model's own heap the run
// is still refused before anything is built, naming the heap in use.
func TestBudgetRockSample11(t *testing.T) {
	if testing.Short() {
		t.Skip("short: builds RockSample 11×11 (170 MiB)")
	}
	b := lookup(t, "rocksample:11:11")
	const budget = 1 << 30
	start := time.Now()
	var d *Distances
	n, err := allocated(func() error {
		var err error
		d, err = NewDistances(context.Background(), b.Model, b.Ground, 3, &Options{MaxBytes: budget})
		return err
	})
	if err != nil {
		t.Fatalf("budget 1 GiB: %v", err)
	}
	if n > budget {
		t.Errorf("allocated %.1f MiB, above the budget of 1 GiB", float64(n)/(1<<20))
	}
	if d.Gap != 1 || d.PeakBytes > budget {
		t.Errorf("δ_clk = %v (want 1), estimated peak %.1f MiB (want ≤ 1 GiB)", d.Gap, float64(d.PeakBytes)/(1<<20))
	}
	t.Logf("%.1f MiB allocated in %.1f s, %d beliefs, estimated peak %.1f MiB: %v", float64(n)/(1<<20), time.Since(start).Seconds(),
		d.Beliefs, float64(d.PeakBytes)/(1<<20), d)

	var be *BudgetError
	_, err = NewDistances(context.Background(), b.Model, b.Ground, 3, &Options{MaxBytes: 64 << 20})
	if !errors.As(err, &be) || !be.Refused || be.Phase != "history vectors" || !strings.Contains(be.Term, "heap in use") {
		t.Errorf("budget 64 MiB: got %v, want a refusal before the history vectors naming the heap in use", err)
	}
}

// TestMeteredPeak checks the estimate against the measured peak: for
// models whose tables are dominated by beliefs, prefix-tree nodes or
// belief pairs, the peak of Go memory measured during NewDistances is at
// most Distances.PeakBytes.
func TestMeteredPeak(t *testing.T) {
	if testing.Short() {
		t.Skip("short: GridWorld 3×3 at T = 4 takes seconds")
	}
	cases := []struct {
		spec string
		T    int
	}{{"tiger", 8}, {"gridworld:3", 3}, {"gridworld:3", 4}, {"netmon:9", 3}, {"hallway:10", 3}, {"rocksample:4:4", 3}, {"rocksample:11:11", 3}}
	for _, c := range cases {
		b := lookup(t, c.spec)
		runtime.GC()
		debug.FreeOSMemory()
		stop := memsample.Peak(time.Millisecond)
		d, err := NewDistances(context.Background(), b.Model, b.Ground, c.T, &Options{MaxBytes: -1})
		peak := stop()
		if err != nil {
			t.Fatalf("%s T=%d: %v", c.spec, c.T, err)
		}
		if peak > d.PeakBytes {
			t.Errorf("%s T=%d: measured peak %.1f MiB above the estimate %.1f MiB", c.spec, c.T, float64(peak)/(1<<20), float64(d.PeakBytes)/(1<<20))
		}
		t.Logf("%-15s T=%d: estimate %6.1f MiB, measured %6.1f MiB, %d beliefs", c.spec, c.T, float64(d.PeakBytes)/(1<<20), float64(peak)/(1<<20), d.Beliefs)
	}
	// A random model with impossible histories, under both transports.
	m := randomModel(3, 6, 3, 3)
	for _, tr := range []Transport{TransportW1, TransportNested} {
		runtime.GC()
		debug.FreeOSMemory()
		stop := memsample.Peak(time.Millisecond)
		d, err := NewDistances(context.Background(), m, ot.Discrete(3), 5, &Options{MaxBytes: -1, Transport: tr})
		peak := stop()
		if err != nil {
			t.Fatal(err)
		}
		if peak > d.PeakBytes {
			t.Errorf("random %v T=5: measured peak %.1f MiB above the estimate %.1f MiB", tr, float64(peak)/(1<<20), float64(d.PeakBytes)/(1<<20))
		}
	}
}

// TestBudgetCancel checks that cancellation stops the prefix-tree phase
// promptly even when a single history's expansion is long: GridWorld 3×3
// at T = 6 (the classic-models run that took 57–80 s past a 5 s limit,
// when the context was polled every 1,024 histories). The contract is on
// work, not time: the context turns cancelled at its k-th poll, and the
// computation returns context.Canceled having polled it at most once
// more (the guard polls every pollEvery units of work, so at most that
// much work follows the cancellation).
func TestBudgetCancel(t *testing.T) {
	b := lookup(t, "gridworld:3")
	for _, k := range []int64{1, 3, 20, 200} {
		ctx := newPollCtx(k)
		_, err := NewDistances(ctx, b.Model, b.Ground, 6, &Options{MaxBytes: -1})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled at poll %d: got %v, want context.Canceled", k, err)
		}
		after := ctx.polls.Load() - k
		t.Logf("cancelled at poll %d: %d polls after it", k, after)
		if after > 1 {
			t.Errorf("cancelled at poll %d: the context was polled %d more times before NewDistances returned, want at most 1", k, after)
		}
	}
}

// pollCtx is a context that turns cancelled at its k-th poll (Err call)
// and counts the polls.
type pollCtx struct {
	context.Context
	k     int64
	polls atomic.Int64
	once  sync.Once
	done  chan struct{}
}

func newPollCtx(k int64) *pollCtx {
	return &pollCtx{Context: context.Background(), k: k, done: make(chan struct{})}
}

func (c *pollCtx) Done() <-chan struct{} { return c.done }

func (c *pollCtx) Err() error {
	if c.polls.Add(1) < c.k {
		return nil
	}
	c.once.Do(func() { close(c.done) })
	return context.Canceled
}
