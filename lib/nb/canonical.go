package nb

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// Canonical holds the measurements of prop:canonical-quotient (i) and
// (iii) for one ε-partition (see [CheckCanonical]) beside their bounds.
type Canonical struct {
	Eps                          float64
	Classes                      int
	Step, StepBound, Traj, TrajB float64 // (i) per-step kernel gap, 2ε|S|; (iii) W1 of the laws, ε(1+2T|S||O|)
	Weights                      float64 // uniform aggregate vs a random convex combination of the members
}

// CheckCanonical measures, for the ε-partition p of m's histories (tree
// tr, horizon T) and every probe of fam: (i) the largest difference between
// the one-step kernel of a reachable member's belief and of its class's
// canonical (uniform average) belief, on the probe's own actions; (iii) the
// W1 distance under g between the trajectory laws of m and of the canonical
// quotient seen by the probe; and the gap between the uniform average and
// a random convex combination of the members' beliefs (weights from rng).
func CheckCanonical(m *pomdp.Model, g ot.Ground, tr law.Tree, T int, fam fsc.Family, p *partition.Partition, eps float64, rng *rand.Rand) (Canonical, error) {
	nS, nO := float64(m.NumStates()), float64(m.NumObservations())
	row := Canonical{Eps: eps, Classes: p.Total(), StepBound: 2 * eps * nS, TrajB: eps * (1 + 2*float64(T)*nS*nO)}
	q, err := quotient.New(m, T, p)
	if err != nil {
		return row, err
	}
	e, err := law.NewEngine(m, T, law.UniformStandIn)
	if err != nil {
		return row, err
	}
	for k := 0; k < fam.Len(); k++ {
		if err := row.probe(m, g, tr, T, q, e, fam.At(k), p, rng); err != nil {
			return row, fmt.Errorf("probe %d: %w", k, err)
		}
	}
	return row, nil
}

// probe adds one probe pi's measurements to row.
func (row *Canonical) probe(m *pomdp.Model, g ot.Ground, tr law.Tree, T int, q *quotient.Quotient, e *law.Engine, pi *fsc.FSC, p *partition.Partition, rng *rand.Rand) error {
	bs, _, err := e.Beliefs(pi)
	if err != nil {
		return err
	}
	cb, err := q.ClassBeliefs(pi)
	if err != nil {
		return err
	}
	lm, err := e.Compute(pi)
	if err != nil {
		return err
	}
	for t := 0; t < T; t++ {
		for c := 0; c < p.Classes(t); c++ {
			row.class(m, tr, pi, t, p.Members(t, c), bs, lm.Mass, cb[t][c], rng)
		}
	}
	qm, err := q.ForProbe(pi)
	if err != nil {
		return err
	}
	lq, err := law.Compute(qm, pi, T, law.UniformStandIn)
	if err != nil {
		return err
	}
	w, err := ot.SeqW1(g, T, lm.Trajectory(), lq.Trajectory())
	if err != nil {
		return err
	}
	row.Traj = math.Max(row.Traj, w)
	return nil
}

// class adds the measurements (i) of one class at depth t with members mem
// and canonical belief bbar; bs and mass are the probe's beliefs and
// history probabilities.
func (row *Canonical) class(m *pomdp.Model, tr law.Tree, pi *fsc.FSC, t int, mem []int, bs [][]float64, mass, bbar []float64, rng *rand.Rand) {
	off := tr.Offset(t)
	members := make([][]float64, len(mem))
	for i, h := range mem {
		members[i] = bs[off+h]
	}
	bw := RandomMixture(rng, members, m.NumStates())
	for _, h := range mem {
		if mass[off+h] == 0 {
			continue
		}
		for a := 0; a < m.NumActions(); a++ {
			if ActionProb(pi, tr.History(t, h), a) == 0 {
				continue
			}
			kbar := ObsKernel(m, bbar, a)
			row.Step = math.Max(row.Step, MaxAbsDiff(kbar, ObsKernel(m, bs[off+h], a)))
			row.Weights = math.Max(row.Weights, MaxAbsDiff(kbar, ObsKernel(m, bw, a)))
		}
	}
}
