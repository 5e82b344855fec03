// Package pbvi solves finite POMDPs approximately by point-based value
// iteration (PBVI, Pineau, Gordon and Thrun 2003), the planner of the
// paper's tab:pbvi-comparison, and exactly by a search of the belief tree
// for small horizons.
//
// PBVI represents the value function by α-vectors, V(b) = max_α α·b, and
// backs it up only at a finite set B of belief points:
//
//	g^α_{a,o}(s) = Σ_{s'} T(s, a, s') Z(s', a, o) α(s')
//	backup(b)    = argmax_a b·( R(·, a) + γ Σ_o argmax_{α ∈ Γ} b·g^α_{a,o} )
//
// Every backed-up vector is the value of a real conditional plan, so PBVI
// values are lower bounds on the optimal value; with every reachable
// belief in B they are exact (the tests check both against Optimal).
//
// Two horizons are supported (Settings): a finite horizon T, with one
// α-vector set per number of stages to go (the paper's setting: T = 3,
// γ = 1, 50 points, seed 42), and a discounted infinite horizon, iterated
// until the values at the points stop changing.
//
// Belief points are chosen before planning from a seeded source
// (math/rand/v2 PCG): by random forward simulation from b0 (the paper's
// "50 belief points sampled by random forward simulation", the default) or
// by Pineau's stochastic simulation with explorative action (SSEA), which
// keeps, for every point, the one-step successor farthest (L1) from the set.
//
// The solver works on any *pomdp.Model, in particular on the quotient
// models of package quotient (Export, ForProbe). Result.Evaluate runs a
// policy computed on one model (a quotient) on another with the same
// actions and observations (the original) and returns its exact expected
// return there, which is how the value gap of planning on a quotient is
// measured.
package pbvi
