package wrap_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/wrap"
)

// must stops a test on an error (a panic fails the test with the message).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func lookup(t testing.TB, name string) bench.Benchmark {
	t.Helper()
	return must(bench.Lookup(name))
}

func gridMerge(t testing.TB) *wrap.Channel {
	groups, names := bench.GridCoarsening()
	return must(wrap.Merge(groups, names, bench.GridGround()))
}

// flip is the symmetric binary channel with flip probability p.
func flip(t testing.TB, p float64) *wrap.Channel {
	return must(wrap.NewChannel([][]float64{{1 - p, p}, {p, 1 - p}}, []string{"L", "R"}, nil))
}

// gridNoise reports the true quadrant with 1 − p, each adjacent one with p/2.
func gridNoise(t testing.TB, p float64) *wrap.Channel {
	g := bench.GridGround()
	rows := make([][]float64, 4)
	for o := range rows {
		rows[o] = make([]float64, 4)
		for o2 := range rows[o] {
			if o == o2 {
				rows[o][o2] = 1 - p
			} else if g[o][o2] == 0.5 {
				rows[o][o2] = p / 2
			}
		}
	}
	return must(wrap.NewChannel(rows, []string{"NW", "NE", "SW", "SE"}, g))
}

func TestNewChannelErrors(t *testing.T) {
	tests := []struct {
		name  string
		p     [][]float64
		names []string
		g     ot.Ground
		want  string
	}{
		{"no inputs", nil, []string{"a"}, nil, "no input"},
		{"no outputs", [][]float64{{1}}, nil, nil, "no output"},
		{"repeated name", [][]float64{{1, 0}}, []string{"a", "a"}, nil, "repeated"},
		{"short row", [][]float64{{1}}, []string{"a", "b"}, nil, "entries"},
		{"negative", [][]float64{{1.5, -0.5}}, []string{"a", "b"}, nil, "not a probability"},
		{"NaN", [][]float64{{math.NaN(), 1}}, []string{"a", "b"}, nil, "not a probability"},
		{"sum", [][]float64{{0.5, 0.4}}, []string{"a", "b"}, nil, "sums to"},
		{"metric size", [][]float64{{1, 0}}, []string{"a", "b"}, ot.Discrete(3), "metric"},
	}
	for _, tc := range tests {
		_, err := wrap.NewChannel(tc.p, tc.names, tc.g)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// The North/South merge reproduces bench.GridWorldCoarse (its own
// construction) entry for entry, metric included.
func TestMergeMatchesBench(t *testing.T) {
	for _, n := range []int{3, 5} {
		b := must(bench.GridWorld(n))
		want := must(bench.GridWorldCoarse(n))
		w := gridMerge(t)
		got := must(w.Apply(b.Model))
		for a := range got.Z {
			if g, wz := got.Z[a].Dense(), want.Model.Z[a].Dense(); !equalRows(g, wz, 0) {
				t.Fatalf("n = %d, action %d: Z = %v, bench gives %v", n, a, g, wz)
			}
		}
		if !equalRows(w.Ground, want.Ground, 0) {
			t.Errorf("merge metric %v, bench %v", w.Ground, want.Ground)
		}
		if g, ok := w.Groups(); !ok || len(g) != 2 {
			t.Errorf("Groups = %v, %v", g, ok)
		}
	}
}

func equalRows(a, b [][]float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if !(math.Abs(a[i][j]-b[i][j]) <= tol) {
				return false
			}
		}
	}
	return true
}

func TestLipschitz(t *testing.T) {
	line := ot.Ground{{0, 0.9, 1.1, 2}, {0.9, 0, 0.2, 1.1}, {1.1, 0.2, 0, 0.9}, {2, 1.1, 0.9, 0}}
	far := must(wrap.Quantize(line, []string{"a", "b", "c", "d"}, []int{0, 3}))
	tests := []struct {
		name string
		c    *wrap.Channel
		from ot.Ground
		want float64
		tol  float64
	}{
		// hand computation: W1((1−p, p), (p, 1−p)) = |1 − 2p| under the discrete metric
		{"flip 0.1", flip(t, 0.1), nil, 0.8, 1e-12},
		{"flip 0.3", flip(t, 0.3), nil, 0.4, 1e-12},
		{"flip 0.5", flip(t, 0.5), nil, 0, 1e-12},
		// the merge is 1-Lipschitz onto the quotient metric (bench.CoarsenGround)
		{"grid merge", gridMerge(t), bench.GridGround(), 1, 1e-12},
		// b, c at distance 0.2 are sent to 0 and 2: 2/0.2
		{"quantizer onto {0, 2}", far.Channel, line, 10, 1e-9},
	}
	for _, tc := range tests {
		L, o1, o2, err := tc.c.Lipschitz(tc.from)
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(L-tc.want) <= tc.tol) {
			t.Errorf("%s: L_C = %v (pair %d,%d), want %v", tc.name, L, o1, o2, tc.want)
		}
	}
	// A pseudometric that identifies two inputs the channel separates.
	zero := ot.Ground{{0, 0}, {0, 0}}
	if L, _, _, _ := flip(t, 0.1).Lipschitz(zero); !math.IsInf(L, 1) {
		t.Errorf("L_C with a zero input distance = %v, want +Inf", L)
	}
}

