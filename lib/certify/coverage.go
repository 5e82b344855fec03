package certify

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
)

// DefaultSubsetLimit is the largest number of subsets OptimalCoverage and
// EnvelopeRank enumerate unless the caller raises it.
const DefaultSubsetLimit = 50_000_000

// ErrTooLarge is returned (wrapped, with the numbers) when an exhaustive
// search would exceed its limit; raise the limit if you mean it.
var ErrTooLarge = errors.New("certify: search too large")

// Coverage returns the coverage objective of alg:greedy-fsc,
//
//	f(S) = Σ_u max_{p ∈ S} D_{u,p}   (0 for the empty set),
//
// for the columns S of the tensor. It is monotone submodular
// (prop:submodular). Cost O(|S| · pairs).
func Coverage(t *Tensor, S []int) float64 {
	f := 0.0
	for _, v := range t.Envelope(S) {
		f += v
	}
	return f
}

// GreedyStep is one step of the greedy selection.
type GreedyStep struct {
	K        int     // subset size after the step
	Column   int     // column added (tensor index)
	First    int     // its smallest family index
	Gain     float64 // f(S_k) − f(S_{k−1})
	Coverage float64 // f(S_k)
	Gap      float64 // δ_{S_k} = ‖d − d_{S_k}‖∞
}

// GreedyCurve returns the greedy chain S_1 ⊂ … ⊂ S_K of alg:greedy-fsc
// (the same choices as Greedy) with the coverage, its gain and the
// probe-envelope gap after every step. It stops early when no column adds
// coverage. Cost O(K · columns · pairs).
func GreedyCurve(t *Tensor, K int) []GreedyStep {
	S := Greedy(t, K)
	full := t.Full()
	var steps []GreedyStep
	prev := 0.0
	for k := 1; k <= len(S); k++ {
		env := t.Envelope(S[:k])
		f, gap := 0.0, 0.0
		for u, v := range env {
			f += v
			gap = math.Max(gap, full[u]-v)
		}
		steps = append(steps, GreedyStep{K: k, Column: S[k-1], First: t.First[S[k-1]], Gain: f - prev, Coverage: f, Gap: gap})
		prev = f
	}
	return steps
}

// NonDominated returns the columns not dominated by another one, in
// column order: p is dropped when some other column q has D_{u,q} ≥ D_{u,p}
// for every pair u (ties kept once, the first). Replacing p by q in a
// subset never lowers f or raises δ_S, so optima of both can be searched
// among these columns. Cost O(columns² · pairs).
func NonDominated(t *Tensor) []int {
	n := len(t.Cols)
	dominated := make([]bool, n)
	for p := 0; p < n; p++ {
		for q := 0; q < n && !dominated[p]; q++ {
			if q == p || dominated[q] {
				continue
			}
			geq, eq := true, true
			for u, v := range t.Cols[p] {
				w := t.Cols[q][u]
				if w < v {
					geq = false
					break
				}
				if w != v {
					eq = false
				}
			}
			// q dominates p; an equal column dominates only a later one.
			if geq && (!eq || q < p) {
				dominated[p] = true
			}
		}
	}
	var out []int
	for p, dom := range dominated {
		if !dom {
			out = append(out, p)
		}
	}
	return out
}

// Optimum is the best subset of a given size found by exhaustive search.
type Optimum struct {
	K          int
	S          []int   // columns of an optimal subset (tensor indices)
	Value      float64 // f(S*_k)
	Candidates int     // columns searched (the non-dominated ones)
	Subsets    int64   // subsets evaluated
}

// OptimalCoverage returns max_{|S| = k} f(S) by exhaustive search over the
// k-subsets of the non-dominated columns (NonDominated; when there are
// fewer than k of them, all of them, which already reach the maximum f of
// the whole family). It returns an error wrapping ErrTooLarge when the
// number of subsets C(candidates, k) exceeds limit (0 means
// DefaultSubsetLimit), and ctx's error if cancelled. Cost C(c, k) · k ·
// pairs for c candidates.
//
// Together with GreedyCurve it exhibits prop:submodular,
// f(S_k) ≥ (1 − 1/e)·f(S*_k).
func OptimalCoverage(ctx context.Context, t *Tensor, k int, limit int64) (Optimum, error) {
	if k < 0 {
		panic("certify: negative subset size")
	}
	cand := NonDominated(t)
	if limit <= 0 {
		limit = DefaultSubsetLimit
	}
	kk := min(k, len(cand))
	if n := binom(len(cand), kk); n.Cmp(big.NewInt(limit)) > 0 {
		return Optimum{}, fmt.Errorf("%w: C(%d, %d) = %v subsets of non-dominated columns exceed the limit %d; pass a larger limit",
			ErrTooLarge, len(cand), kk, n, limit)
	}
	best := Optimum{K: k, Candidates: len(cand), Value: math.Inf(-1)}
	rows := len(t.Cols[0])
	// env[l] is the envelope of the first l chosen columns.
	env := make([][]float64, kk+1)
	for l := range env {
		env[l] = make([]float64, rows)
	}
	idx := make([]int, kk)
	var err error
	var rec func(l, from int)
	rec = func(l, from int) {
		if err != nil {
			return
		}
		if l == kk {
			best.Subsets++
			if best.Subsets%(1<<16) == 0 {
				if err = ctx.Err(); err != nil {
					return
				}
			}
			f := 0.0
			for _, v := range env[l] {
				f += v
			}
			if f > best.Value {
				best.Value = f
				best.S = best.S[:0]
				for _, i := range idx {
					best.S = append(best.S, cand[i])
				}
			}
			return
		}
		for i := from; i <= len(cand)-(kk-l); i++ {
			idx[l] = i
			col := t.Cols[cand[i]]
			for u, v := range col {
				env[l+1][u] = math.Max(env[l][u], v)
			}
			rec(l+1, i+1)
		}
	}
	rec(0, 0)
	if err != nil {
		return Optimum{}, err
	}
	return best, nil
}

