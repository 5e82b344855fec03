package shard_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/shard"
)

// Tiger, the m ≤ 2 stationary family, T = 4, in three shards: round 1 per
// shard, the plan, round 2 per shard, the merge. The class counts are
// Compute's (see distance.ExampleCompute). On a cluster every File goes
// through shard.Write and shard.Read between the steps.
func ExampleRun() {
	b, _ := bench.Lookup("tiger")
	fam, _ := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), 2, fsc.Options{})
	ctx := context.Background()
	r := shard.Run{Model: b.Model, Ground: b.Ground, Family: fam, T: 4,
		Options: distance.Options{Ground: b.Ground, Eps: []float64{0, 0.3, 0.5}}, Count: 3}
	var round1 []shard.Part
	for i := range 3 {
		r.Index = i
		f, err := r.Classes(ctx)
		if err != nil {
			panic(err)
		}
		round1 = append(round1, shard.Part{Name: fmt.Sprintf("classes-%d.pq", i), File: f})
	}
	plan, err := shard.MergeClasses(round1)
	if err != nil {
		panic(err)
	}
	var round2 []shard.Part
	for i := range 3 {
		r.Index = i
		f, err := r.Distances(ctx, &shard.Part{Name: "plan.pq", File: plan}, &round1[i])
		if err != nil {
			panic(err)
		}
		round2 = append(round2, shard.Part{Name: fmt.Sprintf("dist-%d.pq", i), File: f})
	}
	res, err := shard.MergeDistances(round2)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d controllers, %d exact classes\n", res.FamilySize, res.Classes.Total())
	for _, eps := range []float64{0, 0.3, 0.5} {
		fmt.Printf("ε = %.1f: %d classes\n", eps, res.Partition(eps).Total())
	}
	// Output:
	// 147 controllers, 16 exact classes
	// ε = 0.0: 16 classes
	// ε = 0.3: 14 classes
	// ε = 0.5: 10 classes
}
