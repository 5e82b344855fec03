package law

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/internal/randmodel"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

func tigerListen(acc float64) *pomdp.Model {
	return pomdp.Must(pomdp.New(pomdp.Dense{
		Name:   "tiger-listen",
		States: []string{"tiger_left", "tiger_right"}, Actions: []string{"listen"}, Observations: []string{"L", "R"},
		T: [][][]float64{{{1, 0}, {0, 1}}},
		Z: [][][]float64{{{acc, 1 - acc}, {1 - acc, acc}}},
	}))
}

// witness is the stationary witness of prop:stationary-counterexample,
// written out here independently of package bench.
func witness() *pomdp.Model {
	S := []string{"p_L", "p_R", "x_0", "y_0", "x_1", "y_1", "d_U", "d_X", "d_Y"}
	O := []string{"L", "R", "U", "X", "Y"}
	idx := func(s string) int { return pomdp.Index(S, s) }
	T := make([][][]float64, 2)
	Z := make([][][]float64, 2)
	for a := range T {
		T[a] = make([][]float64, 9)
		Z[a] = make([][]float64, 9)
		for s := range T[a] {
			T[a][s] = make([]float64, 9)
			Z[a][s] = make([]float64, 5)
		}
	}
	set := func(a int, from, to string) { T[a][idx(from)][idx(to)] = 1 }
	for a := 0; a < 2; a++ {
		set(a, "p_L", "x_0")
		set(a, "p_R", "y_0")
		set(a, "d_U", "d_U")
		set(a, "d_X", "d_U")
		set(a, "d_Y", "d_U")
	}
	set(0, "x_0", "x_1")
	set(0, "y_0", "y_1")
	set(1, "x_0", "d_U")
	set(1, "y_0", "d_U")
	set(0, "x_1", "d_U")
	set(0, "y_1", "d_U")
	set(1, "x_1", "d_X")
	set(1, "y_1", "d_Y")
	emit := map[string]int{"x_0": 0, "y_0": 1, "x_1": 2, "y_1": 2, "d_U": 2, "d_X": 3, "d_Y": 4, "p_L": 2, "p_R": 2}
	for a := 0; a < 2; a++ {
		for s, name := range S {
			Z[a][s][emit[name]] = 1
		}
	}
	b0 := make([]float64, 9)
	b0[0], b0[1] = 0.5, 0.5
	return pomdp.Must(pomdp.New(pomdp.Dense{Name: "witness", States: S, Actions: []string{"A", "B"}, Observations: O, T: T, Z: Z, B0: b0}))
}

func TestTigerListenWorkedExample(t *testing.T) {
	// Paper app:examples: after L, P(L | L) = 0.745; after R, 0.255.
	m := tigerListen(0.85)
	l, err := Compute(m, fsc.Constant(1, 2, 0), 2, UniformStandIn)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		t, i int
		want []float64
	}{
		{1, 0, []float64{0.745, 0.255}},
		{1, 1, []float64{0.255, 0.745}},
		{0, 0, []float64{0.5 * (0.85*0.85 + 0.15*0.15), 0.5 * 2 * 0.85 * 0.15, 0.5 * 2 * 0.85 * 0.15, 0.5 * (0.85*0.85 + 0.15*0.15)}},
		{2, 3, []float64{1}},
	}
	for _, tc := range tests {
		got := l.Suffix(tc.t, tc.i)
		for k := range tc.want {
			if !(math.Abs(got[k]-tc.want[k]) <= 1e-12) {
				t.Errorf("law(%s)[%d] = %v, want %v", l.Tree.Label(m.Observations, tc.t, tc.i), k, got[k], tc.want[k])
			}
		}
	}
	if l.StandIns != 0 {
		t.Errorf("StandIns = %d, want 0 for Tiger", l.StandIns)
	}
}

