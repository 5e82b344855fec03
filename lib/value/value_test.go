package value_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/internal/benchtest"
	"github.com/pomdpq/pomdpq/internal/randmodel"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/value"
)

// lookup returns the model of the benchmark name (benchtest.Lookup).
func lookup(t testing.TB, name string) *pomdp.Model { return benchtest.Lookup(t, name).Model }

// objective builds the named objective of the paper's tables for m.
func objective(m *pomdp.Model, kind string) value.Objective {
	switch kind {
	case "obs":
		return value.ObsScore(m.NumObservations())
	case "action+obs":
		return value.ActionObsScore(value.DefaultPref(m))
	case "latent":
		return value.LatentReward{}
	}
	panic("unknown objective " + kind)
}

// TestPaperPlanningTables reproduces the V_orig and Policy columns of the
// paper's tab:observation-planning and tab:latent-planning-exact: the best
// clock-aware m = 1 (open-loop) policy on the original model. Values are
// printed to 3 decimals, hence the tolerance 5e-4. Rows marked tie have
// several optimal policies; the printed policy is then the first in
// enumeration order when the tie is exact in floating point, and is
// checked only where noted.
func TestPaperPlanningTables(t *testing.T) {
	cases := []struct {
		model, obj string
		T          int
		want       float64
		policy     string // "" when the printed policy is a floating-noise tie-break
		unique     bool   // the maximum is attained by a single action string
	}{
		// paper, tab:observation-planning
		{"tiger", "obs", 2, 1.000, "L L", false},
		{"tiger", "action+obs", 2, 1.000, "OL OL", false},
		{"tiger", "obs", 4, 2.000, "L L L L", false},
		{"tiger", "action+obs", 4, 2.000, "OL OL OL OL", false},
		{"tiger", "obs", 6, 3.000, "L L L L L L", false},
		{"tiger", "action+obs", 6, 3.000, "OL OL OL OL OL OL", false},
		{"tiger", "obs", 8, 4.000, "", false}, // paper prints "L L L L L OL L L": a floating-noise tie-break
		{"tiger", "action+obs", 8, 4.000, "OL OL OL OL OL OL OL OL", false},
		{"tiger", "obs", 10, 5.000, "L L L L L L L L L L", false},
		{"tiger", "action+obs", 10, 5.000, "OL OL OL OL OL OL OL OL OL OL", false},
		{"gridworld:3", "obs", 2, 1.120, "D D", false},
		{"gridworld:3", "action+obs", 2, 0.968, "U U", false},
		{"gridworld:3", "obs", 3, 1.787, "D D R", false},
		{"gridworld:3", "action+obs", 3, 1.562, "L U U", false},
		{"gridworld:5", "obs", 2, 1.072, "D D", false},
		{"gridworld:5", "action+obs", 2, 0.805, "U U", false},
		// paper, tab:latent-planning-exact
		{"tiger", "latent", 2, -2.000, "L L", true},
		{"tiger", "latent", 4, -4.000, "L L L L", true},
		{"tiger", "latent", 6, -6.000, "L L L L L L", true},
		{"tiger", "latent", 8, -8.000, "L L L L L L L L", true},
		{"tiger", "latent", 10, -10.000, "L L L L L L L L L L", true},
		{"gridworld-goal:3", "latent", 2, 0.311, "D U", false},
		{"gridworld-goal:3", "latent", 3, 0.671, "D R U", false},
	}
	for _, tc := range cases {
		m := lookup(t, tc.model)
		fam, err := fsc.NewClock(m.NumActions(), m.NumObservations(), 1, tc.T, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := value.Best(context.Background(), m, fam, tc.T, objective(m, tc.obj), value.Options{})
		if err != nil {
			t.Fatalf("%s %s T=%d: %v", tc.model, tc.obj, tc.T, err)
		}
		if !(math.Abs(res.Value-tc.want) <= 5e-4) {
			t.Errorf("%s %s T=%d: V = %.6f, paper %.3f", tc.model, tc.obj, tc.T, res.Value, tc.want)
		}
		if tc.policy != "" && res.Policy != tc.policy {
			t.Errorf("%s %s T=%d: policy %q, paper %q (ties %d)", tc.model, tc.obj, tc.T, res.Policy, tc.policy, res.Ties)
		}
		if tc.unique && res.Ties != 1 {
			t.Errorf("%s %s T=%d: %d optimal policies, want a unique one", tc.model, tc.obj, tc.T, res.Ties)
		}
		t.Logf("%-17s %-10s T=%d V=%.6f policy %-24q ties %d/%d", tc.model, tc.obj, tc.T, res.Value, res.Policy, res.Ties, res.FamilySize)
	}
}

// bruteForce returns E[G] by summing over every full trajectory
// (s_0, n_0, a_0, s_1, o_1, n_1, …) with the model's and controller's
// probabilities entry by entry; latent adds Σ γ^t R(s_t, a_t), otherwise G
// is applied to the trace. It shares no code with the evaluator.
func bruteForce(m *pomdp.Model, c *fsc.FSC, T int, gamma float64, latent bool, G func(obs, acts []int) float64) float64 {
	nS, nA, nO := m.NumStates(), m.NumActions(), m.NumObservations()
	obs, acts := make([]int, T), make([]int, T)
	var rec func(t, s, n int, p, ret float64) float64
	rec = func(t, s, n int, p, ret float64) float64 {
		if p == 0 {
			return 0
		}
		if t == T {
			if latent {
				return p * ret
			}
			return p * G(obs, acts)
		}
		v := 0.0
		for a := 0; a < nA; a++ {
			pa := c.ActionProb(t, n, a)
			if pa == 0 {
				continue
			}
			acts[t] = a
			r := ret + math.Pow(gamma, float64(t))*m.R[s][a]
			for s2 := 0; s2 < nS; s2++ {
				ps := m.TransitionProb(s, a, s2)
				if ps == 0 {
					continue
				}
				for o := 0; o < nO; o++ {
					po := m.ObsProb(s2, a, o)
					if po == 0 {
						continue
					}
					obs[t] = o
					for n2 := 0; n2 < c.Nodes; n2++ {
						pn := 1.0
						if t < T-1 {
							pn = c.NextProbOf(t, n, o, n2)
						} else if n2 != n {
							continue
						}
						v += rec(t+1, s2, n2, p*pa*ps*po*pn, r)
					}
				}
			}
		}
		return v
	}
	v := 0.0
	for s := 0; s < nS; s++ {
		v += rec(0, s, 0, m.B0[s], 0)
	}
	return v
}

// randomModel draws a small model with some zero entries in T, Z and b0
// (so that impossible histories occur) and rewards in [−1, 1].
func randomModel(rng *rand.Rand, nS, nA, nO int) *pomdp.Model {
	row := func(n int) []float64 {
		p := make([]float64, n)
		s := 0.0
		for i := range p {
			if rng.IntN(3) > 0 || i == 0 {
				p[i] = rng.Float64()
			}
			s += p[i]
		}
		if s == 0 {
			p[0], s = 1, 1
		}
		for i := range p {
			p[i] /= s
		}
		return p
	}
	d := randmodel.Dense("random", nS, nA, nO, row)
	d.R = make([][]float64, nS)
	for s := range d.R {
		for a := 0; a < nA; a++ {
			d.R[s] = append(d.R[s], 2*rng.Float64()-1)
		}
	}
	d.B0 = row(nS)
	return pomdp.Must(pomdp.New(d))
}

// TestEvaluateBruteForce checks every evaluation path against bruteForce
// on random models and random deterministic and stochastic, stationary
// and clock-aware controllers (independent oracle: full-trajectory sums).
func TestEvaluateBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	// A non-additive trace objective: the product of per-step weights,
	// plus a bonus when the last two actions repeat.
	w := [][]float64{{0.3, -1.2, 0.7}, {1.5, 0.2, -0.4}, {-0.6, 0.9, 1.1}}
	trace := value.TraceFunc{Label: "product", F: func(obs, acts []int) float64 {
		p := 1.0
		for k := range obs {
			p *= w[acts[k]][obs[k]]
		}
		if len(acts) >= 2 && acts[len(acts)-1] == acts[len(acts)-2] {
			p += 0.5
		}
		return p
	}}
	step := value.StepFunc{Label: "step", F: func(t, a, o int) float64 { return w[a][o] * float64(t+1) }}
	for trial := 0; trial < 40; trial++ {
		nS, nA, nO := 1+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(3)
		m := randomModel(rng, nS, nA, nO)
		T := 1 + rng.IntN(4)
		nodes := 1 + rng.IntN(2)
		var c *fsc.FSC
		switch trial % 4 {
		case 0:
			c = fsc.Random(rng, nA, nO, nodes, 0)
		case 1:
			c = fsc.Random(rng, nA, nO, nodes, T)
		case 2:
			fam := pomdp.Must(fsc.NewStationary(nA, nO, nodes, fsc.Options{}))
			c = fam.At(rng.IntN(fam.Len()))
		case 3:
			fam := pomdp.Must(fsc.NewClock(nA, nO, nodes, T, fsc.Options{Limit: 1 << 40}))
			c = fam.At(rng.IntN(fam.Len()))
		}
		gamma := 0.5 + 0.5*rng.Float64()
		checks := []struct {
			name string
			obj  value.Objective
			want float64
		}{
			{"latent", value.LatentReward{}, bruteForce(m, c, T, 1, true, nil)},
			{"latent discounted", value.LatentReward{Discount: gamma}, bruteForce(m, c, T, gamma, true, nil)},
			{"trace", trace, bruteForce(m, c, T, 1, false, trace.F)},
			{"step", step, bruteForce(m, c, T, 1, false, value.AsTrace(step).Trace)},
			{"step as trace", value.AsTrace(step), bruteForce(m, c, T, 1, false, value.AsTrace(step).Trace)},
		}
		for _, ch := range checks {
			got, err := value.Evaluate(m, c, T, ch.obj)
			if err != nil {
				t.Fatalf("trial %d %s: %v", trial, ch.name, err)
			}
			if !(math.Abs(got-ch.want) <= 1e-12*math.Max(1, math.Abs(ch.want))) {
				t.Errorf("trial %d (|S|=%d |A|=%d |O|=%d T=%d %s): %s = %.15g, brute force %.15g",
					trial, nS, nA, nO, T, c, ch.name, got, ch.want)
			}
		}
	}
}

