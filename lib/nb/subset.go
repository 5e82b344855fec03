package nb

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/certify"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

// CalibratedSubset chooses k controllers of the deterministic stationary
// family with at most m nodes on b's model by greedy coverage
// (alg:greedy-fsc, certify.Greedy) of the probe distances at horizon Tcal,
// as the paper's principal-horizon table does; greedy stops early when no
// controller adds coverage, so the list may hold fewer than k.
func CalibratedSubset(ctx context.Context, b bench.Benchmark, m, k, Tcal int) (*fsc.List, error) {
	fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), m, fsc.Options{})
	if err != nil {
		return nil, err
	}
	r, err := distance.Compute(ctx, b.Model, fam, Tcal, distance.Options{Ground: b.Ground, Tensor: true})
	if err != nil {
		return nil, err
	}
	tt, err := certify.FromResult(r)
	if err != nil {
		return nil, err
	}
	list := &fsc.List{Name: fmt.Sprintf("calibrated k = %d at T = %d", k, Tcal), K: fsc.KindStationary, Mem: m}
	for _, p := range certify.Greedy(tt, k) {
		list.Ctrls = append(list.Ctrls, fam.At(tt.First[p]))
	}
	return list, nil
}