func TestStationaryWitnessLaws(t *testing.T) {
	// docs/conventions.md#checked-numbers: the α(A) = α(B) = ½ controller gives {UU: ¾, UX: ¼}
	// after L and {UU: ¾, UY: ¼} after R; deterministic ones agree.
	m := witness()
	const T = 3
	U, X, Y := 2, 3, 4
	l, err := Compute(m, fsc.Mixed(5, []float64{0.5, 0.5}), T, UniformStandIn)
	if err != nil {
		t.Fatal(err)
	}
	afterL, afterR := l.Suffix(1, 0), l.Suffix(1, 1)
	check := func(name string, law []float64, x, y int, want float64) {
		if got := law[x*5+y]; !(math.Abs(got-want) <= 1e-12) {
			t.Errorf("%s[%d%d] = %v, want %v", name, x, y, got, want)
		}
	}
	check("after L", afterL, U, U, 0.75)
	check("after L", afterL, U, X, 0.25)
	check("after R", afterR, U, U, 0.75)
	check("after R", afterR, U, Y, 0.25)
	for a := 0; a < 2; a++ {
		l, err := Compute(m, fsc.Constant(2, 5, a), T, UniformStandIn)
		if err != nil {
			t.Fatal(err)
		}
		for k, p := range l.Suffix(1, 0) {
			if q := l.Suffix(1, 1)[k]; !(math.Abs(p-q) <= 1e-12) {
				t.Errorf("constant action %d: laws after L and R differ at %d: %v vs %v", a, k, p, q)
			}
		}
	}
}

// randomModel draws a dense model with some zero entries so that some
// histories are impossible.
func randomModel(rng *rand.Rand, nS, nA, nO int) *pomdp.Model {
	row := randmodel.Sparse(rng, 0.3)
	d := randmodel.Dense("random", nS, nA, nO, row)
	d.B0 = row(nS)
	return pomdp.Must(pomdp.New(d))
}

// oracle computes P(x) for a full sequence x by a dense forward pass over
// (state, node) from a given joint at stage t0, independently of the DFS.
func oracle(m *pomdp.Model, c *fsc.FSC, t0 int, joint [][]float64, x []int) float64 {
	nS := m.NumStates()
	cur := joint
	for k, o := range x {
		tau := t0 + k
		next := make([][]float64, c.Nodes)
		for n := range next {
			next[n] = make([]float64, nS)
		}
		for n := 0; n < c.Nodes; n++ {
			for s := 0; s < nS; s++ {
				if cur[n][s] == 0 {
					continue
				}
				for a := 0; a < m.NumActions(); a++ {
					pa := c.ActionProb(tau, n, a)
					for s2 := 0; s2 < nS; s2++ {
						p := cur[n][s] * pa * m.TransitionProb(s, a, s2) * m.ObsProb(s2, a, o)
						if p == 0 {
							continue
						}
						for n2 := 0; n2 < c.Nodes; n2++ {
							next[n2][s2] += p * c.NextProbOf(tau, n, o, n2)
						}
					}
				}
			}
		}
		cur = next
	}
	s := 0.0
	for _, r := range cur {
		for _, v := range r {
			s += v
		}
	}
	return s
}

func TestAgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 40; trial++ {
		nS, nA, nO := 1+rng.IntN(4), 1+rng.IntN(3), 1+rng.IntN(3)
		T := 1 + rng.IntN(3)
		m := randomModel(rng, nS, nA, nO)
		var c *fsc.FSC
		switch trial % 4 {
		case 0:
			f, _ := fsc.NewStationary(nA, nO, 2, fsc.Options{})
			c = f.At(rng.IntN(f.Len()))
		case 1:
			f, _ := fsc.NewClock(nA, nO, 2, T, fsc.Options{})
			c = f.At(rng.IntN(f.Len()))
		case 2:
			c = fsc.Random(rng, nA, nO, 2, 0)
		case 3:
			c = fsc.Random(rng, nA, nO, 2, T)
		}
		for _, conv := range []Convention{UniformStandIn, PointMassStandIn} {
			l, err := Compute(m, c, T, conv)
			if err != nil {
				t.Fatal(err)
			}
			tr := l.Tree
			standIns := 0
			for d := 0; d <= T; d++ {
				for i := 0; i < tr.Count(d); i++ {
					h := tr.History(d, i)
					root := [][]float64{append([]float64(nil), m.B0...)}
					for n := 1; n < c.Nodes; n++ {
						root = append(root, make([]float64, nS))
					}
					ph := 0.0
					probs := make([]float64, tr.SuffixLen(d))
					for y := range probs {
						x := append(append([]int(nil), h...), tr.History(T-d, y)...)
						probs[y] = oracle(m, c, 0, root, x)
						ph += probs[y]
					}
					want := make([]float64, len(probs))
					if ph > 0 {
						for y := range want {
							want[y] = probs[y] / ph
						}
					} else {
						standIns++
						if conv == PointMassStandIn {
							want[0] = 1
						} else {
							u := make([][]float64, c.Nodes)
							for n := range u {
								u[n] = make([]float64, nS)
								for s := range u[n] {
									u[n][s] = 1 / float64(nS*c.Nodes)
								}
							}
							for y := range want {
								want[y] = oracle(m, c, d, u, tr.History(T-d, y))
							}
						}
					}
					got := l.Suffix(d, i)
					for y := range want {
						if !(math.Abs(got[y]-want[y]) <= 1e-9) {
							t.Fatalf("trial %d (%s, %v): law(%v)[%d] = %v, want %v", trial, conv, c, h, y, got[y], want[y])
						}
					}
				}
			}
			if l.StandIns != standIns {
				t.Fatalf("trial %d: StandIns = %d, want %d", trial, l.StandIns, standIns)
			}
		}
	}
}

