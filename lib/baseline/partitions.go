package baseline

import (
	"fmt"
	"math/rand/v2"

	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// Truncation returns the partition of tree in which two histories of one
// depth share a class when their last d observations agree (histories
// shorter than d keep all their observations, so they stay apart):
//
//	h ~ h'  ⇔  |h| = |h'| and (o_{t−d+1}, …, o_t) = (o'_{t−d+1}, …, o'_t).
//
// This is the "Truncation (d)" baseline of tab:baseline-full: with d = 1
// at T = 2 it gives 1 + |O| + |O| classes (5 for Tiger, 9 for GridWorld).
// d = 0 puts every depth in one class. It panics if d < 0. Cost O(|tree|).
func Truncation(tree law.Tree, d int) *partition.Partition {
	if d < 0 {
		panic(fmt.Sprintf("baseline: truncation depth %d < 0", d))
	}
	labels := make([][]int, tree.T+1)
	for t := 0; t <= tree.T; t++ {
		n := tree.Count(t)
		keep := tree.Count(min(t, d)) // the last min(t, d) digits
		labels[t] = make([]int, n)
		for i := range labels[t] {
			labels[t][i] = i % keep
		}
	}
	return partition.FromLabels(labels)
}

// Random returns a random partition of tree with at most counts[t]
// classes at depth t: every depth-t history gets a label drawn uniformly
// from {0, …, counts[t] − 1} (a label that is never drawn leaves a class
// empty, so the count can be smaller). The draws come from src in history
// order, depth by depth; nil means rand.NewPCG(0, 0). This is the "Random
// partition" baseline of tab:baseline-full with counts from the
// ε-quotient it is compared with (RandomLike).
//
// It panics if len(counts) ≠ T + 1 or a count is below 1.
// Cost O(|tree|).
func Random(tree law.Tree, counts []int, src rand.Source) *partition.Partition {
	if len(counts) != tree.T+1 {
		panic(fmt.Sprintf("baseline: %d class counts for %d depths", len(counts), tree.T+1))
	}
	if src == nil {
		src = rand.NewPCG(0, 0)
	}
	rng := rand.New(src)
	labels := make([][]int, tree.T+1)
	for t := range labels {
		if counts[t] < 1 {
			panic(fmt.Sprintf("baseline: class count %d < 1 at depth %d", counts[t], t))
		}
		labels[t] = make([]int, tree.Count(t))
		for i := range labels[t] {
			labels[t][i] = rng.IntN(counts[t])
		}
	}
	return partition.FromLabels(labels)
}

// RandomLike returns Random(tree, p.Counts(), src): a random partition
// with at most as many classes per depth as p.
func RandomLike(tree law.Tree, p *partition.Partition, src rand.Source) *partition.Partition {
	return Random(tree, p.Counts(), src)
}
