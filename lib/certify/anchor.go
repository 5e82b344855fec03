package certify

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// AnchorFit is the best convex approximation of one column by an anchor
// family.
type AnchorFit struct {
	Column int // tensor column approximated
	// Error is min_{λ ∈ Δ(A)} ‖D_{:,p} − Σ_a λ_a D_{:,a}‖∞.
	Error float64
	// Lambda are the optimal coefficients, aligned with the anchors.
	Lambda []float64
}

// Anchor reports how well a controller subset A anchors the family.
type Anchor struct {
	A []int // the anchor columns
	// Delta is the smallest δ for which A is a δ-anchor family
	// (def:anchor-family): max over columns p of Fit[p].Error.
	Delta float64
	// Worst is the column attaining Delta (−1 when every column is fitted
	// exactly).
	Worst int
	// Fits holds one fit per column of the tensor.
	Fits []AnchorFit
}

// AnchorDelta returns the smallest δ for which the columns A form a
// δ-anchor family (def:anchor-family),
//
//	δ_A = max_p min_{λ ≥ 0, Σλ = 1} ‖D_{:,p} − Σ_{a∈A} λ_a D_{:,a}‖∞,
//
// solving one linear program per column (a dense simplex with Bland's
// anti-cycling rule, see minimaxFit; pairs where
// every column is zero are dropped, they contribute nothing). Columns of A
// fit themselves exactly. thm:anchor-compression then bounds the envelope
// gap: δ_S ≤ δ_A for S = A. It returns an error if A is empty or holds an
// index out of range, if an LP fails, or ctx's error if cancelled.
//
// Cost: one LP per column with |A| + 1 + 2·rows variables and rows + 1
// constraints, rows the number of non-zero pairs.
func AnchorDelta(ctx context.Context, t *Tensor, A []int) (Anchor, error) {
	if len(A) == 0 {
		return Anchor{}, fmt.Errorf("certify: an anchor family needs at least one column")
	}
	for _, a := range A {
		if a < 0 || a >= len(t.Cols) {
			return Anchor{}, fmt.Errorf("certify: anchor column %d out of range [0, %d)", a, len(t.Cols))
		}
	}
	rows := nonZeroRows(t)
	res := Anchor{A: slices.Clone(A), Worst: -1}
	for p := range t.Cols {
		if err := ctx.Err(); err != nil {
			return Anchor{}, err
		}
		fit, err := fitColumn(t, rows, A, p)
		if err != nil {
			return Anchor{}, err
		}
		res.Fits = append(res.Fits, fit)
		if fit.Error > res.Delta {
			res.Delta, res.Worst = fit.Error, p
		}
	}
	return res, nil
}

// Extreme returns the columns that are not convex combinations of the
// other distinct columns (up to tol in the ∞-norm; 0 means 1e-9): the
// vertices of the convex hull of the columns. Every 0-anchor family must
// contain one copy of each, and together they form one, so their number is
// the exact (δ = 0) anchor rank. Columns equal to an earlier column are
// skipped. One LP per distinct column; errors as AnchorDelta.
func Extreme(ctx context.Context, t *Tensor, tol float64) ([]int, error) {
	if tol <= 0 {
		tol = 1e-9
	}
	rows := nonZeroRows(t)
	var distinct []int
	for p := range t.Cols {
		dup := false
		for _, q := range distinct {
			if slices.Equal(t.Cols[p], t.Cols[q]) {
				dup = true
				break
			}
		}
		if !dup {
			distinct = append(distinct, p)
		}
	}
	var out []int
	for i, p := range distinct {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		others := slices.Concat(distinct[:i], distinct[i+1:])
		if len(others) == 0 {
			out = append(out, p)
			continue
		}
		fit, err := fitColumn(t, rows, others, p)
		if err != nil {
			return nil, err
		}
		if fit.Error > tol {
			out = append(out, p)
		}
	}
	return out, nil
}

// nonZeroRows returns the pairs where some column is non-zero.
func nonZeroRows(t *Tensor) []int {
	var rows []int
	for u := 0; u < t.Pairs(); u++ {
		for _, col := range t.Cols {
			if col[u] != 0 {
				rows = append(rows, u)
				break
			}
		}
	}
	return rows
}

