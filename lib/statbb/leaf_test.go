package statbb

import (
	"context"
	"fmt"
	"testing"

	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// bracketOf returns the number of listed ε that v exceeds (by more than
// partition.ZeroTol): equal for two values in one ε-bracket.
func bracketOf(v float64, eps []float64) int {
	n := 0
	for _, e := range eps {
		if v > e+partition.ZeroTol {
			n++
		}
	}
	return n
}

// runShortcuts computes one case with the leaf bounds and the probes on
// or off.
func runShortcuts(t *testing.T, c tableCase, opt Options, on bool) *Result {
	t.Helper()
	noLeafBounds, noProbes, noRefBound = !on, !on, !on
	defer func() { noLeafBounds, noProbes, noRefBound = false, false, false }()
	res, err := Compute(context.Background(), c.m, c.M, c.T, opt)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return res
}

// TestShortcutsKeepResults: the leaves decided by bounds (leafBounds)
// and the constant-action probes (probe) change nothing a caller reads,
// against the path that solves every leaf's W1 exactly and branches from
// the root, on 200 random models and the built-ins, both stand-ins, 1–3
// workers: in exact mode the distances and upper bounds bit for bit; in
// decision mode the partitions at every listed ε label for label, the
// largest distance's bracket, every distance in the bracket of the exact
// one, and every upper bound at or above it.
func TestShortcutsKeepResults(t *testing.T) {
	cases := tableCases(t)
	if testing.Short() {
		cases = cases[:40]
	}
	eps := []float64{0, 0.1, 0.3}
	var bounded, probed int64
	for i, c := range cases {
		for _, conv := range []law.Convention{law.UniformStandIn, law.PointMassStandIn} {
			name := fmt.Sprintf("%s m=%d T=%d %v, %d workers", c.name, c.M, c.T, conv, 1+i%3)
			opt := Options{Ground: c.g, Convention: conv, Workers: 1 + i%3}
			exact := runShortcuts(t, c, opt, false)
			got := runShortcuts(t, c, opt, true)
			bounded += got.shortcuts.bounded
			for d := range exact.Lower {
				for k, x := range exact.Lower[d].Data {
					if y := got.Lower[d].Data[k]; x != y {
						t.Fatalf("%s: exact distance at depth %d entry %d: %.17g with the shortcuts, %.17g without", name, d, k, y, x)
					}
					if x, y := exact.Upper[d].Data[k], got.Upper[d].Data[k]; x != y {
						t.Fatalf("%s: exact upper bound at depth %d entry %d: %.17g with the shortcuts, %.17g without", name, d, k, y, x)
					}
				}
			}
			opt.Eps = eps
			old := runShortcuts(t, c, opt, false)
			dec := runShortcuts(t, c, opt, true)
			bounded += dec.shortcuts.bounded
			probed += dec.shortcuts.probed
			for _, e := range eps {
				if a, b := old.Partition(e), dec.Partition(e); fmt.Sprint(a.Labels) != fmt.Sprint(b.Labels) {
					t.Fatalf("%s ε=%g: partitions %v with the shortcuts, %v without", name, e, b.Labels, a.Labels)
				}
			}
			if a0, a1 := old.MaxBracket(); true {
				if b0, b1 := dec.MaxBracket(); a0 != b0 || a1 != b1 {
					t.Fatalf("%s: largest distance in (%g, %g] with the shortcuts, (%g, %g] without", name, b0, b1, a0, a1)
				}
			}
			for d := range exact.Lower {
				for k, x := range exact.Lower[d].Data {
					if y := dec.Lower[d].Data[k]; bracketOf(y, eps) != bracketOf(x, eps) {
						t.Fatalf("%s: depth %d entry %d decided %.17g, exact distance %.17g: another bracket", name, d, k, y, x)
					}
					if u := dec.Upper[d].Data[k]; u < x-1e-9 {
						t.Fatalf("%s: depth %d entry %d: upper bound %.17g below the exact distance %.17g", name, d, k, u, x)
					}
				}
			}
		}
	}
	if bounded == 0 || probed == 0 {
		t.Fatalf("%d leaves decided by bounds, %d pairs by probes: the check is vacuous", bounded, probed)
	}
	t.Logf("%d leaves decided by bounds, %d pairs by probes", bounded, probed)
}
