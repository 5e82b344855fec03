// Package law computes exact laws of future observations under a probe: the
// trajectory law P^π(O_{1:T}) and, for every history h of the history tree,
// the conditional suffix law P^π(O_{t+1:T} | h) (paper def:equiv).
//
// All laws of one probe come from one depth-first pass over the history
// tree (docs/algorithms.md#one-pass-per-probe): the pass carries the unnormalised joint
// α_h(s, n) = P^π(h, s_t = s, n_t = n), extends it one observation at a time
// reusing the parent's vector, and records the mass P^π(x) of every full
// sequence x ∈ O^T. The conditional law of a suffix y after h is then
// P^π(h·y) / P^π(h), a block of the same leaf masses. Subtrees of mass zero
// are skipped.
//
// Engine.DAG gives the same laws without the tree: a graph of the
// probe's distinct posteriors, depth by depth, whose size follows the
// distinct beliefs (docs/algorithms.md#classes-not-histories).
//
// Impossible histories (P^π(h) = 0) have no conditional law; a stand-in is
// used and counted (docs/conventions.md#stand-ins):
//
//   - UniformStandIn (the operational pipeline's default): the joint
//     posterior at h is replaced by the uniform distribution over
//     (state, controller node) and the suffix law is computed from there.
//   - PointMassStandIn (the exact clock-aware pipeline): the law is the
//     point mass on the all-first-observation suffix (o_0, …, o_0).
//
// A third reading, the possibility pattern of the authors' exact m = 1
// pipeline, is not a stand-in law but a labelling rule over exact classes:
// a string is labelled, per probe, by whether it is possible and, if so,
// by its class, so impossible strings form classes of their own and depth
// T is split by possibility. It is implemented where those classes are
// computed, in package clock (clock.PossibilityPattern).
//
// Histories are indexed per depth t by their base-|O| value with o_1 the
// most significant digit, i.e. lexicographically in observation indices.
package law
