package ot

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// seqDist computes the additive sequence cost independently of seqCost:
// decode both indices digit by digit, o_1 most significant.
func seqDist(g Ground, k, x, y int) float64 {
	o := len(g)
	d := 0.0
	for range k {
		d += g[x%o][y%o]
		x /= o
		y /= o
	}
	return d
}

// randMetric returns the Euclidean metric of o random points in the plane.
func randMetric(rng *rand.Rand, o int) Ground {
	xs, ys := make([]float64, o), make([]float64, o)
	for i := range xs {
		xs[i], ys[i] = rng.Float64(), rng.Float64()
	}
	d := make([][]float64, o)
	for i := range d {
		d[i] = make([]float64, o)
		for j := range d[i] {
			if i != j {
				d[i][j] = math.Hypot(xs[i]-xs[j], ys[i]-ys[j])
			}
		}
	}
	g, err := NewGround(d)
	if err != nil {
		panic(err)
	}
	return g
}

// randLine returns the metric |x_i − x_j| of o sorted random points.
func randLine(rng *rand.Rand, o int) Ground {
	xs := make([]float64, o)
	for i := 1; i < o; i++ {
		xs[i] = xs[i-1] + rng.Float64()
	}
	d := make(Ground, o)
	for i := range d {
		d[i] = make([]float64, o)
		for j := range d[i] {
			d[i][j] = math.Abs(xs[i] - xs[j])
		}
	}
	return d
}

// TestSeqW1Paper checks the paper's worked examples.
func TestSeqW1Paper(t *testing.T) {
	tests := []struct {
		name   string
		g      Ground
		k      int
		p, q   []float64
		want   float64
		method Method
	}{
		// Paper appendix / docs/conventions.md#checked-numbers: Tiger listen-only, O = {L, R},
		// laws of the next observation after L and after R: W1 = 0.49.
		// After removing the shared mass each side is one atom.
		{"tiger", Discrete(2), 1, []float64{0.745, 0.255}, []float64{0.255, 0.745}, 0.49, MethodPointMass},
		// Hand: TV = ½·(0.3+0.3+0.3+0.3) = 0.6 under the discrete metric.
		{"discrete k=1", Discrete(4), 1, []float64{0.4, 0.1, 0.4, 0.1}, []float64{0.1, 0.4, 0.1, 0.4}, 0.6, MethodTV},
		// docs/conventions.md#checked-numbers, stationary witness (prop:stationary-counterexample):
		// O = {U, X, Y}, laws {UU: ¾, UX: ¼} and {UU: ¾, UY: ¼}; UX and UY
		// differ in one position, so W1 = ¼.
		{"stationary witness", Discrete(3), 2,
			[]float64{0.75, 0.25, 0, 0, 0, 0, 0, 0, 0},
			[]float64{0.75, 0, 0.25, 0, 0, 0, 0, 0, 0}, 0.25, MethodPointMass},
		// Same law twice: 0 (identity of indiscernibles).
		{"identical", Discrete(2), 2, []float64{0.1, 0.2, 0.3, 0.4}, []float64{0.1, 0.2, 0.3, 0.4}, 0, MethodIdentical},
		// Hand: ½ of the mass moves 00 → 11 at Hamming distance 2.
		{"point vs split", Discrete(2), 2, []float64{1, 0, 0, 0}, []float64{0.5, 0, 0, 0.5}, 1, MethodPointMass},
		// Hand: marginals equal, every unit moves distance 1 (00→01 etc.).
		{"equal marginals", Discrete(2), 2, []float64{0.5, 0, 0, 0.5}, []float64{0, 0.5, 0.5, 0}, 1, MethodSimplex},
		// 1-D closed form on Ordered(3) (spacing ½): |F_p − F_q| = (½, ½).
		{"ordered k=1", Ordered(3), 1, []float64{1, 0, 0}, []float64{0, 0, 1}, 1, MethodPointMass},
		// 1-D closed form on Ordered(4) (spacing ⅓): F_p − F_q = (0.3, 0, 0.3),
		// W1 = 0.6/3 = 0.2.
		{"line k=1", Ordered(4), 1, []float64{0.4, 0.1, 0.4, 0.1}, []float64{0.1, 0.4, 0.1, 0.4}, 0.2, MethodLine},
		// k = 0: one empty sequence, nothing to move.
		{"k=0", Discrete(2), 0, []float64{1}, []float64{1}, 0, MethodIdentical},
	}
	var s Solver
	for _, tc := range tests {
		r, err := s.SeqW1(tc.g, tc.k, tc.p, tc.q)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.Status != Optimal || r.Method != tc.method || !(math.Abs(r.Value-tc.want) <= 1e-12) {
			t.Errorf("%s: got %v, want %.12g by %v", tc.name, r, tc.want, tc.method)
			continue
		}
		cost := func(x, y int) float64 { return seqDist(tc.g, tc.k, x, y) }
		certify(t, tc.name, &s, tc.p, tc.q, cost, r.Value, 1e-12)
		if lb := s.LowerBound(tc.g, tc.k, tc.p, tc.q); !(lb <= r.Value+1e-12) {
			t.Errorf("%s: lower bound %v > W1 %v", tc.name, lb, r.Value)
		}
	}
}

