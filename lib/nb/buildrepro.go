package nb

import (
	"context"

	"github.com/pomdpq/pomdpq/lib/repro"
)

// BuildRepro regenerates the paper table name (sharing env's caches; nil:
// a fresh environment) and compares it with the paper; it returns the
// table and its agreeing rows.
func BuildRepro(ctx context.Context, env *repro.Env, name string) (*repro.Table, int, error) {
	spec, err := repro.Lookup(name)
	if err != nil {
		return nil, 0, err
	}
	if env == nil {
		env = &repro.Env{}
	}
	t, err := spec.Build(ctx, env)
	if err != nil {
		return nil, 0, err
	}
	agree, err := t.Compare()
	return t, agree, err
}
