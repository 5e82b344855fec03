package nb

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// MatrixExcess compares two distances over the same histories, depths 0 …
// T−1 (see [ExcessOf]).
type MatrixExcess struct {
	Worst  float64 // max over pairs of a − b (≤ 0 when a ≤ b entrywise; −Inf for no pairs)
	Strict int     // pairs with a < b − tol
	Pairs  int     // pairs compared
}

// ExcessOf returns the largest a − b over every entry of the depths 0 … T−1
// of a and b (the last depth, T, is left out), and how many entries have
// a < b − tol. The error says where the two disagree in shape.
func ExcessOf(a, b []partition.Matrix, tol float64) (MatrixExcess, error) {
	e := MatrixExcess{Worst: math.Inf(-1)}
	if len(a) != len(b) {
		return e, fmt.Errorf("nb: ExcessOf: %d depths against %d", len(a), len(b))
	}
	for t := 0; t < len(a)-1; t++ {
		if len(a[t].Data) != len(b[t].Data) {
			return e, fmt.Errorf("nb: ExcessOf: depth %d: %d entries against %d", t, len(a[t].Data), len(b[t].Data))
		}
		for i := range a[t].Data {
			d := a[t].Data[i] - b[t].Data[i]
			e.Worst = math.Max(e.Worst, d)
			if d < -tol {
				e.Strict++
			}
			e.Pairs++
		}
	}
	return e, nil
}

// WitnessTheoremRow summarises one thm:witness experiment (see
// [WitnessTheoremCase]).
type WitnessTheoremRow struct {
	Model                  string
	T, M                   int
	Det, DetDistinct       int     // deterministic family size, distinct action trees
	DetClasses             int     // classes of the deterministic family's exact partition
	Samples, SepAny, AsDet int     // samples; those separating some pair; those whose own partition equals the deterministic one
	MergedMax              float64 // max d^stoch over pairs merged by the deterministic family (theorem: 0)
	Excess                 float64 // max over all pairs of d^stoch − d^det
	StandIns               int
}

// WitnessTheoremCase compares, on benchmark b (named name in the row) at
// horizon T, the deterministic clock-aware family of memory mem with
// samples stochastic controllers of the same memory (seed seed): thm:witness
// says that a pair merged by the deterministic family (d ≤ tol) is merged by
// every stochastic one.
func WitnessTheoremCase(ctx context.Context, b bench.Benchmark, name string, T, mem, samples int, seed uint64, tol float64) (WitnessTheoremRow, error) {
	m := b.Model
	nA, nO := m.NumActions(), m.NumObservations()
	row := WitnessTheoremRow{Model: name, T: T, M: mem}
	det, err := fsc.NewClock(nA, nO, mem, T, fsc.Options{})
	if err != nil {
		return row, err
	}
	opt := distance.Options{Ground: b.Ground, Convention: law.PointMassStandIn}
	rd, err := distance.Compute(ctx, m, det, T, opt)
	if err != nil {
		return row, err
	}
	smp, err := fsc.NewSampled(nA, nO, mem, T, fsc.Options{Samples: samples, Seed: seed})
	if err != nil {
		return row, err
	}
	opt.Tensor = true
	rs, err := distance.Compute(ctx, m, smp, T, opt)
	if err != nil {
		return row, err
	}
	pd := partition.Exact(rd.D)
	row.Det, row.DetDistinct, row.DetClasses = rd.FamilySize, rd.Distinct, pd.Total()
	row.Samples, row.StandIns = smp.Len(), rd.StandIns+rs.StandIns
	row.MergedMax = mergedMax(rd.D, rs.D, T, tol)
	ex, err := ExcessOf(rs.D, rd.D, tol)
	row.Excess = ex.Worst
	for k := range rs.Tensor {
		p := partition.Exact(rs.Tensor[k])
		if p.Total() > T+1 {
			row.SepAny++
		}
		if p.Equal(pd) {
			row.AsDet++
		}
	}
	return row, err
}

// mergedMax returns the largest entry of other over the pairs of depths
// 0 … T−1 that det merges (det ≤ tol).
func mergedMax(det, other []partition.Matrix, T int, tol float64) float64 {
	worst := 0.0
	for t := 0; t < T; t++ {
		n := det[t].N
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if det[t].At(i, j) <= tol {
					worst = math.Max(worst, other[t].At(i, j))
				}
			}
		}
	}
	return worst
}

// StageMixed is a one-node clock-aware stochastic FSC over two actions and
// nO observations playing the first action with probability pA[τ] at stage
// τ (and the second otherwise).
func StageMixed(nO int, pA []float64) (*fsc.FSC, error) {
	c := &fsc.FSC{Nodes: 1, Stages: len(pA), NumActions: 2, NumObs: nO}
	for _, p := range pA {
		c.ActProb = append(c.ActProb, [][]float64{{p, 1 - p}})
		next := make([][]float64, nO)
		for o := range next {
			next[o] = []float64{1}
		}
		c.NextProb = append(c.NextProb, [][][]float64{next})
	}
	return c, c.Validate()
}
