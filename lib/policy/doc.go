// Package policy reads, writes, evaluates and analyses the policies of
// POMDP solvers: pomdp-solve's policy graphs (.pg) and alpha vectors
// (.alpha), and SARSOP's alpha-vector policies (.policy).
//
// A policy graph is a deterministic stationary finite-state controller
// (package fsc): one line per node,
//
//	node-id action-index next-node-for-observation-0 … next-node-for-observation-|O|−1
//
// with nodes and actions numbered from 0 in the order of the .pomdp file and
// "-" where the solver left a node without successor for an observation
// (it found the observation impossible there). ReadPG returns such a graph
// as an *fsc.FSC whose Next table holds None at the "-" entries; WritePG
// writes pomdp-solve's exact layout, so a file it wrote reads and writes
// back bit for bit. Graphs have no designated start node: Evaluate reports
// the value at b0 from the best start node, and Complete turns a graph into
// a controller that starts in a chosen node and has no None entries, which
// every other package of this module accepts.
//
// An alpha file holds, per vector, a line with an action index and a line
// of |S| values; pomdp-solve writes vector i for node i of the graph it
// writes beside it. ReadAlpha and WriteAlpha read and write them; Value
// returns max_α α·b.
//
// Evaluate computes the exact value of any controller, per (node, state):
// for the discounted infinite horizon by a linear solve over (node, state)
// pairs (dense LU for small graphs, value iteration to a proven error
// bound for large ones), for a finite horizon T by backward recursion; a
// "-" reached with positive probability is reported, not papered over.
// Minimize returns the smallest controller with the same behaviour (a
// Moore-machine minimisation of the graph), MinimizeUpTo the smallest
// clock-aware one that behaves the same for T steps, and Unroll the
// opposite (a policy tree, as finite-horizon solvers write). Analyze looks
// at a controller through an ε-quotient (package quotient, built by
// EpsQuotient): its value on the model and on the quotient it sees, the
// histories it tells apart that the quotient merges, and whether it
// belongs to the probe family.
//
// A SARSOP .policy (XML, see VectorPolicy) holds alpha vectors, each with
// an action and the value of the fully observed part of the state it
// applies to. ReadPolicy and WritePolicy read and write it; LowerBound
// returns max_α α·b over the applicable vectors (SARSOP's lower bound at
// b0), and EvaluateGreedy the exact T-step value of the policy that acts
// greedily on the vectors, with the bracket |V − V_T| ≤ γ^T·max|R|/(1−γ)
// of its discounted value.
package policy
