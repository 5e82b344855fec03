package statbb

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/pomdpq/pomdpq/internal/memsample"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// tableCase is one model of the shared-table checks.
type tableCase struct {
	name string
	m    *pomdp.Model
	g    ot.Ground
	M, T int
}

// tableCases returns 200 seeded random models (2–4 states, 2–3 actions
// and observations, m ≤ 1 … 3, T = 2 … 4, m ≤ 3 at T = 3 every 17th,
// impossible histories included)
// and the built-in models at small horizons (m ≤ 3 at T = 3 twice, so that each
// stand-in meets it: under the uniform one the search runs k = 2 and 3).
func tableCases(t *testing.T) []tableCase {
	var cs []tableCase
	for seed := uint64(1); seed <= 200; seed++ {
		nS, nA, nO := 2+int(seed%3), 2+int(seed/3%2), 2+int(seed/7%2)
		M, T := 2, 3
		switch {
		case seed%17 == 0:
			M, nO = 3, 3 // k = 2 and 3 under the uniform stand-in
		case seed%5 == 0:
			M, T = 3, 2
		case seed%11 == 0:
			M = 1
		case seed%13 == 0 && nO == 2:
			T = 4
		}
		cs = append(cs, tableCase{fmt.Sprintf("random seed %d", seed), randomModel(seed, nS, nA, nO), nil, M, T})
	}
	for _, c := range []struct {
		spec string
		M, T int
	}{{"tiger", 2, 4}, {"tiger:0.7:0.2", 2, 3}, {"gridworld:3", 2, 2}, {"witness", 2, 3}, {"tiger", 3, 3}, {"tiger", 3, 3}, {"tiger:0.7:0.2", 3, 3}, {"tiger:0.7:0.2", 3, 3}} {
		b := lookup(t, c.spec)
		cs = append(cs, tableCase{c.spec, b.Model, b.Ground, c.M, c.T})
	}
	return cs
}

// sameResults reports the first difference between two runs: a distance
// or upper bound more than 1e-12 apart, or a partition at a listed ε
// that differs label for label.
func sameResults(a, b *Result, eps []float64) error {
	for d := range a.Lower {
		for k := range a.Lower[d].Data {
			for _, mat := range [2][2][]float64{{a.Lower[d].Data, b.Lower[d].Data}, {a.Upper[d].Data, b.Upper[d].Data}} {
				x, y := mat[0][k], mat[1][k]
				if !(x == y || math.Abs(x-y) <= 1e-12) {
					return fmt.Errorf("depth %d entry %d: %.17g against %.17g", d, k, x, y)
				}
			}
		}
	}
	for _, e := range eps {
		if pa, pb := a.Partition(e), b.Partition(e); fmt.Sprint(pa.Labels) != fmt.Sprint(pb.Labels) {
			return fmt.Errorf("ε = %g: partitions %v and %v", e, pa.Labels, pb.Labels)
		}
	}
	return nil
}

// TestSharedTableKeepsResults: the belief table shared by 1, 2 or 3
// workers, and a table renewed after every history pair (a limit of one
// byte: every entry recomputed for every pair), give the same distances,
// upper bounds and partitions, label for label, as one worker with the
// default limit, on 200 random models and the built-ins, both stand-ins,
// exact and decision mode; and the decision partitions are those of the
// enumeration (the independent oracle) wherever it is small enough.
func TestSharedTableKeepsResults(t *testing.T) {
	cases := tableCases(t)
	if testing.Short() {
		cases = cases[:40]
	}
	eps := []float64{0, 0.1, 0.3}
	for i, c := range cases {
		conv := law.Convention(i % 2)
		for _, mode := range [][]float64{nil, eps} {
			opt := Options{Ground: c.g, Convention: conv, Eps: mode, Workers: 1}
			ref, err := compute(context.Background(), c.m, c.M, c.T, opt, 0)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			for _, v := range []struct {
				workers int
				limit   int64
			}{{2, 0}, {3, 0}, {1, 1}, {3, 1}} {
				opt.Workers = v.workers
				got, err := compute(context.Background(), c.m, c.M, c.T, opt, v.limit)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				if err := sameResults(ref, got, mode); err != nil {
					t.Fatalf("%s m=%d T=%d %v eps=%v, %d workers, limit %d: %v", c.name, c.M, c.T, conv, mode, v.workers, v.limit, err)
				}
				pairs := 0
				for _, mat := range ref.Lower {
					pairs += len(mat.Data)
				}
				// One worker renews the table after every pair; with more,
				// a pair that held an older generation renews nothing.
				if v.limit == 1 && ((v.workers == 1 && got.TableResets != int64(pairs)) || got.TableResets < 1) {
					t.Fatalf("%s, %d workers: limit 1 started %d new generations, want one per history pair (%d)", c.name, v.workers, got.TableResets, pairs)
				}
			}
			if mode != nil && c.M <= 2 && c.m.NumObservations() <= 3 && c.T <= 3 {
				want := enumerate(t, c.m, c.g, c.M, c.T, conv)
				for _, e := range eps {
					if a, b := want.Partition(e), ref.Partition(e); fmt.Sprint(a.Labels) != fmt.Sprint(b.Labels) {
						t.Fatalf("%s m=%d T=%d %v ε=%g: search %v, enumeration %v", c.name, c.M, c.T, conv, e, b.Labels, a.Labels)
					}
				}
			}
		}
	}
}

