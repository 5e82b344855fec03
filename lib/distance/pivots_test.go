package distance

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pomdpq/pomdpq/internal/randmodel"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// The pivot coordinates are 1-Lipschitz under W1: for random laws over
// length-k suffixes (sparse, so that many pairs are far apart and some
// tie) and both ground metrics, no coordinate differs by more than the
// solver's W1 (the oracle), up to rounding far below pivotMargin.
func TestPivotCoordinatesLipschitz(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 19))
	checked := 0
	for trial := 0; trial < 400; trial++ {
		nO, k := 2+rng.IntN(3), 1+rng.IntN(3)
		g := ot.Discrete(nO)
		if trial%2 == 1 {
			g = ot.Ordered(nO)
		}
		L := ot.SeqLen(nO, k)
		row := randmodel.Sparse(rng, 0.5)
		p, q := row(L), row(L)
		solver := newW1Solver(g, nO)
		w, err := solver.solve(p, q, k)
		if err != nil {
			t.Fatal(err)
		}
		gmin := groundMin(g)
		xp, xq := lawCoordinates(p, nO, k, gmin), lawCoordinates(q, nO, k, gmin)
		for c := range xp {
			if gap := math.Abs(xp[c] - xq[c]); gap > w+1e-12 {
				t.Fatalf("trial %d (|O| = %d, k = %d, ground %v): coordinate %d differs by %v, W1 = %v\np = %v\nq = %v", trial, nO, k, g, c, gap, w, p, q)
			}
			checked++
		}
	}
	t.Logf("%d coordinate gaps checked", checked)
}

// lawCoordinates computes the pivot coordinates of one law directly from
// their definition: gmin·(P(O_s = o) − m/2), m the law's mass, s the
// position in the suffix (first most significant), o the observation.
func lawCoordinates(p []float64, nO, k int, gmin float64) []float64 {
	m := 0.0
	for _, v := range p {
		m += v
	}
	x := make([]float64, k*nO)
	for s := 0; s < k; s++ {
		for o := 0; o < nO; o++ {
			mass := 0.0
			for seq, v := range p {
				// Observation at position s: digit k−1−s from the right.
				d := seq
				for range k - 1 - s {
					d /= nO
				}
				if d%nO == o {
					mass += v
				}
			}
			x[s*nO+o] = gmin * (mass - m/2)
		}
	}
	return x
}

// pivotModel returns a random model whose rows come from randmodel.Sparse:
// peaked laws with exact zeros, so that many classes are far apart.
func pivotModel(seed uint64, nS, nA, nO int) *pomdp.Model {
	rng := rand.New(rand.NewPCG(seed, 3))
	row := randmodel.Sparse(rng, 0.5)
	d := randmodel.Dense(fmt.Sprint("sparse-", seed), nS, nA, nO, row)
	d.B0 = row(nS)
	return pomdp.Must(pomdp.New(d))
}

