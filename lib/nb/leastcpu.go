package nb

import (
	"math"
	"runtime"
	"runtime/debug"
)

// LeastCPU returns the smallest CPU time (seconds, user + system, of this
// process) of n runs of each of fs, run in turn (f0, f1, f0, f1, …), each
// after a collection and with the collector off, so that each run's time is
// its own work. On a loaded machine the wall time of a run of milliseconds
// is mostly the other processes'; its CPU time is not. The error is the
// platform's, if it cannot tell the process's CPU time.
func LeastCPU(n int, fs ...func()) ([]float64, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	best := make([]float64, len(fs))
	for i := range best {
		best[i] = math.Inf(1)
	}
	for range n {
		for i, f := range fs {
			runtime.GC()
			start, err := processCPU()
			if err != nil {
				return nil, err
			}
			f()
			end, err := processCPU()
			if err != nil {
				return nil, err
			}
			best[i] = math.Min(best[i], end-start)
		}
	}
	return best, nil
}
