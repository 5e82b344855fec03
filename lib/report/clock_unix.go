//go:build unix

package report

import "syscall"

// cpuClock says that cpuNow measures the CPU time of the process (user
// and system, summed over its threads): the pre-flight's measurements
// are then seconds of one core, as the budget is, whatever else loads
// the machine.
const cpuClock = true

// cpuNow returns the CPU seconds the process has used.
func cpuNow() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
