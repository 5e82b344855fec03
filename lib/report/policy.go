package report

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/policy"
	"github.com/pomdpq/pomdpq/lib/value"
)

// PolicyResult is the policy section: the policy's finite-horizon values
// on the model and on the quotient it sees, the histories it tells apart
// that the quotient merges and, for a policy graph, policy.Analyze.
type PolicyResult struct {
	Name  string
	Nodes int
	Start int
	// Stationary and Deterministic describe the controller; FamilyM is
	// the memory bound of the family whose quotient is used.
	Stationary, Deterministic bool
	FamilyM                   int

	// ValueModel and ValueQuotient are V^π over the report's horizon T
	// (latent reward, undiscounted) on the model and on the quotient seen
	// by π (quotient.ForProbe).
	ValueModel, ValueQuotient float64
	// Infinite is the discounted infinite-horizon value at b0 when the
	// caller set it (pomdpq analyze does, with package policy), NaN
	// otherwise; InfiniteNote says how it was obtained.
	Infinite     float64
	InfiniteNote string

	// LawSplit counts the pairs of histories of one quotient class whose
	// suffix laws under π differ (d^π > partition.ZeroTol, d^π the W1
	// distance of π's suffix laws); MaxLawSplit is the largest such
	// distance and Examples lists a few pairs.
	LawSplit    int
	MaxLawSplit float64
	Examples    []SplitPair

	// Analysis is policy.Analyze of a policy graph (nil for other
	// controllers): membership in the family, minimal equivalents, the
	// classes whose histories the graph acts differently after.
	Analysis *policy.Analysis
}

// SplitPair is a pair of histories of one class that the policy tells
// apart.
type SplitPair struct {
	Depth    int
	A, B     string
	Distance float64
}

// policy evaluates pi (started in node start) against the report's quotient.
func (r *Report) policy(ctx context.Context, pi *fsc.FSC, start int, name string) (*PolicyResult, error) {
	m := r.Model
	if pi.NumActions != m.NumActions() || pi.NumObs != m.NumObservations() {
		return nil, fmt.Errorf("report: policy %s has %d actions and %d observations; the model has %d and %d",
			name, pi.NumActions, pi.NumObs, m.NumActions(), m.NumObservations())
	}
	p := &PolicyResult{Name: name, Nodes: pi.Nodes, Start: start, Stationary: !pi.Clock(), Deterministic: pi.Deterministic(),
		Infinite: math.NaN(), ValueQuotient: math.NaN()}
	graph := p.Stationary && p.Deterministic
	ctrl := pi
	if graph {
		var err error
		if ctrl, err = policy.Complete(pi, start); err != nil {
			return nil, fmt.Errorf("report: policy %s: %w", name, err)
		}
		// Complete turns "-" into self-loops: the values below are only
		// the graph's where no "-" is reached within the horizon.
		if me := policy.FindMissing(m, pi, start, r.T); me != nil {
			return nil, fmt.Errorf("report: policy %s: %w", name, me)
		}
	} else if start != 0 {
		return nil, fmt.Errorf("report: policy %s: a start node other than 0 needs a policy graph (deterministic, stationary)", name)
	}
	if err := ctrl.Validate(); err != nil {
		return nil, fmt.Errorf("report: policy %s: %w", name, err)
	}
	f := r.largest()
	if f != nil {
		p.FamilyM = f.M
	}
	var err error
	if p.ValueModel, err = value.Evaluate(m, ctrl, r.T, value.LatentReward{}); err != nil {
		return nil, fmt.Errorf("report: policy %s on the model: %w", name, err)
	}
	if r.Quotient == nil {
		return p, nil
	}
	qm, err := r.Quotient.ForProbe(ctrl)
	if err != nil {
		return nil, fmt.Errorf("report: policy %s: the quotient it sees: %w", name, err)
	}
	if p.ValueQuotient, err = value.Evaluate(qm, ctrl, r.T, value.LatentReward{}); err != nil {
		return nil, fmt.Errorf("report: policy %s on the quotient: %w", name, err)
	}
	if graph && f != nil {
		if p.Analysis, err = policy.Analyze(r.Quotient, pi, start, fsc.KindStationary, f.M); err != nil {
			return nil, fmt.Errorf("report: policy %s: %w", name, err)
		}
	}

	// π's own distances between the members of each class.
	one := &fsc.List{Name: name, Ctrls: []*fsc.FSC{ctrl}, K: fsc.KindStationary, Mem: ctrl.Nodes}
	if ctrl.Clock() {
		one.K, one.Hor = fsc.KindClock, ctrl.Stages
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
					p.LawSplit++
					p.MaxLawSplit = math.Max(p.MaxLawSplit, d)
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
