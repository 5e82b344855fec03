package distance

import (
	"context"
	"fmt"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

// BenchmarkCompute times the probe-distance computation of the paper's
// timed rows (issue 3: Tiger m = 1 at T = 10 was 287 s in the paper's
// Python; Tiger m ≤ 2 at T = 7 was 194 s).
func BenchmarkCompute(b *testing.B) {
	for _, bc := range []struct {
		name  string
		model string
		m, T  int
	}{
		{"tiger-m1-T10", "tiger", 1, 10},
		{"tiger-m2-T7", "tiger", 2, 7},
		{"gridworld3-m2-T2", "gridworld:3", 2, 2},
		{"gridworld5-m1-T3", "gridworld:5", 1, 3},
		{"rocksample-m2-T2", "rocksample:4:4", 2, 2},
	} {
		b.Run(bc.name, func(b *testing.B) {
			bm := lookup(b, bc.model)
			fam, err := fsc.NewStationary(bm.Model.NumActions(), bm.Model.NumObservations(), bc.m, fsc.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var r *Result
			for b.Loop() {
				r, err = Compute(context.Background(), bm.Model, fam, bc.T, Options{Ground: bm.Ground})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.Distinct), "distinct-probes")
		})
	}
}

// BenchmarkExact times exact (ε = 0) classes on trees where the pairwise
// route solves many transport problems.
func BenchmarkExact(b *testing.B) {
	for _, bc := range []struct {
		name  string
		model string
		m, T  int
	}{
		{"tiger-m2-T10", "tiger", 2, 10},
		{"gridworld3-m2-T3", "gridworld:3", 2, 3},
	} {
		b.Run(bc.name, func(b *testing.B) {
			bm := lookup(b, bc.model)
			fam, err := fsc.NewStationary(bm.Model.NumActions(), bm.Model.NumObservations(), bc.m, fsc.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var r *ExactResult
			for b.Loop() {
				r, err = Exact(context.Background(), bm.Model, fam, bc.T, Options{})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.Partition.Total()), "classes")
		})
	}
}

// BenchmarkDecisions times compact decision mode as `pomdpq quotient`
// runs it (Tiger m ≤ 2, ε = 0, 0.3, 0.5: the issue 19 rows up to T = 18
// take minutes) and reports the transport problems solved.
func BenchmarkDecisions(b *testing.B) {
	for _, T := range []int{12, 14} {
		b.Run(fmt.Sprintf("tiger-m2-T%d", T), func(b *testing.B) {
			bm := lookup(b, "tiger")
			fam, err := fsc.NewStationary(bm.Model.NumActions(), bm.Model.NumObservations(), 2, fsc.Options{})
			if err != nil {
				b.Fatal(err)
			}
			var r *Result
			for b.Loop() {
				r, err = Compute(context.Background(), bm.Model, fam, T, Options{Ground: bm.Ground, Eps: []float64{0, 0.3, 0.5}, Compact: true})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.Solves), "solves")
		})
	}
}