// The law of W(M) under π' is the pushforward of the law of M under the
// pullback of π' (proof of thm:data-processing) when the channel is
// deterministic or π' has one node; checked for random stochastic
// controllers, stationary and clock-aware. With a stochastic channel and a
// controller with memory the identity fails: the pullback reacts to its own
// draw õ ~ C(o), not to the observation that is pushed forward.
func TestPullbackPushforward(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0))
	cases := []struct {
		model string
		w     wrap.Wrapper
		T     int
	}{
		{"tiger", wrap.Wrapper{Obs: flip(t, 0.2)}, 3},
		{"gridworld:3", wrap.Wrapper{Obs: gridMerge(t)}, 3},
		{"gridworld:3", wrap.Wrapper{Obs: gridNoise(t, 0.3)}, 2},
	}
	for _, c := range cases {
		b := lookup(t, c.model)
		wm := must(c.w.Apply(b.Model))
		nA, nO2 := wm.NumActions(), wm.NumObservations()
		_, det := c.w.Obs.Groups()
		memoryGap := 0.0
		for k := 0; k < 8; k++ {
			stages := 0
			if k%2 == 1 {
				stages = c.T
			}
			nodes := 1 + k%3
			pi := fsc.Random(rng, nA, nO2, nodes, stages)
			pb := must(c.w.Pullback(pi))
			lw := must(law.Compute(wm, pi, c.T, law.UniformStandIn)).Trajectory()
			lm := must(law.Compute(b.Model, pb, c.T, law.UniformStandIn)).Trajectory()
			push := make([]float64, len(lw))
			c.w.Obs.Push(push, lm, c.T)
			gap := 0.0
			for x := range lw {
				gap = math.Max(gap, math.Abs(lw[x]-push[x]))
			}
			if det || nodes == 1 {
				if !(gap <= 1e-12) {
					t.Fatalf("%s %v: max_x |P_W(M)(x) − C#P_M(x)| = %v", c.model, pi, gap)
				}
			} else {
				memoryGap = math.Max(memoryGap, gap)
			}
		}
		if !det && !(memoryGap > 1e-6) {
			t.Errorf("%s, stochastic channel: memory probes match the pushforward (gap %v); expected a mismatch", c.model, memoryGap)
		}
	}
}

// A deterministic channel and controller pull back to a deterministic
// controller reading the merged observation.
func TestPullbackDeterministic(t *testing.T) {
	w := wrap.Wrapper{Obs: gridMerge(t)}
	pi := &fsc.FSC{Nodes: 2, NumActions: 5, NumObs: 2, Act: [][]int{{0, 3}}, Next: [][][]int{{{1, 0}, {0, 1}}}}
	pb := must(w.Pullback(pi))
	if !pb.Deterministic() || pb.NumObs != 4 {
		t.Fatalf("pullback %v is not a deterministic 4-observation controller", pb)
	}
	// NW, NE → North (0), SW, SE → South (1)
	want := [][]int{{1, 1, 0, 0}, {0, 0, 1, 1}}
	for n := range 2 {
		for o := range 4 {
			if got := pb.NextNode(0, n, o); got != want[n][o] {
				t.Errorf("β(%d, %d) = %d, want %d", n, o, got, want[n][o])
			}
		}
	}
	if _, err := w.Pullback(fsc.Constant(5, 4, 0)); err == nil {
		t.Error("a controller on the original observations was accepted")
	}
}

