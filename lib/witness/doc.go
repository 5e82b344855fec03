// Package witness searches small POMDPs for the smallest models that
// separate probe families, the open questions of the paper's
// prop:stationary-counterexample (a hand-built 9-state witness):
//
//   - Clk: the operational quotient Q_op (constant action strings) differs
//     from the clock-aware m = 1 quotient Q_clk (all action strings);
//   - Mem: the m = 1 and m ≤ 2 deterministic stationary quotients differ;
//   - Metric: the greedy ε-partitions under W1 and under TV differ at
//     some ε (discrete ground metric, m = 1 stationary probes);
//
// each also in a "-free" form that asks the separation not to depend on
// the impossible-history stand-in (docs/conventions.md#stand-ins): at the separating
// depth every history is possible under every probe.
//
// Search enumerates model classes (|S|, |O|, |A| and a probability grid,
// see Grid) in the order |S|, then horizon T, then |O|, then |A|, so the
// first witness of a criterion is a smallest one in that order when every
// earlier class was exhausted or settled by an argument
// (Witness.SmallestClass; a sampled class proves nothing). Models of
// a class are codes (one composition per row of b0, T and Z); with
// symmetry reduction only the lexicographically smallest code of each
// orbit under relabelling states and actions is tested (observations are
// not relabelled: the point-mass stand-in and the greedy linkage order
// depend on observation indices). Classes too large to enumerate are
// sampled with a seeded PCG source, and the report says which classes
// were exhausted, sampled, ruled out by an argument (e.g. T = 1, |A| = 1
// for the family criteria) or cut by the budget.
//
// Each criterion is tested by the library's fast paths (package clock for
// Clk; package distance for Mem and Metric). Every witness found is then
// re-derived by an oracle that shares none of that code except the exact
// W1 between two laws (package ot, used by package distance too): it lists the
// probes explicitly, computes each suffix law by summing over all state
// sequences, groups histories and runs greedy linkage itself
// (Witness.Certify), and the certificate it returns — the two histories,
// a separating probe with the two laws, the laws under every probe of the
// smaller family, or the ε with the W1 and TV values — comes from the
// oracle.
package witness
