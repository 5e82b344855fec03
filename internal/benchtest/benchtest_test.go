package benchtest

import (
	"fmt"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
)

// recorder is a testing.TB that records Fatal instead of stopping.
type recorder struct {
	testing.TB
	fatal string
}

func (r *recorder) Helper()           {}
func (r *recorder) Fatal(args ...any) { r.fatal = fmt.Sprint(args...) }

// TestLookup checks that Lookup returns what bench.Lookup returns for a
// spec it knows and fails the test, with bench.Lookup's error, for one it
// does not.
func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		spec string
		ok   bool
	}{
		{"tiger", true},
		{"no-such-benchmark", false},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			want, err := bench.Lookup(tc.spec)
			if (err == nil) != tc.ok {
				t.Fatalf("bench.Lookup(%q): error %v, want ok = %v", tc.spec, err, tc.ok)
			}
			r := &recorder{TB: t}
			got := Lookup(r, tc.spec)
			if !tc.ok {
				if r.fatal != err.Error() {
					t.Errorf("Lookup(%q) failed with %q, want %q", tc.spec, r.fatal, err)
				}
				return
			}
			if r.fatal != "" {
				t.Fatalf("Lookup(%q) failed: %s", tc.spec, r.fatal)
			}
			if got.Name != want.Name || got.Model.NumStates() != want.Model.NumStates() {
				t.Errorf("Lookup(%q) = %s (%d states), want %s (%d states)", tc.spec,
					got.Name, got.Model.NumStates(), want.Name, want.Model.NumStates())
			}
		})
	}
}
