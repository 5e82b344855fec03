package memsample

import (
	"testing"
	"time"
)

var sink [][]byte

// TestPeakSeesAnAllocation checks that the peak covers memory held while
// the sampler runs and released before it stops: 64 MiB touched, then
// dropped, must be in the peak.
func TestPeakSeesAnAllocation(t *testing.T) {
	before := Resident()
	if before <= 0 {
		t.Fatalf("Resident() = %d, want the runtime's mapped memory", before)
	}
	stop := Peak(time.Millisecond)
	const n = 64 << 20
	b := make([]byte, n)
	for i := range b {
		b[i] = 1
	}
	sink = append(sink, b)
	time.Sleep(20 * time.Millisecond)
	sink = nil
	peak := stop()
	if peak < before+n {
		t.Errorf("peak %d MiB, want at least %d MiB (before) + 64 MiB", peak>>20, before>>20)
	}
}