func TestCheckRejects(t *testing.T) {
	m := tigerListen(0.85)
	e, err := NewEngine(m, 3, UniformStandIn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Compute(fsc.Constant(3, 2, 0)); err == nil {
		t.Error("controller with the wrong action count accepted")
	}
	if _, err := e.Compute(fsc.OpenLoop(1, 2, []int{0, 0})); err == nil {
		t.Error("clock-aware controller with too few stages accepted")
	}
	if _, err := NewTree(21, 40); err == nil {
		t.Error("huge history tree accepted")
	}
}

func TestActionTreeDedup(t *testing.T) {
	// An m = 2 controller whose second node is unreachable behaves like m = 1.
	f, _ := fsc.NewStationary(3, 2, 2, fsc.Options{})
	tr, _ := NewTree(2, 3)
	keys := map[string]bool{}
	for i := 0; i < f.Len(); i++ {
		keys[string(ActionTree(nil, f.At(i), tr))] = true
	}
	if len(keys) >= f.Len() || len(keys) < 3 {
		t.Fatalf("%d distinct action trees among %d controllers", len(keys), f.Len())
	}
	c0 := f.At(0)
	c1 := &fsc.FSC{Nodes: 2, NumActions: 3, NumObs: 2, Act: [][]int{{0, 2}}, Next: [][][]int{{{0, 0}, {1, 1}}}}
	if string(ActionTree(nil, c0, tr)) != string(ActionTree(nil, c1, tr)) {
		t.Fatal("unreachable second node changed the action tree")
	}
}

func TestComputeIntoNoAllocs(t *testing.T) {
	m := tigerListen(0.85)
	e, _ := NewEngine(m, 6, UniformStandIn)
	l := e.NewLaws()
	c := fsc.Constant(1, 2, 0)
	if err := e.ComputeInto(l, c); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(20, func() { e.computeUnchecked(l, c) })
	if allocs != 0 {
		t.Fatalf("computeUnchecked allocates %v times per run", allocs)
	}
}

// TestStandInOncePerDepth checks that the stand-in law of impossible
// histories, which depends on the controller and the depth only, is
// computed once per depth (RockSample-size models paid a propagation over
// every state per impossible history), and that every impossible history
// still gets the law a fresh computation gives, bit for bit.
func TestStandInOncePerDepth(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 30 {
		// The stationary witness: deterministic observations, so most
		// histories are impossible under a given controller.
		m := witness()
		nA, nO := m.NumActions(), m.NumObservations()
		T := 2 + rng.IntN(3)
		c := fsc.Random(rng, nA, nO, 1+rng.IntN(2), 0)
		for _, conv := range []Convention{UniformStandIn, PointMassStandIn} {
			e, err := NewEngine(m, T, conv)
			if err != nil {
				t.Fatal(err)
			}
			l := e.NewLaws()
			if err := e.ComputeInto(l, c); err != nil {
				t.Fatal(err)
			}
			depths := 0
			for d := 0; d <= T; d++ {
				seen := false
				for i := range l.Tree.Count(d) {
					if !l.StandIn(d, i) {
						continue
					}
					if !seen && conv == UniformStandIn && d < T {
						depths++
					}
					seen = true
					want := make([]float64, l.Tree.SuffixLen(d))
					runs := e.standInRuns
					e.standIn(want, c, d)
					e.standInRuns = runs
					for k, v := range l.Suffix(d, i) {
						if math.Float64bits(v) != math.Float64bits(want[k]) {
							t.Fatalf("trial %d %v depth %d history %d: stand-in law[%d] = %v, fresh %v", trial, conv, d, i, k, v, want[k])
						}
					}
				}
			}
			if e.standInRuns > depths {
				t.Errorf("trial %d %v: %d stand-in propagations for %d depths with impossible histories", trial, conv, e.standInRuns, depths)
			}
		}
	}
}
