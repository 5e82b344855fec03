package wrap_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/wrap"
)

// GridWorld seen through the North/South merge (thm:data-processing): the
// merge is 1-Lipschitz onto d(North, South) = 0.5, and the largest history
// distance (m = 1, T = 2) drops from 0.343 to 0.167 as the paper reports.
func ExampleMerge() {
	b := pomdp.Must(bench.GridWorld(3))
	groups, names := bench.GridCoarsening()
	w := pomdp.Must(wrap.Merge(groups, names, b.Ground))
	L, _, _, _ := w.Lipschitz(b.Ground)
	coarse := pomdp.Must(w.Apply(b.Model))

	ctx := context.Background()
	fam := pomdp.Must(fsc.NewStationary(5, 4, 1, fsc.Options{}))
	famC := pomdp.Must(fsc.NewStationary(5, 2, 1, fsc.Options{}))
	r := pomdp.Must(distance.Compute(ctx, b.Model, fam, 2, distance.Options{Ground: b.Ground}))
	rc := pomdp.Must(distance.Compute(ctx, coarse, famC, 2, distance.Options{Ground: w.Ground}))
	fmt.Printf("L_C = %g, d(North, South) = %g\n", L, w.Ground[0][1])
	fmt.Printf("max D: %.3f -> %.3f\n", r.MaxDistance(), rc.MaxDistance())
	// Output:
	// L_C = 1, d(North, South) = 0.5
	// max D: 0.343 -> 0.167
}

// The δ_O-coarsening of GridWorld's quadrants at δ = 0.5: a minimum cover
// has two representatives; with O_δ = {NW, SW} it is the North/South merge.
func ExampleQuantize() {
	g := bench.GridGround()
	names := []string{"NW", "NE", "SW", "SE"}
	reps := pomdp.Must(wrap.Cover(g, 0.5, 0))
	fmt.Println("first minimum cover:", len(reps), "representatives", reps)
	c := pomdp.Must(wrap.Quantize(g, names, []int{bench.NW, bench.SW}))
	fmt.Println("q:", c.Map, "δ_O =", c.Delta, "outputs", c.Channel.Names)
	// Output:
	// first minimum cover: 2 representatives [0 1]
	// q: [0 0 1 1] δ_O = 0.5 outputs [NW SW]
}

// Layered decomposition of Tiger at T = 10 with τ = 5 (tab:hierarchical-scaling):
// two segments of 63 histories instead of one tree of 2,047.
func ExampleLayer() {
	b := pomdp.Must(bench.Lookup("tiger"))
	fam := pomdp.Must(fsc.NewStationary(3, 2, 1, fsc.Options{}))
	l := pomdp.Must(wrap.Layer(context.Background(), b.Model, fam, 10, 5, 0.5, wrap.LayerOptions{Ground: b.Ground}))
	fmt.Println("layers:", len(l.Segments), "histories:", l.Histories, "direct:", wrap.HistoriesDirect(2, 10))
	for _, s := range l.Segments {
		fmt.Printf("steps %d–%d: %d classes, ε_k = %.4f\n", s.Start+1, s.Start+s.Tau, s.Classes, s.Eps)
	}
	fmt.Printf("composed bound Σ ε_k = %.4f\n", l.Bound)
	// Output:
	// layers: 2 histories: 126 direct: 2047
	// steps 1–5: 11 classes, ε_k = 0.1859
	// steps 6–10: 11 classes, ε_k = 0.1859
	// composed bound Σ ε_k = 0.3719
}

// eq:layered-composition for two wrappers with L_1 = 2, L_2 = 0.5.
func ExampleComposedBound() {
	g := pomdp.Must(wrap.Compose(0.1, []float64{2, 0.5}, []float64{0.3, 0.2}))
	b := pomdp.Must(wrap.ComposedBound(0.1, []float64{2, 0.5}, []float64{0.3, 0.2}))
	fmt.Printf("Γ = %.2f, closed form %.2f\n", g, b)
	// Output:
	// Γ = [0.10 0.50 0.45], closed form 0.45
}
