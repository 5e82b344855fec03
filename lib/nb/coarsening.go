package nb

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// CoarseRow is one inclusion Π1 ⊆ Π2 of prop:probe-class-coarsening checked
// on one model (see [ProbeCoarsening]).
type CoarseRow struct {
	Setting, Pi1, Pi2 string
	Excess            float64 // max (d^Π1 − d^Π2) over depths 0 … T−1
	Strict, Pairs     int     // pairs with d^Π1 < d^Π2 − tol; pairs compared
	C1, C2            int     // exact class counts
	Refines, Reverse  bool    // Q^Π2 refines Q^Π1; Q^Π1 refines Q^Π2
}

// ProbeCoarsening checks two inclusions on benchmark b (named name) at
// horizon T: stationary m = 1 ⊆ stationary m ≤ 2, and the constant strings
// Π_op ⊆ the open-loop strings Π_clk. The smaller family's distances must be
// below the larger's, and the larger's exact partition must refine the
// smaller's.
func ProbeCoarsening(ctx context.Context, b bench.Benchmark, name string, T int, tol float64) ([]CoarseRow, error) {
	m := b.Model
	setting := fmt.Sprintf("%s, T = %d", name, T)
	var d [2]*distance.Result
	var size [2]int
	for k, mem := range []int{1, 2} {
		fam, err := fsc.NewStationary(m.NumActions(), m.NumObservations(), mem, fsc.Options{})
		if err != nil {
			return nil, err
		}
		if d[k], err = distance.Compute(ctx, m, fam, T, distance.Options{Ground: b.Ground}); err != nil {
			return nil, err
		}
		size[k] = fam.Len()
	}
	cd, err := clock.NewDistances(ctx, m, b.Ground, T, nil)
	if err != nil {
		return nil, err
	}
	strings, err := OpenLoop(m, T)
	if err != nil {
		return nil, err
	}
	p1, p2, q := partition.Exact(d[0].D), partition.Exact(d[1].D), cd.Quotients
	rows := []CoarseRow{
		{Setting: setting, Pi1: fmt.Sprintf("stationary m = 1 (%d)", size[0]), Pi2: fmt.Sprintf("stationary m ≤ 2 (%d)", size[1]),
			C1: p1.Total(), C2: p2.Total(), Refines: p2.Refines(p1), Reverse: p1.Refines(p2)},
		{Setting: setting, Pi1: fmt.Sprintf("Π_op, constant strings (%d)", m.NumActions()), Pi2: fmt.Sprintf("Π_clk, open-loop strings (%d)", strings.Len()),
			C1: q.Op.Total(), C2: q.Clk.Total(), Refines: q.Clk.Refines(q.Op), Reverse: q.Op.Refines(q.Clk)},
	}
	for k, pair := range [][2][]partition.Matrix{{d[0].D, d[1].D}, {cd.OpMatrices(), cd.ClkMatrices()}} {
		e, err := ExcessOf(pair[0], pair[1], tol)
		if err != nil {
			return nil, err
		}
		rows[k].Excess, rows[k].Strict, rows[k].Pairs = e.Worst, e.Strict, e.Pairs
	}
	return rows, nil
}

// M2Result compares the deterministic clock-aware m = 2 family with the
// stationary m ≤ 2 family (see [CompareM2]).
type M2Result struct {
	Clk, Stat           int     // family sizes
	ClkClasses, StClass int     // exact class counts
	ARI, Gap, DLR       float64 // ARI of the two partitions; max |d^clk − d^st| (≥ 0); d^clk between the first two depth-1 histories
}

// CompareM2 compares the m = 2 families on benchmark b at horizon T (the
// m = 2 paragraph of sec:experiments: Tiger, T = 2).
func CompareM2(ctx context.Context, b bench.Benchmark, T int) (M2Result, error) {
	m := b.Model
	ck, err := fsc.NewClock(m.NumActions(), m.NumObservations(), 2, T, fsc.Options{})
	if err != nil {
		return M2Result{}, err
	}
	st, err := fsc.NewStationary(m.NumActions(), m.NumObservations(), 2, fsc.Options{})
	if err != nil {
		return M2Result{}, err
	}
	rc, err := distance.Compute(ctx, m, ck, T, distance.Options{Ground: b.Ground})
	if err != nil {
		return M2Result{}, err
	}
	rs, err := distance.Compute(ctx, m, st, T, distance.Options{Ground: b.Ground})
	if err != nil {
		return M2Result{}, err
	}
	pc, ps := partition.Exact(rc.D), partition.Exact(rs.D)
	e1, err := ExcessOf(rc.D, rs.D, 0)
	if err != nil {
		return M2Result{}, err
	}
	e2, err := ExcessOf(rs.D, rc.D, 0)
	return M2Result{ck.Len(), st.Len(), pc.Total(), ps.Total(), partition.ARIPartitions(pc, ps),
		math.Max(0, math.Max(e1.Worst, e2.Worst)), rc.D[1].At(0, 1)}, err
}
