package main

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/policy"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// solverPolicy is a policy graph read for analyze, its best start node
// and its discounted infinite-horizon value at b0 from there.
type solverPolicy struct {
	graph    *fsc.FSC
	start    int
	infinite float64 // NaN when not evaluated
	note     string
}

// loadPolicy reads a pomdp-solve policy graph for model m, evaluates it
// over the discounted infinite horizon (when m has a discount below 1) to
// pick its best start node (node 0 otherwise).
func loadPolicy(path string, m *pomdp.Model) (*solverPolicy, error) {
	g, err := policy.LoadPG(path, m)
	if err != nil {
		return nil, err
	}
	p := &solverPolicy{infinite: math.NaN()}
	p.graph = g
	if m.HasDiscount && m.Discount < 1 {
		ev, err := policy.Evaluate(m, g, 0)
		if err != nil {
			return nil, fmt.Errorf("analyze --policy %s: %w", path, err)
		}
		p.infinite, p.start = ev.Value, ev.StartNode
		p.note = fmt.Sprintf("from the best start node %d of %d (γ = %g); the finite-horizon values below start there too", ev.StartNode, ev.Nodes, ev.Discount)
	} else {
		p.note = "not evaluated: the model has no discount below 1; the graph starts in node 0"
	}
	return p, nil
}
