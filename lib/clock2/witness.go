package clock2

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/bb"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Witness is the result of the search restricted to one history pair: a
// controller of Π^clk_{2,T} (a deterministic two-node clock-aware
// controller with T stages) attaining the pair's distance; Roots counts
// the realisable root pairs searched.
type Witness struct {
	bb.Witness
	Roots int
}

// FindWitness runs the search of Compute for the two histories h1, h2 of
// one depth t ≤ T only (observation indices), in exact mode (opt.Eps is
// ignored), and returns a controller attaining their distance. Equal
// histories, and histories of depth T, are at distance 0: the witness is
// then the controller whose entries are all 0.
//
// A search that reaches the node limit (opt.MaxNodes, per root pair
// searched; a witness search passes it only after its first leaf) is not an error: the witness is then the best controller
// found, Exact is false and [Distance, Upper] brackets the maximum.
// opt.Progress, when set, is called during the search with the nodes
// visited and the node limit (of all the root pairs searched).
func FindWitness(ctx context.Context, m *pomdp.Model, T int, h1, h2 []int, opt Options) (*Witness, error) {
	if m == nil {
		return nil, errors.New("clock2: nil model")
	}
	if err := checkPair(m, T, h1, h2); err != nil {
		return nil, err
	}
	opt.Eps, opt.Workers = nil, 1
	cost := EstimateCost(m, T, 1)
	cost.Matrices = 0 // one pair: no matrix
	if budget := bb.Budget(opt.MemBudget); budget >= 0 && cost.Bytes() > budget {
		name, v := cost.Largest()
		return nil, fmt.Errorf("%w: %s at T = %d: the search's fixed buffers need %s (largest term: %s, %s), above the budget %s; lower T or raise the budget (--mem)",
			ErrTooLarge, m.Name, T, distance.FormatBytes(cost.Bytes()), name, distance.FormatBytes(v), distance.FormatBytes(budget))
	}
	p, err := newProblem(ctx, m, T, opt)
	if err != nil {
		return nil, err
	}
	size, _ := fsc.Size(fsc.KindClock, p.nA, p.nO, 2, T)
	w := &Witness{Witness: bb.Witness{FamilySize: size, Exact: true}}
	t := len(h1)
	L := T - t
	best := p.zeroController()
	if L == 0 || slices.Equal(h1, h2) {
		w.Controller = best
		return w, nil
	}
	bs := newBeliefs(p)
	rs := bs.walk(h1, h2, make(map[[3]int32]bool), true)
	w.Roots = len(rs)
	s := newSearcher(p, ctx)
	s.trace = true
	if opt.Progress != nil && p.maxNodes > 0 {
		// The node limit holds for each root pair searched.
		total := int(min(p.maxNodes*int64(len(rs)), math.MaxInt32))
		s.progress = func(n int64) { opt.Progress(int(min(n, int64(total))), total) }
	}
	lo, upper := 0.0, 0.0
	var zeroLeaf *fsc.FSC
	for _, r := range rs {
		n2 := 1
		if r.key.same {
			n2 = 0
		}
		r1 := p.rootOf(bs, r.key.b1, 0, s.root1)
		r2 := p.rootOf(bs, r.key.b2, n2, s.root2)
		own, _, err := s.run(r1, r2, L, lo, 0)
		if errors.Is(err, errNodes) {
			// Keep what was found; the open subtrees bound the rest.
			own, w.Exact, upper = s.own, false, max(upper, s.th, s.open)
		} else if err != nil {
			return nil, err
		}
		switch {
		case own > lo:
			lo = own
			best = p.assemble(bs, h1, h2, r, n2, s.tail)
		case lo == 0 && zeroLeaf == nil && s.traced:
			zeroLeaf = p.assemble(bs, h1, h2, r, n2, s.tail) // a controller at distance 0
		}
	}
	if lo == 0 && !w.Exact && zeroLeaf != nil {
		best = zeroLeaf // the all-0 controller's W1 is not known
	}
	// Open bounds above L·g_max (unbounded subtrees) say no more than it.
	w.Controller, w.Distance, w.Upper, w.Nodes = best, lo, max(lo, min(upper, float64(L)*p.gmax)), s.nodes
	return w, nil
}

