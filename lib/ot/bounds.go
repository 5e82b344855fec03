package ot

import (
	"fmt"
	"math"
)

// TV returns the total variation distance between p and q,
//
//	TV(p, q) = ½ Σ_x |p_x − q_x|,
//
// the paper's "TV" ablation (docs/conventions.md#distances). It panics if the lengths
// differ. O(len(p)).
func TV(p, q []float64) float64 {
	if len(p) != len(q) {
		panic(fmt.Sprintf("ot: TV of laws of lengths %d and %d", len(p), len(q)))
	}
	s := 0.0
	for x, v := range p {
		s += 0.5 * math.Abs(v-q[x]) // halved first: no overflow for finite totals
	}
	return s
}

// LowerBound returns a lower bound on SeqW1(g, k, p, q) without solving the
// transport problem, so that callers can settle "W1 > ε" cheaply:
//
//	LB = max( Σ_t W1_g(p_t, q_t),  δ_min·TV(p, q) ),
//
// where p_t, q_t are the marginals of position t and δ_min is the smallest
// off-diagonal entry of g. The first term holds because any coupling of the
// sequence laws couples every pair of marginals and the cost is additive;
// it dominates every bound |E_p f − E_q f| with f a sum of per-position
// 1-Lipschitz scores (such as f(x) = d(x, x0) or, for ordered metrics, the
// per-position value). Each marginal W1 is exact: δ·TV for a uniform ground,
// the CDF formula for a line metric, a small simplex otherwise. The second
// holds because distinct sequences are at distance ≥ δ_min.
//
// Inputs are not validated (invalid masses give a meaningless or NaN bound,
// and NaN compares false with any ε). It panics if len(p) or len(q) differs
// from |O|^k. Complexity O(|O|^k·k) plus k solves on |O| points.
func (s *Solver) LowerBound(g Ground, k int, p, q []float64) float64 {
	o := len(g)
	n := SeqLen(o, k)
	if len(p) != n || len(q) != n {
		panic(fmt.Sprintf("ot: laws have lengths %d and %d, want |O|^k = %d^%d = %d", len(p), len(q), o, k, n))
	}
	tv := TV(p, q)
	dmin := math.Inf(1)
	for i, row := range g {
		for j, v := range row {
			if i != j {
				dmin = min(dmin, v)
			}
		}
	}
	if o < 2 || k == 0 {
		return 0
	}
	// Marginals: marg[(2t)·o + d] for p, marg[(2t+1)·o + d] for q.
	s.marg = growF(s.marg, 2*k*o)
	marg := s.marg
	clear(marg)
	s.digits = growI(s.digits, k)
	dig := s.digits
	clear(dig)
	for x := range n {
		a, b := p[x], q[x]
		for t, d := range dig {
			marg[2*t*o+d] += a
			marg[(2*t+1)*o+d] += b
		}
		for t := k - 1; t >= 0; t-- {
			dig[t]++
			if dig[t] < o {
				break
			}
			dig[t] = 0
		}
	}
	sum := 0.0
	if d, ok := g.uniform(); ok {
		for t := range k {
			sum += d * TV(marg[2*t*o:(2*t+1)*o], marg[(2*t+1)*o:(2*t+2)*o])
		}
	} else if g.line() {
		for t := range k {
			mp, mq := marg[2*t*o:(2*t+1)*o], marg[(2*t+1)*o:(2*t+2)*o]
			cum := 0.0
			for l := 0; l+1 < o; l++ {
				cum += mp[l] - mq[l]
				sum += g[l][l+1] * math.Abs(cum)
			}
		}
	} else {
		if s.inner == nil {
			s.inner = new(Solver)
		}
		s.gflat = growF(s.gflat, o*o)
		for i, row := range g {
			copy(s.gflat[i*o:(i+1)*o], row)
		}
		for t := range k {
			r, err := s.inner.W1(marg[2*t*o:(2*t+1)*o], marg[(2*t+1)*o:(2*t+2)*o], s.gflat)
			if err == nil {
				sum += r.Value
			}
		}
	}
	return max(sum, dmin*tv)
}

// UpperBound returns an upper bound on SeqW1(g, k, p, q) without solving:
//
//	UB = k·diam(g)·TV(p, q),
//
// since the mass shared in place moves for free and every other unit moves
// at most the diameter k·diam(g) of O^k. It panics if the lengths differ.
// O(|O|^k + |O|²).
func UpperBound(g Ground, k int, p, q []float64) float64 {
	tv := TV(p, q)
	if tv == 0 {
		return 0 // also avoids ∞·0 for huge grounds
	}
	return g.Max() * tv * float64(k)
}
