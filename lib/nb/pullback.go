package nb

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/wrap"
)

// PullbackGap returns max over probes random stochastic stationary
// controllers π′ of the wrapped model W(M) (nodes nodes each, drawn from
// seed) of max_x |P_{W(M)}^{π′}(x) − C^{⊗T}# P_M^{pullback(π′)}(x)| at
// horizon T: 0 (to rounding) where the pullback reproduces the wrapped
// model's trajectory law exactly. A nil observation channel is the identity.
func PullbackGap(m *pomdp.Model, w wrap.Wrapper, nodes, T, probes int, seed uint64) (float64, error) {
	rng := rand.New(rand.NewPCG(seed, 0))
	wm, err := w.Apply(m)
	if err != nil {
		return 0, err
	}
	gap := 0.0
	for k := 0; k < probes; k++ {
		pi := fsc.Random(rng, wm.NumActions(), wm.NumObservations(), nodes, 0)
		pb, err := w.Pullback(pi)
		if err != nil {
			return 0, fmt.Errorf("probe %d: %w", k, err)
		}
		lw, err := law.Compute(wm, pi, T, law.UniformStandIn)
		if err != nil {
			return 0, fmt.Errorf("probe %d on W(M): %w", k, err)
		}
		lm, err := law.Compute(m, pb, T, law.UniformStandIn)
		if err != nil {
			return 0, fmt.Errorf("pullback of probe %d on M: %w", k, err)
		}
		push := append([]float64(nil), lm.Trajectory()...)
		if w.Obs != nil {
			push = make([]float64, len(lw.Trajectory()))
			w.Obs.Push(push, lm.Trajectory(), T)
		}
		for x, v := range lw.Trajectory() {
			gap = math.Max(gap, math.Abs(v-push[x]))
		}
	}
	return gap, nil
}
