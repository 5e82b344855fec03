package policy

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/randmodel"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/value"
)

// randomModel draws a small discounted model with some zero entries in T,
// Z and b0 and rewards in [−1, 1].
func randomModel(rng *rand.Rand, nS, nA, nO int, gamma float64) *pomdp.Model {
	row := func(n int) []float64 {
		p := make([]float64, n)
		s := 0.0
		for i := range p {
			if rng.IntN(3) > 0 || i == 0 {
				p[i] = rng.Float64()
			}
			s += p[i]
		}
		for i := range p {
			p[i] /= s
		}
		return p
	}
	d := randmodel.Dense("random", nS, nA, nO, row)
	d.Discount, d.HasDiscount = gamma, true
	d.R = make([][]float64, nS)
	for s := range d.R {
		for a := 0; a < nA; a++ {
			d.R[s] = append(d.R[s], 2*rng.Float64()-1)
		}
	}
	d.B0 = row(nS)
	return pomdp.Must(pomdp.New(d))
}

// randomGraph draws a deterministic stationary controller with n nodes.
func randomGraph(rng *rand.Rand, nA, nO, n int) *fsc.FSC {
	c := &fsc.FSC{Nodes: n, NumActions: nA, NumObs: nO, Act: [][]int{make([]int, n)}, Next: [][][]int{make([][]int, n)}}
	for i := 0; i < n; i++ {
		c.Act[0][i] = rng.IntN(nA)
		c.Next[0][i] = make([]int, nO)
		for o := range c.Next[0][i] {
			c.Next[0][i][o] = rng.IntN(n)
		}
	}
	return c
}

// randomClock draws a deterministic clock-aware controller.
func randomClock(rng *rand.Rand, nA, nO, n, T int) *fsc.FSC {
	c := &fsc.FSC{Nodes: n, Stages: T, NumActions: nA, NumObs: nO}
	for tau := 0; tau < T; tau++ {
		g := randomGraph(rng, nA, nO, n)
		c.Act = append(c.Act, g.Act[0])
		if tau < T-1 {
			c.Next = append(c.Next, g.Next[0])
		}
	}
	return c
}

// bruteValue enumerates every trajectory (states, actions, observations,
// nodes) of T steps from start node n and b0 and sums probability times
// discounted reward: the definition, with no recursion shared with
// Evaluate.
func bruteValue(m *pomdp.Model, c *fsc.FSC, T, n int, gamma float64) float64 {
	var rec func(t, s, node int, p, disc float64) float64
	rec = func(t, s, node int, p, disc float64) float64 {
		if t == T || p == 0 {
			return 0
		}
		v := 0.0
		for a := 0; a < m.NumActions(); a++ {
			pa := c.ActionProb(t, node, a)
			if pa == 0 {
				continue
			}
			v += p * pa * disc * m.R[s][a]
			if t+1 == T {
				continue
			}
			for s2 := 0; s2 < m.NumStates(); s2++ {
				pt := m.TransitionProb(s, a, s2)
				for o := 0; o < m.NumObservations(); o++ {
					pz := m.ObsProb(s2, a, o)
					for n2 := 0; n2 < c.Nodes; n2++ {
						if pb := c.NextProbOf(t, node, o, n2); pb > 0 && pt*pz > 0 {
							v += rec(t+1, s2, n2, p*pa*pt*pz*pb, disc*gamma)
						}
					}
				}
			}
		}
		return v
	}
	v := 0.0
	for s, p := range m.B0 {
		v += rec(0, s, n, p, 1)
	}
	return v
}