// TestSeqW1MatchesFullSolve compares SeqW1 (digit costs, fast paths,
// residual supports) with the plain simplex on the full cost matrix
// computed by seqDist, over discrete, ordered, line and planar grounds.
func TestSeqW1MatchesFullSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	var s, full Solver
	count := map[Method]int{}
	for trial := range 300 {
		o := 2 + rng.IntN(3)
		k := 1 + rng.IntN(3)
		if o == 2 {
			k += rng.IntN(5)
		}
		var g Ground
		switch trial % 4 {
		case 0:
			g = Discrete(o)
		case 1:
			g = Ordered(o)
		case 2:
			g = randLine(rng, o)
		default:
			g = randMetric(rng, o)
		}
		n := SeqLen(o, k)
		zeros := []float64{0, 0.5, 0.9}[trial%3]
		p, q := randLaw(rng, n, zeros), randLaw(rng, n, zeros)
		if trial%10 == 0 {
			// Shared mass: q = p moved a little.
			copy(q, p)
			q[rng.IntN(n)] += 0.3
			normalize(q)
		}
		r, err := s.SeqW1(g, k, p, q)
		if err != nil || r.Status != Optimal {
			t.Fatalf("trial %d: %v, %v", trial, r, err)
		}
		count[r.Method]++
		cost := func(x, y int) float64 { return seqDist(g, k, x, y) }
		rf, err := full.W1(p, q, flatCost(n, n, cost))
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(r.Value-rf.Value) <= 1e-12*max(1, rf.Value)) {
			t.Fatalf("trial %d (o=%d k=%d, %v): SeqW1 = %.16g, full simplex = %.16g", trial, o, k, r.Method, r.Value, rf.Value)
		}
		certify(t, "seq", &s, p, q, cost, r.Value, 1e-12)
		lb := s.LowerBound(g, k, p, q)
		ub := UpperBound(g, k, p, q)
		if !(lb <= r.Value+1e-12 && r.Value <= ub+1e-12) {
			t.Fatalf("trial %d: bounds %v ≤ %v ≤ %v fail", trial, lb, r.Value, ub)
		}
	}
	for _, m := range []Method{MethodSimplex, MethodPointMass, MethodTV, MethodLine} {
		if count[m] == 0 {
			t.Errorf("method %v never exercised: %v", m, count)
		}
	}
}

// TestLineClosedForm compares the simplex (W1 on the full matrix, no fast
// path) with the 1-D closed form W1 = Σ_l (x_{l+1} − x_l)·|F_p(l) − F_q(l)|
// for Ordered grounds (spacing 1/(o−1)) and random line metrics.
func TestLineClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	var s Solver
	for trial := range 200 {
		o := 2 + rng.IntN(14)
		xs := make([]float64, o)
		for i := range xs {
			if trial%2 == 0 {
				xs[i] = float64(i) / float64(o-1) // Ordered(o)
			} else if i > 0 {
				xs[i] = xs[i-1] + rng.Float64()
			}
		}
		p, q := randLaw(rng, o, 0.3), randLaw(rng, o, 0.3)
		want, fp, fq := 0.0, 0.0, 0.0
		for l := 0; l+1 < o; l++ {
			fp += p[l]
			fq += q[l]
			want += (xs[l+1] - xs[l]) * math.Abs(fp-fq)
		}
		cost := func(i, j int) float64 { return math.Abs(xs[i] - xs[j]) }
		r, err := s.W1(p, q, flatCost(o, o, cost))
		if err != nil || !(math.Abs(r.Value-want) <= 1e-12*max(1, want)) {
			t.Fatalf("trial %d: W1 = %v (%v), closed form %v", trial, r.Value, err, want)
		}
		if trial%2 == 0 {
			r, err = s.SeqW1(Ordered(o), 1, p, q)
			if err != nil || !(math.Abs(r.Value-want) <= 1e-12*max(1, want)) {
				t.Fatalf("trial %d: SeqW1 = %v (%v), closed form %v", trial, r, err, want)
			}
			if lb := s.LowerBound(Ordered(o), 1, p, q); !(math.Abs(lb-want) <= 1e-12) {
				t.Fatalf("trial %d: k=1 lower bound %v, want exact %v", trial, lb, want)
			}
		}
	}
}