// TestObsRewardMatchesObsScore: the synthetic observation reward's latent
// value equals the observation score (both are Σ_t E[v(O_{t+1})]; hand
// derivation), on Tiger and GridWorld for every open-loop string at T = 3.
func TestObsRewardMatchesObsScore(t *testing.T) {
	for _, name := range []string{"tiger", "gridworld:3", "hallway:10"} {
		m := lookup(t, name)
		mr, err := value.WithObsReward(m)
		if err != nil {
			t.Fatal(err)
		}
		const T = 3
		fam := pomdp.Must(fsc.NewClock(m.NumActions(), m.NumObservations(), 1, T, fsc.Options{}))
		a := pomdp.Must(value.NewEvaluator(m, T, value.ObsScore(m.NumObservations()), value.Options{}))
		b := pomdp.Must(value.NewEvaluator(mr, T, value.LatentReward{}, value.Options{}))
		for i := 0; i < fam.Len(); i++ {
			va, err1 := a.Value(fam.At(i))
			vb, err2 := b.Value(fam.At(i))
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if !(math.Abs(va-vb) <= 1e-12) {
				t.Fatalf("%s controller %d: obs score %v, obs-reward latent value %v", name, i, va, vb)
			}
		}
	}
}

// TestHandValues checks single evaluations against hand computations.
func TestHandValues(t *testing.T) {
	tiger := lookup(t, "tiger")
	goal := lookup(t, "gridworld-goal:3")
	open := func(m *pomdp.Model, acts ...int) *fsc.FSC {
		return fsc.OpenLoop(m.NumActions(), m.NumObservations(), acts)
	}
	cases := []struct {
		name string
		m    *pomdp.Model
		c    *fsc.FSC
		T    int
		obj  value.Objective
		want float64
	}{
		// listen, open_left: −1 + (−100·½ + 10·½) = −46
		{"tiger L OL latent", tiger, open(tiger, 0, 1), 2, value.LatentReward{}, -46},
		// discounted: −1 + 0.9·(−45)
		{"tiger L OL γ=0.9", tiger, open(tiger, 0, 1), 2, value.LatentReward{Discount: 0.9}, -1 - 0.9*45},
		// every Tiger observation is R with probability ½: T/2
		{"tiger obs T=5", tiger, open(tiger, 0, 2, 1, 0, 0), 5, value.ObsScore(2), 2.5},
		// after open_left the observation is uniform: ½ chance it is R = pref⁻¹(open_left)
		{"tiger OL OL action+obs", tiger, open(tiger, 1, 1), 2, value.ActionObsScore(value.DefaultPref(tiger)), 1},
		// listen never equals a preferred action
		{"tiger L L action+obs", tiger, open(tiger, 0, 0), 2, value.ActionObsScore(value.DefaultPref(tiger)), 0},
		// goal 3×3, D then anything: 1/9 + (1/9)(1 + 0.8) = 0.3111…
		{"goal D U", goal, open(goal, 1, 0), 2, value.LatentReward{}, 1.0/9 + 1.8/9},
		{"goal T=0", goal, open(goal, 1), 0, value.LatentReward{}, 0},
	}
	for _, tc := range cases {
		got, err := value.Evaluate(tc.m, tc.c, tc.T, tc.obj)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !(math.Abs(got-tc.want) <= 1e-12) {
			t.Errorf("%s: %.15g, want %.15g", tc.name, got, tc.want)
		}
	}
}

