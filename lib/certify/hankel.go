package certify

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"gonum.org/v1/gonum/mat"
)

// DefaultHankelLimit is the largest number of Hankel entries (rows ×
// columns) HankelRanks builds unless the caller raises it.
const DefaultHankelLimit = 4_000_000

// HankelReading names one reading of the paper's "open-loop Hankel rank
// r_H(M, T)" (conj:hankel-rank), which the paper does not define.
type HankelReading int

const (
	// HankelJoint is the system-dynamics (predictive-state) matrix of
	// the action-conditioned observation laws: rows are action–observation
	// histories h with |h| ≤ ⌊T/2⌋, columns tests f with 1 ≤ |f| ≤ ⌈T/2⌉,
	// entries P(o_h o_f | a_h a_f). Its rank is the linear dimension of
	// the model's predictive state up to horizon T (at most |S|).
	HankelJoint HankelReading = iota
	// HankelOpenLoop fixes a constant open-loop action string a…a and
	// takes the Hankel matrix of its observation law: rows observation
	// histories with |h| ≤ ⌊T/2⌋, columns suffixes with 1 ≤ |f| ≤ ⌈T/2⌉,
	// entries P(o_h o_f | a…a); the rank reported is the maximum over
	// actions.
	HankelOpenLoop
	// HankelMarginal reads "computed from the observation kernels" as the
	// Hankel matrix of the open-loop observation-law system under a
	// constant action a,
	//
	//	x_0 = b0,  x_{k+1} = T_aᵀ x_k,  y_k = Z_aᵀ x_{k+1} = P(O_{k+1} | a…a),
	//
	// whose block (i, j) is y_{i+j}, i, j < |S|. Its rank is the order of
	// a minimal linear realisation of the sequence of one-step observation
	// marginals (independent of T; |S| blocks suffice by Cayley–Hamilton).
	// The rank reported is the maximum over actions. This reading
	// reproduces the paper's "Hankel rank of GridWorld 3×3 = 3".
	HankelMarginal
)

// String returns "joint", "open-loop" or "marginal".
func (r HankelReading) String() string {
	switch r {
	case HankelJoint:
		return "joint"
	case HankelOpenLoop:
		return "open-loop"
	case HankelMarginal:
		return "marginal"
	}
	return fmt.Sprintf("HankelReading(%d)", int(r))
}

// HankelRank is the rank of one Hankel matrix reading.
type HankelRank struct {
	Reading    HankelReading
	Rank       int
	Rows, Cols int
	// Action is the maximising action (−1 for HankelJoint).
	Action int
	// Values are the singular values of the maximising matrix.
	Values []float64
}