// TestEvaluateFinite: the backward recursion against brute-force
// enumeration (every start node) and against value.Evaluate's forward
// pass (start node 0), on random models and controllers: deterministic,
// stochastic, stationary and clock-aware.
func TestEvaluateFinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 30; trial++ {
		nS, nA, nO, n, T := 1+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(4)
		gamma := []float64{0.9, 0.5, 1}[trial%3]
		m := randomModel(rng, nS, nA, nO, gamma)
		ctrls := map[string]*fsc.FSC{
			"graph":      randomGraph(rng, nA, nO, n),
			"stochastic": fsc.Random(rng, nA, nO, n, 0),
			"clock":      fsc.Random(rng, nA, nO, n, T),
			"det clock":  randomClock(rng, nA, nO, n, T),
		}
		for name, c := range ctrls {
			ev, err := Evaluate(m, c, T)
			if err != nil {
				t.Fatalf("trial %d %s: %v", trial, name, err)
			}
			if ev.Discount != gamma || ev.Horizon != T || ev.Nodes != n {
				t.Fatalf("trial %d %s: evaluation %v", trial, name, ev)
			}
			for start := 0; start < n; start++ {
				want := bruteValue(m, c, T, start, gamma)
				if !(math.Abs(ev.Start[start]-want) <= 1e-9) {
					t.Errorf("trial %d %s start %d: %.12g, brute force %.12g", trial, name, start, ev.Start[start], want)
				}
			}
			want, err := value.Evaluate(m, c, T, value.LatentReward{Discount: gamma})
			if err != nil {
				t.Fatal(err)
			}
			if !(math.Abs(ev.Start[0]-want) <= 1e-9) {
				t.Errorf("trial %d %s: node 0 %.12g, value.Evaluate %.12g", trial, name, ev.Start[0], want)
			}
			best := math.Inf(-1)
			for _, v := range ev.Start {
				best = math.Max(best, v)
			}
			if ev.Value != best || ev.Start[ev.StartNode] != best {
				t.Errorf("trial %d %s: value %v from node %d, best start %v", trial, name, ev.Value, ev.StartNode, best)
			}
		}
	}
}

// TestEvaluateDiscounted: the linear solve against backward recursion
// over a long horizon, which differs by at most γ^T·max|R|/(1−γ).
func TestEvaluateDiscounted(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20; trial++ {
		nS, nA, nO, n := 1+rng.IntN(4), 1+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(5)
		gamma := 0.5 + 0.4*rng.Float64()
		m := randomModel(rng, nS, nA, nO, gamma)
		for name, c := range map[string]*fsc.FSC{"graph": randomGraph(rng, nA, nO, n), "stochastic": fsc.Random(rng, nA, nO, n, 0)} {
			inf, err := Evaluate(m, c, 0)
			if err != nil {
				t.Fatal(err)
			}
			const T = 400
			fin, err := Evaluate(m, c, T)
			if err != nil {
				t.Fatal(err)
			}
			it, err := EvaluateContext(t.Context(), m, c, 0, Options{MaxPairs: 1, Tol: 1e-11})
			if err != nil {
				t.Fatal(err)
			}
			if inf.Method != "dense LU" || it.Method != "value iteration" || !(it.Bound <= 1e-11*math.Max(1, maxAbs(it.V))) || it.Sweeps < 1 {
				t.Errorf("trial %d %s: methods %q and %q, bound %g after %d sweeps", trial, name, inf.Method, it.Method, it.Bound, it.Sweeps)
			}
			for k := 0; k < n; k++ {
				for s := 0; s < nS; s++ {
					if !(math.Abs(inf.V[k][s]-it.V[k][s]) <= it.Bound+1e-12) {
						t.Errorf("trial %d %s: V[%d][%d] = %.15g by LU, %.15g by iteration (bound %g)", trial, name, k, s, inf.V[k][s], it.V[k][s], it.Bound)
					}
				}
			}
			tol := math.Pow(gamma, T)/(1-gamma) + 1e-9
			for k := 0; k < n; k++ {
				for s := 0; s < nS; s++ {
					if !(math.Abs(inf.V[k][s]-fin.V[k][s]) <= tol) {
						t.Errorf("trial %d %s: V[%d][%d] = %.12g, horizon %d gives %.12g", trial, name, k, s, inf.V[k][s], T, fin.V[k][s])
					}
				}
			}
			if inf.Horizon != 0 || inf.StartNode != fin.StartNode && math.Abs(inf.Start[fin.StartNode]-inf.Value) > 1e-9 {
				t.Errorf("trial %d %s: start node %d, the long horizon's %d", trial, name, inf.StartNode, fin.StartNode)
			}
		}
	}
}

