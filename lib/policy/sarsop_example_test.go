package policy_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/policy"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Read a SARSOP .policy for Tiger (the five vectors SARSOP writes for it,
// to its 6 digits), print its lower bound at b0 and the value of acting
// greedily on it over 200 steps with the bracket of the discounted value.
func ExampleReadPolicy() {
	const file = `<?xml version="1.0" encoding="ISO-8859-1"?>
<Policy version="0.1" type="value" model="Tiger.pomdpx">
<AlphaVector vectorLength="2" numObsValue="1" numVectors="5">
<Vector action="2" obsValue="0">28.4028 -81.5972 </Vector>
<Vector action="0" obsValue="0">24.6957 3.01475 </Vector>
<Vector action="1" obsValue="0">-81.5972 28.4028 </Vector>
<Vector action="0" obsValue="0">3.01476 24.6957 </Vector>
<Vector action="0" obsValue="0">19.3713 19.3713 </Vector>
</AlphaVector> </Policy>
`
	m := pomdp.Must(bench.Lookup("tiger95")).Model
	p, err := policy.ReadPolicy(strings.NewReader(file), "Tiger.policy", m)
	if err != nil {
		panic(err)
	}
	lb, best, _ := p.LowerBound(m.B0)
	fmt.Printf("lower bound at b0 %.4f (vector %d, %s)\n", lb, best[0], m.Actions[p.Vectors[best[0]].Action])
	g, err := policy.EvaluateGreedy(context.Background(), m, p, 200, policy.GreedyOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("greedy over T = %d: %.4f; discounted value in [%.4f, %.4f] (tail %.3f)\n", g.Horizon, g.Value, g.Low, g.High, g.Tail)
	// Output:
	// lower bound at b0 19.3713 (vector 4, listen)
	// greedy over T = 200: 19.3706; discounted value in [19.3005, 19.4407] (tail 0.070)
}

// An alpha-vector policy read back from what WritePolicy writes.
func ExampleWritePolicy() {
	p := &policy.VectorPolicy{Model: "tiger95.pomdp", VectorLength: 2, NumObsValue: 1, Vectors: []policy.ObsVector{
		{Alpha: policy.Alpha{Action: 0, V: []float64{-20, -20}}},
		{Alpha: policy.Alpha{Action: 1, V: []float64{-119, -9}}, Sparse: true},
	}}
	var b strings.Builder
	if err := policy.WritePolicy(&b, p); err != nil {
		panic(err)
	}
	fmt.Print(strings.SplitN(b.String(), "\n", 3)[2])
	// Output:
	// <AlphaVector vectorLength="2" numObsValue="1" numVectors="2">
	// <Vector action="0" obsValue="0">-20 -20 </Vector>
	// <SparseVector action="1" obsValue="0"><Entry>0 -119</Entry><Entry>1 -9</Entry></SparseVector>
	// </AlphaVector> </Policy>
}
