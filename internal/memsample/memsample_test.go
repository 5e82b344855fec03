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

// TestLiveHeapCountsLiveNotGarbage checks that LiveHeap counts a block
// kept alive and, once it is dropped and more than 64 MiB of garbage
// stands, no longer counts it (LiveHeap collects first).
func TestLiveHeapCountsLiveNotGarbage(t *testing.T) {
	const n = 96 << 20
	base := LiveHeap()
	for _, c := range []struct {
		name string
		keep bool
	}{{"kept", true}, {"dropped", false}} {
		b := make([]byte, n)
		for i := range b {
			b[i] = 1
		}
		sink = append(sink, b)
		if !c.keep {
			sink = nil
		}
		got := LiveHeap()
		if c.keep && got < base+n {
			t.Errorf("%s: LiveHeap %d MiB, want at least %d MiB + 96 MiB", c.name, got>>20, base>>20)
		}
		if !c.keep && got >= base+n {
			t.Errorf("%s: LiveHeap %d MiB still counts the dropped 96 MiB (base %d MiB)", c.name, got>>20, base>>20)
		}
	}
	sink = nil
}
