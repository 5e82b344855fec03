package ot

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// lpOracle solves the transportation problem with gonum's dense simplex,
// an independent exact method: variables x_ij ≥ 0, row sums p_i, column
// sums q_j for j < k−1 (the last column constraint is implied, and dropping
// it gives A full row rank). Zero masses are dropped first (their
// variables are forced to zero), which gonum's phase 1 needs.
func lpOracle(p, q []float64, cost func(i, j int) float64) (float64, error) {
	var is, js []int
	for i, v := range p {
		if v > 0 {
			is = append(is, i)
		}
	}
	for j, v := range q {
		if v > 0 {
			js = append(js, j)
		}
	}
	n, k := len(is), len(js)
	rows := n + k - 1
	a := mat.NewDense(rows, n*k, nil)
	b := make([]float64, rows)
	c := make([]float64, n*k)
	for x, i := range is {
		for y, j := range js {
			c[x*k+y] = cost(i, j)
			a.Set(x, x*k+y, 1)
			if y < k-1 {
				a.Set(n+y, x*k+y, 1)
			}
		}
		b[x] = p[i]
	}
	for y := 0; y < k-1; y++ {
		b[n+y] = q[js[y]]
	}
	v, _, err := lp.Simplex(c, a, b, 1e-12, nil)
	return v, err
}

// certify checks the plan and potentials of the last solve of s against
// value: the plan is non-negative with marginals p and q, its cost is the
// value, the potentials satisfy u_i + v_j ≤ c(i,j), and the dual objective
// equals the value — so the value is optimal up to tol (relative).
func certify(t *testing.T, name string, s *Solver, p, q []float64, cost func(i, j int) float64, value, tol float64) {
	t.Helper()
	n, k := len(p), len(q)
	plan := s.Plan(nil)
	scale := 0.0
	for i := range n {
		for j := range k {
			scale = max(scale, cost(i, j))
		}
	}
	scale = max(scale, 1e-300)
	primal := 0.0
	for i := range n {
		row := 0.0
		for j := range k {
			x := plan[i*k+j]
			if !(x >= 0) {
				t.Fatalf("%s: plan[%d][%d] = %v", name, i, j, x)
			}
			row += x
			primal += x * cost(i, j)
		}
		if !(math.Abs(row-p[i]) <= 1e-12) {
			t.Fatalf("%s: plan row %d sums to %v, want %v", name, i, row, p[i])
		}
	}
	for j := range k {
		col := 0.0
		for i := range n {
			col += plan[i*k+j]
		}
		if !(math.Abs(col-q[j]) <= 1e-12) {
			t.Fatalf("%s: plan column %d sums to %v, want %v", name, j, col, q[j])
		}
	}
	if !(math.Abs(primal-value) <= tol*scale) {
		t.Fatalf("%s: plan cost %v, value %v", name, primal, value)
	}
	u, v := s.Potentials(nil, nil)
	dual := 0.0
	for i := range n {
		dual += p[i] * u[i]
		for j := range k {
			if !(u[i]+v[j] <= cost(i, j)+tol*scale) {
				t.Fatalf("%s: dual infeasible at (%d,%d): %v + %v > %v", name, i, j, u[i], v[j], cost(i, j))
			}
		}
	}
	for j := range k {
		dual += q[j] * v[j]
	}
	if !(math.Abs(dual-value) <= tol*scale) {
		t.Fatalf("%s: dual objective %v, value %v (gap %g)", name, dual, value, value-dual)
	}
}

// randLaw returns a law on n points with a share of exact zeros.
func randLaw(rng *rand.Rand, n int, zeros float64) []float64 {
	w := make([]float64, n)
	any := false
	for i := range w {
		if rng.Float64() >= zeros {
			w[i] = rng.Float64()
			any = any || w[i] > 0
		}
	}
	if !any {
		w[rng.IntN(n)] = 1
	}
	normalize(w)
	return w
}

func flatCost(n, k int, c func(i, j int) float64) []float64 {
	out := make([]float64, n*k)
	for i := range n {
		for j := range k {
			out[i*k+j] = c(i, j)
		}
	}
	return out
}

