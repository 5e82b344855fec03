package statbb

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/bb"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Witness is the result of the search restricted to one history pair: a
// controller of the stationary family with at most M nodes attaining the
// pair's distance (bb.Witness, shared with lib/clock2).
type Witness = bb.Witness

// FindWitness runs the search of Compute for the two histories h1, h2 of
// one depth t ≤ T only (observation indices), in exact mode (opt.Eps is
// ignored), and returns a controller with at most M nodes attaining their
// distance. Equal histories, and histories of depth T, are at distance 0:
// the witness is then the M-node controller whose entries are all 0.
//
// A search that reaches the node limit (opt.MaxNodes, per node count
// searched) is not an error: the witness is then the best controller
// found, Exact is false and [Distance, Upper] brackets the maximum.
// opt.Progress, when set, is called during the search with the nodes
// visited and the node limit (of all the node counts searched).
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
	w := &Witness{FamilySize: size, Controller: p.controller(M, nil, nil), Exact: true}
	L := T - len(h1)
	if L == 0 || slices.Equal(h1, h2) {
		return w, nil
	}
	// One pair: the table is never renewed (its size is bounded by the
	// entries this pair's search reads).
	tab := newTable(m, 0)
	s := newSearcher(p, ctx, tab)
	s.trace = true
	ks := nodeCounts(M, opt.Convention)
	if opt.Progress != nil && p.maxNodes > 0 {
		// The node limit holds for each node count searched.
		total := int(min(p.maxNodes*int64(len(ks)), math.MaxInt32))
		s.progress = func(n int64) { opt.Progress(int(min(n, int64(total))), total) }
	}
	s.g = tab.acquire()
	defer tab.release(s.g)
	// A strong incumbent first, so that the search prunes from the start.
	lo, upper := s.incumbent(h1, h2, M, L), 0.0
	if lo > 0 {
		w.Controller = p.controller(M, s.bestAct, s.bestN)
	}
	for _, k := range ks {
		own, _, err := s.run(h1, h2, k, L, lo)
		if errors.Is(err, errNodes) {
			// Keep what was found; the open subtrees bound the rest.
			own, w.Exact, upper = s.own, false, max(upper, s.th, s.open)
		} else if err != nil {
			return nil, err
		}
		if own > lo {
			lo = own
			w.Controller = p.controller(k, s.bestAct, s.bestN)
		}
	}
	// Open bounds above L·g_max (unbounded subtrees) say no more than it.
	w.Distance, w.Upper, w.Nodes = lo, max(lo, min(upper, float64(L)*p.gmax)), s.nodes
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

// climbRounds bounds the improvements of incumbent's hill climb.
const climbRounds = 16

// incumbent evaluates, before a witness search, cheap members of the
// k-node family for the pair h0, h1 (L steps left): the constant-action
// controllers (probe), then, from the best of them, a hill climb that
// changes one entry of the tables at a time and keeps any change that
// raises the pair's W1, for at most climbRounds improvements. It returns
// the best value found, a W1 that the search then only has to beat, and
// leaves the controller attaining it in s.bestAct, s.bestN.
func (s *searcher) incumbent(h0, h1 []int, k, L int) float64 {
	p := s.p
	s.k, s.L, s.h = k, L, [2][]int{h0, h1}
	s.act = resetInts(s.act, k)
	s.nxt = resetInts(s.nxt, k*p.nO)
	s.own, s.lb, s.stopped, s.err = 0, 0, false, nil
	s.th = p.Theta(0)
	s.probe()
	if s.err != nil || s.bestAct == nil {
		return 0
	}
	copy(s.act, s.bestAct)
	copy(s.nxt, s.bestN)
	try := func(v varRef, cur, n int) bool {
		for val := range n {
			if val == cur {
				continue
			}
			s.set(v, val)
			before := s.own
			if r := s.eval(); r.leaf {
				s.update(r.value)
			}
			if s.err != nil || s.own > before {
				return true
			}
		}
		s.set(v, cur)
		return false
	}
	for round := 0; round < climbRounds && s.ctx.Err() == nil; round++ {
		improved := false
		for q := 0; q < k && !improved; q++ {
			improved = try(varRef{true, q}, s.act[q], p.nA)
		}
		for e := 0; e < len(s.nxt) && !improved && k > 1; e++ {
			improved = try(varRef{false, e}, s.nxt[e], k)
		}
		if !improved || s.err != nil {
			break
		}
	}
	if s.err != nil {
		return 0
	}
	return s.own
}
