// Package benchtest holds the helpers the packages' tests share over
// lib/bench, so that each test file does not define them again.
package benchtest

import (
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
)

// Lookup returns the benchmark spec names (as bench.Lookup reads it),
// failing t with bench.Lookup's error if there is none.
func Lookup(t testing.TB, spec string) bench.Benchmark {
	t.Helper()
	b, err := bench.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