// fitColumn solves min_{λ ∈ Δ(A)} ‖D_p − D_A λ‖∞ over the given rows
// (see minimaxFit).
func fitColumn(t *Tensor, rows, A []int, p int) (AnchorFit, error) {
	if i := slices.Index(A, p); i >= 0 {
		lam := make([]float64, len(A))
		lam[i] = 1
		return AnchorFit{Column: p, Lambda: lam}, nil
	}
	cols := make([][]float64, len(A))
	for j, a := range A {
		cols[j] = make([]float64, len(rows))
		for r, u := range rows {
			cols[j][r] = t.Cols[a][u]
		}
	}
	b := make([]float64, len(rows))
	for r, u := range rows {
		b[r] = t.Cols[p][u]
	}
	lam, err := minimaxFit(cols, b)
	if err != nil {
		return AnchorFit{}, fmt.Errorf("certify: anchor LP for column %d: %w", p, err)
	}
	// The error of λ, recomputed: the LP optimum up to round-off.
	e := 0.0
	for r := range b {
		v := b[r]
		for j := range cols {
			v -= lam[j] * cols[j][r]
		}
		e = math.Max(e, math.Abs(v))
	}
	return AnchorFit{Column: p, Error: e, Lambda: lam}, nil
}

// minimaxFit returns λ ∈ Δ_k minimising ‖b − Σ_j λ_j cols[j]‖∞, by the
// linear program in standard form over x = (λ, e, s⁺, s⁻) ≥ 0,
//
//	min e  s.t.   Σ_j λ_j c_j(r) + e − s⁺_r =  b_r
//	             −Σ_j λ_j c_j(r) + e − s⁻_r = −b_r     (every row r)
//	              Σ_j λ_j = 1,
//
// solved by a dense tableau simplex with Bland's rule (smallest index
// entering and leaving), which cannot cycle. It needs no first phase: λ =
// e_1, e = max_r |b_r − c_1(r)| and every slack but the one of the row
// attaining the maximum form a feasible basis. It returns an error if the
// pivot count exceeds 50·(rows + variables), which signals a numerical
// breakdown rather than a long solve.
func minimaxFit(cols [][]float64, b []float64) ([]float64, error) {
	k, n := len(cols), len(b)
	lam := make([]float64, k)
	if k == 0 {
		return nil, fmt.Errorf("no anchor column")
	}
	if n == 0 || k == 1 {
		lam[0] = 1
		return lam, nil
	}
	tab, basis := minimaxTableau(cols, b)
	if err := minimaxSimplex(tab, basis, k); err != nil {
		return nil, err
	}
	N := k + 1 + 2*n
	for i, v := range basis {
		if v < k {
			lam[v] = math.Max(tab[i][N], 0)
		}
	}
	s := 0.0
	for _, v := range lam {
		s += v
	}
	if !(s > 0) {
		return nil, fmt.Errorf("degenerate solution")
	}
	for j := range lam {
		lam[j] /= s
	}
	return lam, nil
}

// minimaxTableau builds the tableau of minimaxFit's linear program and a
// feasible basis, already brought to identity. Columns: λ_0..λ_{k-1},
// e (column k), s⁺_r, s⁻_r; rows: r and n+r for the residual bounds,
// 2n for Σλ = 1. tab[i] holds row i: the coefficients then the
// right-hand side; basis[i] is the basic column of row i.
func minimaxTableau(cols [][]float64, b []float64) ([][]float64, []int) {
	k, n := len(cols), len(b)
	m, N := 2*n+1, k+1+2*n
	eVar := k
	sp := func(r int) int { return k + 1 + r }     // s⁺_r
	sm := func(r int) int { return k + 1 + n + r } // s⁻_r
	// tab[i] holds row i: N coefficients then the right-hand side.
	tab := make([][]float64, m)
	for i := range tab {
		tab[i] = make([]float64, N+1)
	}
	for r := 0; r < n; r++ {
		for j := 0; j < k; j++ {
			tab[r][j] = cols[j][r]
			tab[n+r][j] = -cols[j][r]
		}
		tab[r][eVar], tab[n+r][eVar] = 1, 1
		tab[r][sp(r)], tab[n+r][sm(r)] = -1, -1
		tab[r][N], tab[n+r][N] = b[r], -b[r]
	}
	for j := 0; j < k; j++ {
		tab[2*n][j] = 1
	}
	tab[2*n][N] = 1
	// Initial basis: row r ↔ s⁺_r, row n+r ↔ s⁻_r, the simplex row ↔ λ_1,
	// and the row of the largest residual of λ = e_1 ↔ e instead of its slack.
	worst, wv := 0, math.Inf(-1)
	for i := 0; i < 2*n; i++ {
		r := i % n
		v := b[r] - cols[0][r]
		if i >= n {
			v = -v
		}
		if v > wv {
			worst, wv = i, v
		}
	}
	basis := make([]int, m)
	for r := 0; r < n; r++ {
		basis[r], basis[n+r] = sp(r), sm(r)
	}
	basis[2*n] = 0
	basis[worst] = eVar
	// Bring the basis columns to identity (order: λ_1, e, then slacks).
	order := []int{2 * n, worst}
	for i := 0; i < 2*n; i++ {
		if i != worst {
			order = append(order, i)
		}
	}
	for _, i := range order {
		tableauPivot(tab, i, basis[i])
	}
	return tab, basis
}

