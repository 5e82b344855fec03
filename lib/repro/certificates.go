package repro

import (
	"context"

	"github.com/pomdpq/pomdpq/lib/certify"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

// tensorOf returns the certify tensor of a built-in model's deterministic
// stationary family (cached distances).
func tensorOf(ctx context.Context, env *Env, model string, m, T int) (*certify.Tensor, int, error) {
	r, _, err := distances(ctx, env, model, fsc.KindStationary, m, T, true)
	if err != nil {
		return nil, 0, err
	}
	t, err := certify.FromResult(r)
	return t, r.FamilySize, err
}

// certM is the memory of the families of §7.4's certificates (m ≤ 2).
const certM = 2
