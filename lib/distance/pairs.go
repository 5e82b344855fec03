package distance

import (
	"math"

	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// pairWorker turns one probe's laws into pair distances. It owns the
// transport solver's scratch memory.
type pairWorker struct {
	tree   law.Tree
	metric Metric
	gmax   float64
	// uniform reports a ground metric with every off-diagonal entry equal
	// to gmax (the discrete metric, scaled): one-step W1 is then gmax·TV.
	uniform bool
	w1      *w1Solver
	// tick, when set, is told the pairs done after every row; an error
	// (the context's) stops accumulate.
	tick func(pairs int) error
}

func newPairWorker(g ot.Ground, tree law.Tree, metric Metric) *pairWorker {
	uniform := true
	gmax := g.Max()
	for i := range g {
		for j := range g[i] {
			if i != j && g[i][j] != gmax {
				uniform = false
			}
		}
	}
	return &pairWorker{tree: tree, metric: metric, gmax: gmax, uniform: uniform, w1: newW1Solver(g, tree.NumObs)}
}

// accumulate sets dst[t](a, b) = max(dst[t](a, b), dist(law_{reps[t][a]},
// law_{reps[t][b]})) for every depth t < T and pair of representatives
// a < b. With prune, a pair whose upper bound k·max d_O·TV cannot exceed
// the current entry is not solved. It checks for nothing but the laws:
// cancellation is the caller's, between probes.
func (pw *pairWorker) accumulate(dst []partition.Matrix, laws *law.Laws, reps [][]int, prune bool) error {
	tr := pw.tree
	for t := 0; t < tr.T; t++ {
		rt := reps[t]
		n := len(rt)
		if n < 2 {
			continue
		}
		L := tr.SuffixLen(t)
		k := tr.T - t
		data := laws.Depth(t)
		m := dst[t]
		idx := 0
		for a := 0; a < n; a++ {
			i := rt[a]
			p := data[i*L : (i+1)*L]
			for b := a + 1; b < n; b++ {
				j := rt[b]
				cur := m.Data[idx]
				q := data[j*L : (j+1)*L]
				tv := totalVariation(p, q)
				var w float64
				switch {
				case tv == 0:
					w = 0
				case pw.metric == TV:
					w = tv
				case k == 1 && pw.uniform && prune:
					// One observation under a uniform ground metric: the
					// optimal coupling keeps min(p, q) in place and moves
					// the rest at cost gmax, so W1 = gmax·TV exactly. (Not
					// in tensor mode: certify's greedy subsets break ties
					// between probes on the solver's last bits, and their
					// goldens pin those choices.)
					w = pw.gmax * tv
				case float64(k)*pw.gmax*tv <= negligible:
					// Laws equal up to rounding: W1 ≤ k·max d_O·TV is far
					// below partition.ZeroTol; use the bound rather than
					// solve a degenerate problem on residual masses ~1e-17.
					w = float64(k) * pw.gmax * tv
				case prune && float64(k)*pw.gmax*tv <= cur:
					w = cur
				default:
					var err error
					if w, err = pw.w1.solve(p, q, k); err != nil {
						return err
					}
				}
				if w > cur {
					m.Data[idx] = w
				}
				idx++
			}
			// Report the row's pairs and stop if the run was cancelled.
			if pw.tick != nil {
				if err := pw.tick(n - a - 1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// negligible is the upper bound on W1 below which a pair is not solved.
const negligible = 1e-14

func totalVariation(p, q []float64) float64 {
	s := 0.0
	for i, x := range p {
		s += math.Abs(x - q[i])
	}
	return s / 2
}
