package distance

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Sharded runs split an enumerated family into n contiguous index ranges
// and run in two rounds, so that the merged result is the single-process
// Compute bit for bit:
//
//  1. ExactClasses on each slice: the slice's exact partition and its
//     probes (one family index per action tree, grouped within the slice).
//     The meet of the slices' partitions is the family's exact partition,
//     since two histories share a class exactly when every probe gives them
//     equal laws; every shard then derives the same representatives (the
//     first member of each class).
//  2. ComputePlanned on each slice against that partition: per depth, the
//     maximum over the slice's probes of the distance between every pair of
//     the family's class representatives. The element-wise maximum over the
//     slices is d^Π between the representatives, computed by the same
//     transport problems as Compute: same numbers, same partitions.
//
// A probe that two slices both hold is computed twice; the maximum does
// not mind.

// ShardRange returns the index range [lo, hi) of shard i of n over a
// family of size size: contiguous, in family order, sizes differing by at
// most one.
func ShardRange(size, i, n int) (lo, hi int) {
	at := func(k int) int {
		v := new(big.Int).Mul(big.NewInt(int64(size)), big.NewInt(int64(k)))
		return int(v.Quo(v, big.NewInt(int64(n))).Int64())
	}
	return at(i), at(i + 1)
}

// Slice returns the members lo … hi−1 of fam as a family of its own
// (member k is fam.At(lo + k)).
func Slice(fam fsc.Family, lo, hi int) fsc.Family {
	if lo < 0 || hi > fam.Len() || lo > hi {
		panic(fmt.Sprintf("distance: slice [%d, %d) of a family of %d", lo, hi, fam.Len()))
	}
	return &slice{Family: fam, lo: lo, n: hi - lo}
}

type slice struct {
	fsc.Family
	lo, n int
}

func (s *slice) Len() int          { return s.n }
func (s *slice) At(i int) *fsc.FSC { return s.Family.At(s.lo + i) }
func (s *slice) String() string    { return fmt.Sprintf("%v[%d:%d]", s.Family, s.lo, s.lo+s.n) }

// Classes is the first round of a sharded run over one family (or slice).
type Classes struct {
	// Classes is the exact partition under the family's probes.
	Classes *partition.Partition
	// Probes are the family indices whose laws the distances phase
	// computes: one per action tree, and every member of a group whose
	// representative needed a stand-in.
	Probes []int
	// FamilySize is the number of controllers, duplicates included.
	FamilySize int
}

// ExactClasses runs Compute's phases probes and classes on fam: the first
// round of a sharded run (see ShardRange). The estimate is checked against
// Options.MemBudget as in Compute; Options.AllPairs and Tensor are refused.
func ExactClasses(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, opt Options) (*Classes, error) {
	if opt.AllPairs || opt.Tensor {
		return nil, fmt.Errorf("distance: sharded runs work on exact classes (no AllPairs, no Tensor)")
	}
	pr, err := prepare(ctx, m, fam, T, opt, false, given{})
	if err != nil {
		return nil, err
	}
	pr.phase("")
	return &Classes{Classes: pr.res.Classes, Probes: pr.probes, FamilySize: fam.Len()}, nil
}

// ComputePlanned runs Compute's phases bounds and distances on fam against
// the exact partition classes of the whole family (the meet of every
// shard's ExactClasses): ClassD holds, per depth, the maximum over fam's
// probes of the distance between each pair of classes' representatives.
// probes, when not nil, lists the family indices to compute (an
// ExactClasses result over the same fam); otherwise fam is grouped by
// behaviour again. History-level matrices (D) are not filled.
func ComputePlanned(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, opt Options, classes *partition.Partition, probes []int) (*Result, error) {
	start := time.Now()
	if opt.AllPairs || opt.Tensor {
		return nil, fmt.Errorf("distance: sharded runs work on exact classes (no AllPairs, no Tensor)")
	}
	if classes == nil {
		return nil, fmt.Errorf("distance: ComputePlanned needs the exact partition")
	}
	if probes != nil && len(probes) == 0 {
		return nil, fmt.Errorf("distance: empty probe list")
	}
	opt.FullLimit = -1
	opt.Compact = false // the parts merge distance matrices
	pr, err := prepare(ctx, m, fam, T, opt, false, given{probes: probes, classes: classes})
	if err != nil {
		return nil, err
	}
	return pr.finish(ctx, start)
}
