package bb

import (
	"math/big"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

// Witness is the result of a branch-and-bound search restricted to one
// history pair (lib/statbb and lib/clock2's FindWitness): a controller of
// the searched family and the pair's distance under it.
type Witness struct {
	// Controller is a deterministic controller of the family; entries
	// neither history's law reads are 0.
	Controller *fsc.FSC
	// Distance is the W1 of the two suffix laws under Controller: when
	// Exact, the searched maximum d(h, h′), the value the search gives the
	// pair in exact mode (to BoundSlack); otherwise the best value the
	// search found before its node limit, a lower bound on d(h, h′).
	Distance float64
	// Upper bounds d(h, h′) from above: Distance when Exact, else the
	// largest bound of the subtrees the search left open (or its pruning
	// threshold, if larger).
	Upper float64
	// Exact reports whether the search completed (Distance = d(h, h′)).
	Exact bool
	// Nodes counts the branch-and-bound nodes visited; FamilySize is the
	// family's size.
	Nodes      int64
	FamilySize *big.Int
}
