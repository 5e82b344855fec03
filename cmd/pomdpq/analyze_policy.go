package main

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/policy"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// solverPolicy is a policy graph read for analyze: the controller started
// in its best node, and its discounted infinite-horizon value at b0.
type solverPolicy struct {
	ctrl     *fsc.FSC
	infinite float64 // NaN when not evaluated
	note     string
}

// loadPolicy reads a pomdp-solve policy graph for model m, evaluates it
// over the discounted infinite horizon (when m has a discount below 1) to
// pick its best start node, and completes it into a controller starting
// there (policy.Complete).
func loadPolicy(path string, m *pomdp.Model) (*solverPolicy, error) {
	g, err := policy.LoadPG(path, m)
	if err != nil {
		return nil, err
	}
	p := &solverPolicy{infinite: math.NaN()}
	start := 0
	if m.HasDiscount && m.Discount < 1 {
		ev, err := policy.Evaluate(m, g, 0)
		if err != nil {
			return nil, fmt.Errorf("analyze --policy %s: %w", path, err)
		}
		p.infinite, start = ev.Value, ev.StartNode
		p.note = fmt.Sprintf("from the best start node %d of %d (γ = %g); the finite-horizon values below start there too", ev.StartNode, ev.Nodes, ev.Discount)
	} else {
		p.note = "not evaluated: the model has no discount below 1; the graph starts in node 0"
	}
	if p.ctrl, err = policy.Complete(g, start); err != nil {
		return nil, fmt.Errorf("analyze --policy %s: %w", path, err)
	}
	return p, nil
}
