// Package distance computes the paper's history-level probe distances
//
//	d^Π(h, h') = max_{π ∈ Π} W1( P^π(O_{t+1:T} | h), P^π(O_{t+1:T} | h') )
//
// for every pair of equal-length histories of the history tree (def:equiv),
// under the additive sequence cost built from a ground metric d_O, or under
// total variation (the paper's TV ablation).
//
// Compute works in phases, each reported through Options.Phase and
// Options.Progress and cancelled with the context:
//
//   - probes: controllers with the same action tree have the same laws and
//     are computed once (docs/algorithms.md#duplicate-probes; the family size is unchanged);
//   - classes: the exact (ε = 0) classes, no transport problem, by
//     refinement of the law vectors of every history
//     (docs/algorithms.md#exact-classes) or, above 2²⁰ histories, depth
//     by depth from the previous depth's classes over each probe's DAG of
//     distinct posteriors (docs/algorithms.md#classes-not-histories; not
//     on the all-pairs, tensor and sharded runs); above law.MaxHistories
//     the later phases read the representatives' laws from those DAGs;
//   - bounds (long suffixes only): family-wide lower bounds on each pair of
//     class representatives, from one-step marginals (docs/algorithms.md#small-transport-problems);
//   - distances: one transport problem per pair of class representatives
//     per probe that the bounds cannot settle, on all cores; per-worker
//     matrices merge by element-wise max (docs/algorithms.md#splitting-the-family).
//
// Memory grows with Σ_t (classes at depth t)², not with the histories
// squared; the greedy ε-partitions are the same as over all pairs (the
// proof is in Compute's doc comment). Given the ε values it will be asked
// for (Options.Eps), Compute settles pairs above the largest by lower
// bounds instead of solving them (docs/algorithms.md#decision-mode); with
// Options.Compact it keeps only which listed ε each pair of classes is
// within, a bit per pair and ε shared by the workers (Decisions), in place
// of eight bytes per pair and worker. Before computing, and again
// when the classes are known, it estimates its peak memory (Cost, Plan)
// and refuses a run over Options.MemBudget with a *BudgetError naming the
// largest term. Results carry the number of (history, probe) pairs that
// needed the impossible-history stand-in (docs/conventions.md#stand-ins).
package distance