// TestW1AgainstLP compares W1 with gonum's LP simplex on random instances
// (real and small-integer costs, masses with zeros, n ≠ k) and certifies
// each answer by primal feasibility and primal–dual agreement.
func TestW1AgainstLP(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var s Solver
	for trial := range 400 {
		n, k := 1+rng.IntN(7), 1+rng.IntN(7)
		p := randLaw(rng, n, 0.2)
		q := randLaw(rng, k, 0.2)
		intCost := trial%2 == 0
		cost := flatCost(n, k, func(i, j int) float64 {
			if intCost {
				return float64(rng.IntN(4))
			}
			return 10 * rng.Float64()
		})
		cf := func(i, j int) float64 { return cost[i*k+j] }
		r, err := s.W1(p, q, cost)
		if err != nil || r.Status != Optimal {
			t.Fatalf("trial %d: %v, %v", trial, r, err)
		}
		want, err := lpOracle(p, q, cf)
		if err != nil {
			t.Fatalf("trial %d: oracle: %v", trial, err)
		}
		if !(math.Abs(r.Value-want) <= 1e-9*max(1, want)) {
			t.Fatalf("trial %d (%d×%d): W1 = %.15g, LP = %.15g", trial, n, k, r.Value, want)
		}
		certify(t, "random", &s, p, q, cf, r.Value, 1e-12)

		// The callback form gives the same answer.
		r2, err := s.W1Func(p, q, cf)
		if err != nil || !(math.Abs(r2.Value-r.Value) <= 1e-12*max(1, r.Value)) {
			t.Fatalf("trial %d: W1Func = %v, %v; W1 = %v", trial, r2, err, r.Value)
		}
	}
}

// TestW1Larger certifies larger random problems by duality (the LP oracle
// is too slow there): dense real costs, and Hamming costs on O^k that make
// the problem highly degenerate.
func TestW1Larger(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var s Solver
	for trial := range 12 {
		n, k := 20+rng.IntN(60), 20+rng.IntN(60)
		p := randLaw(rng, n, 0.1)
		q := randLaw(rng, k, 0.1)
		var cf func(i, j int) float64
		if trial%2 == 0 {
			cost := flatCost(n, k, func(i, j int) float64 { return rng.Float64() })
			cf = func(i, j int) float64 { return cost[i*k+j] }
		} else {
			cf = func(i, j int) float64 { return float64(popcount(uint(i ^ j))) }
		}
		r, err := s.W1Func(p, q, cf)
		if err != nil || r.Status != Optimal {
			t.Fatalf("trial %d: %v, %v", trial, r, err)
		}
		certify(t, "larger", &s, p, q, cf, r.Value, 1e-12)
	}
}

func popcount(x uint) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

// TestW1Cases covers degenerate shapes with hand-computed values.
func TestW1Cases(t *testing.T) {
	line := func(x, y []float64) []float64 {
		return flatCost(len(x), len(y), func(i, j int) float64 { return math.Abs(x[i] - y[j]) })
	}
	tests := []struct {
		name   string
		p, q   []float64
		cost   []float64
		want   float64
		method Method
	}{
		// Hand computation: the only plan moves the single unit at cost 3.
		{"one atom each", []float64{1}, []float64{1}, []float64{3}, 3, MethodPointMass},
		// Hand: all mass leaves point 1: ½·1 + ¼·0 + ¼·1.
		{"source point mass", []float64{0, 1, 0}, []float64{0.5, 0.25, 0.25}, line([]float64{0, 1, 2}, []float64{0, 1, 2}), 0.75, MethodPointMass},
		// Hand: everything goes to the middle point, distance 1 each.
		{"zeros in masses", []float64{0.5, 0, 0.5}, []float64{0, 1, 0}, line([]float64{0, 1, 2}, []float64{0, 1, 2}), 1, MethodPointMass},
		// 1-D closed form: ∫|F_p − F_q| = ½·⅙ + ½·⅙.
		{"n≠k on a line", []float64{0.5, 0.5}, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, line([]float64{0, 1}, []float64{0, 0.5, 1}), 1.0 / 6, MethodSimplex},
		// Hand: the swap costs nothing; the cost need not be a metric.
		{"non-metric swap", []float64{0.5, 0.5}, []float64{0.5, 0.5}, []float64{1, 0, 0, 1}, 0, MethodSimplex},
		// Nothing to move.
		{"both empty", []float64{0, 0}, []float64{0, 0, 0}, make([]float64, 6), 0, MethodIdentical},
		// Paper appendix (docs/conventions.md#checked-numbers): Tiger listen-only laws after L
		// and after R under the discrete metric: W1 = 0.49.
		{"tiger L vs R", []float64{0.745, 0.255}, []float64{0.255, 0.745}, []float64{0, 1, 1, 0}, 0.49, MethodSimplex},
	}
	var s Solver
	for _, tc := range tests {
		r, err := s.W1(tc.p, tc.q, tc.cost)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.Status != Optimal || r.Method != tc.method || !(math.Abs(r.Value-tc.want) <= 1e-12) {
			t.Errorf("%s: got %v, want %.12g by %v", tc.name, r, tc.want, tc.method)
			continue
		}
		k := len(tc.q)
		certify(t, tc.name, &s, tc.p, tc.q, func(i, j int) float64 { return tc.cost[i*k+j] }, r.Value, 1e-12)
	}
}

