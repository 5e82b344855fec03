package bb

import (
	"context"
	"sync"
)

// Run is the plumbing shared by a search's workers: the first error,
// which cancels the others, and the count of history pairs done,
// reported to a progress function from one goroutine at a time.
type Run struct {
	parent   context.Context
	ctx      context.Context
	cancel   context.CancelFunc
	progress func(done, total int)
	mu       sync.Mutex // guards err and done
	err      error
	done     int
	total    int
}

// NewRun returns the run of total history pairs under ctx, reporting to
// progress (nil: none). Call Stop when the run ends.
func NewRun(ctx context.Context, total int, progress func(done, total int)) *Run {
	r := &Run{parent: ctx, total: total, progress: progress}
	r.ctx, r.cancel = context.WithCancel(ctx)
	return r
}

// Context returns the context the workers watch: cancelled with the
// parent's or by the first Fail.
func (r *Run) Context() context.Context { return r.ctx }

// Stop releases the run's context.
func (r *Run) Stop() { r.cancel() }

// Fail records err unless an error came first, and cancels the run.
func (r *Run) Fail(err error) {
	r.mu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.mu.Unlock()
	r.cancel()
}

// Done counts one history pair done and reports the progress.
func (r *Run) Done() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done++
	if r.progress != nil {
		r.progress(r.done, r.total)
	}
}

// Err returns the first error a worker failed with, else the parent
// context's error (nil while it runs).
func (r *Run) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	return r.parent.Err()
}

// Send hands job to the workers on jobs, and reports false instead when
// the run is cancelled first.
func Send[J any](r *Run, jobs chan<- J, job J) bool {
	select {
	case jobs <- job:
		return true
	case <-r.ctx.Done():
		return false
	}
}