// TestBestDeterministic: the search result is independent of the number
// of workers and matches a sequential scan.
func TestBestDeterministic(t *testing.T) {
	m := lookup(t, "gridworld:3")
	const T = 3
	fam := pomdp.Must(fsc.NewClock(m.NumActions(), m.NumObservations(), 1, T, fsc.Options{}))
	obj := value.ActionObsScore(value.DefaultPref(m))
	var ref value.Result
	for k, w := range []int{1, 2, 3, 7} {
		calls := 0
		res, err := value.Best(context.Background(), m, fam, T, obj, value.Options{Workers: w, KeepValues: true,
			Progress: func(done, total int) { calls++ }})
		if err != nil {
			t.Fatal(err)
		}
		if calls == 0 {
			t.Errorf("workers %d: progress never called", w)
		}
		if k == 0 {
			ref = res
			// sequential scan
			ev := pomdp.Must(value.NewEvaluator(m, T, obj, value.Options{}))
			bi, bv := -1, math.Inf(-1)
			for i := 0; i < fam.Len(); i++ {
				v := pomdp.Must(ev.Value(fam.At(i)))
				if v > bv+1e-9 {
					bi, bv = i, v
				}
			}
			if res.Index != bi || !(math.Abs(res.Value-bv) <= 1e-12) {
				t.Errorf("Best picked #%d (%v), sequential scan #%d (%v)", res.Index, res.Value, bi, bv)
			}
			continue
		}
		if res.Index != ref.Index || res.Value != ref.Value || res.Ties != ref.Ties {
			t.Errorf("workers %d: %v, workers 1: %v", w, res, ref)
		}
		for i := range res.Values {
			if res.Values[i] != ref.Values[i] {
				t.Fatalf("workers %d: value %d differs", w, i)
			}
		}
	}
}