func maxAbs(V [][]float64) float64 {
	x := 0.0
	for _, row := range V {
		for _, v := range row {
			x = math.Max(x, math.Abs(v))
		}
	}
	return x
}

// TestEvaluatePartial: graphs with "-" entries on random models with zero
// entries: dense LU and value iteration agree on which pairs are NaN and
// on the values of the others, and the finite-horizon values of the pairs
// that are not NaN converge to them.
func TestEvaluatePartial(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	nan := 0
	for trial := 0; trial < 60; trial++ {
		nS, nA, nO, n := 1+rng.IntN(4), 1+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(5)
		m := randomModel(rng, nS, nA, nO, 0.8)
		c := randomPartialGraph(rng, nA, nO, n)
		dense, err1 := Evaluate(m, c, 0)
		iter, err2 := EvaluateContext(t.Context(), m, c, 0, Options{MaxPairs: 1})
		fin, err3 := Evaluate(m, c, 200)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("trial %d: errors %v and %v", trial, err1, err2)
		}
		if err1 != nil {
			var me *MissingError
			if !errors.As(err1, &me) || !errors.As(err2, &me) {
				t.Fatalf("trial %d: errors %v and %v, want *MissingError", trial, err1, err2)
			}
			continue
		}
		if err3 != nil {
			t.Fatalf("trial %d: %v", trial, err3)
		}
		for k := 0; k < n; k++ {
			for s := 0; s < nS; s++ {
				a, b, f := dense.V[k][s], iter.V[k][s], fin.V[k][s]
				if math.IsNaN(a) != math.IsNaN(b) {
					t.Fatalf("trial %d: V[%d][%d] = %v by LU, %v by iteration", trial, k, s, a, b)
				}
				if math.IsNaN(a) {
					nan++
					continue
				}
				if !(math.Abs(a-b) <= iter.Bound+1e-12) || !(math.Abs(a-f) <= 1e-9) {
					t.Fatalf("trial %d: V[%d][%d] = %v by LU, %v by iteration, %v over 200 steps", trial, k, s, a, b, f)
				}
			}
		}
	}
	if nan == 0 {
		t.Error("no pair reached a \"-\": the test checks nothing")
	}
}

// oneState is a model with one state, one action of reward 1 and two
// observations of which only the first occurs.
func oneState(t *testing.T) *pomdp.Model {
	t.Helper()
	return pomdp.Must(pomdp.New(pomdp.Dense{Name: "one", States: []string{"s"}, Actions: []string{"a"}, Observations: []string{"seen", "never"},
		T: [][][]float64{{{1}}}, Z: [][][]float64{{{1, 0}}}, R: [][]float64{{1}}, Discount: 0.5, HasDiscount: true}))
}

