package law

import (
	"context"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

// DAGGrowth builds controller c's posterior DAG (DAG) only as far as it
// is cheap, for a pre-flight estimate of the whole DAG: depth t is
// expanded only while it has at most maxNodes nodes and its children's
// posteriors, at most |O| per node, hold at most maxEntries floats. It
// returns the node
// counts of the depths built, Len[0..k] (with each depth's stand-in node;
// k = T, Len[T] = 1, when the whole DAG was that small). The counts are
// those DAG would give at those depths (merge tolerance MergeRel; the
// class path's DAGMerge with a smaller tolerance can only split nodes
// more, a few per cent on the models measured in docs/algorithms.md).
func (e *Engine) DAGGrowth(ctx context.Context, c *fsc.FSC, maxNodes, maxEntries int) ([]int, error) {
	if err := e.Check(c); err != nil {
		return nil, err
	}
	T, nO, nS := e.tree.T, e.tree.NumObs, e.nS
	lens := []int{1}
	if T == 0 {
		return lens, nil
	}
	width := c.Nodes * nS
	d := &DAG{T: T, NumObs: nO, Len: make([]int, T+1), Prob: make([][]float64, T), Child: make([][]int32, T), StandIn: make([]int32, T+1)}
	b := e.newDagBuild(c, d, width)
	cur := newDagLevel(width, MergeRel)
	root := make([]float64, width)
	copy(root, e.m.B0)
	cur.intern(root)
	for t := 0; t < T; t++ {
		b.standIn(cur, t)
		lens[t] = cur.n
		if cur.n > maxNodes {
			return lens, nil
		}
		var next *dagLevel
		if t+1 < T {
			next = newDagLevel(b.levelWidth(t+1), MergeRel)
			if int64(cur.n)*int64(nO)*int64(b.levelWidth(t+1)) > int64(maxEntries) {
				return lens, nil
			}
		}
		d.Len[t] = cur.n
		d.Prob[t], d.Child[t] = make([]float64, cur.n*nO), make([]int32, cur.n*nO)
		for v := 0; v < cur.n; v++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			b.expand(cur, next, t, v)
		}
		if next == nil {
			break
		}
		cur = next
		lens = append(lens, cur.n)
	}
	if len(lens) == T {
		lens = append(lens, 1)
	}
	return lens, nil
}