// HankelRanks returns the rank of each reading of the Hankel matrix of
// model m at horizon T (see HankelReading), numerical ranks with
// threshold RankTol·σ_max. It returns an error when a matrix would have
// more than limit entries (0 means DefaultHankelLimit) or T < 1.
//
// Cost: for HankelJoint, (rows · cols) sequence probabilities of length
// ≤ T, each O(T · nnz) belief steps, with rows + cols ≈ (|A||O|)^{⌈T/2⌉}.
func HankelRanks(m *pomdp.Model, T int, limit int) ([]HankelRank, error) {
	if T < 1 {
		return nil, fmt.Errorf("certify: Hankel rank needs a horizon T ≥ 1, got %d", T)
	}
	if limit <= 0 {
		limit = DefaultHankelLimit
	}
	nA, nO, nS := m.NumActions(), m.NumObservations(), m.NumStates()
	L1, L2 := T/2, T-T/2
	count := func(alpha, lo, hi int) float64 {
		c := 0.0
		for k := lo; k <= hi; k++ {
			c += math.Pow(float64(alpha), float64(k))
		}
		return c
	}
	if r, c := count(nA*nO, 0, L1), count(nA*nO, 1, L2); r*c > float64(limit) {
		return nil, fmt.Errorf("certify: the joint Hankel matrix at T = %d would have %.0f × %.0f entries (limit %d); lower T or raise the limit", T, r, c, limit)
	}
	var out []HankelRank

	// Joint reading.
	acts := make([]int, nA)
	for a := range acts {
		acts[a] = a
	}
	rowsJ, colsJ := aoSeqs(acts, nO, 0, L1), aoSeqs(acts, nO, 1, L2)
	h := hankelMatrix(m, rowsJ, colsJ)
	sv := singular(h)
	out = append(out, HankelRank{Reading: HankelJoint, Rank: numericalRank(sv), Rows: len(rowsJ), Cols: len(colsJ), Action: -1, Values: sv})

	// Open-loop reading, per constant action.
	best := HankelRank{Reading: HankelOpenLoop, Rank: -1}
	for a := 0; a < nA; a++ {
		r, c := aoSeqs([]int{a}, nO, 0, L1), aoSeqs([]int{a}, nO, 1, L2)
		sv := singular(hankelMatrix(m, r, c))
		if rk := numericalRank(sv); rk > best.Rank {
			best = HankelRank{Reading: HankelOpenLoop, Rank: rk, Rows: len(r), Cols: len(c), Action: a, Values: sv}
		}
	}
	out = append(out, best)

	// Marginal (Markov-parameter) reading, per constant action.
	best = HankelRank{Reading: HankelMarginal, Rank: -1}
	x := make([]float64, nS)
	nx := make([]float64, nS)
	for a := 0; a < nA; a++ {
		copy(x, m.B0)
		ys := make([][]float64, 2*nS-1)
		for k := range ys {
			m.Predict(nx, x, a)
			ys[k] = make([]float64, nO)
			m.ObsProbs(ys[k], nx, a)
			x, nx = nx, x
		}
		hm := mat.NewDense(nS*nO, nS, nil)
		for i := 0; i < nS; i++ {
			for j := 0; j < nS; j++ {
				for o, v := range ys[i+j] {
					hm.Set(i*nO+o, j, v)
				}
			}
		}
		sv := singular(hm)
		if rk := numericalRank(sv); rk > best.Rank {
			best = HankelRank{Reading: HankelMarginal, Rank: rk, Rows: nS * nO, Cols: nS, Action: a, Values: sv}
		}
	}
	out = append(out, best)
	return out, nil
}

// aoStep is one action–observation pair of a history or test.
type aoStep struct{ a, o int }

// aoSeqs returns the action–observation sequences with lengths lo … hi
// over the given actions, shortest first, each length in lexicographic
// order.
func aoSeqs(acts []int, nO, lo, hi int) [][]aoStep {
	var out [][]aoStep
	level := [][]aoStep{nil}
	for k := 0; k <= hi; k++ {
		if k >= lo {
			out = append(out, level...)
		}
		if k == hi {
			break
		}
		var next [][]aoStep
		for _, s := range level {
			for _, a := range acts {
				for o := 0; o < nO; o++ {
					next = append(next, append(append([]aoStep(nil), s...), aoStep{a, o}))
				}
			}
		}
		level = next
	}
	return out
}

// hankelMatrix returns H[i][j] = P(o_{h_i} o_{f_j} | a_{h_i} a_{f_j}).
func hankelMatrix(m *pomdp.Model, rows, cols [][]aoStep) *mat.Dense {
	nS := m.NumStates()
	h := mat.NewDense(len(rows), len(cols), nil)
	alpha := make([]float64, nS)
	beta := make([]float64, nS)
	pred := make([]float64, nS)
	step := func(dst, src []float64, s aoStep) {
		m.Predict(pred, src, s.a)
		m.Observe(dst, pred, s.a, s.o)
	}
	for i, r := range rows {
		copy(alpha, m.B0)
		for _, s := range r {
			step(beta, alpha, s)
			alpha, beta = beta, alpha
		}
		base := append([]float64(nil), alpha...)
		for j, c := range cols {
			copy(alpha, base)
			for _, s := range c {
				step(beta, alpha, s)
				alpha, beta = beta, alpha
			}
			tot := 0.0
			for _, v := range alpha {
				tot += v
			}
			h.Set(i, j, tot)
		}
	}
	return h
}

func singular(a *mat.Dense) []float64 {
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDNone) {
		panic("certify: SVD did not converge")
	}
	return svd.Values(nil)
}
