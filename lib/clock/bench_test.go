package clock

import (
	"context"
	"testing"
)

// BenchmarkTigerT10 times the exact quotients and the distance matrices of
// Tiger (full actions) at T = 10 (tab:probe-family-comparison's last Tiger
// row: 2,047 histories, 59,049 open-loop strings).
func BenchmarkTigerT10(b *testing.B) {
	bm := lookup(b, "tiger")
	ctx := context.Background()
	b.Run("Quotients", func(b *testing.B) {
		b.ReportAllocs()
		var r *Result
		for b.Loop() {
			var err error
			if r, err = Quotients(ctx, bm.Model, 10, nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(r.Clk.Total()), "clk-classes")
		b.ReportMetric(float64(r.Nodes), "nodes")
	})
	for _, tr := range []Transport{TransportW1, TransportNested} {
		b.Run("Distances-"+tr.String(), func(b *testing.B) {
			b.ReportAllocs()
			var d *Distances
			for b.Loop() {
				var err error
				if d, err = NewDistances(ctx, bm.Model, bm.Ground, 10, &Options{Transport: tr}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(d.Solves), "solves")
			b.ReportMetric(float64(d.BeliefPairs), "belief-pairs")
		})
	}
}
