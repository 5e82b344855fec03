// Package randmodel builds random POMDPs for tests (property checks and
// cross-checks against independent oracles). A test chooses how the rows
// are drawn; the package lays them out, in one fixed order, so a seed
// always gives the same model.
package randmodel

import (
	"fmt"
	"math/rand/v2"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Dense returns a model description named name with states s0, s1, …,
// actions a0, … and observations o0, …, whose rows are drawn by row in
// this order: for each action a, for each state s, the transition row
// T[a][s] (length nS) and then the observation row Z[a][s] (length nO).
// The initial belief, rewards and discount are left to the caller, who
// draws them afterwards.
func Dense(name string, nS, nA, nO int, row func(n int) []float64) pomdp.Dense {
	d := pomdp.Dense{Name: name}
	for s := range nS {
		d.States = append(d.States, fmt.Sprint("s", s))
	}
	for a := range nA {
		d.Actions = append(d.Actions, fmt.Sprint("a", a))
	}
	for o := range nO {
		d.Observations = append(d.Observations, fmt.Sprint("o", o))
	}
	d.T = make([][][]float64, nA)
	d.Z = make([][][]float64, nA)
	for a := range nA {
		for range nS {
			d.T[a] = append(d.T[a], row(nS))
			d.Z[a] = append(d.Z[a], row(nO))
		}
	}
	return d
}

// Sparse returns a row generator for Dense: each entry is zero with
// probability zero and uniform on [0, 1) otherwise, and the row is
// normalised; a row drawn all zero becomes a point mass on a random entry.
// Zeros make some histories impossible, which tests of stand-ins need.
func Sparse(rng *rand.Rand, zero float64) func(n int) []float64 {
	return func(n int) []float64 {
		r := make([]float64, n)
		s := 0.0
		for i := range r {
			if rng.Float64() < zero {
				continue
			}
			r[i] = rng.Float64()
			s += r[i]
		}
		if s == 0 {
			r[rng.IntN(n)] = 1
			return r
		}
		for i := range r {
			r[i] /= s
		}
		return r
	}
}
