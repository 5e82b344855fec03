package memsample

import (
	"runtime/debug"
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
		// The live-heap metric counts the block's pages, not every byte
		// of the rest of the heap: compare with the block alone.
		if c.keep && got < n {
			t.Errorf("%s: LiveHeap %d bytes, want at least the kept block's %d", c.name, got, n)
		}
		if !c.keep && got >= n {
			t.Errorf("%s: LiveHeap %d bytes still counts the dropped %d", c.name, got, n)
		}
	}
	sink = nil
	debug.FreeOSMemory() // leave Resident as TestPeakSeesAnAllocation expects it
}
