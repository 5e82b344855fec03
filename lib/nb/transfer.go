package nb

import (
	"context"
	"math"
	"strings"

	"github.com/pomdpq/pomdpq/lib/certify"
	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/value"
)

// TransferRow is one ε of the cross-family transfer check (see
// [TransferStudy]).
type TransferRow struct {
	Eps          float64
	Classes      int
	Diam         float64 // largest d^clk between two members of a class
	Gap          float64 // max over open-loop strings of |V_M − V_Q|
	Worst        string  // a string attaining Gap
	Bound, Naive float64 // L_R·T·(ε + δ), L_R·T·ε
}

// ClassDiameter returns the largest distance d between two members of one
// class of p, over the depths 0 … T−1.
func ClassDiameter(p *partition.Partition, d []partition.Matrix) float64 {
	diam := 0.0
	for t := 0; t < len(d)-1; t++ {
		for i := 0; i < d[t].N; i++ {
			for j := i + 1; j < d[t].N; j++ {
				if p.Labels[t][i] == p.Labels[t][j] {
					diam = math.Max(diam, d[t].At(i, j))
				}
			}
		}
	}
	return diam
}

// TransferStudy returns δ_clk of m at horizon T (discrete ground metric)
// and, per ε of eps, the Π_op ε-quotient's value gaps under every open-loop
// probe, for the reward "1 per observation" (value.WithObsReward, L_R = 1),
// against the bound of cor:op-to-clk-transfer.
func TransferStudy(ctx context.Context, m *pomdp.Model, T int, eps []float64) (float64, []TransferRow, error) {
	d, err := clock.NewDistances(ctx, m, ot.Discrete(m.NumObservations()), T, nil)
	if err != nil {
		return 0, nil, err
	}
	mo, fam, err := obsRewardStrings(m, T)
	if err != nil {
		return 0, nil, err
	}
	var rows []TransferRow
	dOp, dClk := d.OpMatrices(), d.ClkMatrices()
	for _, e := range eps {
		p := partition.Greedy(dOp, e)
		gap, worst, err := MaxValueGap(mo, T, p, fam, value.LatentReward{})
		if err != nil {
			return 0, nil, err
		}
		rows = append(rows, TransferRow{e, p.Total(), ClassDiameter(p, dClk), gap, worst,
			value.TransferBound(1, T, e, d.Gap), value.Bound(1, T, e)})
	}
	return d.Gap, rows, nil
}

// obsRewardStrings returns m with the reward "1 per observation" and the
// open-loop strings of length T.
func obsRewardStrings(m *pomdp.Model, T int) (*pomdp.Model, fsc.Family, error) {
	mo, err := value.WithObsReward(m)
	if err != nil {
		return nil, nil, err
	}
	fam, err := OpenLoop(mo, T)
	return mo, fam, err
}

// SubsetRow is one ε of the subset corollary (see [SubsetTransfer]).
type SubsetRow struct {
	Subset           string // the probes of S ("always A, …")
	DeltaS, DeltaClk float64
	Eps              float64
	Classes          int
	Gap, Bound       float64 // measured max_π |V_M − V_Q|; T(ε + δ_S + δ_clk)
}

// SubsetTransfer takes the greedy one-probe subset S of Π_op
// (alg:greedy-fsc) on m at horizon T (discrete ground metric) and checks
// cor:subset-cross-family-transfer for every open-loop probe, per ε of eps.
func SubsetTransfer(ctx context.Context, m *pomdp.Model, T int, eps []float64) ([]SubsetRow, error) {
	g := ot.Discrete(m.NumObservations())
	cd, err := clock.NewDistances(ctx, m, g, T, nil)
	if err != nil {
		return nil, err
	}
	names, deltaS, dS, err := greedySubset(ctx, m, g, T)
	if err != nil {
		return nil, err
	}
	mo, fam, err := obsRewardStrings(m, T)
	if err != nil {
		return nil, err
	}
	var rows []SubsetRow
	for _, e := range eps {
		p := partition.Greedy(dS, e)
		gap, _, err := MaxValueGap(mo, T, p, fam, value.LatentReward{})
		if err != nil {
			return nil, err
		}
		rows = append(rows, SubsetRow{strings.Join(names, ", "), deltaS, cd.Gap, e, p.Total(), gap,
			value.TransferBound(1, T, e, deltaS, cd.Gap)})
	}
	return rows, nil
}

// greedySubset returns the greedy one-probe subset S of the stationary m = 1
// family (its probes' names), δ_S and the distances of S's envelope.
func greedySubset(ctx context.Context, m *pomdp.Model, g ot.Ground, T int) ([]string, float64, []partition.Matrix, error) {
	fam, err := fsc.NewStationary(m.NumActions(), m.NumObservations(), 1, fsc.Options{})
	if err != nil {
		return nil, 0, nil, err
	}
	r, err := distance.Compute(ctx, m, fam, T, distance.Options{Ground: g, Convention: law.PointMassStandIn, Tensor: true})
	if err != nil {
		return nil, 0, nil, err
	}
	tn, err := certify.FromResult(r)
	if err != nil {
		return nil, 0, nil, err
	}
	S := certify.Greedy(tn, 1)
	var names []string
	for _, col := range S {
		names = append(names, "always "+m.Actions[fam.At(tn.First[col]).Action(0, 0)])
	}
	return names, certify.Gap(tn, S), tn.Matrices(tn.Envelope(S)), nil
}
