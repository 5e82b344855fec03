package certify

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/partition"
)

// SplitRule says how alg:approx-partition splits a block that is not yet
// stable. The algorithm box of the paper only says "split B by
// max_π W1(P^π(·|h), P^π(·|h')) ≤ ε"; for ε > 0 that relation is not an
// equivalence, so a rule has to be chosen. Both rules scan a block in
// history order and start from its first member, the leader.
type SplitRule int

const (
	// SplitClique keeps the members within ε of every member kept so far
	// (the leader first); the others form a new block. A block is stable
	// when its diameter is at most ε, which is the hypothesis of
	// thm:value-bound. This rule reproduces the greedy complete linkage of
	// partition.Greedy exactly (see Refine).
	SplitClique SplitRule = iota
	// SplitLeader keeps the members within ε of the leader; the others form
	// a new block. A block is stable when every member is within ε of its
	// leader, so classes have radius ≤ ε but diameter up to 2ε (triangle
	// inequality). This is the most literal reading of "split B by d ≤ ε".
	SplitLeader
)

// String returns "clique" or "leader".
func (r SplitRule) String() string {
	switch r {
	case SplitClique:
		return "clique"
	case SplitLeader:
		return "leader"
	}
	return fmt.Sprintf("SplitRule(%d)", int(r))
}

// Refinement is the result of alg:approx-partition.
type Refinement struct {
	Partition *partition.Partition
	Rule      SplitRule
	// Passes is the number of iterations of the repeat loop, the last one
	// (which changes nothing) included.
	Passes int
	// Splits is the number of blocks split over all passes.
	Splits int
	// Diameter is the largest distance between two members of one class;
	// Radius the largest distance from a class's first member to another
	// member.
	Diameter, Radius float64
}

// Refine runs alg:approx-partition on the per-depth probe distances d
// (d[t] over the d[t].N histories of depth t; a matrix with nil Data puts
// its N histories in one class, as for depth T): start from the partition by
// length, {O^t : 0 ≤ t ≤ T}; in every pass split each unstable block once
// by the rule; repeat until a pass changes nothing. Distances are compared
// with ε + partition.ZeroTol, as everywhere else (docs/conventions.md#partitions).
//
// With SplitClique a pass turns an unstable block B = (h_1, h_2, …) into
//
//	K = greedy clique of h_1 in history order,  B \ K,
//
// so the classes are found one per pass, in history order, each the
// first-fit clique of the first history not yet placed. Greedy complete
// linkage (partition.Greedy, docs/conventions.md#partitions) builds exactly the same
// classes: its scan merges into cluster h_1 every later singleton that is
// within ε of all of the cluster before moving on, so the two partitions
// are equal for every d and ε (the tests check this on the benchmarks and
// on random matrices). With SplitLeader the kept part is the ε-ball of h_1,
// a superset of its clique: fewer or equal classes at the first split,
// diameters up to 2ε.
//
// At ε = 0 both rules give the exact partition when "distance ≤ ZeroTol"
// is transitive, as it is for equal laws.
//
// Cost: O(n²) distance look-ups per pass and depth for n histories, at
// most n passes. Refine panics for an unknown rule.
func Refine(d []partition.Matrix, eps float64, rule SplitRule) *Refinement {
	if rule != SplitClique && rule != SplitLeader {
		panic(fmt.Sprintf("certify: unknown split rule %d", int(rule)))
	}
	thr := eps + partition.ZeroTol
	res := &Refinement{Rule: rule}
	// blocks[t] lists the blocks of depth t, members in history order.
	blocks := make([][][]int, len(d))
	for t, m := range d {
		all := make([]int, m.N)
		for i := range all {
			all[i] = i
		}
		blocks[t] = [][]int{all}
	}
	at := func(t, i, j int) float64 {
		if d[t].Data == nil {
			return 0
		}
		return d[t].At(i, j)
	}
	for {
		res.Passes++
		changed := false
		for t := range blocks {
			var next [][]int
			for _, B := range blocks[t] {
				keep, rest := split(B, thr, rule, func(i, j int) float64 { return at(t, i, j) })
				next = append(next, keep)
				if len(rest) > 0 {
					next = append(next, rest)
					changed = true
					res.Splits++
				}
			}
			blocks[t] = next
		}
		if !changed {
			break
		}
	}
	labels := make([][]int, len(d))
	for t, bs := range blocks {
		labels[t] = make([]int, d[t].N)
		for c, B := range bs {
			for _, h := range B {
				labels[t][h] = c
			}
			for a, h := range B {
				if a > 0 {
					res.Radius = math.Max(res.Radius, at(t, B[0], h))
				}
				for _, g := range B[a+1:] {
					res.Diameter = math.Max(res.Diameter, at(t, h, g))
				}
			}
		}
	}
	res.Partition = partition.FromLabels(labels)
	return res
}

// split splits one block by the rule; rest is empty when B is stable.
func split(B []int, thr float64, rule SplitRule, d func(i, j int) float64) (keep, rest []int) {
	if len(B) == 0 {
		return B, nil
	}
	keep = []int{B[0]}
	for _, h := range B[1:] {
		ok := true
		switch rule {
		case SplitLeader:
			ok = d(B[0], h) <= thr
		case SplitClique:
			for _, k := range keep {
				if !(d(k, h) <= thr) {
					ok = false
					break
				}
			}
		}
		if ok {
			keep = append(keep, h)
		} else {
			rest = append(rest, h)
		}
	}
	return keep, rest
}

// Diameter returns the largest distance under d between two histories of
// one class of p, over all depths: a partition is an ε-partition in the
// sense of thm:value-bound when its diameter is at most ε. It panics if p
// and d do not describe the same tree.
func Diameter(d []partition.Matrix, p *partition.Partition) float64 {
	if p.Depths() != len(d) {
		panic(fmt.Sprintf("certify: partition has %d depths, distances %d", p.Depths(), len(d)))
	}
	diam := 0.0
	for t, m := range d {
		if m.Data == nil {
			continue
		}
		if len(p.Labels[t]) != m.N {
			panic(fmt.Sprintf("certify: depth %d has %d labels for %d histories", t, len(p.Labels[t]), m.N))
		}
		for i := 0; i < m.N; i++ {
			for j := i + 1; j < m.N; j++ {
				if p.Labels[t][i] == p.Labels[t][j] {
					diam = math.Max(diam, m.At(i, j))
				}
			}
		}
	}
	return diam
}
