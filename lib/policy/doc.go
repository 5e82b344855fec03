// Package policy reads, writes, evaluates and analyses the policies of
// POMDP solvers: pomdp-solve's policy graphs (.pg) and alpha vectors
// (.alpha).
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
// pairs, for a finite horizon T by backward recursion. Minimize returns the
// smallest controller with the same behaviour (a Moore-machine
// minimisation of the graph), MinimizeUpTo the smallest clock-aware one
// that behaves the same for T steps, and Analyze looks at a controller
// through an ε-quotient (package quotient): its value on the model and on
// the quotient it sees, the histories it tells apart that the quotient
// merges, and whether it belongs to the probe family.
package policy
