package ot_test

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/ot"
)

// W1 between two small laws under a cost matrix (two warehouses, three
// shops), with the optimal plan and a dual certificate.
func ExampleSolver_W1() {
	p := []float64{0.6, 0.4}      // supply at the warehouses
	q := []float64{0.3, 0.3, 0.4} // demand at the shops
	// Row-major cost c(i, j) from warehouse i to shop j.
	cost := []float64{
		1, 2, 3,
		3, 1, 1,
	}
	var s ot.Solver
	r, err := s.W1(p, q, cost)
	if err != nil {
		panic(err)
	}
	fmt.Printf("W1 = %.3g (%v)\n", r.Value, r.Status)
	for _, f := range s.Flows(nil) {
		fmt.Printf("move %.2g from %d to %d\n", f.Mass, f.I, f.J)
	}
	u, v := s.Potentials(nil, nil)
	dual := 0.0
	for i := range p {
		dual += p[i] * u[i]
	}
	for j := range q {
		dual += q[j] * v[j]
	}
	fmt.Printf("dual objective = %.3g\n", dual)
	// Unordered output:
	// W1 = 1.3 (Optimal)
	// move 0.3 from 0 to 0
	// move 0.3 from 0 to 1
	// move 0.4 from 1 to 2
	// dual objective = 1.3
}

// The paper's Tiger check: laws of the next observation (L or R) after
// hearing L and after hearing R, under the discrete metric.
func ExampleSolver_SeqW1() {
	var s ot.Solver
	after := map[string][]float64{
		"L": {0.745, 0.255},
		"R": {0.255, 0.745},
	}
	r, err := s.SeqW1(ot.Discrete(2), 1, after["L"], after["R"])
	if err != nil {
		panic(err)
	}
	fmt.Printf("W1 = %.2f by %v\n", r.Value, r.Method)
	fmt.Printf("TV = %.2f\n", ot.TV(after["L"], after["R"]))
	// Output:
	// W1 = 0.49 by PointMass
	// TV = 0.49
}

// Two laws over two-step observation sequences {0,1}² (index = 2·o₁ + o₂)
// with equal marginals: the marginal bound is 0, but distinct sequences are
// at distance ≥ 1, so the bound already shows W1 ≥ 1 = TV.
func ExampleSolver_LowerBound() {
	p := []float64{0.5, 0, 0, 0.5} // 00 or 11
	q := []float64{0, 0.5, 0.5, 0} // 01 or 10
	var s ot.Solver
	lb := s.LowerBound(ot.Discrete(2), 2, p, q)
	ub := ot.UpperBound(ot.Discrete(2), 2, p, q)
	r, _ := s.SeqW1(ot.Discrete(2), 2, p, q)
	fmt.Printf("%.2g ≤ W1 = %.2g ≤ %.2g\n", lb, r.Value, ub)
	// Output:
	// 1 ≤ W1 = 1 ≤ 2
}