func TestBestErrors(t *testing.T) {
	m := lookup(t, "tiger")
	ctx := context.Background()
	obs := value.ObsScore(2)
	// a list with a controller for the wrong model
	bad := &fsc.List{Ctrls: []*fsc.FSC{fsc.Constant(3, 2, 0), fsc.Constant(5, 4, 0)}}
	if _, err := value.Best(ctx, m, bad, 2, obs, value.Options{}); err == nil {
		t.Error("mismatched controller accepted")
	}
	// the family limit
	fam := pomdp.Must(fsc.NewClock(3, 2, 1, 6, fsc.Options{}))
	if _, err := value.Best(ctx, m, fam, 6, obs, value.Options{Limit: 100}); !errors.Is(err, value.ErrTooLarge) {
		t.Errorf("limit: got %v, want ErrTooLarge", err)
	}
	// a trace objective above the trace limit
	if _, err := value.Best(ctx, m, fam, 6, value.AsTrace(obs), value.Options{MaxTraces: 10}); !errors.Is(err, value.ErrTooLarge) {
		t.Errorf("trace limit: got %v, want ErrTooLarge", err)
	}
	// a clock-aware family shorter than the horizon
	if _, err := value.Best(ctx, m, fam, 7, obs, value.Options{}); err == nil {
		t.Error("6-stage controllers accepted for T = 7")
	}
	// cancellation
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := value.Best(cctx, m, fam, 6, obs, value.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
	// NaN values are reported
	nan := value.StepFunc{Label: "nan", F: func(t, a, o int) float64 { return math.NaN() }}
	if _, err := value.Best(ctx, m, fam, 6, nan, value.Options{}); err == nil {
		t.Error("NaN values accepted")
	}
	type unknown struct{ value.Objective }
	if _, err := value.Evaluate(m, fam.At(0), 6, unknown{obs}); err == nil {
		t.Error("objective of unknown form accepted")
	}
}

// TestRegret: a policy optimal on the quotient is judged on the original
// model; here the "quotient" is the model itself, so the regret of the
// selected controller is 0, and a bad controller's regret is the gap.
func TestRegret(t *testing.T) {
	m := lookup(t, "tiger")
	fam := pomdp.Must(fsc.NewClock(3, 2, 1, 2, fsc.Options{}))
	res := pomdp.Must(value.Best(context.Background(), m, fam, 2, value.LatentReward{}, value.Options{}))
	r0 := pomdp.Must(value.Regret(m, 2, value.LatentReward{}, res.Controller, res.Value))
	// open_left twice: 2·(−45) = −90, regret 88 (hand computation)
	r1 := pomdp.Must(value.Regret(m, 2, value.LatentReward{}, fsc.OpenLoop(3, 2, []int{1, 1}), res.Value))
	if !(r0 == 0 && math.Abs(r1-88) <= 1e-12 && math.Abs(res.Regret(-90)-88) <= 1e-12) {
		t.Errorf("regrets %v, %v; want 0, 88", r0, r1)
	}
}

func TestAbbrev(t *testing.T) {
	cases := []struct {
		names, want []string
	}{
		{[]string{"listen", "open_left", "open_right"}, []string{"L", "OL", "OR"}},           // paper, Tiger policies
		{[]string{"up", "down", "left", "right", "stay"}, []string{"U", "D", "L", "R", "S"}}, // paper, GridWorld policies
		{[]string{"probe_0", "do_nothing", "open-left"}, []string{"P0", "DN", "OL"}},
		{[]string{"look", "left", "x"}, []string{"look", "left", "X"}}, // collision keeps names
		{[]string{"__"}, []string{"__"}},
	}
	for _, tc := range cases {
		got := value.Abbrev(tc.names)
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("Abbrev(%q) = %q, want %q", tc.names, got, tc.want)
				break
			}
		}
	}
}

