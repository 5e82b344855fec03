package law

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

// cancelAfter is a context that reports cancellation from its
// (after+1)-th call of Err on: it tests that a computation polls its
// context as it goes, without depending on the machine's speed.
type cancelAfter struct {
	context.Context
	calls, after int
}

func (c *cancelAfter) Err() error {
	c.calls++
	if c.calls > c.after {
		return context.Canceled
	}
	return nil
}

// TestComputeIntoContext checks that one controller's laws poll the
// context as they go (Tiger at T = 18: 2^19 histories, so about a hundred
// polls) and stop at the first poll that sees it cancelled, and that an
// uncancelled run gives ComputeInto's laws.
func TestComputeIntoContext(t *testing.T) {
	e, err := NewEngine(tigerFull(), 18, UniformStandIn)
	if err != nil {
		t.Fatal(err)
	}
	c := fsc.Constant(3, 2, 1) // open: the reset makes every history possible
	base, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctx := &cancelAfter{Context: base, after: 3}
	if err := e.ComputeIntoContext(ctx, e.NewLaws(), c); !errors.Is(err, context.Canceled) || ctx.calls != ctx.after+1 {
		t.Errorf("got %v after %d polls, want context.Canceled at poll %d", err, ctx.calls, ctx.after+1)
	}
	never := &cancelAfter{Context: base, after: 1 << 30}
	if err := e.ComputeIntoContext(never, e.NewLaws(), c); err != nil || never.calls < 16 {
		t.Errorf("uncancelled: %v after %d polls, want no error and polls throughout", err, never.calls)
	}
	small, err := NewEngine(tigerFull(), 6, UniformStandIn)
	if err != nil {
		t.Fatal(err)
	}
	want, got := small.NewLaws(), small.NewLaws()
	if err := small.ComputeInto(want, c); err != nil {
		t.Fatal(err)
	}
	if err := small.ComputeIntoContext(base, got, c); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(want.Trajectory(), got.Trajectory()) || want.StandIns != got.StandIns {
		t.Error("ComputeIntoContext gives other laws than ComputeInto")
	}
}
