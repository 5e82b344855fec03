package statbb

import (
	"context"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// TestHallwayPairDecided reproduces issue 27's stuck pair: hallway, m ≤ 2,
// T = 4, ε = 0, 0.1, 0.3, the depth-2 histories (o₀, o₈) and (o₈, o₈).
// Without refBound its search passes 10⁵ nodes with glued bounds near 0.4
// above ε = 0.3; with it the search must end (a value past the cap or a
// proof) within a few thousand nodes.
func TestHallwayPairDecided(t *testing.T) {
	m, err := modelfile.Load(shared.Path(t, "TestRefBoundAboveBruteForce", "pomdp", "hallway.POMDP"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := newProblem(m, 2, 4, Options{Eps: []float64{0, 0.1, 0.3}, Convention: law.UniformStandIn, MaxNodes: 5000})
	if err != nil {
		t.Fatal(err)
	}
	tab := newTable(m, 1<<30)
	s := newSearcher(p, context.Background(), tab)
	s.g = tab.acquire()
	defer tab.release(s.g)
	own, ub, err := s.run([]int{0, 8}, []int{8, 8}, 2, 2, 0)
	if err != nil {
		t.Fatalf("search of ((o0, o8), (o8, o8)): %v after %d nodes", err, s.nodes)
	}
	if own > ub {
		t.Errorf("best value %g above the upper bound %g", own, ub)
	}
	t.Logf("best value %g, upper bound %g, %d nodes", own, ub, s.nodes)
}
