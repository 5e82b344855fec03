package value_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/value"
)

// BenchmarkBestTiger searches every open-loop string of Tiger (3^T
// controllers; T = 10 gives 59,049) for the best observation score.
func BenchmarkBestTiger(b *testing.B) {
	m := lookup(b, "tiger")
	for _, T := range []int{6, 8, 10} {
		fam := pomdp.Must(fsc.NewClock(3, 2, 1, T, fsc.Options{}))
		b.Run(fmt.Sprintf("T=%d", T), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := value.Best(context.Background(), m, fam, T, value.ObsScore(2), value.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(fam.Len()), "FSCs")
		})
	}
}

// BenchmarkEvaluate times one evaluation per objective form.
func BenchmarkEvaluate(b *testing.B) {
	m := lookup(b, "gridworld:5")
	const T = 4
	c := fsc.OpenLoop(5, 4, []int{1, 1, 3, 0})
	for _, obj := range []value.Objective{value.LatentReward{}, value.ObsScore(4), value.AsTrace(value.ObsScore(4))} {
		e := pomdp.Must(value.NewEvaluator(m, T, obj, value.Options{}))
		b.Run(obj.Name(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Value(c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
