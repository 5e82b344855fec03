//go:build !unix

package report

import "time"

// cpuClock is false where the process's CPU time is not available (a
// browser's WebAssembly, one thread): cpuNow is the wall time, and a
// phase run on w workers counts w times its wall time.
const cpuClock = false

var clockStart = time.Now()

// cpuNow returns the wall seconds since the package was loaded.
func cpuNow() float64 { return time.Since(clockStart).Seconds() }
