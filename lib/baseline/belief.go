package baseline

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// BeliefMetric selects the distance between two beliefs.
type BeliefMetric int

const (
	// BeliefTV is total variation, ½ Σ_s |b(s) − b'(s)| (the default).
	BeliefTV BeliefMetric = iota
	// BeliefW1 is the exact transport distance under a state metric
	// (BeliefOptions.States), e.g. a bisimulation metric.
	BeliefW1
)

func (m BeliefMetric) String() string {
	switch m {
	case BeliefTV:
		return "TV"
	case BeliefW1:
		return "W1"
	}
	return fmt.Sprintf("BeliefMetric(%d)", int(m))
}

// DefaultMaxPairs bounds the number of history pairs BeliefDistances
// compares unless BeliefOptions.MaxPairs raises it.
const DefaultMaxPairs = 1 << 24

// BeliefOptions configure BeliefDistances. The zero value means: beliefs
// under the constant first action, total variation, at most
// DefaultMaxPairs pairs.
type BeliefOptions struct {
	// Probe is the controller whose actions produce the beliefs along a
	// history (beliefs depend on the actions taken, docs/conventions.md#beliefs); nil
	// means fsc.Constant(|A|, |O|, 0), the choice that reproduces
	// tab:baseline-full.
	Probe *fsc.FSC
	// Family, when set, replaces Probe: the distance of a pair is the
	// largest over the family's probes.
	Family fsc.Family
	Metric BeliefMetric
	// States is the metric on states for BeliefW1 (required then).
	States ot.Ground
	// MaxPairs bounds Σ_t |O|^t(|O|^t − 1)/2 times the number of probes;
	// 0 means DefaultMaxPairs.
	MaxPairs int64
}

// BeliefResult holds per-depth distance matrices between the beliefs of
// the histories of a tree.
type BeliefResult struct {
	Tree law.Tree
	// D[t] is the matrix over the depth-t histories.
	D []partition.Matrix
	// StandIns counts (history, probe) pairs whose belief was the uniform
	// stand-in of an impossible history (law.Engine.Beliefs).
	StandIns int
	Metric   BeliefMetric
}

// Partition returns the greedy complete-linkage ε-partition of the
// belief distances (partition.Greedy, the ε-quotient's own clustering).
func (r *BeliefResult) Partition(eps float64) *partition.Partition {
	return partition.Greedy(r.D, eps)
}

// BeliefDistances returns, for every pair of equal-length histories of
// m's tree of depth T, the distance between the beliefs that follow them,
//
//	d_B(h, h') = max_{π ∈ Π} δ(b^π_h, b^π_{h'}),   b^π_h(s) = P^π(s_t = s | h),
//
// with Π the single opt.Probe (default: the constant first action) or
// opt.Family, and δ total variation or W1 under opt.States. Impossible
// histories take the uniform belief and are counted.
//
// Cost: one belief pass per probe (law.Engine.Beliefs) plus one
// O(|S|) distance (TV) or one transport problem on the two supports (W1)
// per pair and probe. Errors: a probe or family that does not fit m,
// BeliefW1 without a state metric of |S| points, more pairs than
// MaxPairs (refused before any work), ctx's error.
func BeliefDistances(ctx context.Context, m *pomdp.Model, T int, opt BeliefOptions) (*BeliefResult, error) {
	e, err := law.NewEngine(m, T, law.UniformStandIn)
	if err != nil {
		return nil, err
	}
	tree := e.Tree()
	var probes []*fsc.FSC
	switch {
	case opt.Family != nil:
		for i := 0; i < opt.Family.Len(); i++ {
			probes = append(probes, opt.Family.At(i))
		}
	case opt.Probe != nil:
		probes = []*fsc.FSC{opt.Probe}
	default:
		probes = []*fsc.FSC{fsc.Constant(m.NumActions(), m.NumObservations(), 0)}
	}
	if len(probes) == 0 {
		return nil, fmt.Errorf("baseline: empty probe family")
	}
	if opt.Metric == BeliefW1 && len(opt.States) != m.NumStates() {
		return nil, fmt.Errorf("baseline: BeliefW1 needs a state metric on %d states (BeliefOptions.States has %d)", m.NumStates(), len(opt.States))
	}
	limit := opt.MaxPairs
	if limit == 0 {
		limit = DefaultMaxPairs
	}
	pairs := 0.0
	for t := 0; t <= T; t++ {
		n := float64(tree.Count(t))
		pairs += n * (n - 1) / 2
	}
	if pairs*float64(len(probes)) > float64(limit) {
		return nil, fmt.Errorf("baseline: %.3g (pair, probe) comparisons exceed MaxPairs = %d", pairs*float64(len(probes)), limit)
	}
	var cost []float64
	if opt.Metric == BeliefW1 {
		nS := m.NumStates()
		cost = make([]float64, nS*nS)
		for i := range nS {
			copy(cost[i*nS:], opt.States[i][:nS])
		}
	}
	res := &BeliefResult{Tree: tree, D: make([]partition.Matrix, T+1), Metric: opt.Metric}
	for t := 0; t <= T; t++ {
		res.D[t] = partition.NewMatrix(tree.Count(t))
	}
	var solver ot.Solver
	for _, c := range probes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := e.Check(c); err != nil {
			return nil, err
		}
		bs, imp, err := e.Beliefs(c)
		if err != nil {
			return nil, err
		}
		for _, x := range imp {
			if x {
				res.StandIns++
			}
		}
		for t := 0; t <= T; t++ {
			n, off, D := tree.Count(t), tree.Offset(t), res.D[t]
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					var d float64
					switch opt.Metric {
					case BeliefW1:
						r, err := solver.W1(bs[off+i], bs[off+j], cost)
						if err != nil {
							return nil, fmt.Errorf("baseline: belief W1 at depth %d, pair (%d, %d): %w", t, i, j, err)
						}
						d = r.Value
					default:
						d = ot.TV(bs[off+i], bs[off+j])
					}
					k := D.Index(i, j)
					D.Data[k] = math.Max(D.Data[k], d)
				}
			}
		}
	}
	return res, nil
}
