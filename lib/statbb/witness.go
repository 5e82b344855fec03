package statbb

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Witness is the result of the search restricted to one history pair: a
// controller of the stationary family with at most M nodes attaining the
// pair's distance.
type Witness struct {
	// Controller is a deterministic stationary controller with at most M
	// nodes; entries neither history's law reads are 0.
	Controller *fsc.FSC
	// Distance is the searched maximum d(h, h′), the value Compute gives
	// the pair in exact mode (to bb.BoundSlack), and the W1 of the two
	// suffix laws under Controller.
	Distance float64
	// Nodes counts the branch-and-bound nodes visited; FamilySize is the
	// family's size.
	Nodes      int64
	FamilySize *big.Int
}

// FindWitness runs the search of Compute for the two histories h1, h2 of
// one depth t ≤ T only (observation indices), in exact mode (opt.Eps is
// ignored), and returns a controller with at most M nodes attaining their
// distance. Equal histories, and histories of depth T, are at distance 0:
// the witness is then the M-node controller whose entries are all 0.
func FindWitness(ctx context.Context, m *pomdp.Model, M, T int, h1, h2 []int, opt Options) (*Witness, error) {
	if m == nil {
		return nil, errors.New("statbb: nil model")
	}
	opt.Eps = nil
	p, err := newProblem(m, M, T, opt)
	if err != nil {
		return nil, err
	}
	if len(h1) != len(h2) || len(h1) > T {
		return nil, fmt.Errorf("statbb: histories of depths %d and %d; want one depth ≤ T = %d", len(h1), len(h2), T)
	}
	for _, h := range [][]int{h1, h2} {
		for k, o := range h {
			if o < 0 || o >= p.nO {
				return nil, fmt.Errorf("statbb: history observation %d (step %d) out of range [0, %d)", o, k, p.nO)
			}
		}
	}
	size, _ := fsc.Size(fsc.KindStationary, p.nA, p.nO, M, 0)
	w := &Witness{FamilySize: size, Controller: p.controller(M, nil, nil)}
	L := T - len(h1)
	if L == 0 || slices.Equal(h1, h2) {
		return w, nil
	}
	// One pair: the table is never renewed (its size is bounded by the
	// entries this pair's search reads).
	tab := newTable(m, 0)
	s := newSearcher(p, ctx, tab)
	s.trace = true
	s.g = tab.acquire()
	defer tab.release(s.g)
	lo := 0.0
	for _, k := range nodeCounts(M, opt.Convention) {
		own, _, err := s.run(h1, h2, k, L, lo)
		if errors.Is(err, errNodes) {
			err = fmt.Errorf("%w: %s at T = %d, m ≤ %d: the search of the pair (depth %d) visited more than %d nodes; %s",
				ErrTooLarge, p.m.Name, p.T, M, len(h1), p.maxNodes, witnessAdvice)
		}
		if err != nil {
			return nil, err
		}
		if own > lo {
			lo = own
			w.Controller = p.controller(k, s.bestAct, s.bestN)
		}
	}
	w.Distance, w.Nodes = lo, s.nodes
	return w, nil
}

// controller returns the k-node stationary controller with action table
// act and next-node table nxt ([n·|O| + o]), unassigned entries (−1, or
// nil tables) 0.
func (p *problem) controller(k int, act, nxt []int) *fsc.FSC {
	c := &fsc.FSC{Nodes: k, NumActions: p.nA, NumObs: p.nO, Act: [][]int{make([]int, k)}, Next: [][][]int{make([][]int, k)}}
	for n := range k {
		if n < len(act) && act[n] >= 0 {
			c.Act[0][n] = act[n]
		}
		c.Next[0][n] = make([]int, p.nO)
		for o := range p.nO {
			if e := n*p.nO + o; e < len(nxt) && nxt[e] >= 0 {
				c.Next[0][n][o] = nxt[e]
			}
		}
	}
	return c
}

// witnessAdvice ends a node-limit refusal of FindWitness: a witness needs
// the pair's exact maximum, which costs more than quotient's decision mode
// (it stops at a value above the largest ε).
const witnessAdvice = "a witness needs the pair's exact maximum, which costs more than quotient's decision of the listed ε; raise the node limit (--max-nodes), explain a pair of a larger depth (shorter suffixes) or use a shorter horizon"