// checkPair refuses histories of different depths, above T, or with an
// observation out of range.
func checkPair(m *pomdp.Model, T int, h1, h2 []int) error {
	if len(h1) != len(h2) || len(h1) > T {
		return fmt.Errorf("clock2: histories of depths %d and %d; want one depth ≤ T = %d", len(h1), len(h2), T)
	}
	for _, h := range [][]int{h1, h2} {
		for k, o := range h {
			if o < 0 || o >= m.NumObservations() {
				return fmt.Errorf("clock2: history observation %d (step %d) out of range [0, %d)", o, k, m.NumObservations())
			}
		}
	}
	return nil
}

// zeroController returns the two-node clock-aware controller with every
// entry 0.
func (p *problem) zeroController() *fsc.FSC {
	c := &fsc.FSC{Nodes: 2, Stages: p.T, NumActions: p.nA, NumObs: p.nO, Act: make([][]int, p.T)}
	for tau := range c.Act {
		c.Act[tau] = make([]int, 2)
	}
	if p.T > 1 {
		c.Next = make([][][]int, p.T-1)
		for tau := range c.Next {
			c.Next[tau] = [][]int{make([]int, p.nO), make([]int, p.nO)}
		}
	}
	return c
}

// assemble builds the controller of root r (its traced prefix along h1,
// h2) and the tail tables found by the search: the prefix writes the
// entries each live path reads (its action, and its next node while it
// stays possible), and the tail's nodes are relabelled so that the
// search's node of a live side is the node its path reached (n2 is the
// search's node of its second side).
func (p *problem) assemble(bs *beliefs, h1, h2 []int, r rootState, n2 int, tail []choice) *fsc.FSC {
	c := p.zeroController()
	var steps []*prefixStep
	for st := r.tr; st != nil; st = st.prev {
		steps = append(steps, st)
	}
	slices.Reverse(steps)
	b := [2]int32{0, 0}
	node := [2]int{0, 0}
	hs := [2][]int{h1, h2}
	for k, st := range steps {
		acts := [2]int{st.a1, st.a2}
		nxt := [2]int{0, 1}
		if st.same {
			nxt[1] = 0
		}
		for sd := range 2 {
			if b[sd] == standInID {
				continue
			}
			c.Act[k][node[sd]] = acts[sd]
			b[sd] = bs.step(b[sd], acts[sd], hs[sd][k])
			if b[sd] != standInID {
				c.Next[k][node[sd]][hs[sd][k]] = nxt[sd]
			}
		}
		node = nxt
	}
	// The search's side 0 is path 0 unless the key swapped them; its node
	// is 0, side 1's is n2.
	side := [2]int{0, 1}
	if r.swapped {
		side = [2]int{1, 0}
	}
	perm := [2]int{0, 1}
	switch {
	case b[side[0]] != standInID && node[side[0]] != 0:
		perm = [2]int{1, 0}
	case b[side[0]] == standInID && b[side[1]] != standInID && node[side[1]] != n2:
		perm = [2]int{1, 0}
	}
	t := len(h1)
	for k, ch := range tail {
		tau := t + k
		var beta [2][]int
		if tau < p.T-1 {
			beta = [2][]int{make([]int, p.nO), make([]int, p.nO)}
			for bit, e := range ch.ent[1:] {
				if ch.mask>>bit&1 == 1 {
					beta[e/p.nO][e%p.nO] = 1
				}
			}
		}
		for n := range 2 {
			c.Act[tau][perm[n]] = ch.act[n]
			if tau < p.T-1 {
				for o, v := range beta[n] {
					c.Next[tau][perm[n]][o] = perm[v]
				}
			}
		}
	}
	return c
}
