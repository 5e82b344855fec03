package shard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// Part is a decoded file and the name it was read from.
type Part struct {
	Name string
	*File
}

// MissingError reports shards absent from a merge.
type MissingError struct {
	Missing []int
	Count   int
	Kind    Kind
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("shard: %d of %d %ss missing: shards %s (rerun them, or list them with --missing)",
		len(e.Missing), e.Count, e.Kind, Ranges(e.Missing))
}

// Ranges formats sorted shard indices as Slurm's --array syntax, e.g.
// "0,3-5".
func Ranges(idx []int) string {
	var b strings.Builder
	for k := 0; k < len(idx); {
		j := k
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j == k {
			fmt.Fprintf(&b, "%d", idx[k])
		} else {
			fmt.Fprintf(&b, "%d-%d", idx[k], idx[j])
		}
		k = j + 1
	}
	return b.String()
}

// Missing returns the shard indices of 0 … Count−1 that no part holds,
// after checking that the parts belong to one run (Check without the
// completeness test).
func Missing(parts []Part) ([]int, error) {
	if err := consistent(parts); err != nil {
		return nil, err
	}
	have := make([]bool, parts[0].Count)
	for _, p := range parts {
		have[p.Index] = true
	}
	var miss []int
	for i, h := range have {
		if !h {
			miss = append(miss, i)
		}
	}
	return miss, nil
}

// consistent checks that the parts are of one kind, describe one run and
// hold each shard at most once.
func consistent(parts []Part) error {
	if len(parts) == 0 {
		return fmt.Errorf("shard: no files to merge")
	}
	first := parts[0]
	if first.Kind == KindPlan {
		return fmt.Errorf("%s: a plan, not a part (give it to `pomdpq quotient --plan`)", first.Name)
	}
	seen := make(map[int]string)
	for _, p := range parts {
		if p.Kind != first.Kind {
			return fmt.Errorf("%s is a %s but %s is a %s: merge one round at a time", p.Name, p.Kind, first.Name, first.Kind)
		}
		if d := first.Same(&p.Header); d != "" {
			return fmt.Errorf("%s and %s are from different runs: the %s differs", first.Name, p.Name, d)
		}
		if prev, ok := seen[p.Index]; ok {
			return fmt.Errorf("%s and %s are both shard %d of %d", prev, p.Name, p.Index, p.Count)
		}
		seen[p.Index] = p.Name
	}
	return nil
}

// Check verifies that parts form one complete run of one kind.
func Check(parts []Part) error {
	miss, err := Missing(parts)
	if err != nil {
		return err
	}
	if len(miss) > 0 {
		return &MissingError{Missing: miss, Count: parts[0].Count, Kind: parts[0].Kind}
	}
	var size int64
	for _, p := range parts {
		size += p.SliceSize
	}
	if size != parts[0].FamilySize {
		return fmt.Errorf("shard: the parts hold %d controllers, the family %d", size, parts[0].FamilySize)
	}
	return nil
}

// MergeClasses merges the classes parts of round 1 into the plan: the meet
// of their exact partitions, which is the family's exact partition.
func MergeClasses(parts []Part) (*File, error) {
	if err := Check(parts); err != nil {
		return nil, err
	}
	if parts[0].Kind != KindClasses {
		return nil, fmt.Errorf("%s: a %s, not a %s", parts[0].Name, parts[0].Kind, KindClasses)
	}
	labels := make([][]int, len(parts[0].Labels))
	for t := range labels {
		labels[t] = slices.Clone(parts[0].Labels[t])
	}
	var distinct int64
	for _, p := range parts {
		for t, l := range p.Labels {
			if len(l) != len(labels[t]) {
				return nil, fmt.Errorf("%s: %d histories at depth %d, %s has %d", p.Name, len(l), t, parts[0].Name, len(labels[t]))
			}
			partition.Meet(labels[t], l)
		}
		distinct += p.Distinct
	}
	plan := &File{Header: parts[0].Header, Labels: partition.FromLabels(labels).Labels,
		SliceSize: parts[0].FamilySize, Distinct: distinct}
	plan.Kind, plan.Index, plan.Plan = KindPlan, 0, [32]byte{}
	return plan, nil
}

// MergeDistances merges the distances parts of round 2 by element-wise
// maximum. The result carries the plan's exact classes, the merged class
// matrices, the threshold (Cap) and the summed counts: Partition and
// MaxDistance give Compute's values. Tree and D are not set; FamilySize
// and StandIns are the family's, Distinct the sum of the slices' probe
// counts (a behaviour held by two slices counts twice).
func MergeDistances(parts []Part) (*distance.Result, error) {
	if err := Check(parts); err != nil {
		return nil, err
	}
	first := parts[0]
	if first.Kind != KindDistances {
		return nil, fmt.Errorf("%s: a %s, not a %s", first.Name, first.Kind, KindDistances)
	}
	met, err := distance.ParseMetric(first.Metric)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", first.Name, err)
	}
	cv, err := law.ParseConvention(first.Convention)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", first.Name, err)
	}
	cd := make([]partition.Matrix, len(first.ClassD))
	for t, m := range first.ClassD {
		cd[t] = partition.Matrix{N: m.N, Data: slices.Clone(m.Data)}
	}
	res := &distance.Result{Classes: &partition.Partition{Labels: first.Labels}, ClassD: cd,
		Metric: met, Convention: cv, Cap: first.Cap}
	for k, p := range parts {
		for t := range p.Labels {
			if !slices.Equal(p.Labels[t], first.Labels[t]) {
				return nil, fmt.Errorf("%s and %s carry different partitions for the same plan", first.Name, p.Name)
			}
		}
		if k > 0 {
			for t := range cd {
				cd[t].MaxInto(p.ClassD[t])
			}
		}
		res.FamilySize += int(p.SliceSize)
		res.Distinct += int(p.Distinct)
		res.StandIns += int(p.StandIns)
	}
	res.Reps = representatives(res.Classes)
	return res, nil
}

// representatives returns the first member of every class, per depth.
func representatives(p *partition.Partition) [][]int {
	reps := make([][]int, len(p.Labels))
	for t, l := range p.Labels {
		var r []int
		for i, c := range l {
			if c == len(r) {
				r = append(r, i)
			}
		}
		reps[t] = r
	}
	return reps
}
