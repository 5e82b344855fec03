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
	gmin    float64 // smallest off-diagonal ground distance
	w1      *w1Solver
	// capped is the decision threshold (Options.Eps): a pair whose value
	// is known to exceed it is settled with a lower bound above it.
	capped float64
	marg   []float64
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
	gmin := math.Inf(1)
	for i := range g {
		for j := range g[i] {
			if i != j {
				gmin = min(gmin, g[i][j])
			}
		}
	}
	if math.IsInf(gmin, 1) {
		gmin = 0
	}
	return &pairWorker{tree: tree, metric: metric, gmax: gmax, gmin: gmin, uniform: uniform, w1: newW1Solver(g, tree.NumObs), capped: math.Inf(1)}
}

// marginals writes, for each representative of one depth, the law of each
// of the k observations of its suffix: out[a·k·|O| + s·|O| + o] =
// P(O_{t+1+s} = o | h) for the representative a.
func (pw *pairWorker) marginals(data []float64, rt []int, L, k int) []float64 {
	nO := pw.tree.NumObs
	size := len(rt) * k * nO
	if cap(pw.marg) < size {
		pw.marg = make([]float64, size)
	}
	out := pw.marg[:size]
	clear(out)
	for a, i := range rt {
		p := data[i*L : (i+1)*L]
		mg := out[a*k*nO : (a+1)*k*nO]
		for x, v := range p {
			if v == 0 {
				continue
			}
			// Digits of x, first observation most significant.
			y := x
			for s := k - 1; s >= 0; s-- {
				mg[s*nO+y%nO] += v
				y /= nO
			}
		}
	}
	return out
}

// lowerBound returns a lower bound on W1 under the additive sequence cost:
// max(gmin·TV(p, q), Σ_s gmin·TV(p_s, q_s)) over the one-step marginals
// p_s, q_s (every coupling of p and q couples each pair of marginals, and
// moving mass between different observations costs at least gmin).
func (pw *pairWorker) lowerBound(tv float64, mp, mq []float64) float64 {
	s := 0.0
	for o, v := range mp {
		s += math.Abs(v - mq[o])
	}
	return pw.gmin * math.Max(tv, s/2)
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
		decide := !math.IsInf(pw.capped, 1) && pw.metric == W1 && prune
		var marg []float64
		if decide {
			marg = pw.marginals(data, rt, L, k)
		}
		kn := k * tr.NumObs
		idx := 0
		for a := 0; a < n; a++ {
			i := rt[a]
			p := data[i*L : (i+1)*L]
			for b := a + 1; b < n; b++ {
				j := rt[b]
				cur := m.Data[idx]
				if decide && cur > pw.capped {
					idx++ // settled above the largest ε by an earlier probe
					continue
				}
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
				case decide && float64(k)*pw.gmax*tv > pw.capped:
					// The exact value matters only up to the threshold:
					// a lower bound above it settles the pair.
					if lb := pw.lowerBound(tv, marg[a*kn:(a+1)*kn], marg[b*kn:(b+1)*kn]); lb > pw.capped {
						w = lb
						break
					}
					var err error
					if w, err = pw.w1.solve(p, q, k); err != nil {
						return err
					}
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
