// Package sample estimates the paper's probe distances from simulated
// trajectories, as its scale experiments do (paper §7.5, App. H:
// tab:medium-scale, tab:m2-scaling, tab:meaningful-scale, tab:convergence,
// tab:sampling-variance, tab:bootstrap-coverage, rem:sample-complexity), and
// makes every such estimate reproducible and comparable with the exact value.
//
// For a history h of depth t and a probe π the suffix law
//
//	P^π(O_{t+1:T} | h)
//
// is estimated from N trajectories: the belief at h is computed exactly (with
// π's own actions along h, docs/conventions.md#beliefs), a state is drawn from it — the
// paper's "O(|S|) belief sample" — and the suffix is simulated with π. The
// estimated distance between two histories is the maximum over the family of
// the exact W1 between their empirical laws (transport on the empirical
// supports under the additive sequence cost, package ot):
//
//	d̂^Π(h, h') = max_{π ∈ Π} W1( P̂^π_N(· | h), P̂^π_N(· | h') ).
//
// # Reproducibility
//
// Every sampled law has its own random stream, rand.NewPCG(seed, key), where
// key hashes what determines the law: the history, the actions the probe takes
// along it, and the probe's behaviour below it (its actions on the subtree,
// for a deterministic controller; the controller's family index, for a
// stochastic one). Results therefore depend on the seed only — not on the
// number of workers, the scheduling, or the order of the family. Two
// controllers that behave identically at h share one sample, exactly as they
// share one exact law: the thousands of duplicates in an m = 2 family cannot
// inflate the maximum with repeated noisy draws of the same law
// (Options.Independent samples every controller on its own instead, as a
// sampler without de-duplication does; the paper's m = 2 counts indicate
// it sampled that way). Bootstrap
// replicate b resamples law j from its own stream as well. N trajectories of a
// seed are the first N of any larger sample with that seed (common random
// numbers across sample sizes).
//
// # Pieces
//
//   - New plans a run: it walks the family once, computes the exact beliefs,
//     and finds the distinct (history, behaviour) laws to sample and the
//     distinct transport problems comparing them. Sampler.Run samples them
//     for a sample size and a seed; Compute does both.
//   - Result holds the sampled per-depth distance matrices (like
//     distance.Result), the partitions they give, and the empirical laws.
//   - Result.Bootstrap gives a percentile bootstrap interval on
//     max_{h,h'} d̂^Π (the paper's protocol: N = 500, B = 1,000 resamples).
//   - Exact computes the exact counterpart with package distance, and Compare
//     sets a sampled result beside it (largest error, bias of the maximum,
//     class counts, ARI): every sampled number can be checked.
//   - Convergence, Stability and Coverage are the paper's three sampling
//     studies, run against the exact distances it could not compute.
//
// # Impossible histories
//
// A history of probability zero under a probe gets the stand-in of the
// chosen law.Convention, as in the exact pipeline: under UniformStandIn the
// start (state, node) is drawn uniformly, under PointMassStandIn the law is
// the point mass on the all-first-observation suffix (nothing is sampled).
package sample
