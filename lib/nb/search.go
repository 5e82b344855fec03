package nb

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// SetPartitions returns every partition of {0, …, n−1} as restricted-growth
// label strings (the first element in class 0, each later one in a class
// already used or the next new one): Bell(n) strings, none for n < 1.
func SetPartitions(n int) [][]int {
	if n < 1 {
		return nil
	}
	var out [][]int
	a := make([]int, n)
	var rec func(i, hi int)
	rec = func(i, hi int) {
		if i == n {
			out = append(out, append([]int(nil), a...))
			return
		}
		for c := 0; c <= hi+1; c++ {
			a[i] = c
			rec(i+1, max(hi, c))
		}
	}
	rec(1, 0)
	return out
}

// Soundness returns max over the probes of fam of TV(P_M^π, P_Q^π) for the
// quotient Q of m's partition p at horizon T, and the index of the probe
// attaining it (the first; 0 when every gap is 0): thm:myhill-nerode (ii).
func Soundness(m *pomdp.Model, T int, fam fsc.Family, p *partition.Partition) (gap float64, worst int, err error) {
	q, err := quotient.New(m, T, p)
	if err != nil {
		return 0, 0, err
	}
	for k := 0; k < fam.Len(); k++ {
		_, tv, err := q.SoundnessGap(fam.At(k))
		if err != nil {
			return 0, 0, fmt.Errorf("probe %d: %w", k, err)
		}
		if tv > gap {
			gap, worst = tv, k
		}
	}
	return gap, worst, nil
}

// PartitionSearch counts, over every per-depth partition of a history tree
// (see [SearchPartitions]), the sound ones and the smallest.
type PartitionSearch struct {
	Candidates, Sound, SoundRefining, MinClasses, Minimizers int
	MinIsExact                                               bool // a smallest sound partition is the exact one
}

// SearchPartitions tests every per-depth partition of the history tree tr
// of m at depth < T (depth T one class) for soundness (TV gap 0 under every
// probe of fam, [Soundness]), and compares the sound ones with the exact
// partition exact: how many refine it, the fewest classes and whether the
// exact partition attains it. The count is the product of the Bell numbers
// of the depths' sizes: for small trees only.
func SearchPartitions(m *pomdp.Model, tr law.Tree, T int, fam fsc.Family, exact *partition.Partition) (PartitionSearch, error) {
	per := make([][][]int, T)
	for t := range per {
		per[t] = SetPartitions(tr.Count(t))
	}
	res := PartitionSearch{MinClasses: math.MaxInt}
	idx := make([]int, T)
	for {
		labels := make([][]int, T+1)
		for t := 0; t < T; t++ {
			labels[t] = per[t][idx[t]]
		}
		labels[T] = make([]int, tr.Count(T))
		if err := res.add(m, T, fam, partition.FromLabels(labels), exact); err != nil {
			return res, err
		}
		k := 0
		for ; k < T; k++ {
			if idx[k]++; idx[k] < len(per[k]) {
				break
			}
			idx[k] = 0
		}
		if k == T {
			return res, nil
		}
	}
}

// add counts one candidate partition p.
func (res *PartitionSearch) add(m *pomdp.Model, T int, fam fsc.Family, p, exact *partition.Partition) error {
	res.Candidates++
	g, _, err := Soundness(m, T, fam, p)
	if err != nil {
		return err
	}
	if g > 1e-12 {
		return nil
	}
	res.Sound++
	if p.Refines(exact) {
		res.SoundRefining++
	}
	switch {
	case p.Total() < res.MinClasses:
		res.MinClasses, res.Minimizers, res.MinIsExact = p.Total(), 1, p.Equal(exact)
	case p.Total() == res.MinClasses:
		res.Minimizers++
		res.MinIsExact = res.MinIsExact || p.Equal(exact)
	}
	return nil
}
