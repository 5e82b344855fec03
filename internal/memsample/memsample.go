// Package memsample measures the peak memory of a computation run in the
// current process: the Go runtime's mapped memory not released to the
// operating system, sampled on a ticker. lib/runner reports it as the peak
// of in-process jobs, and the memory-budget tests compare the estimates
// of lib/clock with it.
package memsample

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// Resident returns the Go runtime's mapped memory not released to the
// operating system (runtime/metrics /memory/classes/total minus
// /memory/classes/heap/released): close to the resident set of Go memory.
// It returns 0 when the runtime does not report those metrics.
func Resident() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64()) - int64(s[1].Value.Uint64())
}

// Peak starts sampling Resident every interval; the returned function
// stops the sampling and returns the largest value seen (read once more
// when stopped).
func Peak(interval time.Duration) func() int64 {
	var mu sync.Mutex
	peak := Resident()
	read := func() {
		v := Resident()
		mu.Lock()
		peak = max(peak, v)
		mu.Unlock()
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tk := time.NewTicker(interval)
		defer tk.Stop()
		for {
			select {
			case <-done:
				return
			case <-tk.C:
				read()
			}
		}
	})
	return func() int64 {
		close(done)
		wg.Wait()
		read()
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

// LiveHeap returns the bytes of live heap objects as of the last garbage
// collection (runtime/metrics /gc/heap/live), collecting first when more
// than 64 MiB are allocated so that garbage is not counted as live: the
// base that lib/distance and lib/clock add their estimates to. It falls
// back to runtime.MemStats.HeapAlloc when the metric is not reported.
func LiveHeap() int64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > 64<<20 {
		runtime.GC()
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		return int64(s[0].Value.Uint64())
	}
	return int64(ms.HeapAlloc)
}
