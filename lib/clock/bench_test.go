package clock

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
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
// third-party files (beside the repository), under the discrete metric.
// Twin: BenchmarkNoisyGrid.
func BenchmarkSharedFiles(b *testing.B) {
	for _, name := range []string{"tiger-grid.POMDP", "hallway.POMDP"} {
		m, err := modelfile.Load(shared.Path(b, "BenchmarkNoisyGrid", "pomdp", name))
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

// BenchmarkNoisyGrid times NewDistances at T = 3 on our own
// testdata/noisy-grid.pomdp (6 states, 3 actions, 6 observations with
// wide supports), under the discrete metric.
func BenchmarkNoisyGrid(b *testing.B) {
	m, err := modelfile.Load(filepath.Join("testdata", "noisy-grid.pomdp"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var d *Distances
	for b.Loop() {
		if d, err = NewDistances(context.Background(), m, ot.Discrete(m.NumObservations()), 3, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(d.Solves), "solves")
	b.ReportMetric(float64(d.BeliefPairs), "belief-pairs")
}
