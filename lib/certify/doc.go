// Package certify selects small controller subsets and certifies them
// (paper §6): the greedy coverage selection of alg:greedy-fsc, the
// probe-envelope gap δ_S = ‖d − d_S‖∞ that turns a subset into an a
// posteriori certificate (thm:probe-approx), and the report of partition
// agreement between a subset's ε-quotient and the full family's
// (tab:partition-agreement).
//
// The input is the per-probe distance tensor of dist.Compute with
// Options.Tensor set.
package certify