func binom(n, k int) *big.Int {
	if k < 0 || k > n {
		return big.NewInt(0)
	}
	return new(big.Int).Binomial(int64(n), int64(k))
}

// DRReport summarises a check of monotonicity and diminishing returns.
type DRReport struct {
	// Checks is the number of (S ⊆ S', p ∉ S') triples tested.
	Checks int
	// Violations counts triples with
	// f(S ∪ {p}) − f(S) < f(S' ∪ {p}) − f(S') − tol, and
	// NonMonotone those with f(S') < f(S) − tol.
	Violations, NonMonotone int
	// MinSlack is the smallest (f(S∪p) − f(S)) − (f(S'∪p) − f(S')) seen
	// (≥ −tol for a submodular f); Worst holds the triple attaining it.
	MinSlack float64
	Worst    DRTriple
}

// DRTriple is one tested triple S ⊆ S', p ∉ S'.
type DRTriple struct {
	S, Sup []int
	P      int
	// SmallGain is f(S∪p) − f(S), LargeGain f(S'∪p) − f(S').
	SmallGain, LargeGain float64
}

// DiminishingReturns tests the submodularity inequality of
// prop:submodular,
//
//	f(S ∪ {p}) − f(S) ≥ f(S' ∪ {p}) − f(S')   for S ⊆ S' ⊆ [n], p ∉ S',
//
// and monotonicity f(S) ≤ f(S'), on samples random triples over the
// ground set {0, …, n−1}: S' a uniform random subset of random size ≤
// maxSize (0: n−1), S a random subset of S', p outside S'. The random
// source is a PCG seeded with seed, so a run repeats exactly. Equalities
// are judged with tol = 1e-9·(1 + |f|). It works for any set function f,
// so a control with a non-submodular f shows that the check can fail.
func DiminishingReturns(f func(S []int) float64, n, maxSize, samples int, seed uint64) DRReport {
	if n < 2 {
		panic("certify: DiminishingReturns needs a ground set of at least 2 elements")
	}
	if maxSize <= 0 || maxSize > n-1 {
		maxSize = n - 1
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	rep := DRReport{MinSlack: math.Inf(1)}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for range samples {
		rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		size := rng.IntN(maxSize + 1) // |S'|
		sup := slices.Clone(perm[:size])
		p := perm[size]
		var sub []int
		for _, x := range sup {
			if rng.IntN(2) == 0 {
				sub = append(sub, x)
			}
		}
		fS, fSup := f(sub), f(sup)
		fSp, fSupp := f(append(slices.Clone(sub), p)), f(append(slices.Clone(sup), p))
		tol := 1e-9 * (1 + math.Abs(fSupp))
		small, large := fSp-fS, fSupp-fSup
		slack := small - large
		rep.Checks++
		if !(slack >= -tol) {
			rep.Violations++
		}
		if !(fSup >= fS-tol) {
			rep.NonMonotone++
		}
		if slack < rep.MinSlack {
			rep.MinSlack = slack
			slices.Sort(sub)
			slices.Sort(sup)
			rep.Worst = DRTriple{S: sub, Sup: sup, P: p, SmallGain: small, LargeGain: large}
		}
	}
	return rep
}

// Cover is a smallest controller subset with probe-envelope gap ≤ δ.
type Cover struct {
	Delta float64
	// Size is r_env(M, m, T, δ) of conj:hankel-rank: the smallest |S| with
	// ‖d − d_S‖∞ ≤ δ.
	Size int
	S    []int // one optimal subset (tensor column indices)
	// Rows is the number of history pairs with d(u) > δ, the ones a subset
	// must cover; Candidates the distinct non-dominated cover sets searched.
	Rows, Candidates int
	Nodes            int64 // search nodes visited
}

// EnvelopeRank returns r_env(M, m, T, δ) = min{|S| : ‖d − d_S‖∞ ≤ δ}
// (conj:hankel-rank) with an optimal subset, by exact search. A column p
// covers pair u when D_{u,p} ≥ d(u) − δ − 1e-12; a subset has gap ≤ δ
// exactly when it covers every pair, so this is a minimum set cover,
// solved by iterative deepening on the subset size with branching on the
// columns covering the first uncovered pair (columns whose cover set is
// contained in another's are dropped first). It returns an error wrapping
// ErrTooLarge when the search visits more than limit nodes (0 means
// DefaultSubsetLimit), and ctx's error if cancelled. The greedy chain
// gives an upper bound: r_env ≤ min{k : δ_{S_k} ≤ δ}.
func EnvelopeRank(ctx context.Context, t *Tensor, delta float64, limit int64) (Cover, error) {
	if limit <= 0 {
		limit = DefaultSubsetLimit
	}
	full := t.Full()
	var rows []int
	for u, v := range full {
		if v > delta+1e-12 {
			rows = append(rows, u)
		}
	}
	res := Cover{Delta: delta, Rows: len(rows)}
	if len(rows) == 0 {
		return res, nil
	}
	words := (len(rows) + 63) / 64
	keep := undominated(columnSets(t, rows, full, delta, words))
	res.Candidates = len(keep)
	full1 := make([]uint64, words)
	for r := range rows {
		full1[r/64] |= 1 << (r % 64)
	}
	cs := &coverSearch{ctx: ctx, res: &res, limit: limit, rows: len(rows), keep: keep, full: full1}
	for k := 1; k <= len(keep); k++ {
		cs.chosen = cs.chosen[:0]
		if cs.dfs(make([]uint64, words), k) {
			res.Size = k
			res.S = slices.Clone(cs.chosen)
			slices.Sort(res.S)
			return res, nil
		}
		if cs.err != nil {
			return res, cs.err
		}
	}
	// unreachable: all non-dominated columns cover every pair
	return res, fmt.Errorf("certify: no cover found for δ = %g", delta)
}

// columnSet is the set of rows (bit r for rows[r]) a column covers.
type columnSet struct {
	bits []uint64
	col  int
}

// columnSets returns, for each column of t that covers some row within
// delta of the full envelope, the set of rows it covers.
func columnSets(t *Tensor, rows []int, full []float64, delta float64, words int) []columnSet {
	var sets []columnSet
	for p, col := range t.Cols {
		b := make([]uint64, words)
		covers := false
		for r, u := range rows {
			if col[u] >= full[u]-delta-1e-12 {
				b[r/64] |= 1 << (r % 64)
				covers = true
			}
		}
		if covers {
			sets = append(sets, columnSet{b, p})
		}
	}
	return sets
}

// bitSubset reports whether a ⊆ b.
func bitSubset(a, b []uint64) bool {
	for w := range a {
		if a[w]&^b[w] != 0 {
			return false
		}
	}
	return true
}

// undominated drops each set contained in another (of equal sets, all
// but the first).
func undominated(sets []columnSet) []columnSet {
	var keep []columnSet
	for i, s := range sets {
		drop := false
		for j, o := range sets {
			if i != j && bitSubset(s.bits, o.bits) && (!bitSubset(o.bits, s.bits) || j < i) {
				drop = true
				break
			}
		}
		if !drop {
			keep = append(keep, s)
		}
	}
	return keep
}

// coverSearch is EnvelopeRank's depth-first search for a cover of full
// by at most a given number of the sets keep.
type coverSearch struct {
	ctx    context.Context
	res    *Cover // counts Nodes
	limit  int64
	rows   int
	keep   []columnSet
	full   []uint64
	chosen []int // columns of the sets chosen so far
	err    error
}

// dfs reports whether covered can be completed to full with at most
// budget more sets, branching on the sets that cover the first row
// missing; it sets err when the node limit or the context stops it.
func (cs *coverSearch) dfs(covered []uint64, budget int) bool {
	res := cs.res
	res.Nodes++
	if res.Nodes > cs.limit {
		cs.err = fmt.Errorf("%w: more than %d search nodes for r_env at δ = %g (%d pairs, %d candidate columns); pass a larger limit",
			ErrTooLarge, cs.limit, res.Delta, cs.rows, len(cs.keep))
		return false
	}
	if res.Nodes%(1<<14) == 0 {
		if cs.err = cs.ctx.Err(); cs.err != nil {
			return false
		}
	}
	first := -1
	for w := range covered {
		if miss := cs.full[w] &^ covered[w]; miss != 0 {
			for b := 0; b < 64; b++ {
				if miss&(1<<b) != 0 {
					first = w*64 + b
					break
				}
			}
			break
		}
	}
	if first < 0 {
		return true
	}
	if budget == 0 {
		return false
	}
	next := make([]uint64, len(covered))
	for _, s := range cs.keep {
		if s.bits[first/64]&(1<<(first%64)) == 0 {
			continue
		}
		for w := range next {
			next[w] = covered[w] | s.bits[w]
		}
		cs.chosen = append(cs.chosen, s.col)
		if cs.dfs(next, budget-1) {
			return true
		}
		cs.chosen = cs.chosen[:len(cs.chosen)-1]
		if cs.err != nil {
			return false
		}
	}
	return false
}
