package planq

import (
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// HybridTheorem names the per-controller a-posteriori bound B(π) (its
// proof is in docs/certificates.md).
const HybridTheorem = "thm:hybrid (docs/certificates.md: a telescoping sum over hybrids of Q and M)"

// hybridDeviation returns the per-controller bound of thm:hybrid
// (docs/certificates.md) on |V_M(π) − V_Q(π)|, Q the quotient seen by π
// (quotient.ForProbe):
//
//	B(π) = Σ_{k=0}^{T−2} γ^{k+1} Σ_{c,n,a,z} P_Q^π(c_k = c, n_k = n, a_k = a, z_{k+1} = z)
//	       · |Σ_{n'} β_k(n' | n, z) (U_{k+1,n'}(τ(b̄_c, a, z)) − U_{k+1,n'}(b̄_{Next(c,z)}))|,
//
// where (c_k, n_k) is the class and the controller's node after k steps
// of π on Q, b̄ the class beliefs seen by π, τ the Bayes update of M, and
// U_{t,n}(b) = b·α_{t,n} the value of π on M from belief b at stage t in
// node n (the latent reward, discounted by γ from stage t). It holds for
// every controller (any number of nodes, deterministic or stochastic),
// every reward R(s, a), and classes with or without a possible member.
func hybridDeviation(q *quotient.Quotient, pi *fsc.FSC, gamma float64) (float64, error) {
	s, err := q.See(pi)
	if err != nil {
		return 0, err
	}
	b, _ := hybridSum(s, gamma)
	return b, nil
}

// hybridSum returns B(π) of hybridDeviation, π the probe of s, and the
// same sum with every term signed, which telescopes to V_M(π) − V_Q(π)
// (docs/certificates.md, Step 2 of thm:hybrid).
func hybridSum(s *quotient.Seen, gamma float64) (abs, signed float64) {
	q, pi, cb := s.Q, s.Probe, s.Beliefs
	m := q.M
	nS, nO, nA, nodes := m.NumStates(), m.NumObservations(), m.NumActions(), pi.Nodes
	alpha := fscAlphas(m, pi, q.T, gamma)
	pred, probs, post := make([]float64, nS), make([]float64, nO), make([]float64, nS)
	cur := make([]float64, nodes) // mass of (class, node) at depth k, class-major
	cur[0] = 1
	w := gamma
	for k := 0; k+1 < q.T; k++ {
		next := make([]float64, q.Partition.Classes(k+1)*nodes)
		for idx, p := range cur {
			if p == 0 {
				continue
			}
			c, n := idx/nodes, idx%nodes
			for a := 0; a < nA; a++ {
				pa := pi.ActionProb(k, n, a)
				if pa == 0 {
					continue
				}
				m.Predict(pred, cb[k][c], a)
				m.ObsProbs(probs, pred, a)
				tot := 0.0
				for _, x := range probs {
					tot += x
				}
				for z, pz := range probs {
					if pz <= 0 {
						continue
					}
					c2 := q.Next[k][c][z]
					mass := m.Observe(post, pred, a, z)
					diff := 0.0
					for n2 := 0; n2 < nodes; n2++ {
						pn := pi.NextProbOf(k, n, z, n2)
						if pn == 0 {
							continue
						}
						al := alpha[k+1][n2*nS : (n2+1)*nS]
						diff += pn * (dot(post, al)/mass - dot(cb[k+1][c2], al))
						next[c2*nodes+n2] += p * pa * pz / tot * pn
					}
					abs += w * p * pa * pz / tot * math.Abs(diff)
					signed += w * p * pa * pz / tot * diff
				}
			}
		}
		cur = next
		w *= gamma
	}
	return abs, signed
}

// fscAlphas returns α[t][n·|S| + s] for t = 0 … T: the expected latent
// reward Σ_{u=t}^{T−1} γ^{u−t} R(s_u, a_u) of running π on m from state s
// at stage t in node n (α[T] = 0).
func fscAlphas(m *pomdp.Model, pi *fsc.FSC, T int, gamma float64) [][]float64 {
	nS, nA, nodes := m.NumStates(), m.NumActions(), pi.Nodes
	alpha := make([][]float64, T+1)
	alpha[T] = make([]float64, nodes*nS)
	g := make([]float64, nS)
	for t := T - 1; t >= 0; t-- {
		alpha[t] = make([]float64, nodes*nS)
		for n := 0; n < nodes; n++ {
			dst := alpha[t][n*nS : (n+1)*nS]
			for a := 0; a < nA; a++ {
				pa := pi.ActionProb(t, n, a)
				if pa == 0 {
					continue
				}
				continuation(g, m, pi, alpha[t+1], t, n, a, T)
				for s := 0; s < nS; s++ {
					v := 0.0
					m.T[a].Entries(s, func(s2 int, p float64) { v += p * g[s2] })
					dst[s] += pa * (m.R[s][a] + gamma*v)
				}
			}
		}
	}
	return alpha
}

// continuation sets g(s') = Σ_o Z(s', a, o) Σ_{n'} β_t(n' | n, o)
// α_{t+1,n'}(s'), the value-to-go from arriving in s' after action a at
// stage t in node n (0 after the last stage).
func continuation(g []float64, m *pomdp.Model, pi *fsc.FSC, next []float64, t, n, a, T int) {
	clear(g)
	if t+1 >= T {
		return
	}
	nS := len(g)
	for s2 := range g {
		cols, vals := m.Z[a].Row(s2)
		for k, o := range cols {
			for n2 := 0; n2 < pi.Nodes; n2++ {
				if pn := pi.NextProbOf(t, n, o, n2); pn != 0 {
					g[s2] += vals[k] * pn * next[n2*nS+s2]
				}
			}
		}
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, x := range a {
		s += x * b[i]
	}
	return s
}