// TestMetricAxioms checks symmetry, identity and the triangle inequality
// of SeqW1 on random triples of laws.
func TestMetricAxioms(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	var s Solver
	w := func(g Ground, k int, a, b []float64) float64 {
		r, err := s.SeqW1(g, k, a, b)
		if err != nil {
			t.Fatal(err)
		}
		return r.Value
	}
	for trial := range 100 {
		o, k := 2+rng.IntN(2), 1+rng.IntN(3)
		g := randMetric(rng, o)
		if trial%2 == 0 {
			g = Discrete(o)
		}
		n := SeqLen(o, k)
		p, q, r := randLaw(rng, n, 0.4), randLaw(rng, n, 0.4), randLaw(rng, n, 0.4)
		pq, qp := w(g, k, p, q), w(g, k, q, p)
		if !(math.Abs(pq-qp) <= 1e-12*max(1, pq)) {
			t.Fatalf("trial %d: W(p,q) = %v, W(q,p) = %v", trial, pq, qp)
		}
		if pp := w(g, k, p, p); pp != 0 {
			t.Fatalf("trial %d: W(p,p) = %v", trial, pp)
		}
		if !(pq > 0) && !equal(p, q) {
			t.Fatalf("trial %d: W(p,q) = %v for p ≠ q", trial, pq)
		}
		pr, qr := w(g, k, p, r), w(g, k, q, r)
		if !(pr <= pq+qr+1e-12) {
			t.Fatalf("trial %d: W(p,r) = %v > W(p,q) + W(q,r) = %v", trial, pr, pq+qr)
		}
	}
}

// TestLowerBoundSettles checks that the bound is exact for one discrete
// position (it is TV) and positive when the marginals agree but the laws
// differ (the δ_min·TV term).
func TestLowerBoundSettles(t *testing.T) {
	var s Solver
	// Tiger: k = 1 discrete, LB = TV = W1 = 0.49.
	if lb := s.LowerBound(Discrete(2), 1, []float64{0.745, 0.255}, []float64{0.255, 0.745}); !(math.Abs(lb-0.49) <= 1e-12) {
		t.Errorf("tiger lower bound %v, want 0.49", lb)
	}
	// Equal marginals, W1 = 1 (hand): LB = δ_min·TV = 1.
	if lb := s.LowerBound(Discrete(2), 2, []float64{0.5, 0, 0, 0.5}, []float64{0, 0.5, 0.5, 0}); !(math.Abs(lb-1) <= 1e-12) {
		t.Errorf("equal-marginal lower bound %v, want 1", lb)
	}
	// General (planar) ground uses small exact solves per position.
	rng := rand.New(rand.NewPCG(9, 9))
	g := randMetric(rng, 4)
	p, q := randLaw(rng, 16, 0.2), randLaw(rng, 16, 0.2)
	r, err := s.SeqW1(g, 2, p, q)
	if err != nil {
		t.Fatal(err)
	}
	if lb := s.LowerBound(g, 2, p, q); !(lb > 0 && lb <= r.Value+1e-12) {
		t.Errorf("planar lower bound %v, W1 %v", lb, r.Value)
	}
}

// TestSeqW1Errors checks ground and mass validation.
func TestSeqW1Errors(t *testing.T) {
	var s Solver
	bad := Ground{{0, 1}, {math.NaN(), 0}}
	_, err := s.SeqW1(bad, 1, []float64{1, 0}, []float64{0, 1})
	var ge *GroundError
	if !errors.As(err, &ge) || ge.I != 1 || ge.J != 0 {
		t.Errorf("NaN ground: %v", err)
	}
	diag := Ground{{0, 1}, {1, 0.5}}
	if _, err := s.SeqW1(diag, 1, []float64{1, 0}, []float64{0, 1}); !errors.As(err, &ge) {
		t.Errorf("non-zero diagonal: %v", err)
	}
	var me *MassError
	if _, err := s.SeqW1(Discrete(2), 1, []float64{1, 0}, []float64{-0.5, 1.5}); !errors.As(err, &me) || me.Side != "q" {
		t.Errorf("negative mass: %v", err)
	}
	var te *TotalError
	if _, err := s.SeqW1(Discrete(2), 1, []float64{1, 0}, []float64{0, 2}); !errors.As(err, &te) {
		t.Errorf("totals: %v", err)
	}
}

