package law

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

// TestComputeIntoContext checks that a deadline stops one controller's
// laws promptly (Tiger at T = 18: 2^19 histories, each a belief step),
// and that an uncancelled run gives ComputeInto's laws.
func TestComputeIntoContext(t *testing.T) {
	e, err := NewEngine(tigerFull(), 18, UniformStandIn)
	if err != nil {
		t.Fatal(err)
	}
	c := fsc.Constant(3, 2, 1) // open: the reset makes every history possible
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = e.ComputeIntoContext(ctx, e.NewLaws(), c)
	if el := time.Since(start); !errors.Is(err, context.DeadlineExceeded) || el > time.Second {
		t.Errorf("got %v after %v, want context.DeadlineExceeded within a second", err, el)
	}
	small, err := NewEngine(tigerFull(), 6, UniformStandIn)
	if err != nil {
		t.Fatal(err)
	}
	want, got := small.NewLaws(), small.NewLaws()
	if err := small.ComputeInto(want, c); err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	if err := small.ComputeIntoContext(ctx2, got, c); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(want.Trajectory(), got.Trajectory()) || want.StandIns != got.StandIns {
		t.Error("ComputeIntoContext gives other laws than ComputeInto")
	}
}