func TestObjectivesDefinitions(t *testing.T) {
	tiger, grid := lookup(t, "tiger"), lookup(t, "gridworld:3")
	// docs/benchmarks.md#trace-objectives: Tiger v = (0, 1); GridWorld (0, 1/3, 2/3, 1)
	for _, tc := range []struct {
		n    int
		want []float64
	}{{2, []float64{0, 1}}, {4, []float64{0, 1.0 / 3, 2.0 / 3, 1}}, {1, []float64{0}}} {
		v := value.ObsValues(tc.n)
		for i := range v {
			if !(math.Abs(v[i]-tc.want[i]) <= 1e-15) {
				t.Errorf("ObsValues(%d) = %v, want %v", tc.n, v, tc.want)
			}
		}
	}
	// docs/benchmarks.md#trace-objectives: Tiger pref(L) = open_right (2), pref(R) = open_left (1);
	// otherwise o mod |A|.
	for _, tc := range []struct {
		m    *pomdp.Model
		want []int
	}{{tiger, []int{2, 1}}, {grid, []int{0, 1, 2, 3}}, {lookup(t, "tiger-listen"), []int{0, 0}}} {
		got := value.DefaultPref(tc.m)
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("DefaultPref(%s) = %v, want %v", tc.m.Name, got, tc.want)
				break
			}
		}
	}
	// The synthetic reward of Tiger: listen in tiger_left gives R with
	// probability 0.15; opening gives ½ (hand computation).
	mr := pomdp.Must(value.WithObsReward(tiger))
	want := [][]float64{{0.15, 0.5, 0.5}, {0.85, 0.5, 0.5}}
	for s := range want {
		for a := range want[s] {
			if !(math.Abs(mr.R[s][a]-want[s][a]) <= 1e-15) {
				t.Errorf("obs reward R(%d,%d) = %v, want %v", s, a, mr.R[s][a], want[s][a])
			}
		}
	}
}

