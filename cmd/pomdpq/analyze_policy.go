package main

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// loadPolicy reads a pomdp-solve policy graph for model m.
func loadPolicy(path string, m *pomdp.Model) (*fsc.FSC, error) {
	return nil, fmt.Errorf("analyze --policy %s: reading .pg files needs package lib/policy (not merged yet)", path)
}
