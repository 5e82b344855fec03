package nb

import (
	"context"

	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// PossibleCounts are per-depth counts of a model's histories (see
// [PossibleHistories]); each slice has one entry per depth 0 … T.
type PossibleCounts struct {
	Hist     []int // histories
	Possible []int // histories of positive probability under some open-loop string
	Op, Clk  []int // classes of Q_op and Q_clk (def:equiv, point-mass stand-in)
	Bound    []int // at most this many classes by law: possible histories + one stand-in class (1 at depths 0 and T)
}

// PossibleHistories counts, per depth of m at horizon T, the histories that
// some open-loop string makes possible, the exact class counts, and the
// bound "possible histories + one class for the impossible ones" on them.
func PossibleHistories(ctx context.Context, m *pomdp.Model, T int) (PossibleCounts, error) {
	var c PossibleCounts
	tree, err := law.NewTree(m.NumObservations(), T)
	if err != nil {
		return c, err
	}
	pos, err := possibleSet(m, T, tree.Len())
	if err != nil {
		return c, err
	}
	r, err := clock.Quotients(ctx, m, T, nil)
	if err != nil {
		return c, err
	}
	for t := 0; t <= T; t++ {
		n := 0
		for i := 0; i < tree.Count(t); i++ {
			if pos[tree.Offset(t)+i] {
				n++
			}
		}
		b := min(n+1, tree.Count(t)) // possible histories, plus one class for the impossible ones
		if t == 0 || t == T {
			b = 1
		}
		c.Hist, c.Possible, c.Bound = append(c.Hist, tree.Count(t)), append(c.Possible, n), append(c.Bound, b)
		c.Op, c.Clk = append(c.Op, r.Op.Counts()[t]), append(c.Clk, r.Clk.Counts()[t])
	}
	return c, nil
}

// possibleSet marks, by history id, the histories of positive probability
// under some open-loop string of length T.
func possibleSet(m *pomdp.Model, T, n int) ([]bool, error) {
	fam, err := OpenLoop(m, T)
	if err != nil {
		return nil, err
	}
	pos := make([]bool, n)
	for i := 0; i < fam.Len(); i++ {
		l, err := law.Compute(m, fam.At(i), T, law.PointMassStandIn)
		if err != nil {
			return nil, err
		}
		for id, mass := range l.Mass {
			pos[id] = pos[id] || mass > 0
		}
	}
	return pos, nil
}
