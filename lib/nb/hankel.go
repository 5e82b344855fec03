package nb

import (
	"context"

	"github.com/pomdpq/pomdpq/lib/certify"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// HankelStudy compares the ranks of a model's history tensor (see
// [StudyHankel]).
type HankelStudy struct {
	Joint, Open, Margin int   // certify.HankelRanks: joint, open-loop and marginal Hankel ranks
	REnv                []int // exact r_env at each δ asked for
	Greedy              []int // smallest greedy k (up to 20) with δ_S ≤ δ, 0 if none
	Eff99               int   // 99% effective rank, depth T − 1
}

// StudyHankel computes the Hankel ranks of m at horizon T and, for every δ
// of deltas, the exact envelope rank r_env of the tensor t (m's distances
// under a probe family, certify.FromResult) and the smallest greedy
// coverage with gap at most δ (+1e-12).
func StudyHankel(ctx context.Context, m *pomdp.Model, T int, t *certify.Tensor, deltas []float64) (HankelStudy, error) {
	hr, err := certify.HankelRanks(m, T, 0)
	if err != nil {
		return HankelStudy{}, err
	}
	row := HankelStudy{Joint: hr[0].Rank, Open: hr[1].Rank, Margin: hr[2].Rank,
		Eff99: t.Spectrum(T-1, true).EffectiveRank(0.99)}
	curve := certify.GreedyCurve(t, 20)
	for _, d := range deltas {
		cv, err := certify.EnvelopeRank(ctx, t, d, 0)
		if err != nil {
			return row, err
		}
		row.REnv = append(row.REnv, cv.Size)
		k := 0
		for _, c := range curve {
			if c.Gap <= d+1e-12 {
				k = c.K
				break
			}
		}
		row.Greedy = append(row.Greedy, k)
	}
	return row, nil
}
