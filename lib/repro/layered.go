package repro

import (
	"context"
	"strconv"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/wrap"
)

// HierarchicalCases are the (T, τ) pairs of tab:hierarchical-scaling.
var HierarchicalCases = [][2]int{{4, 4}, {6, 4}, {8, 4}, {10, 5}}

func f4(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

// gridMerge returns the North/South channel of GridWorld.
func gridMerge() (*wrap.Channel, error) {
	groups, names := bench.GridCoarsening()
	return wrap.Merge(groups, names, bench.GridGround())
}

func quotientModel(m *pomdp.Model, T int, p *partition.Partition, b bench.Benchmark) (wrap.Model, fsc.Family, bench.Benchmark, error) {
	q, err := quotient.New(m, T, p)
	if err != nil {
		return nil, nil, b, err
	}
	fam, err := fsc.NewStationary(m.NumActions(), m.NumObservations(), 1, fsc.Options{})
	return wrap.Quotient(q), fam, b, err
}

// contraction returns (D(W(M), W(N)), L_C · D(M, N)) for m = 1 stationary
// probes (a family closed under pullback through any channel).
func contraction(ctx context.Context, M, N wrap.Model, fam fsc.Family, T int, g ot.Ground, w wrap.Wrapper) (lhs, rhs float64, err error) {
	L, err := w.Lipschitz(g)
	if err != nil {
		return 0, 0, err
	}
	d, err := wrap.Distance(ctx, M, N, fam, T, g)
	if err != nil {
		return 0, 0, err
	}
	famW, err := fsc.NewStationary(fam.At(0).NumActions, w.Obs.Outputs(), 1, fsc.Options{})
	if err != nil {
		return 0, 0, err
	}
	dw, err := wrap.Distance(ctx, w.Of(M), w.Of(N), famW, T, w.Ground(g))
	if err != nil {
		return 0, 0, err
	}
	return dw.Distance, L * d.Distance, nil
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}
