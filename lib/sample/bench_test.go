package sample

import (
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

// BenchmarkRun times a run of N = 500 trajectories on the paper's
// medium-scale and m = 2 settings (the plan is built once).
func BenchmarkRun(b *testing.B) {
	for _, c := range []struct {
		name, model string
		m, T        int
	}{{"gridworld10-m1-T2", "gridworld:10", 1, 2}, {"netmon9-m2-T2", "netmon:9", 2, 2}, {"netmon4-m2-T3", "netmon:4", 2, 3}} {
		b.Run(c.name, func(b *testing.B) {
			bm := lookup(b, c.model)
			fam := family(b, bm, fsc.KindStationary, c.m, c.T)
			s, err := New(ctx, bm.Model, fam, c.T, Options{Ground: bm.Ground})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Run(ctx, 500, 1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(s.Laws()), "laws")
			b.ReportMetric(float64(s.Problems()), "problems")
		})
	}
}

// BenchmarkBootstrap times 1,000 bootstrap resamples.
func BenchmarkBootstrap(b *testing.B) {
	bm := lookup(b, "gridworld:3")
	fam := family(b, bm, fsc.KindStationary, 1, 2)
	r, err := Compute(ctx, bm.Model, fam, 2, Options{Ground: bm.Ground})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Bootstrap(ctx, BootstrapOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
