// Package bb holds what the two branch-and-bound distance searches,
// lib/clock2 (the clock-aware family with two nodes) and lib/statbb (the
// stationary family with at most three), share around their searches:
//
//   - Options, which both packages' Options alias, and the defaults of
//     its fields (NodeLimit, Budget, Workers);
//   - Decision, the decision-mode bookkeeping: the listed ε, the cap
//     above the largest, and the pruning threshold Theta;
//   - Distances, the matrices a search fills over every depth of the
//     history tree, with their ε-partitions and largest value;
//   - Run, the plumbing of a search's workers: the first error, which
//     cancels the others, and the progress count.
//
// It holds no search: each package's own comment describes its branch
// and bound.
package bb
