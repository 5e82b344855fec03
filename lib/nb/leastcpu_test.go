package nb

import (
	"math"
	"runtime"
	"testing"
)

// spin does about n units of CPU work.
func spin(n int) {
	x := 0.0
	for i := range n {
		x += math.Sqrt(float64(i))
	}
	runtime.KeepAlive(x)
}

func TestLeastCPU(t *testing.T) {
	if _, err := processCPU(); err != nil {
		t.Skip(err)
	}
	tests := []struct {
		n  int
		fs []func()
	}{
		{1, []func(){func() { spin(1e5) }}},
		{3, []func(){func() { spin(1e5) }, func() {}}},
		{0, []func(){func() {}, func() {}}},
	}
	for _, tt := range tests {
		calls := make([]int, len(tt.fs))
		fs := make([]func(), len(tt.fs))
		for i, f := range tt.fs {
			fs[i] = func() { calls[i]++; f() }
		}
		got, err := LeastCPU(tt.n, fs...)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(tt.fs) {
			t.Fatalf("LeastCPU(%d, %d funcs): %d times", tt.n, len(tt.fs), len(got))
		}
		for i, s := range got {
			if calls[i] != tt.n {
				t.Errorf("LeastCPU(%d): f%d ran %d times", tt.n, i, calls[i])
			}
			// No runs: no time (+Inf); otherwise a CPU time, never negative.
			if (tt.n == 0) != math.IsInf(s, 1) || s < 0 {
				t.Errorf("LeastCPU(%d): f%d took %g s", tt.n, i, s)
			}
		}
	}
}
