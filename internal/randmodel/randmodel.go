// Package randmodel builds random POMDPs for tests (property checks and
// cross-checks against independent oracles). A test chooses how the rows
// are drawn; the package lays them out, in one fixed order, so a seed
// always gives the same model.
package randmodel

import (
	"fmt"
	"math"
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
		for i := range r {
			if rng.Float64() < zero {
				continue
			}
			r[i] = rng.Float64()
		}
		normalise(rng, r)
		return r
	}
}

// SparseDense returns the model description the cross-checks of the
// searches draw: named random-<seed>, Dense's rows and then the initial
// belief all drawn by Sparse(zero) from the stream (seed, stream).
// Packages pick their own stream so their models differ.
func SparseDense(seed, stream uint64, zero float64, nS, nA, nO int) pomdp.Dense {
	row := Sparse(rand.New(rand.NewPCG(seed, stream)), zero)
	d := Dense(fmt.Sprint("random-", seed), nS, nA, nO, row)
	d.B0 = row(nS)
	return d
}

// AdversarialKinds names the kinds of model AdversarialDense draws.
var AdversarialKinds = []string{"dense", "sparse", "deterministic", "grid", "near-degenerate", "tiny"}

// AdversarialDense draws one of the AdversarialKinds (uniformly) and then
// a model description of that kind with the given sizes, named
// adv-<seed>-<kind>: Dense's rows, then the initial belief. It returns the
// description and the kind's name. The kinds caught bugs in the
// branch-and-bound searches (lib/clock2, lib/statbb); see adversarialRow.
func AdversarialDense(rng *rand.Rand, seed uint64, nS, nA, nO int) (pomdp.Dense, string) {
	kind := rng.IntN(len(AdversarialKinds))
	row := adversarialRow(rng, kind)
	d := Dense(fmt.Sprintf("adv-%d-%s", seed, AdversarialKinds[kind]), nS, nA, nO, row)
	d.B0 = row(nS)
	return d, AdversarialKinds[kind]
}

// adversarialRow returns a row generator for Dense of the kind with index
// kind in AdversarialKinds: dense; sparse (about 40 % zeros:
// zero-probability branches); deterministic (point masses); grid (values
// 0, 1, 2 normalised: ties); near-degenerate (grid rows with 1e-11 to
// 1e-6 moved between two entries); tiny (entries 0, 1e-13, 1e-11, 1e-3
// and 1: likelihood ratios up to 1e13 that amplify small belief
// differences). A row drawn all zero becomes a point mass.
func adversarialRow(rng *rand.Rand, kind int) func(n int) []float64 {
	return func(n int) []float64 {
		r := make([]float64, n)
		switch kind {
		case 2:
			r[rng.IntN(n)] = 1
			return r
		case 3, 4:
			for i := range r {
				r[i] = float64(rng.IntN(3))
			}
		case 5: // likelihood ratios up to 1e13
			for i := range r {
				r[i] = []float64{0, 1e-13, 1e-11, 1e-3, 1}[rng.IntN(5)]
			}
		default:
			for i := range r {
				if kind == 1 && rng.Float64() < 0.4 {
					continue
				}
				r[i] = rng.Float64()
			}
		}
		if !normalise(rng, r) {
			return r
		}
		if kind == 4 && n > 1 {
			// Move a tiny mass between two entries.
			i, j := rng.IntN(n), rng.IntN(n)
			if i != j {
				d := math.Min(r[j], []float64{1e-11, 1e-9, 1e-6}[rng.IntN(3)])
				r[i] += d
				r[j] -= d
			}
		}
		return r
	}
}

// normalise scales r to sum 1 and reports true, or, when r is all zero,
// makes it a point mass on a random entry and reports false.
func normalise(rng *rand.Rand, r []float64) bool {
	s := 0.0
	for _, v := range r {
		s += v
	}
	if s == 0 {
		r[rng.IntN(len(r))] = 1
		return false
	}
	for i := range r {
		r[i] /= s
	}
	return true
}
