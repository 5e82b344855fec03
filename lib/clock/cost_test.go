package clock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// TestEstimateCost checks the class-pair counts of EstimateCost against
// the class matrices NewDistances fills, and MaxBytes.
func TestEstimateCost(t *testing.T) {
	b := lookup(t, "gridworld:3")
	ctx := context.Background()
	r, err := Quotients(ctx, b.Model, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := EstimateCost(r, b.Model.NumActions())
	d, err := NewDistances(ctx, b.Model, b.Ground, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	var clk, op int64
	for t := range d.ClkClasses {
		clk += int64(len(d.ClkClasses[t].Data))
		op += int64(len(d.OpClasses[t].Data))
	}
	if c.ClkPairs != clk || c.OpPairs != op {
		t.Errorf("EstimateCost pairs %d/%d, matrices hold %d/%d", c.ClkPairs, c.OpPairs, clk, op)
	}
	if !(c.Bytes > 0) || !(c.Alignments >= float64(c.ClkPairs)) {
		t.Errorf("EstimateCost = %+v", c)
	}
	if _, err := NewDistances(ctx, b.Model, b.Ground, 3, &Options{MaxBytes: c.Bytes / 2}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("MaxBytes = Bytes/2: got %v, want ErrTooLarge", err)
	}
	if _, err := NewDistances(ctx, b.Model, b.Ground, 3, &Options{MaxBytes: c.Bytes}); err != nil {
		t.Errorf("MaxBytes = Bytes: %v", err)
	}
}

// TestProgressAndCancel checks that Progress counts class pairs up to
// their total and that cancelling from it stops NewDistances.
func TestProgressAndCancel(t *testing.T) {
	b := lookup(t, "tiger")
	const T = 8
	r, err := Quotients(context.Background(), b.Model, T, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := EstimateCost(r, b.Model.NumActions())
	last, calls := 0, 0
	opts := &Options{Progress: func(done, total int) {
		if int64(total) != c.ClkPairs+c.OpPairs || done < last || done > total {
			t.Errorf("Progress(%d, %d) after %d, want total %d", done, total, last, c.ClkPairs+c.OpPairs)
		}
		last = done
		calls++
	}}
	if _, err := NewDistances(context.Background(), b.Model, b.Ground, T, opts); err != nil {
		t.Fatal(err)
	}
	if last != int(c.ClkPairs+c.OpPairs) || calls < 2 {
		t.Errorf("Progress ended at %d after %d calls, want %d", last, calls, c.ClkPairs+c.OpPairs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts.Progress = func(done, total int) { cancel() }
	if _, err := NewDistances(ctx, b.Model, b.Ground, T, opts); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled from Progress: got %v, want context.Canceled", err)
	}
}

// TestOracleSharedFile compares NewDistances with the oracle bit for bit
// on tiger-grid (36 states, 5 actions, 17 observations) at T = 2, a model
// whose observation laws have wide supports (general simplex steps).
func TestOracleSharedFile(t *testing.T) {
	if testing.Short() {
		t.Skip("short: skipping the tiger-grid comparison")
	}
	path := filepath.Join("..", "..", "..", "shared", "data", "pomdp", "tiger-grid.POMDP")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("third-party model file not found at %s: %v", path, err)
	}
	m, err := pomdp.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []Transport{TransportW1, TransportNested} {
		compareOracle(t, "tiger-grid", m, ot.Discrete(m.NumObservations()), 2, tr)
	}
}
