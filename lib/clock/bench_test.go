package clock

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
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

// BenchmarkSharedFiles times NewDistances at T = 3 on tiger-grid (36
// states, 5 actions, 17 observations) and hallway (60, 5, 21) from the
// third-party files, under the discrete metric.
func BenchmarkSharedFiles(b *testing.B) {
	dir := filepath.Join("..", "..", "..", "shared", "data", "pomdp")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("third-party model files not found at %s: %v", dir, err)
	}
	for _, name := range []string{"tiger-grid.POMDP", "hallway.POMDP"} {
		m, err := pomdp.LoadFile(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var d *Distances
			for b.Loop() {
				if d, err = NewDistances(context.Background(), m, ot.Discrete(m.NumObservations()), 3, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(d.Solves), "solves")
			b.ReportMetric(float64(d.BeliefPairs), "belief-pairs")
		})
	}
}