// TestW1Errors checks that bad data is reported, naming the entry.
func TestW1Errors(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name    string
		p, q    []float64
		cost    []float64
		target  any
		message string
	}{
		{"negative mass", []float64{1.5, -0.5}, []float64{1}, []float64{0, 0}, new(*MassError), "p[1] = -0.5"},
		{"NaN mass", []float64{1}, []float64{nan, 1}, []float64{0, 0}, new(*MassError), "q[0] = NaN"},
		{"Inf mass", []float64{math.Inf(1)}, []float64{1}, []float64{0}, new(*MassError), "p[0] = +Inf"},
		{"totals", []float64{0.5, 0.5}, []float64{0.5, 0.6}, make([]float64, 4), new(*TotalError), "Σp = 1, Σq = 1.1"},
		{"one side empty", []float64{0, 0}, []float64{1}, make([]float64, 2), new(*TotalError), "Σp = 0"},
		{"NaN cost", []float64{0.5, 0.5}, []float64{1}, []float64{0, nan}, new(*CostError), "cost(1,0) = NaN"},
		{"negative cost", []float64{1}, []float64{0.5, 0.5}, []float64{0, -1}, new(*CostError), "cost(0,1) = -1"},
		{"Inf cost", []float64{1}, []float64{1}, []float64{math.Inf(1)}, new(*CostError), "cost(0,0) = +Inf"},
	}
	var s Solver
	for _, tc := range tests {
		r, err := s.W1(tc.p, tc.q, tc.cost)
		if err == nil {
			t.Errorf("%s: no error, result %v", tc.name, r)
			continue
		}
		if !errors.As(err, tc.target) || !strings.Contains(err.Error(), tc.message) || !strings.HasPrefix(err.Error(), "ot: ") {
			t.Errorf("%s: error %q (%T), want %T containing %q", tc.name, err, err, tc.target, tc.message)
		}
	}
	// Callback costs are validated where they are used.
	_, err := s.W1Func([]float64{0.5, 0.5}, []float64{0.5, 0.5}, func(i, j int) float64 {
		if i == 1 && j == 0 {
			return nan
		}
		return 1
	})
	var ce *CostError
	if !errors.As(err, &ce) || ce.I != 1 || ce.J != 0 {
		t.Errorf("W1Func NaN cost: %v", err)
	}
	// Both totals within TotalTol of 1 are accepted even though they differ
	// by 1.8e-9 relative.
	if _, err := s.W1([]float64{0.5, 0.5 + 0.9e-9}, []float64{0.5, 0.5 - 0.9e-9}, []float64{0, 1, 1, 0}); err != nil {
		t.Errorf("totals 1±0.9e-9: %v", err)
	}
	// Totals may differ within TotalTol: q is rescaled to p's total, so
	// q̃ = q/Σq and W1 = TV(p, q̃) ≈ ½·1e-10 (hand computation).
	qn := []float64{0.5, 0.5 + 1e-10}
	tq := qn[0] + qn[1]
	want := TV([]float64{0.5, 0.5}, []float64{qn[0] / tq, qn[1] / tq})
	r, err := s.W1([]float64{0.5, 0.5}, qn, []float64{0, 1, 1, 0})
	if err != nil || !(math.Abs(r.Value-want) <= 1e-24) {
		t.Errorf("near-equal totals: %v, %v", r, err)
	}
}

// TestIterationLimit checks that hitting MaxPivots is reported as such.
func TestIterationLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	p, q := randLaw(rng, 10, 0), randLaw(rng, 10, 0)
	cost := flatCost(10, 10, func(i, j int) float64 { return rng.Float64() })
	s := Solver{Settings: Settings{MaxPivots: 2}}
	r, err := s.W1(p, q, cost)
	if !errors.Is(err, ErrIterationLimit) || r.Status != IterationLimit || !math.IsNaN(r.Value) || r.Pivots != 2 {
		t.Fatalf("got %v, %v; want IterationLimit after 2 pivots", r, err)
	}
	mustPanic(t, "Plan after limit", func() { s.Plan(nil) })
	s.Settings.MaxPivots = 0
	if r, err := s.W1(p, q, cost); err != nil || r.Status != Optimal {
		t.Fatalf("default limit: %v, %v", r, err)
	}
}

func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		msg, _ := r.(string)
		if !strings.HasPrefix(msg, "ot: ") {
			t.Errorf("%s: panic %v, want an \"ot: \" message", name, r)
		}
	}()
	f()
}

// TestPanics checks programmer errors.
func TestPanics(t *testing.T) {
	var s Solver
	mustPanic(t, "cost length", func() { _, _ = s.W1([]float64{1}, []float64{1}, []float64{0, 0}) })
	mustPanic(t, "seq length", func() { _, _ = s.SeqW1(Discrete(2), 2, []float64{1}, []float64{1}) })
	mustPanic(t, "TV length", func() { TV([]float64{1}, []float64{1, 0}) })
	mustPanic(t, "potentials length", func() {
		_, _ = s.W1([]float64{1}, []float64{1}, []float64{0})
		s.Potentials(make([]float64, 3), nil)
	})
	mustPanic(t, "overflow", func() { SeqLen(1<<20, 10) })
}

