// Package certify selects small controller subsets and certifies them
// (paper §6): the greedy coverage selection of alg:greedy-fsc, the
// probe-envelope gap δ_S = ‖d − d_S‖∞ that turns a subset into an a
// posteriori certificate (thm:probe-approx), and the report of partition
// agreement between a subset's ε-quotient and the full family's
// (tab:partition-agreement).
//
// It also implements the split-until-stable refinement of
// alg:approx-partition (Refine), exact coverage optima and the
// diminishing-returns check of prop:submodular, the exact envelope rank
// r_env and Hankel ranks of conj:hankel-rank, δ-anchor families
// (def:anchor-family, thm:anchor-compression), effective ranks of the
// distinguishing matrix (the low-rank table), the value check of
// thm:probe-approx and the Lipschitz check of lem:lipschitz.
//
// The input is the per-probe distance tensor of distance.Compute with
// Options.Tensor set.
package certify
