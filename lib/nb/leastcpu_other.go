//go:build !unix

package nb

import "errors"

// processCPU says that this platform does not tell the process's CPU time.
func processCPU() (float64, error) {
	return 0, errors.New("nb: the process's CPU time is not available on this platform")
}
