package repro

import (
	"context"
	"fmt"
	"strconv"

	"github.com/pomdpq/pomdpq/lib/baseline"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/value"
)

func init() {
	register(Spec{Name: "horizon-gap", Label: "app:experiments (Horizon Gap Analysis)",
		Title: "Tiger, m = 1, ε = 0.5: value error and bounds for T = 2 … 10", Build: horizonGap})
}

// ---------------------------------------------------------------------
// horizon gap analysis (prose, App. H)

func horizonGap(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "horizon-gap", Label: "app:experiments",
		Title: "Horizon gap: Tiger (full actions), m = 1, ε = 0.5, G = 1[all observations L], L_R = 1",
		Columns: []Column{{"horizon", Key}, {"classes", Info}, {"histories", Info}, {"empirical_error", Info}, {"d_w", Info},
			{"diameter", Info}, {"bound_lr_t_eps", Info}, {"bound_lr_t_d", Info}, {"canonical_bound", Info}}}
	const eps = 0.5
	for T := 2; T <= 10; T++ {
		r, b, err := distances(ctx, env, "tiger", fsc.KindStationary, 1, T, false)
		if err != nil {
			return nil, err
		}
		s, _, err := plAssess(ctx, env, "tiger", 1, T, r.Partition(eps), baseline.AllFirst(T))
		if err != nil {
			return nil, err
		}
		t.Rows = append(t.Rows, []string{itoa(T), itoa(s.Classes), itoa(r.Tree.Len()), plF4(s.ValueError), plF4(s.D), plF4(s.Diameter),
			plF2(value.Bound(1, T, eps)), plF4(float64(T) * s.D),
			strconv.FormatFloat(plCanonical(1, T, eps, b.Model.NumStates(), b.Model.NumObservations()), 'f', 1, 64)})
	}
	var ends [2]string
	for k, id := range []string{"horizon_gap_canonical_T2", "horizon_gap_canonical_T10"} {
		v, err := claimed(id)
		if err != nil {
			return nil, err
		}
		ends[k] = v
	}
	t.Notes = append(t.Notes, fmt.Sprintf("The paper states only the canonical bound's end points (%s at T = %s, %s at T = %s; planning-claims; ours %s and %s) and a sawtooth of the empirical error (ours: empirical_error).",
		ends[0], t.at(0, "horizon"), ends[1], t.at(len(t.Rows)-1, "horizon"), t.at(0, "canonical_bound"), t.at(len(t.Rows)-1, "canonical_bound")))
	return t, nil
}
