package report

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/value"
)

// PolicyResult is the policy section: the policy's finite-horizon values
// on the model and on the quotient it sees, and the histories it tells
// apart that the quotient merges.
type PolicyResult struct {
	Name  string
	Nodes int
	// Stationary and Deterministic describe the controller; InFamily
	// says whether it belongs to the largest probe family computed
	// (deterministic, stationary, at most that many nodes).
	Stationary, Deterministic, InFamily bool
	FamilyM                             int

	// ValueModel and ValueQuotient are V^π over the report's horizon T
	// (latent reward, undiscounted) on the model and on the quotient seen
	// by π (quotient.ForProbe).
	ValueModel, ValueQuotient float64
	// Infinite is the discounted infinite-horizon value at b0 when the
	// caller set it (pomdpq analyze does, with package policy), NaN
	// otherwise; InfiniteNote says how it was obtained.
	Infinite     float64
	InfiniteNote string

	// Split counts the pairs of histories of one quotient class that π
	// tells apart (d^π > partition.ZeroTol, d^π the W1 distance of π's
	// suffix laws); MaxSplit is the largest such distance and Examples
	// lists a few pairs.
	Split    int
	MaxSplit float64
	Examples []SplitPair
}

// SplitPair is a pair of histories of one class that the policy tells
// apart.
type SplitPair struct {
	Depth    int
	A, B     string
	Distance float64
}

// policy evaluates pi against the report's quotient.
func (r *Report) policy(ctx context.Context, pi *fsc.FSC, name string) (*PolicyResult, error) {
	m := r.Model
	if pi.NumActions != m.NumActions() || pi.NumObs != m.NumObservations() {
		return nil, fmt.Errorf("report: policy %s has %d actions and %d observations; the model has %d and %d",
			name, pi.NumActions, pi.NumObs, m.NumActions(), m.NumObservations())
	}
	if err := pi.Validate(); err != nil {
		return nil, fmt.Errorf("report: policy %s: %w", name, err)
	}
	p := &PolicyResult{Name: name, Nodes: pi.Nodes, Stationary: !pi.Clock(), Deterministic: pi.Deterministic(),
		Infinite: math.NaN()}
	if f := r.largest(); f != nil {
		p.FamilyM = f.M
		p.InFamily = p.Stationary && p.Deterministic && pi.Nodes <= f.M
	}
	var err error
	if p.ValueModel, err = value.Evaluate(m, pi, r.T, value.LatentReward{}); err != nil {
		return nil, fmt.Errorf("report: policy %s on the model: %w", name, err)
	}
	if r.Quotient == nil {
		p.ValueQuotient = math.NaN()
		return p, nil
	}
	qm, err := r.Quotient.ForProbe(pi)
	if err != nil {
		return nil, fmt.Errorf("report: policy %s: the quotient it sees: %w", name, err)
	}
	if p.ValueQuotient, err = value.Evaluate(qm, pi, r.T, value.LatentReward{}); err != nil {
		return nil, fmt.Errorf("report: policy %s on the quotient: %w", name, err)
	}

	// π's own distances between the members of each class.
	one := &fsc.List{Name: name, Ctrls: []*fsc.FSC{pi}, K: fsc.KindStationary, Mem: pi.Nodes}
	if pi.Clock() {
		one.K, one.Hor = fsc.KindClock, pi.Stages
	}
	res, err := distance.Compute(ctx, m, one, r.T, distance.Options{Ground: r.ground, MemBudget: r.Budget})
	if err != nil {
		return nil, fmt.Errorf("report: policy %s: its distances: %w", name, err)
	}
	part := r.Quotient.Partition
	for t := 0; t < part.Depths(); t++ {
		for c := 0; c < part.Classes(t); c++ {
			mem := part.Members(t, c)
			for a := 0; a < len(mem); a++ {
				for b := a + 1; b < len(mem); b++ {
					d := res.At(t, mem[a], mem[b])
					if d <= partition.ZeroTol {
						continue
					}
					p.Split++
					p.MaxSplit = math.Max(p.MaxSplit, d)
					if len(p.Examples) < 8 {
						p.Examples = append(p.Examples, SplitPair{Depth: t,
							A: r.Quotient.Tree.Label(m.Observations, t, mem[a]), B: r.Quotient.Tree.Label(m.Observations, t, mem[b]), Distance: d})
					}
				}
			}
		}
	}
	return p, nil
}
