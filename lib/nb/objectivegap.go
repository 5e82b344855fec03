package nb

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// ObjectiveGap is one objective's comparison of a model and a quotient over
// a probe family (see [ObjectiveGaps]).
type ObjectiveGap struct {
	Objective string
	MaxDiff   float64 // max over probes π of |E_M^π[G] − E_Q^π[G]| (−1 for no probes)
	Changed   int     // probes whose value moved by more than the tolerance
	Worst     string  // a probe attaining MaxDiff (its actions, value.Abbrev letters)
	VM, VQ    float64 // its values on M and on Q
}

// ObjectiveGaps evaluates every probe of fam on m and on the quotient of
// m's partition p seen by it, at horizon T, for each objective of objs.
func ObjectiveGaps(m *pomdp.Model, T int, p *partition.Partition, fam fsc.Family, objs []value.Objective, tol float64) ([]ObjectiveGap, error) {
	q, err := quotient.New(m, T, p)
	if err != nil {
		return nil, err
	}
	res := make([]ObjectiveGap, len(objs))
	for k, obj := range objs {
		res[k] = ObjectiveGap{Objective: obj.Name(), MaxDiff: -1}
	}
	for i := 0; i < fam.Len(); i++ {
		pi := fam.At(i)
		qm, err := q.ForProbe(pi)
		if err != nil {
			return nil, fmt.Errorf("probe %d: %w", i, err)
		}
		for k, obj := range objs {
			vm, err := value.Evaluate(m, pi, T, obj)
			if err != nil {
				return nil, fmt.Errorf("probe %d, %s, on the model: %w", i, obj.Name(), err)
			}
			vq, err := value.Evaluate(qm, pi, T, obj)
			if err != nil {
				return nil, fmt.Errorf("probe %d, %s, on the quotient: %w", i, obj.Name(), err)
			}
			d := math.Abs(vm - vq)
			if d > tol {
				res[k].Changed++
			}
			if d > res[k].MaxDiff {
				res[k].MaxDiff, res[k].Worst, res[k].VM, res[k].VQ = d, pi.ActionString(value.Abbrev(m.Actions), T), vm, vq
			}
		}
	}
	return res, nil
}