// TestSeqCostTables checks the chunked digit tables against seqDist for
// chunkings with one, two and several chunks.
func TestSeqCostTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 3))
	for _, tc := range []struct{ o, k int }{{2, 1}, {2, 6}, {2, 9}, {2, 13}, {3, 5}, {5, 3}, {5, 7}, {70, 2}} {
		g := randMetric(rng, tc.o)
		var sc seqCost
		sc.reset(g, tc.k)
		n := SeqLen(tc.o, tc.k)
		for range 200 {
			x, y := rng.IntN(n), rng.IntN(n)
			if got, want := sc.eval(x, y), seqDist(g, tc.k, x, y); !(math.Abs(got-want) <= 1e-12*max(1, want)) {
				t.Fatalf("o=%d k=%d: cost(%d,%d) = %v, want %v", tc.o, tc.k, x, y, got, want)
			}
		}
	}
}

func equal(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// A solver reused across calls keeps its cost tables only while the
// ground and length are the same: changing the ground in place, or k,
// gives the result of a fresh solver.
func TestSeqW1ReusedSolver(t *testing.T) {
	g := Ordered(3)
	p := []float64{0.5, 0, 0, 0, 0.25, 0, 0, 0, 0.25}
	q := []float64{0, 0, 0.5, 0, 0.25, 0, 0.25, 0, 0}
	var s Solver
	for round := 0; round < 3; round++ {
		got, err := s.SeqW1(g, 2, p, q)
		if err != nil {
			t.Fatal(err)
		}
		var fresh Solver
		want, err := fresh.SeqW1(g, 2, p, q)
		if err != nil {
			t.Fatal(err)
		}
		if got.Value != want.Value {
			t.Fatalf("round %d: reused solver %v, fresh %v", round, got.Value, want.Value)
		}
		// Scale the ground in place: the tables must be rebuilt.
		for i := range g {
			for j := range g[i] {
				g[i][j] *= 2
			}
		}
	}
}

// A solver reused over many pairs of one length builds the sequence cost
// tables once: the tables are O(maxTable) work, more than a small residual
// problem, and were rebuilt before every simplex solve.
func TestSeqCostTablesBuiltOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 19))
	g := randMetric(rng, 3)
	var s Solver
	solves := 0
	for _, k := range []int{3, 3, 4} {
		for range 40 {
			p, q := randLaw(rng, SeqLen(3, k), 0.2), randLaw(rng, SeqLen(3, k), 0.2)
			r, err := s.SeqW1(g, k, p, q)
			if err != nil {
				t.Fatal(err)
			}
			if r.Method == MethodSimplex {
				solves++
			}
		}
	}
	if solves < 40 {
		t.Fatalf("only %d simplex solves: the test needs residual problems", solves)
	}
	if s.seq.builds != 2 {
		t.Errorf("tables built %d times over %d simplex solves at two lengths, want 2", s.seq.builds, solves)
	}
}

// SeqW1Below stops only at a plan cheaper than its bound, whose cost is
// then an upper bound on W1 below it; otherwise it is SeqW1. The fresh
// solve is the oracle.
func TestSeqW1Below(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	var s Solver
	stopped, solved := 0, 0
	for trial := 0; trial < 400; trial++ {
		o, k := 2+rng.IntN(3), 2+rng.IntN(3)
		g := randMetric(rng, o)
		n := SeqLen(o, k)
		p, q := randLaw(rng, n, 0.3), randLaw(rng, n, 0.3)
		want, err := SeqW1(g, k, p, q)
		if err != nil {
			t.Fatal(err)
		}
		stop := want * (0.5 + rng.Float64())
		r, err := s.SeqW1Below(g, k, p, q, stop)
		if err != nil {
			t.Fatal(err)
		}
		switch r.Status {
		case Below:
			stopped++
			if !(r.Value < stop) || r.Value < want-1e-12 {
				t.Fatalf("trial %d: stopped at %v with bound %v, W1 %v", trial, r.Value, stop, want)
			}
			if !panics(func() { s.Potentials(nil, nil) }) {
				t.Fatalf("trial %d: potentials after an early stop", trial)
			}
		case Optimal:
			solved++
			if math.Abs(r.Value-want) > 1e-12*max(1, want) {
				t.Fatalf("trial %d: %v, W1 %v", trial, r.Value, want)
			}
		default:
			t.Fatalf("trial %d: status %v", trial, r.Status)
		}
	}
	if stopped < 20 || solved < 20 {
		t.Fatalf("%d early stops, %d solves: the test needs both", stopped, solved)
	}
}

func panics(f func()) (did bool) {
	defer func() { did = recover() != nil }()
	f()
	return false
}