// TestAllocs checks that repeated solves reuse the Solver's memory.
func TestAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 9))
	n := 40
	p, q := randLaw(rng, n, 0.1), randLaw(rng, n, 0.1)
	cost := flatCost(n, n, func(i, j int) float64 { return rng.Float64() })
	var s Solver
	if _, err := s.W1(p, q, cost); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(20, func() { _, _ = s.W1(p, q, cost) }); a != 0 {
		t.Errorf("W1: %v allocations per solve", a)
	}
	g := Discrete(2)
	sp, sq := randLaw(rng, 512, 0), randLaw(rng, 512, 0)
	if _, err := s.SeqW1(g, 9, sp, sq); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(10, func() { _, _ = s.SeqW1(g, 9, sp, sq) }); a != 0 {
		t.Errorf("SeqW1: %v allocations per solve", a)
	}
	g5 := Ordered(5)
	lp5, lq5 := randLaw(rng, 125, 0.3), randLaw(rng, 125, 0.3)
	_ = s.LowerBound(g5, 3, lp5, lq5)
	if a := testing.AllocsPerRun(10, func() { _ = s.LowerBound(g5, 3, lp5, lq5) }); a != 0 {
		t.Errorf("LowerBound: %v allocations per call", a)
	}
}

// TestRegressions replays failures found by fuzzing and random testing.
func TestRegressions(t *testing.T) {
	var s Solver
	big := []float64{1e300, 1e300, 1e300, 1e300, 1e300}
	cost := make([]float64, 25)
	for e := range cost {
		cost[e] = 1e300
	}
	// FuzzW1: the transport cost 5e600 overflows; it used to be +Inf
	// reported as optimal.
	if r, err := s.W1(big, big, cost); !errors.Is(err, ErrOverflow) || r.Status == Optimal {
		t.Errorf("overflowing cost: %v, %v", r, err)
	}
	// FuzzSeqW1: TV summed |p−q| before halving and overflowed.
	mx := math.MaxFloat64
	r, err := s.SeqW1(Discrete(2), 1, []float64{mx, 0}, []float64{0, mx})
	if err != nil || r.Value != mx {
		t.Errorf("huge point masses: %v, %v", r, err)
	}
	if lb := s.LowerBound(Discrete(2), 1, []float64{mx, 0}, []float64{0, mx}); lb != mx {
		t.Errorf("huge lower bound %v, want MaxFloat64", lb)
	}
	// FuzzSeqW1: UpperBound computed diameter·k·TV = ∞·0 = NaN for a huge
	// pseudometric and identical laws.
	g := Ground{{0, mx, 0}, {mx, 0, mx}, {0, mx, 0}}
	p := []float64{0.5, 0.5, 0}
	if ub := UpperBound(g, 2, append(p, make([]float64, 6)...), append(p, make([]float64, 6)...)); ub != 0 {
		t.Errorf("upper bound of identical laws %v, want 0", ub)
	}
	// FuzzSeqW1: totals that agree within TotalTol relative (1e300 + 4 vs
	// 1e300 + 4.125) are accepted; the residual difference is below the
	// resolution of the totals and W1 is 0 (documented behaviour).
	r, err = s.SeqW1(Discrete(3), 1, []float64{1e300, 2, 2}, []float64{1e300, 2.125, 2})
	if err != nil || r.Value != 0 || r.Method != MethodIdentical {
		t.Errorf("totals within tolerance: %v, %v", r, err)
	}
}

// TestTightTolerance is the regression test for the big-M start the
// solver first had (LEMON's): artificial costs ~ maxcost·(n+k) polluted the
// potentials, and under a tight tolerance the simplex cycled among
// alternative optima until the pivot limit (Ordered grounds, o = 4, k = 3).
// With the feasible start every solve must end optimal and certified.
func TestTightTolerance(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	s := Solver{Settings: Settings{Tol: 1e-15, MaxPivots: 20000}}
	for trial := range 300 {
		o, k := 3+rng.IntN(3), 2+rng.IntN(2)
		g := Ordered(o)
		if trial%2 == 1 {
			g = randMetric(rng, o)
		}
		n := SeqLen(o, k)
		p, q := randLaw(rng, n, 0.3), randLaw(rng, n, 0.3)
		r, err := s.SeqW1(g, k, p, q)
		if err != nil || r.Status != Optimal {
			t.Fatalf("trial %d: %v, %v", trial, r, err)
		}
		if trial%10 == 0 {
			certify(t, "tight", &s, p, q, func(x, y int) float64 { return seqDist(g, k, x, y) }, r.Value, 1e-12)
		}
	}
}
