// Package partition holds partitions of the observation-history tree into
// classes, per depth, and the ways the paper builds and compares them:
// exact grouping (ε = 0), greedy complete linkage (ε > 0, docs/conventions.md#partitions),
// an optimal minimum-clique-cover partition for small depths, class-count
// curves over ε grids and the adjusted Rand index.
//
// Histories of different depths are never merged (alg:approx-partition
// starts from the partition by length). Class counts are totals over all
// depths 0 … T; histories of depth T have an empty suffix and always form a
// single class.
package partition
