package wrap_test

import (
	"fmt"
	"testing"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/wrap"
)

// Direct vs layered construction on Tiger (m = 1, ε = 0.5), the setting of
// tab:hierarchical-scaling, on one core.
func BenchmarkHierarchical(b *testing.B) {
	tg := lookup(b, "tiger")
	fam := stationary(b, tg.Model, 1)
	for _, c := range [][2]int{{8, 4}, {10, 5}} {
		b.Run(fmt.Sprintf("direct/T=%d", c[0]), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := distance.Compute(ctx, tg.Model, fam, c[0], distance.Options{Ground: tg.Ground, Workers: 1})
				if err != nil {
					b.Fatal(err)
				}
				_ = r.Partition(0.5)
			}
			b.ReportMetric(float64(wrap.HistoriesDirect(2, c[0])), "histories")
		})
		b.Run(fmt.Sprintf("layered/T=%d/tau=%d", c[0], c[1]), func(b *testing.B) {
			b.ReportAllocs()
			var l *wrap.Layered
			for b.Loop() {
				var err error
				if l, err = wrap.Layer(ctx, tg.Model, fam, c[0], c[1], 0.5, wrap.LayerOptions{Ground: tg.Ground, Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(l.Histories), "histories")
		})
	}
}

func BenchmarkChannelApply(b *testing.B) {
	m := lookup(b, "gridworld:10").Model
	for _, c := range []struct {
		name string
		ch   *wrap.Channel
	}{{"merge", gridMerge(b)}, {"noise", gridNoise(b, 0.2)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.ch.Apply(m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
