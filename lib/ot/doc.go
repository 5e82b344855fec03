// Package ot computes exact optimal transport (Wasserstein-1) distances
// between finite discrete distributions, as used by the paper's probe
// pseudometric: the distance between two histories is a maximum over probes
// of W1 between their conditional suffix laws over O^k
// (docs/conventions.md#distances).
//
// The core is a primal network simplex for the transportation problem,
// built the way LEMON and POT build theirs: flat parallel arrays for the
// arcs and for the spanning tree (parent, predecessor arc, thread, reverse
// thread, subtree size, last successor), block-search pivoting with block
// size max(√arcs, 10), the strongly feasible leaving-arc rule, zero masses
// dropped before solving, and reduced costs compared with a relative
// tolerance. A Solver owns its scratch memory; repeated solves of similar
// sizes do not allocate.
//
// Entry points:
//
//   - Solver.W1 / Solver.W1Func: W1 under an arbitrary non-negative cost
//     matrix (flat slice or callback);
//   - Solver.SeqW1: W1 between two laws over O^k under the additive
//     sequence cost Σ_t d_O(o_t, o'_t), with exact fast paths (identical
//     laws, mass shared in place, point masses, k = 1 closed forms);
//   - TV: the total variation distance ½Σ|p − q|;
//   - Solver.LowerBound and UpperBound: cheap bounds on SeqW1 that settle
//     "> ε" and "≤ ε" decisions without a solve;
//   - Solver.WindowLowerBound and Solver.TreeCoupling: tighter bounds from
//     laws over fewer sequences (a window of positions; a sequential
//     coupling, observation by observation);
//   - ProductW1: SeqW1 under a uniform ground as a min-cost flow on the
//     product graph of O^k, whose size does not grow with the supports.
//
// Ground metrics d_O are Ground matrices: Discrete, Ordered, or checked by
// NewGround (a pseudometric) and NewMetric (a metric, as files must give;
// errors are *GroundError values naming the rule and the entry). Results
// depend on the ground metric, so it is printed beside them as a
// Described: its name or "discrete 0/1", its Fingerprint, and its source.
//
// Results carry a Status: a solve that hits Settings.MaxPivots reports
// IterationLimit (with ErrIterationLimit), never a silent optimum. After an
// optimal solve, Solver.Plan, Solver.Flows and Solver.Potentials give the
// plan and an optimal dual pair (u, v) with u_i + v_j ≤ c(i, j) and
// Σp·u + Σq·v = W1, a certificate of optimality.
//
// Package ot does not depend on package pomdp.
package ot
