package nb

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// Morphism holds the checks of def:pomdp-morphism and thm:myhill-nerode
// (iii) for the map φ([h]_N) = [h]_M (see [CheckMorphism]).
type Morphism struct {
	NCounts                []int   // N's exact classes per depth
	WellDefined, M1        bool    // N's partition refines M's; Q starts surely in its root class
	M2, Kernel             float64 // largest |P_N − P_Q| of suffix laws; of one-step kernels on the probe's actions
	Compared, Skipped, M3V int     // (π, h) compared, impossible and skipped; (M3) transition violations
}

// CheckMorphism checks φ([h]_N) = [h]_M from model n onto q, the exact
// quotient (partition p) of a model M with the same spaces, history tree tr,
// horizon T, probes fam and ground metric g: that φ is well defined, (M1)
// the root, (M2) the suffix laws and the one-step kernels of N and of the
// quotient seen by each probe agree on possible histories, and (M3) the
// quotient's transitions follow the history tree.
func CheckMorphism(ctx context.Context, n *pomdp.Model, g ot.Ground, tr law.Tree, T int, fam fsc.Family, p *partition.Partition, q *quotient.Quotient) (Morphism, error) {
	rn, err := distance.Compute(ctx, n, fam, T, distance.Options{Ground: g, Workers: 1})
	if err != nil {
		return Morphism{}, err
	}
	pn := rn.Partition(0)
	res := Morphism{NCounts: pn.Counts(), WellDefined: pn.Refines(p), M1: true}
	nO := tr.NumObs
	for t := 0; t < T; t++ {
		for i := 0; i < tr.Count(t); i++ {
			for z := 0; z < nO; z++ {
				if p.Labels[t+1][i*nO+z] != q.Next[t][p.Labels[t][i]][z] {
					res.M3V++
				}
			}
		}
	}
	en, err := law.NewEngine(n, T, law.UniformStandIn)
	if err != nil {
		return res, err
	}
	for k := 0; k < fam.Len(); k++ {
		if err := res.probe(n, tr, T, q, en, fam.At(k)); err != nil {
			return res, fmt.Errorf("probe %d: %w", k, err)
		}
	}
	return res, nil
}

// probe adds the checks (M1) and (M2) of one probe pi.
func (res *Morphism) probe(n *pomdp.Model, tr law.Tree, T int, q *quotient.Quotient, en *law.Engine, pi *fsc.FSC) error {
	qm, err := q.ForProbe(pi)
	if err != nil {
		return err
	}
	// (M1): Q starts surely in its root state, the class [ε] (the only depth-0 class).
	res.M1 = res.M1 && qm.B0[0] == 1 && qm.States[0] == "root" && q.Partition.Classes(0) == 1
	eq, err := law.NewEngine(qm, T, law.UniformStandIn)
	if err != nil {
		return err
	}
	ln, err := en.Compute(pi)
	if err != nil {
		return err
	}
	lq, err := eq.Compute(pi)
	if err != nil {
		return err
	}
	bn, _, err := en.Beliefs(pi)
	if err != nil {
		return err
	}
	bq, _, err := eq.Beliefs(pi)
	if err != nil {
		return err
	}
	for t := 0; t < T; t++ {
		for i := 0; i < tr.Count(t); i++ {
			id := tr.Offset(t) + i
			if ln.Mass[id] == 0 {
				res.Skipped++
				continue
			}
			res.Compared++
			res.M2 = math.Max(res.M2, MaxAbsDiff(ln.Suffix(t, i), lq.Suffix(t, i)))
			for a := 0; a < n.NumActions(); a++ {
				if ActionProb(pi, tr.History(t, i), a) > 0 {
					res.Kernel = math.Max(res.Kernel, MaxAbsDiff(ObsKernel(n, bn[id], a), ObsKernel(qm, bq[id], a)))
				}
			}
		}
	}
	return nil
}