func TestRewardRangeAndBounds(t *testing.T) {
	// paper, def:obs-lipschitz and rem:lipschitz-small: Tiger L_R ≤ 110
	if got := value.RewardRange(lookup(t, "tiger")); got != 110 {
		t.Errorf("Tiger reward range %v, want 110", got)
	}
	if got := value.RewardRange(lookup(t, "gridworld-goal:3")); got != 1 {
		t.Errorf("goal reward range %v, want 1", got)
	}
	inf := math.Inf(1)
	cases := []struct {
		name      string
		got, want float64
	}{
		// thm:value-bound: L_R·T·ε
		{"Bound", value.Bound(1, 4, 0.25), 1},
		{"Bound Tiger", value.Bound(110, 2, 0.49), 107.8},
		// cor:sim-to-real: 2·L_R·T·ε
		{"RegretBound", value.RegretBound(1, 4, 0.25), 2},
		// thm:cross-family-transfer and cor:subset-cross-family-transfer
		{"TransferBound one gap", value.TransferBound(1, 2, 0.5, 0.49), 1.98},
		{"TransferBound two gaps", value.TransferBound(2, 3, 0.1, 0.2, 0.3), 3.6},
		{"TransferBound no gap", value.TransferBound(2, 3, 0.1), value.Bound(2, 3, 0.1)},
		{"infinite L_R", value.Bound(inf, 3, 0), inf},
	}
	for _, tc := range cases {
		if !(math.Abs(tc.got-tc.want) <= 1e-12 || tc.got == tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("negative ε accepted")
		}
	}()
	value.Bound(1, 2, -1)
}

