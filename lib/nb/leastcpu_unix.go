//go:build unix

package nb

import (
	"syscall"
	"time"
)

// processCPU returns the CPU seconds (user + system) this process has used.
func processCPU() (float64, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, err
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds(), nil
}