// TestWorkDoesNotGrowWithWorkers: every belief and step of the shared
// table is computed once, so the belief vectors and steps computed are
// the same with 1, 2, 3 and 8 workers (each history pair's search reads
// the same entries whoever runs it); and the table's peak is at most its
// bytes for one worker plus the entries of the pairs in flight.
func TestWorkDoesNotGrowWithWorkers(t *testing.T) {
	for _, c := range []struct {
		spec string
		M, T int
	}{{"random:12:3:12:5", 2, 3}, {"random:8:3:8:5", 2, 3}, {"gridworld:3", 2, 3}, {"tiger", 2, 5}} {
		b := lookup(t, c.spec)
		var one *Result
		for _, w := range []int{1, 2, 3, 8} {
			res, err := Compute(context.Background(), b.Model, c.M, c.T, Options{Ground: b.Ground, Eps: []float64{0, 0.1, 0.3}, Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			if res.TableResets != 0 {
				t.Fatalf("%s: %d generations past the default limit", c.spec, res.TableResets)
			}
			if w == 1 {
				one = res
				if one.Beliefs < 3 || one.Steps < 1 {
					t.Fatalf("%s: %d beliefs and %d steps computed: the check is vacuous", c.spec, one.Beliefs, one.Steps)
				}
				continue
			}
			if res.Beliefs != one.Beliefs || res.Steps != one.Steps || res.TablePeak != one.TablePeak {
				t.Errorf("%s, %d workers: %d beliefs, %d steps, peak %d bytes; one worker: %d, %d, %d", c.spec, w, res.Beliefs, res.Steps, res.TablePeak, one.Beliefs, one.Steps, one.TablePeak)
			}
		}
		t.Logf("%s m≤%d T=%d: %d beliefs and %d steps computed with 1, 2, 3 and 8 workers", c.spec, c.M, c.T, one.Beliefs, one.Steps)
	}
}

// TestEstimateNearPeak compares the pre-flight estimate (EstimateCost)
// with the peak of Go memory measured during the run, above what the
// process held before it: the ratio must lie within [1/2, 2].
func TestEstimateNearPeak(t *testing.T) {
	if testing.Short() {
		t.Skip("short: runs of tens of MiB")
	}
	for _, c := range []struct {
		spec string
		M, T int
	}{{"tiger", 2, 9}, {"random:8:3:8:5", 1, 4}, {"random:6:2:24:3", 1, 3}, {"random:12:3:12:5", 1, 4}} {
		t.Run(fmt.Sprintf("%s/m=%d/T=%d", c.spec, c.M, c.T), func(t *testing.T) {
			b := lookup(t, c.spec)
			est := EstimateCost(b.Model, c.T, 1)
			runtime.GC()
			debug.FreeOSMemory()
			base := memsample.Resident()
			stop := memsample.Peak(time.Millisecond)
			res, err := Compute(context.Background(), b.Model, c.M, c.T, Options{Ground: b.Ground, Eps: []float64{0, 0.1, 0.3}, Workers: 1, MemBudget: -1})
			peak := stop() - base
			if err != nil {
				t.Fatal(err)
			}
			ratio := float64(est.Bytes()) / float64(peak)
			t.Logf("estimate %.1f MiB (matrices %.1f, table %.1f, scratch %.1f), measured %.1f MiB (table peak %.1f MiB, %d beliefs): ratio %.2f",
				mib(est.Bytes()), mib(est.Matrices), mib(est.Beliefs), mib(est.Scratch), mib(peak), mib(res.TablePeak), res.Beliefs, ratio)
			if ratio < 0.5 || ratio > 2 {
				t.Errorf("estimate %.1f MiB, measured peak %.1f MiB: ratio %.2f outside [0.5, 2]", mib(est.Bytes()), mib(peak), ratio)
			}
		})
	}
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
