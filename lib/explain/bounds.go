package explain

import (
	"math"

	"github.com/pomdpq/pomdpq/lib/ot"
)

// seqUpper returns an upper bound on W1(p, q) between two laws over O^k
// under the additive cost Σ_t g(x_t, y_t): the cost of a sequential
// coupling. The first observations are coupled by the transport problem
// whose cost of (a, b) is g(a, b) plus a bound on coupling what follows
// them: this same bound, recursively, when a = b, and k′·max g·TV of
// the two conditional laws (lib/ot's UpperBound) when a ≠ b, k′ = k − 1.
// Any coupling of the first observations, with any coupling of the
// conditional laws below it, is a coupling of p and q, so the value is
// an upper bound; where p and q are close to products of their
// marginals it is close to W1. It costs O(|O|²·|O|^k) per level of the
// recursion and one |O|×|O| transport problem per prefix shared by the
// two laws' supports.
func seqUpper(sol *ot.Solver, g ot.Ground, k int, p, q []float64) float64 {
	b := seqBound{sol: sol, g: g, gmax: g.Max()}
	b.uniform, b.delta = uniformGround(g)
	return b.upper(k, p, q)
}

// seqBound is what every level of seqUpper's recursion reads, computed
// once (9,261 leaves on hallway's four-step suffixes).
type seqBound struct {
	sol         *ot.Solver
	g           ot.Ground
	uniform     bool
	delta, gmax float64
}

// upper is seqUpper for suffixes of length k.
func (sb *seqBound) upper(k int, p, q []float64) float64 {
	g := sb.g
	nO := len(g)
	if k == 0 {
		return 0
	}
	if k == 1 {
		if sb.uniform {
			return sb.delta * ot.TV(p, q)
		}
		return w1Flat(sb.sol, g, p, q, nil)
	}
	block := len(p) / nO
	mp, mq := make([]float64, nO), make([]float64, nO)
	for a := range nO {
		mp[a], mq[a] = sum(p[a*block:(a+1)*block]), sum(q[a*block:(a+1)*block])
	}
	// The conditional laws, each divided out once (the same quotients
	// the recursion and the total variations read).
	sp, sq := make([][]float64, nO), make([][]float64, nO)
	for a := range nO {
		if mp[a] > 0 {
			sp[a] = scaled(p[a*block:(a+1)*block], mp[a])
		}
		if mq[a] > 0 {
			sq[a] = scaled(q[a*block:(a+1)*block], mq[a])
		}
	}
	cost := make([]float64, nO*nO)
	gmax := sb.gmax * float64(k-1)
	for a := range nO {
		if mp[a] == 0 {
			continue
		}
		for b := range nO {
			if mq[b] == 0 {
				continue
			}
			if a == b {
				cost[a*nO+b] = g[a][b] + sb.upper(k-1, sp[a], sq[b])
				continue
			}
			tv := 0.0
			for i, v := range sp[a] {
				tv += math.Abs(v - sq[b][i])
			}
			cost[a*nO+b] = g[a][b] + gmax*tv/2
		}
	}
	return w1Flat(sb.sol, g, mp, mq, cost)
}

// w1Flat is W1 between two laws over O with the given flat cost (nil:
// the ground metric), +Inf if the solver fails, which leaves the bound
// useless but never wrong.
func w1Flat(sol *ot.Solver, g ot.Ground, p, q, cost []float64) float64 {
	nO := len(g)
	if cost == nil {
		cost = make([]float64, nO*nO)
		for a := range nO {
			copy(cost[a*nO:(a+1)*nO], g[a])
		}
	}
	r, err := sol.W1(p, q, cost)
	if err != nil {
		return math.Inf(1)
	}
	return r.Value
}

func scaled(v []float64, m float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x / m
	}
	return out
}
