// Package baseline builds the comparison partitions of the paper's
// tab:baseline-full and scores any history partition the way that table
// does.
//
// The partitions (per depth of the observation-history tree, like the
// ε-quotient's, so they plug into partition and quotient unchanged):
//
//   - Truncation(d): histories are identified by their last d
//     observations (a finite-window / k-Markov abstraction).
//   - Random: every history gets a uniformly random label among a given
//     number of classes per depth, from a seeded source.
//   - Belief distance: greedy complete linkage (partition.Greedy, the
//     ε-quotient's own clustering) on a distance between the beliefs
//     b_h(s) that follow the histories. By default the beliefs are those
//     of the constant first action (fsc.Constant(|A|, |O|, 0): listen for
//     Tiger, up for GridWorld) and the distance is total variation; this
//     reproduces every belief-distance row of tab:baseline-full (class
//     counts, value error and D). The beliefs of another probe, the
//     maximum over a family, and W1 under a state metric are options.
//   - Bisimulation: the Ferns–Panangaden–Precup state metric (Bisimulation,
//     formula below) lifted to histories as the Kantorovich distance between
//     beliefs, d(h, h') = W1_d(b_h, b_h'), and clustered like the belief
//     distance.
//
// The bisimulation metric is a fixed number of iterations of
//
//	d_{k+1}(s, s') = max_a [ c_R·|R̃(s,a) − R̃(s',a)| + c_O·TV(Ō(s,a), Ō(s',a))
//	                         + γ·W1_{d_k}(T(s,a,·), T(s',a,·)) ],   d_0 = 0,
//
// with R̃ = R/(R_max − R_min), Ō(s, a) the law of the next observation and
// W1_{d_k} the exact transport distance under d_k (package ot). The
// paper's settings are 10 iterations, γ = 0.9, c_R = 1 and c_O = 0 (its
// state-level subproblems compare rewards and transitions only); c_O > 0
// adds the observation term a POMDP metric would want. With these settings
// Tiger's two states are at distance 1 (so the lift is the TV of beliefs)
// and GridWorld's, which have no reward, at distance 0 (every history of a
// depth merges), which reproduces the bisimulation rows of
// tab:baseline-full.
//
// Assess scores a partition as tab:baseline-full does: the quotient
// (quotient.New) seen by every probe of a family (quotient.ForProbe) is
// compared with the original model through the trajectory laws,
// D = max_π W1(P_M^π, P_Q^π) (the column D^W_{m,T}), and through an
// objective, max_π |V_M^π − V_Q^π| (the column "value error").
//
// The paper's value-error columns (tab:baseline-full, tab:value-bounds
// panel A, tab:planning-speedup, the horizon-gap analysis) are reproduced
// by one functional of the observation sequence, the indicator that every
// observation equals the first one, G(o_{1:T}) = 1[o_1 = … = o_T = o^{(0)}]
// (AllFirst): it gives Tiger's 0.1225 (printed 0.122, 0.12), GridWorld's
// 0.099 and 0.104, Hallway's V* = 0.262 and value gap 0.082, and Tiger's
// V* = 0.3725 (printed 0.373). It is 1/δ-Lipschitz on O^T under the
// additive sequence metric, δ the smallest distance between two
// observations (1 for the discrete metric, 2 for GridWorld's geometric
// one), so |V_M^π − V_Q^π| ≤ D/δ.
package baseline