// TestEstimateLipschitz checks the empirical L_R against hand computations.
func TestEstimateLipschitz(t *testing.T) {
	ctx := context.Background()
	// The synthetic observation reward of listen-only Tiger: R̄(h) is the
	// probability of hearing R next, which is the whole one-step suffix
	// law at depth T−1, so the ratio is exactly 1 there and ≤ 1 elsewhere
	// (paper def:obs-lipschitz: "has L_R = 1").
	listen := pomdp.Must(value.WithObsReward(lookup(t, "tiger-listen")))
	for _, T := range []int{2, 3, 4} {
		fam := pomdp.Must(fsc.NewClock(1, 2, 1, T, fsc.Options{}))
		l, err := value.EstimateLipschitz(ctx, listen, fam, T, value.LipschitzOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(l.LR-1) <= 1e-9) || l.Violations != 0 || l.Argmax.Depth != T-1 {
			t.Errorf("listen obs reward T=%d: %v (argmax %+v)", T, l, l.Argmax)
		}
	}
	// Tiger's reward under open-loop probes, T = 2: after listening once,
	// the probes (L, OL) and (L, OR) see identical suffix laws (uniform
	// after opening) while R̄ differs by |−83.5 − (−6.5)| = 77: no finite
	// L_R exists (hand computation).
	tiger := lookup(t, "tiger")
	fam := pomdp.Must(fsc.NewClock(3, 2, 1, 2, fsc.Options{}))
	l, err := value.EstimateLipschitz(ctx, tiger, fam, 2, value.LipschitzOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(l.LR, 1) || l.Violations != 2 || l.First != (value.PairRef{Probe: 1, Depth: 1, I: 0, J: 1}) ||
		!(math.Abs(l.FirstDeltaR-77) <= 1e-9) || l.RewardRange != 110 {
		t.Errorf("Tiger T=2: %v first %+v ΔR %v", l, l.First, l.FirstDeltaR)
	}
	// Independent of the number of workers.
	l1 := pomdp.Must(value.EstimateLipschitz(ctx, tiger, pomdp.Must(fsc.NewClock(3, 2, 1, 3, fsc.Options{})), 3, value.LipschitzOptions{Workers: 1}))
	l2 := pomdp.Must(value.EstimateLipschitz(ctx, tiger, pomdp.Must(fsc.NewClock(3, 2, 1, 3, fsc.Options{})), 3, value.LipschitzOptions{Workers: 2}))
	if l1.Finite != l2.Finite || l1.Argmax != l2.Argmax || l1.Violations != l2.Violations || l1.First != l2.First {
		t.Errorf("workers 1: %v %+v; workers 2: %v %+v", l1, l1.Argmax, l2, l2.Argmax)
	}
}

// TestWitnessObjective evaluates the stationary witness's planning
// objective (docs/benchmarks.md#stationary-witness: 1 when the actions of stages 2–3 are (A, B)
// and the last observation is X), a non-additive G ∈ G_obs. Hand
// computation: only the strings (·, A, B) score, and then exactly when
// the start state is p_L, so V = ½ for them and 0 otherwise; the first
// optimal string in enumeration order is "A A B".
func TestWitnessObjective(t *testing.T) {
	m := lookup(t, "witness")
	A, B, X := m.ActionIndex("A"), m.ActionIndex("B"), m.ObsIndex("X")
	obj := value.TraceFunc{Label: "witness", F: func(obs, acts []int) float64 {
		if acts[1] == A && acts[2] == B && obs[2] == X {
			return 1
		}
		return 0
	}}
	const T = 3
	fam := pomdp.Must(fsc.NewClock(m.NumActions(), m.NumObservations(), 1, T, fsc.Options{}))
	res, err := value.Best(context.Background(), m, fam, T, obj, value.Options{KeepValues: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range res.Values {
		c := fam.At(i)
		want := 0.0
		if c.Action(1, 0) == A && c.Action(2, 0) == B {
			want = 0.5
		}
		if !(math.Abs(v-want) <= 1e-15) {
			t.Errorf("%s: %v, want %v", value.Policy(m, c, T), v, want)
		}
	}
	if res.Policy != "A A B" || res.Ties != 2 {
		t.Errorf("best %v", res)
	}
	// The stochastic one-node controller with α = (½, ½) plays (·, A, B)
	// with probability ¼: V = ⅛.
	v, err := value.Evaluate(m, fsc.Mixed(m.NumObservations(), []float64{0.5, 0.5}), T, obj)
	if err != nil || !(math.Abs(v-0.125) <= 1e-15) {
		t.Errorf("mixed controller: %v, %v; want 0.125", v, err)
	}
}

// TestLipschitzGridObsReward: the synthetic observation reward satisfies
// L_R ≤ Lip(v) (rem:lipschitz-small), and the bound is attained on
// GridWorld 3×3 with the m ≤ 2 stationary family at T = 2: 1 under the
// discrete metric, 4/3 under the geometric one (v(SE) − v(NE) = 2/3 at
// d = 1/2; hand computation), whatever the number of workers.
func TestLipschitzGridObsReward(t *testing.T) {
	b, err := bench.Lookup("gridworld:3")
	if err != nil {
		t.Fatal(err)
	}
	mr := pomdp.Must(value.WithObsReward(b.Model))
	fam := pomdp.Must(fsc.NewStationary(5, 4, 2, fsc.Options{}))
	for _, tc := range []struct {
		name   string
		ground ot.Ground
		want   float64
	}{{"discrete", nil, 1}, {"geometric", b.Ground, 4.0 / 3}} {
		var ref value.Lipschitz
		for _, w := range []int{1, 2} {
			l, err := value.EstimateLipschitz(context.Background(), mr, fam, 2, value.LipschitzOptions{Ground: tc.ground, Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			if !(math.Abs(l.LR-tc.want) <= 1e-9) || l.Violations != 0 {
				t.Errorf("%s, %d workers: %v, want L_R = %v", tc.name, w, l, tc.want)
			}
			if w == 1 {
				ref = l
			} else if l.Finite != ref.Finite || l.Argmax != ref.Argmax || l.Pairs != ref.Pairs {
				t.Errorf("%s: 2 workers %v %+v, 1 worker %v %+v", tc.name, l, l.Argmax, ref, ref.Argmax)
			}
		}
	}
}