// tableauPivot pivots tab on row pr, column pc.
func tableauPivot(tab [][]float64, pr, pc int) {
	row := tab[pr]
	inv := 1 / row[pc]
	for c := range row {
		row[c] *= inv
	}
	row[pc] = 1
	for i, other := range tab {
		if i == pr {
			continue
		}
		f := other[pc]
		if f == 0 {
			continue
		}
		for c := range other {
			other[c] -= f * row[c]
		}
		other[pc] = 0
	}
}

// minimaxSimplex minimises column eVar over the tableau from the basis
// (Bland's first improving column, ties in the ratio test to the lowest
// basic column), updating tab and basis in place.
func minimaxSimplex(tab [][]float64, basis []int, eVar int) error {
	m, N := len(tab), len(tab[0])-1
	const tol = 1e-12
	maxPivots := 50 * (m + N)
	isBasic := make([]bool, N)
	for _, v := range basis {
		isBasic[v] = true
	}
	for it := 0; ; it++ {
		if it > maxPivots {
			return fmt.Errorf("simplex exceeded %d pivots (numerical breakdown)", maxPivots)
		}
		// Reduced costs of the objective e: c_j − c_B·column, c = e_{eVar}.
		eRow := -1
		for i, v := range basis {
			if v == eVar {
				eRow = i
			}
		}
		enter := -1
		for j := 0; j < N; j++ {
			if isBasic[j] {
				continue
			}
			rc := 0.0
			if j == eVar {
				rc = 1
			}
			if eRow >= 0 {
				rc -= tab[eRow][j]
			}
			if rc < -tol {
				enter = j
				break
			}
		}
		if enter < 0 {
			break
		}
		leave, best := -1, math.Inf(1)
		for i := range tab {
			a := tab[i][enter]
			if a <= tol {
				continue
			}
			ratio := tab[i][N] / a
			if ratio < best-tol || (ratio <= best+tol && leave >= 0 && basis[i] < basis[leave]) {
				leave, best = i, ratio
			}
		}
		if leave < 0 {
			return fmt.Errorf("unbounded linear program")
		}
		isBasic[basis[leave]] = false
		basis[leave] = enter
		isBasic[enter] = true
		tableauPivot(tab, leave, enter)
	}
	return nil
}

// GreedyAnchors grows an anchor family by farthest-column insertion: it
// starts from the first greedy coverage column (Greedy(t, 1)) and adds, at
// every step, the column worst fitted by the current family, until
// δ_A ≤ delta or the family has maxK columns (0: no limit). It returns the
// family and δ_A after every step (steps[i] for the first i + 1 anchors),
// an upper bound on the δ-anchor rank (the smallest δ-anchor family).
// Errors as AnchorDelta. Cost: one AnchorDelta per step.
func GreedyAnchors(ctx context.Context, t *Tensor, delta float64, maxK int) ([]int, []float64, error) {
	A := Greedy(t, 1)
	if len(A) == 0 {
		A = []int{0}
	}
	var steps []float64
	for {
		an, err := AnchorDelta(ctx, t, A)
		if err != nil {
			return nil, nil, err
		}
		steps = append(steps, an.Delta)
		if an.Delta <= delta+1e-12 || an.Worst < 0 || (maxK > 0 && len(A) >= maxK) {
			return A, steps, nil
		}
		A = append(A, an.Worst)
	}
}