// TestPivotsKeepDecisions: the pair loop without the pivot pass (noPivots)
// is the oracle of the pass. On random models (two generators, one with
// rational probabilities and ties at the thresholds, one peaked), both
// metrics, both stand-in conventions, 1 to 3 workers, with the pass on
// every depth of two classes or more, a compact run gives every decision
// bit of every depth and listed ε of the run without the pass, its
// partitions and maximum distance are those of the float matrices
// (sameCompact, Greedy over ClassD), and the pass leaves some pairs out of
// the loop.
func TestPivotsKeepDecisions(t *testing.T) {
	defer func(v int) { pivotMinClasses = v }(pivotMinClasses)
	pivotMinClasses = 2
	rng := rand.New(rand.NewPCG(77, 78))
	compared, fewer, settledFewer := 0, 0, 0
	for trial := 0; trial < 160; trial++ {
		nS, nA, nO := 2+rng.IntN(4), 1+rng.IntN(3), 2+rng.IntN(3)
		T := 2 + rng.IntN(3)
		m := gridModel(uint64(5000+trial), nS, nA, nO)
		if trial%2 == 1 {
			m = pivotModel(uint64(7000+trial), nS, nA, nO)
		}
		fam, err := fsc.New(fsc.KindStationary, nA, nO, 1+rng.IntN(2), T, fsc.Options{Limit: 3000})
		if err != nil {
			continue
		}
		opt := Options{Metric: Metric(trial / 4 % 2), Convention: law.Convention(trial / 2 % 2), Workers: 1 + trial%3}
		if trial%5 == 0 {
			opt.Ground = ot.Ordered(nO)
		}
		exact, err := Compute(context.Background(), m, fam, T, opt)
		if err != nil {
			t.Fatal(err)
		}
		// Listed ε among the distances, just inside and outside the
		// slack of one, and 0.
		eps := epsNearDistances(rng, exact, 2)
		name := fmt.Sprintf("trial %d (%s, %v, T=%d, %v, %v, %d workers, ε %v)", trial, m.Name, fam, T, opt.Metric, opt.Convention, opt.Workers, eps)
		opt.Eps = eps
		dense, err := Compute(context.Background(), m, fam, T, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		opt.Compact = true
		got, err := Compute(context.Background(), m, fam, T, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		noPivots = true
		want, err := Compute(context.Background(), m, fam, T, opt)
		noPivots = false
		if err != nil {
			t.Fatalf("%s: without pivots: %v", name, err)
		}
		sameBits(t, name, got.Decisions, want.Decisions)
		// The pass deciding the last depth itself (settleLast) against
		// the pair loop deciding the candidates it leaves.
		noSettleLast = true
		loop, err := Compute(context.Background(), m, fam, T, opt)
		noSettleLast = false
		if err != nil {
			t.Fatalf("%s: without settleLast: %v", name, err)
		}
		sameBits(t, name+" (settleLast)", got.Decisions, loop.Decisions)
		if got.visited < loop.visited {
			settledFewer++
		}
		sameCompact(t, name, got, dense, eps)
		sameCompact(t, name+" without pivots", want, dense, eps)
		if want.candidates != 0 {
			t.Fatalf("%s: without pivots the pass left %d candidates", name, want.candidates)
		}
		if got.visited > want.visited {
			t.Fatalf("%s: %d pairs visited with pivots, %d without", name, got.visited, want.visited)
		}
		if got.visited < want.visited {
			fewer++
		}
		compared++
	}
	if compared < 100 || fewer < compared/8 || settledFewer < compared/16 {
		t.Fatalf("%d runs compared, %d with fewer pairs visited, %d fewer still with the last depth settled by the pass", compared, fewer, settledFewer)
	}
	t.Logf("%d runs compared, %d with fewer pairs visited, %d fewer still with the last depth settled by the pass", compared, fewer, settledFewer)
}

// sameBits checks two sets of decisions bit for bit.
func sameBits(t *testing.T, name string, got, want *Decisions) {
	t.Helper()
	if !slices.Equal(got.Eps, want.Eps) || len(got.Apart) != len(want.Apart) {
		t.Fatalf("%s: decisions over ε %v and %d depths, want %v and %d", name, got.Eps, len(got.Apart), want.Eps, len(want.Apart))
	}
	for d, planes := range want.Apart {
		for k, pl := range planes {
			g := got.Apart[d][k]
			if g.N != pl.N || !slices.Equal(g.Bits, pl.Bits) {
				t.Fatalf("%s: depth %d, ε = %v: decision bits differ", name, d, want.Eps[k])
			}
		}
	}
}

// The pass is what makes the pair loop cheap on a depth of many classes:
// on the built-in maze4x3 (Russell and Norvig's 4×3 maze, m ≤ 1, T = 4:
// 1,012 pairs of classes, observations that tell walls apart, so most
// laws are far apart) it leaves under a quarter of the pairs to the loop,
// which then examines at most the candidates times the probes.
func TestPivotsVisitFewPairs(t *testing.T) {
	defer func(v int) { pivotMinClasses = v }(pivotMinClasses)
	pivotMinClasses = 2
	bm := lookup(t, "maze4x3")
	const T = 4
	fam, err := fsc.New(fsc.KindStationary, bm.Model.NumActions(), bm.Model.NumObservations(), 1, T, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Ground: bm.Ground, Eps: []float64{0, 0.1, 0.3}, Compact: true}
	res, err := Compute(context.Background(), bm.Model, fam, T, opt)
	if err != nil {
		t.Fatal(err)
	}
	pairs := res.Cost.Pairs
	probes := int64(res.Distinct)
	if res.candidates <= 0 || 4*res.candidates > pairs {
		t.Fatalf("the pivot pass left %d of %d pairs", res.candidates, pairs)
	}
	if res.visited > res.candidates*probes {
		t.Fatalf("%d pairs visited, above %d candidates × %d probes", res.visited, res.candidates, probes)
	}
	if res.pivotBytes <= 0 || res.Cost.Pivots < res.pivotBytes {
		t.Fatalf("the estimate counts %d bytes of pivot coordinates, the pass allocated %d", res.Cost.Pivots, res.pivotBytes)
	}
	noPivots = true
	off, err := Compute(context.Background(), bm.Model, fam, T, opt)
	noPivots = false
	if err != nil {
		t.Fatal(err)
	}
	if off.Cost.Pivots != 0 || off.pivotBytes != 0 || off.visited <= res.visited {
		t.Fatalf("without the pass: estimate %d bytes, allocated %d, %d pairs visited (%d with it)", off.Cost.Pivots, off.pivotBytes, off.visited, res.visited)
	}
	t.Logf("%d of %d pairs left to the loop, %d visits over %d probes", res.candidates, pairs, res.visited, probes)
}

// The join finds exactly the pairs within the threshold in every
// coordinate: on random rows (values on a grid of tenths, so that gaps
// equal to the threshold are common, some jittered by less than the
// margin, clusters and spread-out columns), the cleared bits are those
// of the comparison of every pair in float64 (the oracle), on 1 and 2
// workers.
func TestSweepFindsEveryPair(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	for trial := 0; trial < 60; trial++ {
		n := 2 + rng.IntN(800)
		if trial%20 == 0 {
			n = 4096 + rng.IntN(500) // large enough to run the join in parallel
		}
		dim := 1 + rng.IntN(12)
		capped := 0.3 + partition.ZeroTol
		if trial%3 == 1 {
			capped = 0.1 + partition.ZeroTol
		}
		x := make([]float64, n*dim)
		spread := 1 + rng.IntN(10) // grid steps a column spans
		for i := range x {
			v := 0.1 * float64(rng.IntN(spread+1))
			if trial%4 == 3 && rng.IntN(3) == 0 {
				v += (rng.Float64() - 0.5) * 1e-10
			}
			x[i] = v - 0.5
		}
		reps := [][]int{make([]int, n), {0}}
		r := &runner{T: 1, reps: reps, capped: capped, workers: 1 + trial%2}
		r.dec = newDecisions([]float64{0, capped - partition.ZeroTol}, reps, 1, 1)
		if err := r.sweep(context.Background(), 0, x, dim, nil); err != nil {
			t.Fatal(err)
		}
		win := capped + pivotMargin
		var want int64
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				close := true
				for c := 0; c < dim; c++ {
					close = close && math.Abs(x[a*dim+c]-x[b*dim+c]) <= win
				}
				if close {
					want++
				}
				k := r.dec.Apart[0][0].Index(a, b)
				for e, pl := range r.dec.Apart[0] {
					if pl.Has(k) == close {
						t.Fatalf("trial %d (n %d, dim %d): pair (%d, %d) within %v: %v, plane %d apart: %v", trial, n, dim, a, b, win, close, e, pl.Has(k))
					}
				}
			}
		}
		if r.pivotCandidates != want {
			t.Fatalf("trial %d: %d candidates counted, %d pairs within", trial, r.pivotCandidates, want)
		}
	}
}
