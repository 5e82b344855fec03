package policy_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/policy"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// A pomdp-solve policy graph for Tiger: listen until one observation is
// two ahead of the other, then open the other door.
const counter = `0 0  1 2 
1 0  3 0 
2 0  0 4 
3 2  0 0 
4 1  0 0 
`

// Read a policy graph, evaluate it exactly, write its alpha vectors.
func ExampleEvaluate() {
	m := pomdp.Must(bench.Lookup("tiger95")).Model
	c, err := policy.ReadPG(strings.NewReader(counter), "counter.pg", m)
	if err != nil {
		panic(err)
	}
	ev, err := policy.Evaluate(m, c, 0) // 0: the discounted infinite horizon
	if err != nil {
		panic(err)
	}
	fmt.Println(ev)
	fin, _ := policy.Evaluate(m, c, 10)
	fmt.Printf("10 steps: %.6f\n", fin.Value)
	vs := ev.Alpha(c)
	v, node := policy.Value(vs, m.B0)
	fmt.Printf("max over alpha vectors %.6f (node %d)\n", v, node)
	policy.WriteAlpha(os.Stdout, vs[:1])
	// Output:
	// value 19.3714 from node 0 of 5 (infinite horizon, γ = 0.95)
	// 10 steps: 6.106620
	// max over alpha vectors 19.371368 (node 0)
	// 0
	// 19.3713683748909488713252358 19.3713683748909417658978782
}

// Unroll a graph into a policy tree and minimise it back.
func ExampleMinimize() {
	m := pomdp.Must(bench.Lookup("tiger95")).Model
	c, _ := policy.ReadPG(strings.NewReader(counter), "counter.pg", m)
	tree, _ := policy.Unroll(c, 0, 3)
	min, _, _ := policy.Minimize(tree, 0)
	fmt.Println(tree.Nodes, "nodes minimise to", min.Nodes)
	var buf strings.Builder
	policy.WritePG(&buf, min) // pomdp-solve's layout, trailing space included
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		if line != "" {
			fmt.Printf("%q\n", line)
		}
	}
	l, _ := policy.MinimizeUpTo(c, 0, 3)
	fmt.Println("for 3 steps:", l)
	// Output:
	// 12 nodes minimise to 5
	// "0 0  1 2 \n"
	// "1 0  3 0 \n"
	// "2 0  0 4 \n"
	// "3 2  0 0 \n"
	// "4 1  0 0 \n"
	// for 3 steps: T=3 widths [1 2 3] (3 nodes)
}

// Look at a policy graph through an ε-quotient.
func ExampleAnalyze() {
	b := pomdp.Must(bench.Lookup("tiger95"))
	c, _ := policy.ReadPG(strings.NewReader(counter), "counter.pg", b.Model)
	q, err := policy.EpsQuotient(context.Background(), b.Model, b.Ground, fsc.KindStationary, 2, 4, 0.8, distance.Options{})
	if err != nil {
		panic(err)
	}
	a, err := policy.Analyze(q, c, 0, fsc.KindStationary, 2)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d classes; value on the model %.4f, on the quotient %.4f\n", a.Classes, a.ModelValue, a.QuotientValue)
	for _, s := range a.Splits {
		fmt.Println(s.Groups)
	}
	fmt.Println(a.Verdict, "of", a.Family+":", a.Reason)
	// Output:
	// 7 classes; value on the model 1.4524, on the quotient -15.9207
	// [[tiger-left·tiger-left] [tiger-right·tiger-left]]
	// [[tiger-left·tiger-right] [tiger-right·tiger-right]]
	// not a member of stationary m ≤ 2: even for 4 steps it needs 3 > 2 nodes
}
