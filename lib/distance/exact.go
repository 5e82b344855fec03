package distance

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// ExactResult is the ε = 0 partition computed by Exact.
type ExactResult struct {
	Partition *partition.Partition
	// FamilySize and Distinct as in Result; StandIns counts (history,
	// controller) pairs that used the stand-in.
	FamilySize, Distinct, StandIns int
	// Comparisons is the number of law comparisons made (each O(|O|^{T−t})).
	Comparisons int64
	Seconds     float64
}

// Exact returns the ε = 0 partition (h ≡ h' iff every probe gives them the
// same suffix law) without any pairwise transport problem
// (docs/algorithms.md#exact-classes): the partition by depth is refined probe by probe, each class
// split by comparing its members' laws with the laws of the sub-classes'
// first members. Two laws are equal when max_x |p_x − q_x| ≤ LawTol and
// k·max d_O·TV ≤ partition.ZeroTol, so that equal laws are at distance at
// most ZeroTol. The cost per probe is one law pass plus O(n·c·|O|^{T−t})
// per depth for n histories in c classes, instead of n² transport problems:
// this is what makes exact quotients of large trees cheap.
//
// It agrees with Compute(...).Partition(0) whenever no chain of laws each
// within tolerance of the next spans more than the tolerance (the tests
// check the benchmarks).
func Exact(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, opt Options) (*ExactResult, error) {
	start := time.Now()
	e, err := law.NewEngine(m, T, opt.Convention)
	if err != nil {
		return nil, err
	}
	g, err := ot.ForObservations(opt.Ground, m.NumObservations())
	if err != nil {
		return nil, fmt.Errorf("distance: model %s: %w", m.Name, err)
	}
	tree := e.Tree()
	res := &ExactResult{FamilySize: fam.Len()}
	labels := make([][]int, T+1)
	for t := range labels {
		labels[t] = make([]int, tree.Count(t))
	}
	laws := e.NewLaws()
	seen := map[string]int{} // action tree → stand-in count of its first controller
	var key []byte
	for i := 0; i < fam.Len(); i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := fam.At(i)
		if err := e.Check(c); err != nil {
			return nil, fmt.Errorf("distance: controller %d of %v: %w", i, fam, err)
		}
		if !opt.NoDedup && c.Deterministic() {
			key = law.ActionTree(key[:0], c, tree)
			if s, ok := seen[string(key)]; ok && s == 0 {
				continue // same laws as an earlier controller, no stand-in
			}
		}
		if err := e.ComputeInto(laws, c); err != nil {
			return nil, err
		}
		if !opt.NoDedup && c.Deterministic() {
			if _, ok := seen[string(key)]; !ok {
				seen[string(key)] = laws.StandIns
			}
		}
		res.Distinct++
		res.StandIns += laws.StandIns
		for t := 0; t < T; t++ {
			res.Comparisons += refine(labels[t], laws.Depth(t), tree.SuffixLen(t), sumTolerance(opt.Metric, g, T-t))
		}
		if opt.Progress != nil {
			opt.Progress(i+1, fam.Len())
		}
	}
	// Stand-ins of skipped duplicates are zero by construction.
	res.Partition = partition.FromLabels(labels)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// LawTol is the largest entry-wise difference at which Exact treats two
// laws as equal.
const LawTol = 1e-13

// refine splits every class of labels by equality of the laws (blocks of
// length L in data), in place, and returns the number of law comparisons.
//
// Two laws are equal when every entry agrees to LawTol and their total
// variation is at most sumTol/2 (sumTol from sumTolerance), so that equal
// laws are within partition.ZeroTol of each other in the chosen metric.
func refine(labels []int, data []float64, L int, sumTol float64) int64 {
	n := len(labels)
	// reps[(class)] lists the first member of each sub-class of class.
	type sub struct{ rep, label int }
	subs := map[int][]sub{}
	next := 0
	var cmp int64
	for i := 0; i < n; i++ {
		old := labels[i]
		p := data[i*L : (i+1)*L]
		found := -1
		for _, s := range subs[old] {
			cmp++
			if equalLaws(p, data[s.rep*L:(s.rep+1)*L], sumTol) {
				found = s.label
				break
			}
		}
		if found < 0 {
			found = next
			next++
			subs[old] = append(subs[old], sub{i, found})
		}
		labels[i] = found
	}
	return cmp
}

func equalLaws(p, q []float64, sumTol float64) bool {
	sum := 0.0
	for k, x := range p {
		d := math.Abs(x - q[k])
		if !(d <= LawTol) {
			return false
		}
		sum += d
	}
	return sum <= sumTol
}

// sumTolerance returns the largest Σ_x |p_x − q_x| at which two laws of
// k-step suffixes count as equal: W1 ≤ k·max d_O·TV and TV = Σ/2, so laws
// this close are within partition.ZeroTol of each other (and of every
// other history up to that slack): the class path then gives the greedy
// partitions of all pairs.
func sumTolerance(metric Metric, g ot.Ground, k int) float64 {
	if metric == TV || k == 0 {
		return 2 * partition.ZeroTol
	}
	gmax := g.Max()
	if !(gmax > 0) {
		return math.Inf(1)
	}
	return 2 * partition.ZeroTol / (float64(k) * gmax)
}
