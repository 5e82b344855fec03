package law

import (
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

func tigerFull() *pomdp.Model {
	id := [][]float64{{1, 0}, {0, 1}}
	reset := [][]float64{{0.5, 0.5}, {0.5, 0.5}}
	listen := [][]float64{{0.85, 0.15}, {0.15, 0.85}}
	return pomdp.Must(pomdp.New(pomdp.Dense{
		Name: "tiger", States: []string{"tiger_left", "tiger_right"},
		Actions: []string{"listen", "open_left", "open_right"}, Observations: []string{"L", "R"},
		T: [][][]float64{id, reset, reset}, Z: [][][]float64{listen, reset, reset},
		R: [][]float64{{-1, -100, 10}, {-1, 10, -100}},
	}))
}

// BenchmarkTigerT10 computes every suffix law of Tiger (full actions) at
// T = 10 for one probe (issue 2 target: well under 10 ms).
func BenchmarkTigerT10(b *testing.B) {
	m := tigerFull()
	for _, bc := range []struct {
		name string
		c    *fsc.FSC
	}{
		{"listen", fsc.Constant(3, 2, 0)},
		{"m2", &fsc.FSC{Nodes: 2, NumActions: 3, NumObs: 2, Act: [][]int{{0, 1}}, Next: [][][]int{{{0, 1}, {0, 0}}}}},
		{"stochastic", fsc.Mixed(2, []float64{0.5, 0.25, 0.25})},
	} {
		b.Run(bc.name, func(b *testing.B) {
			e, _ := NewEngine(m, 10, UniformStandIn)
			l := e.NewLaws()
			b.ReportAllocs()
			for b.Loop() {
				if err := e.ComputeInto(l, bc.c); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(l.Tree.Len()), "histories")
		})
	}
}
