package nb

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// MaxValueGap returns max over the probes π of fam of |V_M^π − V_Q^π| for
// objective obj at horizon T, Q the quotient of m's partition p seen by π,
// and the worst probe's actions as value.Abbrev letters (−1 and "" for an
// empty family).
func MaxValueGap(m *pomdp.Model, T int, p *partition.Partition, fam fsc.Family, obj value.Objective) (float64, string, error) {
	q, err := quotient.New(m, T, p)
	if err != nil {
		return 0, "", err
	}
	gap, worst := -1.0, ""
	for i := 0; i < fam.Len(); i++ {
		pi := fam.At(i)
		qm, err := q.ForProbe(pi)
		if err != nil {
			return 0, "", fmt.Errorf("probe %d: %w", i, err)
		}
		vm, err := value.Evaluate(m, pi, T, obj)
		if err != nil {
			return 0, "", fmt.Errorf("probe %d on the model: %w", i, err)
		}
		vq, err := value.Evaluate(qm, pi, T, obj)
		if err != nil {
			return 0, "", fmt.Errorf("probe %d on the quotient: %w", i, err)
		}
		if d := math.Abs(vm - vq); d > gap {
			gap, worst = d, pi.ActionString(value.Abbrev(m.Actions), T)
		}
	}
	return gap, worst, nil
}

// ClassBeliefSpread returns the largest difference max_s |b_h(s) − b_h′(s)|
// between the beliefs of two possible histories h, h′ of one class of p at
// depth < T, over the probes of fam (impossible histories skipped, the
// point-mass stand-in convention).
func ClassBeliefSpread(m *pomdp.Model, T int, p *partition.Partition, fam fsc.Family) (float64, error) {
	e, err := law.NewEngine(m, T, law.PointMassStandIn)
	if err != nil {
		return 0, err
	}
	tr := e.Tree()
	worst := 0.0
	for k := 0; k < fam.Len(); k++ {
		bel, impossible, err := e.Beliefs(fam.At(k))
		if err != nil {
			return 0, fmt.Errorf("probe %d: %w", k, err)
		}
		for t := 0; t < T; t++ {
			for i := 0; i < tr.Count(t); i++ {
				for j := i + 1; j < tr.Count(t); j++ {
					a, b := tr.Offset(t)+i, tr.Offset(t)+j
					if p.Labels[t][i] != p.Labels[t][j] || impossible[a] || impossible[b] {
						continue
					}
					worst = math.Max(worst, MaxAbsDiff(bel[a], bel[b]))
				}
			}
		}
	}
	return worst, nil
}