// TestEvaluateMissing: "-" on an observation of probability 0 is fine; on
// one reached with positive probability it makes the start node NaN, and
// an error names the node and observation when every start node reaches
// one.
func TestEvaluateMissing(t *testing.T) {
	m := oneState(t)
	read := func(src string) *fsc.FSC {
		c, err := ReadPG(strings.NewReader(src), "m.pg", m)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, T := range []int{0, 3} {
		want := 2.0 // 1/(1−γ)
		if T == 3 {
			want = 1.75
		}
		ev, err := Evaluate(m, read("0 0  0 -\n"), T)
		if err != nil {
			t.Fatalf("T=%d: %v", T, err)
		}
		if !(math.Abs(ev.Value-want) <= 1e-12) {
			t.Errorf("T=%d: value %v, want %v", T, ev.Value, want)
		}
		ev, err = Evaluate(m, read("0 0  - 1\n1 0  1 1\n"), T)
		if err != nil {
			t.Fatalf("T=%d: %v", T, err)
		}
		if ev.StartNode != 1 || !math.IsNaN(ev.Start[0]) || !(math.Abs(ev.Value-want) <= 1e-12) {
			t.Errorf("T=%d: %v, starts %v", T, ev, ev.Start)
		}
		_, err = Evaluate(m, read("0 0  1 0\n1 0  - 0\n"), T)
		var me *MissingError
		if !errors.As(err, &me) || me.Node != 1 || me.ObsName != "seen" || me.Stage != 1 {
			t.Errorf("T=%d: error %v, want a *MissingError at node 1, observation seen, stage 1", T, err)
		}
	}
	// The last stage's successors are never used.
	if _, err := Evaluate(m, read("0 0  - 0\n"), 1); err != nil {
		t.Errorf("horizon 1: %v", err)
	}
}

func TestEvaluateErrors(t *testing.T) {
	m := tiger95(t)
	c, err := ReadPG(strings.NewReader(counterPG), "counter.pg", m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := EvaluateContext(t.Context(), m, c, 0, Options{MaxBytes: 1000}); err == nil ||
		!strings.Contains(err.Error(), "evaluating 5 nodes × 2 states needs about 1.844 KiB, above the budget of 1000 B; the largest term is the chain over 10 (node, state) pairs with up to 28 transitions (1.062 KiB)") {
		t.Errorf("MaxBytes: error %v", err)
	}
	if _, err := Evaluate(m, c, -1); err == nil {
		t.Error("negative horizon accepted")
	}
	if _, err := Evaluate(m, fsc.OpenLoop(3, 2, []int{0, 0}), 3); err == nil {
		t.Error("clock-aware controller evaluated beyond its stages")
	}
	if _, err := Evaluate(m, fsc.Constant(2, 2, 0), 2); err == nil {
		t.Error("controller with the wrong action count accepted")
	}
	und := oneState(t)
	und.HasDiscount = false
	if _, err := Evaluate(und, fsc.Constant(1, 2, 0), 0); err == nil || !strings.Contains(err.Error(), "needs a discount") {
		t.Errorf("infinite horizon without a discount: %v", err)
	}
}

// TestEvaluateProgress: the finite-horizon recursion reports every stage
// (it used to report nothing, however long T), deterministic and
// stochastic controllers alike; value iteration reports its sweeps.
func TestEvaluateProgress(t *testing.T) {
	m := tiger95(t)
	c, err := ReadPG(strings.NewReader(counterPG), "counter.pg", m)
	if err != nil {
		t.Fatal(err)
	}
	for _, ctrl := range []*fsc.FSC{c, fsc.Mixed(2, []float64{0.5, 0.25, 0.25})} {
		var calls [][2]int
		opt := Options{Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }}
		if _, err := EvaluateContext(context.Background(), m, ctrl, 7, opt); err != nil {
			t.Fatal(err)
		}
		if len(calls) != 7 || calls[0] != [2]int{1, 7} || calls[6] != [2]int{7, 7} {
			t.Errorf("%v: progress calls %v, want (1, 7) … (7, 7)", ctrl, calls)
		}
	}
	var sweeps []int
	opt := Options{MaxPairs: 1, Progress: func(done, total int) { sweeps = append(sweeps, done) }}
	ev, err := EvaluateContext(context.Background(), m, c, 0, opt)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Method != "value iteration" || len(sweeps) != ev.Sweeps || sweeps[len(sweeps)-1] != ev.Sweeps {
		t.Errorf("value iteration: %d sweeps, progress %v", ev.Sweeps, sweeps)
	}
}
