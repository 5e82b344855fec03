package shard

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Run describes one shard of a sharded run: the model and its ground
// metric, an enumerated family, the horizon, the distance options (Eps
// sets the decision threshold as in distance.Compute) and shard Index of
// Count.
type Run struct {
	Model        *pomdp.Model
	Ground       ot.Ground
	Family       fsc.Family
	T            int
	Options      distance.Options
	Index, Count int
}

// header returns the header of r's files and r's slice of the family.
func (r *Run) header(kind Kind) (Header, fsc.Family, error) {
	if r.Count < 1 || r.Index < 0 || r.Index >= r.Count {
		return Header{}, nil, fmt.Errorf("shard: shard %d of %d (want 0 ≤ i < n)", r.Index, r.Count)
	}
	var seed uint64
	switch r.Family.Kind() {
	case fsc.KindStationary, fsc.KindClock:
	default:
		ix, ok := r.Family.(interface{ Indexed() (bool, uint64) })
		indexed := false
		if ok {
			indexed, seed = ix.Indexed()
		}
		if !indexed {
			return Header{}, nil, fmt.Errorf("shard: a %s family is sharded only when drawn with fsc.Options.Indexed (sample i from its own stream), so that every shard builds its seed range alone", r.Family.Kind())
		}
	}
	if r.Count > r.Family.Len() {
		return Header{}, nil, fmt.Errorf("shard: %d shards for a family of %d controllers", r.Count, r.Family.Len())
	}
	hash, err := ModelHash(r.Model, r.Ground)
	if err != nil {
		return Header{}, nil, err
	}
	capv := math.Inf(1)
	if len(r.Options.Eps) > 0 && r.Options.Metric == distance.W1 {
		capv = slices.Max(r.Options.Eps) + partition.ZeroTol
	}
	h := Header{Kind: kind, ModelHash: hash, Model: r.Model.Name, Family: string(r.Family.Kind()), M: r.Family.M(), T: r.T,
		FamilySize: int64(r.Family.Len()), Seed: seed, Metric: r.Options.Metric.String(), Convention: r.Options.Convention.String(),
		Cap: capv, Index: r.Index, Count: r.Count}
	lo, hi := distance.ShardRange(r.Family.Len(), r.Index, r.Count)
	return h, distance.Slice(r.Family, lo, hi), nil
}

// Classes runs round 1 of shard r: its slice's exact classes and probes.
func (r *Run) Classes(ctx context.Context) (*File, error) {
	h, sl, err := r.header(KindClasses)
	if err != nil {
		return nil, err
	}
	c, err := distance.ExactClasses(ctx, r.Model, sl, r.T, r.Options)
	if err != nil {
		return nil, err
	}
	lo, _ := distance.ShardRange(r.Family.Len(), r.Index, r.Count)
	probes := make([]int64, len(c.Probes))
	for k, p := range c.Probes {
		probes[k] = int64(lo + p)
	}
	return &File{Header: h, Labels: c.Classes.Labels, Probes: probes, SliceSize: int64(sl.Len()), Distinct: int64(len(probes))}, nil
}

// Distances runs round 2 of shard r against plan (MergeClasses of every
// shard's round 1). probes, when not nil, is this shard's own round-1 part:
// its probe list saves grouping the slice by behaviour again.
func (r *Run) Distances(ctx context.Context, plan *Part, probes *Part) (*File, error) {
	h, sl, err := r.header(KindDistances)
	if err != nil {
		return nil, err
	}
	if plan.Kind != KindPlan {
		return nil, fmt.Errorf("%s: a %s, not a plan (merge the classes parts into one with `pomdpq merge --out`)", plan.Name, plan.Kind)
	}
	ph := plan.Header
	ph.Index, ph.Count = h.Index, h.Count
	if d := h.Same(&ph); d != "" {
		return nil, fmt.Errorf("%s does not belong to this run: the %s differs", plan.Name, d)
	}
	h.Plan = plan.Sum
	lo, hi := distance.ShardRange(r.Family.Len(), r.Index, r.Count)
	var idx []int
	if probes != nil {
		if probes.Kind != KindClasses {
			return nil, fmt.Errorf("%s: a %s, not a classes part", probes.Name, probes.Kind)
		}
		qh := probes.Header
		if d := ph.Same(&qh); d != "" || qh.Index != r.Index {
			if d == "" {
				d = fmt.Sprintf("shard (%d vs %d)", qh.Index, r.Index)
			}
			return nil, fmt.Errorf("%s is not this shard's round-1 part: the %s differs", probes.Name, d)
		}
		for _, p := range probes.Probes {
			if p < int64(lo) || p >= int64(hi) {
				return nil, fmt.Errorf("%s: probe %d outside shard %d's range [%d, %d)", probes.Name, p, r.Index, lo, hi)
			}
			idx = append(idx, int(p)-lo)
		}
	}
	res, err := distance.ComputePlanned(ctx, r.Model, sl, r.T, r.Options, &partition.Partition{Labels: plan.Labels}, idx)
	if err != nil {
		return nil, err
	}
	return &File{Header: h, Labels: plan.Labels, ClassD: res.ClassD, SliceSize: int64(sl.Len()),
		Distinct: int64(res.Distinct), StandIns: int64(res.StandIns)}, nil
}
