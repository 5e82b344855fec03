package nb

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// ClassMerge is the merge of two exact classes C1 < C2 of depth T (see
// [SingleMerges]).
type ClassMerge struct {
	T, C1, C2 int
	Gap       float64 // max over the probes of TV(P_M^π, P_Q^π) for the merged partition
	GapProbe  int     // the probe attaining Gap
	// Possible is the separation soundness can see: the largest W1 between the suffix
	// laws of h ∈ C1 and h′ ∈ C2 over the probes under which both are possible.
	Possible float64
	// All is d^Π between the two classes, stand-in laws included, attained by probe
	// Probe on the pair (H1, H2); Imp1, Imp2 say which of them is impossible under it.
	All           float64
	Probe, H1, H2 int
	Imp1, Imp2    bool
	Seen          [][2]int // per probe: members of C1 and of C2 possible under it
}

// StandInOnly reports whether no probe separates the two classes on histories it makes
// possible: every difference between their laws involves a stand-in law.
func (m ClassMerge) StandInOnly() bool { return m.Possible <= 1e-12 }

// Sound reports whether the merged partition's quotient reproduces every probe law.
func (m ClassMerge) Sound() bool { return m.Gap <= 1e-12 }

// MergeClasses returns p with classes c1 and c2 of depth t merged (labels
// renumbered by first appearance); p is unchanged.
func MergeClasses(p *partition.Partition, t, c1, c2 int) *partition.Partition {
	labels := make([][]int, len(p.Labels))
	for d := range labels {
		labels[d] = append([]int(nil), p.Labels[d]...)
	}
	for i, c := range labels[t] {
		if c == c2 {
			labels[t][i] = c1
		}
	}
	return partition.FromLabels(labels)
}

// SingleMerges merges every pair of classes of p (the exact partition of
// m's histories, tree tr, horizon T) at every depth t < T, tests the merged
// partition's soundness under fam ([Soundness]) and classifies the merge by
// the suffix laws ls (one per probe of fam) of its members, W1 under g
// solved per probe and pair.
func SingleMerges(m *pomdp.Model, g ot.Ground, tr law.Tree, T int, fam fsc.Family, p *partition.Partition, ls []*law.Laws) ([]ClassMerge, error) {
	var s ot.Solver
	var out []ClassMerge
	for t := 0; t < T; t++ {
		for c1 := 0; c1 < p.Classes(t); c1++ {
			for c2 := c1 + 1; c2 < p.Classes(t); c2++ {
				x := ClassMerge{T: t, C1: c1, C2: c2, All: -1}
				var err error
				if x.Gap, x.GapProbe, err = Soundness(m, T, fam, MergeClasses(p, t, c1, c2)); err != nil {
					return out, fmt.Errorf("depth %d, classes %d and %d: %w", t, c1, c2, err)
				}
				for k, l := range ls {
					if err := x.probe(&s, g, tr, T, p, k, l); err != nil {
						return out, fmt.Errorf("depth %d, classes %d and %d, probe %d: %w", t, c1, c2, k, err)
					}
				}
				out = append(out, x)
			}
		}
	}
	return out, nil
}

// probe adds probe k's suffix laws l to the merge x.
func (x *ClassMerge) probe(s *ot.Solver, g ot.Ground, tr law.Tree, T int, p *partition.Partition, k int, l *law.Laws) error {
	possible := func(h int) bool { return l.Mass[tr.Offset(x.T)+h] > 0 }
	var seen [2]int
	for j, c := range []int{x.C1, x.C2} {
		for _, h := range p.Members(x.T, c) {
			if possible(h) {
				seen[j]++
			}
		}
	}
	x.Seen = append(x.Seen, seen)
	for _, h := range p.Members(x.T, x.C1) {
		for _, h2 := range p.Members(x.T, x.C2) {
			r, err := s.SeqW1(g, T-x.T, l.Suffix(x.T, h), l.Suffix(x.T, h2))
			if err != nil {
				return err
			}
			w := r.Value
			if w > x.All {
				x.All, x.Probe, x.H1, x.H2, x.Imp1, x.Imp2 = w, k, h, h2, !possible(h), !possible(h2)
			}
			if possible(h) && possible(h2) {
				x.Possible = math.Max(x.Possible, w)
			}
		}
	}
	return nil
}

// MergeSummary counts the merges of [SingleMerges] by kind.
type MergeSummary struct {
	Candidates, Sound, StandIn, StandInSound, PossibleSep, PossibleSepSound int
	Weakest                                                                 float64 // min Gap over the merges separated on possible histories
	Worst                                                                   ClassMerge
}

// SummarizeMerges counts the merges: sound ones, those separated only on
// impossible histories (stand-ins) and those separated on possible ones,
// with the weakest of the latter (smallest gap; +Inf if none).
func SummarizeMerges(rows []ClassMerge) MergeSummary {
	x := MergeSummary{Weakest: math.Inf(1)}
	for _, m := range rows {
		x.Candidates++
		if m.Sound() {
			x.Sound++
		}
		if m.StandInOnly() {
			x.StandIn++
			if m.Sound() {
				x.StandInSound++
			}
			continue
		}
		x.PossibleSep++
		if m.Sound() {
			x.PossibleSepSound++
		}
		if m.Gap < x.Weakest {
			x.Weakest, x.Worst = m.Gap, m
		}
	}
	return x
}