// W1(C#P, C#Q) ≤ L_C · W1(P, Q) on random laws over O^k (the contraction
// at the heart of thm:data-processing), with a check that can fail: the
// inequality is violated with L_C replaced by L_C/2 for some pair.
func TestPushContraction(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1))
	for _, c := range []struct {
		ch   *wrap.Channel
		from ot.Ground
	}{{gridNoise(t, 0.4), bench.GridGround()}, {gridMerge(t), bench.GridGround()}, {flip(t, 0.25), ot.Discrete(2)}} {
		L, _, _, err := c.ch.Lipschitz(c.from)
		if err != nil {
			t.Fatal(err)
		}
		const k = 2
		n := 1
		for range k {
			n *= c.ch.Inputs()
		}
		halfViolated := false
		for range 50 {
			p, q := randomLaw(rng, n), randomLaw(rng, n)
			w := must(ot.SeqW1(c.from, k, p, q))
			cp := make([]float64, pow(c.ch.Outputs(), k))
			cq := make([]float64, len(cp))
			c.ch.Push(cp, p, k)
			c.ch.Push(cq, q, k)
			wc := must(ot.SeqW1(c.ch.Ground, k, cp, cq))
			if !(wc <= L*w+1e-12) {
				t.Fatalf("W1(C#P, C#Q) = %v > L_C·W1(P, Q) = %v·%v", wc, L, w)
			}
			if wc > L/2*w+1e-9 {
				halfViolated = true
			}
		}
		if L > 0 && !halfViolated {
			t.Errorf("channel %v: L_C/2 was never violated; the check could not fail", c.ch.Names)
		}
	}
}

func pow(b, e int) int {
	r := 1
	for range e {
		r *= b
	}
	return r
}

func randomLaw(rng *rand.Rand, n int) []float64 {
	p := make([]float64, n)
	s := 0.0
	for i := range p {
		p[i] = rng.ExpFloat64()
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

// An action remapping that mixes actions with different observation
// kernels is applied by augmenting the state; constant a' on W(M) then has
// the observation law and latent value of the mixed controller g(·|a') on M.
func TestActionMap(t *testing.T) {
	b := lookup(t, "tiger")
	g := must(wrap.NewActionMap([][]float64{{1, 0, 0}, {0.6, 0.2, 0.2}}, []string{"listen", "mostly-listen"}))
	w := wrap.Wrapper{Actions: g}
	wm := must(w.Apply(b.Model))
	if wm.NumStates() != 2*3 {
		t.Fatalf("augmented model has %d states, want 6", wm.NumStates())
	}
	const T = 4
	for a2, row := range g.P {
		c := fsc.Constant(2, 2, a2)
		lw := must(law.Compute(wm, c, T, law.UniformStandIn)).Trajectory()
		lm := must(law.Compute(b.Model, fsc.Mixed(2, row), T, law.UniformStandIn)).Trajectory()
		for x := range lw {
			if !(math.Abs(lw[x]-lm[x]) <= 1e-12) {
				t.Fatalf("a' = %d, x = %d: %v vs %v", a2, x, lw[x], lm[x])
			}
		}
	}
	// Deterministic selection keeps the state space and shares kernels.
	sel := must(wrap.SelectActions(3, []int{2, 0}, []string{"open_right", "listen"}))
	sm := must(wrap.Wrapper{Actions: sel}.Apply(b.Model))
	if sm.NumStates() != 2 || sm.T[1] != b.Model.T[0] || sm.R[0][0] != b.Model.R[0][2] {
		t.Errorf("selection: %d states, shared kernel %v, R %v", sm.NumStates(), sm.T[1] == b.Model.T[0], sm.R[0])
	}
	if _, err := wrap.SelectActions(3, []int{3}, nil); err == nil {
		t.Error("action 3 of 3 accepted")
	}
	// Mixing actions that share Z needs no augmentation.
	mix := must(wrap.NewActionMap([][]float64{{0, 0.5, 0.5}}, []string{"open-any"}))
	mm := must(wrap.Wrapper{Actions: mix}.Apply(b.Model))
	if mm.NumStates() != 2 {
		t.Errorf("mixing the two opens augmented the state (%d states)", mm.NumStates())
	}
	if !(math.Abs(mm.R[0][0]-(-45)) <= 1e-12) {
		t.Errorf("R(tiger_left, open-any) = %v, want ½(−100 + 10) = −45", mm.R[0][0])
	}
}

func TestApplySizeError(t *testing.T) {
	b := lookup(t, "tiger")
	if _, err := gridMerge(t).Apply(b.Model); err == nil || !strings.Contains(err.Error(), "inputs") {
		t.Errorf("a 4-input channel on Tiger: %v", err)
	}
	var m *pomdp.Model = b.Model
	if _, err := (wrap.Wrapper{Actions: must(wrap.SelectActions(2, []int{0}, nil))}).Apply(m); err == nil {
		t.Error("an action map over 2 actions applied to Tiger's 3")
	}
}
