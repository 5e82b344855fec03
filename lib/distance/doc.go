// Package distance computes the paper's history-level probe distances
//
//	d^Π(h, h') = max_{π ∈ Π} W1( P^π(O_{t+1:T} | h), P^π(O_{t+1:T} | h') )
//
// for every pair of equal-length histories of the history tree (def:equiv),
// under the additive sequence cost built from a ground metric d_O, or under
// total variation (the paper's TV ablation).
//
// The family is split across cores; each worker keeps its own per-depth
// matrices and the shards merge by element-wise max (ALGORITHMS.md idea 8).
// Deterministic controllers with the same action tree have the same laws
// and are computed once (idea 3); the reported family size is unchanged.
// A pair's transport problem is skipped when a cheap upper bound
// (k · max d_O · TV) cannot raise the running maximum, and identical laws
// cost nothing. Results carry the number of (history, probe) pairs that
// needed the impossible-history stand-in (CONVENTIONS.md).
package distance
