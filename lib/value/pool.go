package value

import (
	"context"
	"sync"
)

// forChunks calls work(w, lo, hi) on workers goroutines (w is the
// goroutine's number) for the chunks [lo, hi) of [0, n), chunk indices at
// a time, handed out in increasing order until ctx ends or a call of work
// returns false. After each chunk it calls progress(finished, n) on the
// calling goroutine, if progress is not nil. It returns the number of
// indices whose chunks were done.
func forChunks(ctx context.Context, n, chunk, workers int, work func(w, lo, hi int) bool, progress func(done, total int)) int {
	ctx2, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	done := make(chan int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for lo := range jobs {
				hi := min(lo+chunk, n)
				if !work(w, lo, hi) {
					cancel()
				}
				done <- hi - lo
			}
		}()
	}
	go func() {
		defer close(jobs)
		for lo := 0; lo < n; lo += chunk {
			select {
			case jobs <- lo:
			case <-ctx2.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(done)
	}()
	finished := 0
	for k := range done {
		finished += k
		if progress != nil {
			progress(finished, n)
		}
	}
	return finished
}
