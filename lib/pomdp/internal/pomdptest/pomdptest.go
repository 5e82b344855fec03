// Package pomdptest holds what the tests of package pomdp's format
// packages share: exact and approximate model comparisons, expected models
// written out by hand, the lists of classic and twin files with their
// sizes, and small documents of every format. It is imported by tests only.
package pomdptest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// A SharedFile is a classic file (beside the repository, in the
// third-party models folder the tests read) with the sizes |S|/|A|/|O|
// its header declares (as the third-party files' own notes list them,
// checked there with an independent reader).
type SharedFile struct {
	File       string
	NS, NA, NO int
}

// SharedFiles lists the classic files with the sizes |S|/|A|/|O| their
// headers declare (as the third-party files' own notes list them,
// checked there with an independent reader).
var SharedFiles = []SharedFile{
	{"tiger.95.POMDP", 2, 3, 2},
	{"Tiger.pomdp", 2, 3, 2},
	{"4x3.95.POMDP", 11, 4, 6},
	{"cheese.95.POMDP", 11, 4, 7},
	{"shuttle.95.POMDP", 8, 3, 5},
	{"parr95.95.POMDP", 7, 3, 6},
	{"1d.POMDP", 4, 2, 2},
	{"concert.POMDP", 2, 3, 2},
	{"ejs1.POMDP", 3, 4, 2},
	{"ejs2.POMDP", 2, 2, 2},
	{"ejs3.POMDP", 2, 2, 2},
	{"bridge-repair.POMDP", 5, 12, 5},
	{"aloha-10max.POMDP", 30, 9, 3},
	{"hallway.POMDP", 60, 5, 21},
	{"mini-hall2.POMDP", 13, 3, 9},
	{"network.POMDP", 7, 4, 2},
	{"paint.95.POMDP", 4, 4, 2},
	{"tiger-grid.POMDP", 36, 5, 17},
}

// SameModel reports the first difference between two models, comparing
// every number exactly (names, discount, b0, ground metric, T, Z, R).
func SameModel(got, want *pomdp.Model) error {
	for _, l := range []struct {
		field     string
		got, want []string
	}{{"states", got.States, want.States}, {"actions", got.Actions, want.Actions}, {"observations", got.Observations, want.Observations}} {
		if !slices.Equal(l.got, l.want) {
			return fmt.Errorf("%s: got %q, want %q", l.field, l.got, l.want)
		}
	}
	if got.HasDiscount != want.HasDiscount || got.Discount != want.Discount {
		return fmt.Errorf("discount: got %v (%v), want %v (%v)", got.Discount, got.HasDiscount, want.Discount, want.HasDiscount)
	}
	if !slices.Equal(got.B0, want.B0) {
		return fmt.Errorf("b0: got %v, want %v", got.B0, want.B0)
	}
	if err := SameGround(got.Ground, want.Ground); err != nil {
		return err
	}
	nS := len(want.States)
	for a := range want.Actions {
		for s := 0; s < nS; s++ {
			g, w := pomdp.SparseKernel(got.T[a]), pomdp.SparseKernel(want.T[a])
			gc, gv := g.Row(s)
			wc, wv := w.Row(s)
			if !slices.Equal(gc, wc) || !slices.Equal(gv, wv) {
				return fmt.Errorf("T row (a=%d, s=%d): got %v %v, want %v %v", a, s, gc, gv, wc, wv)
			}
			gc, gv = got.Z[a].Row(s)
			wc, wv = want.Z[a].Row(s)
			if !slices.Equal(gc, wc) || !slices.Equal(gv, wv) {
				return fmt.Errorf("Z row (a=%d, s'=%d): got %v %v, want %v %v", a, s, gc, gv, wc, wv)
			}
			if got.R[s][a] != want.R[s][a] {
				return fmt.Errorf("R(s=%d, a=%d): got %v, want %v", s, a, got.R[s][a], want.R[s][a])
			}
		}
	}
	return SameRewardTable(got.Rewards, want.Rewards)
}

// SameRewardTable reports the first difference between two reward tables.
func SameRewardTable(got, want *pomdp.RewardTable) error {
	if (got == nil) != (want == nil) {
		return fmt.Errorf("reward table: got %d entries (nil %v), want %d (nil %v)", got.NumEntries(), got == nil, want.NumEntries(), want == nil)
	}
	if got == nil {
		return nil
	}
	if !slices.Equal(got.Pairs, want.Pairs) || !slices.Equal(got.Ptr, want.Ptr) {
		return fmt.Errorf("reward table pairs: got %v %v, want %v %v", got.Pairs, got.Ptr, want.Pairs, want.Ptr)
	}
	if !slices.Equal(got.Next, want.Next) || !slices.Equal(got.Obs, want.Obs) || !slices.Equal(got.Val, want.Val) {
		return fmt.Errorf("reward table entries: got %v %v %v, want %v %v %v", got.Next, got.Obs, got.Val, want.Next, want.Obs, want.Val)
	}
	return nil
}

// ShallowCopy returns a new Model sharing m's exported fields.
func ShallowCopy(m *pomdp.Model) *pomdp.Model {
	return &pomdp.Model{Name: m.Name, States: m.States, Actions: m.Actions, Observations: m.Observations,
		Discount: m.Discount, HasDiscount: m.HasDiscount, T: m.T, Z: m.Z, R: m.R, Rewards: m.Rewards, B0: m.B0, Ground: m.Ground}
}

// DenseWant is a compact expected model for the grammar tests.
type DenseWant struct {
	States, Actions, Obs []string
	T, Z                 [][][]float64 // [a][s][s'], [a][s'][o]
	R                    [][]float64   // [s][a]
	B0                   []float64
	Discount             float64
}

// CheckDense checks m against want: names, discount, b0, T, Z and R
// within tol.
func CheckDense(t *testing.T, m *pomdp.Model, want DenseWant, tol float64) {
	t.Helper()
	if !slices.Equal(m.States, want.States) || !slices.Equal(m.Actions, want.Actions) || !slices.Equal(m.Observations, want.Obs) {
		t.Fatalf("names %q %q %q, want %q %q %q", m.States, m.Actions, m.Observations, want.States, want.Actions, want.Obs)
	}
	if !(math.Abs(m.Discount-want.Discount) <= tol) || !m.HasDiscount {
		t.Errorf("discount %v (%v), want %v", m.Discount, m.HasDiscount, want.Discount)
	}
	for s, p := range want.B0 {
		if !(math.Abs(m.B0[s]-p) <= tol) {
			t.Errorf("b0 = %v, want %v", m.B0, want.B0)
			break
		}
	}
	for a := range want.Actions {
		for s := range want.States {
			for s2, p := range want.T[a][s] {
				if got := m.TransitionProb(s, a, s2); !(math.Abs(got-p) <= tol) {
					t.Errorf("T(%d, %d, %d) = %v, want %v", s, a, s2, got, p)
				}
			}
			for o, p := range want.Z[a][s] {
				if got := m.ObsProb(s, a, o); !(math.Abs(got-p) <= tol) {
					t.Errorf("Z(%d, %d, %d) = %v, want %v", s, a, o, got, p)
				}
			}
			if want.R != nil {
				if got := m.R[s][a]; !(math.Abs(got-want.R[s][a]) <= tol) {
					t.Errorf("R(%d, %d) = %v, want %v", s, a, got, want.R[s][a])
				}
			}
		}
	}
}

// SyntheticModel returns a reproducible sparse model: each T row has 4
// successors, each Z row 3 observations, rewards on every (s, a).
func SyntheticModel(nS, nA, nO int) *pomdp.Model {
	rng := rand.New(rand.NewPCG(7, uint64(nS)))
	names := func(prefix string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s%d", prefix, i)
		}
		return out
	}
	m := &pomdp.Model{Name: "synthetic", States: names("s", nS), Actions: names("a", nA), Observations: names("o", nO),
		Discount: 0.95, HasDiscount: true, B0: pomdp.Uniform(nS)}
	for a := 0; a < nA; a++ {
		t, z := pomdp.NewTriplets(nS, nS), pomdp.NewTriplets(nS, nO)
		for s := 0; s < nS; s++ {
			for k := 0; k < 4; k++ {
				t.Add(s, rng.IntN(nS), 0.25)
			}
			for k := 0; k < 3; k++ {
				z.Add(s, rng.IntN(nO), 1.0/3)
			}
		}
		m.T = append(m.T, t.Sparse())
		m.Z = append(m.Z, z.Sparse())
	}
	m.R = make([][]float64, nS)
	for s := range m.R {
		m.R[s] = make([]float64, nA)
		for a := range m.R[s] {
			m.R[s][a] = math.Round(rng.NormFloat64()*100) / 10
		}
	}
	return m
}

// TigerDense is the Tiger problem as written in tiger.95.POMDP (Cassandra,
// Kaelbling & Littman 1994): listening is 85% accurate, opening resets.
func TigerDense() pomdp.Dense {
	u := [][]float64{{0.5, 0.5}, {0.5, 0.5}}
	return pomdp.Dense{
		Name:         "tiger",
		States:       []string{"tiger-left", "tiger-right"},
		Actions:      []string{"listen", "open-left", "open-right"},
		Observations: []string{"tiger-left", "tiger-right"},
		T:            [][][]float64{{{1, 0}, {0, 1}}, u, u},
		Z:            [][][]float64{{{0.85, 0.15}, {0.15, 0.85}}, u, u},
		R:            [][]float64{{-1, -100, 10}, {-1, 10, -100}},
		B0:           []float64{0.5, 0.5},
		Discount:     0.95, HasDiscount: true,
	}
}

// CloseModel is SameModel with a tolerance on the numbers.
func CloseModel(got, want *pomdp.Model, tol float64) error {
	if !slices.Equal(got.States, want.States) || !slices.Equal(got.Actions, want.Actions) || !slices.Equal(got.Observations, want.Observations) {
		return fmt.Errorf("names: got %q %q %q, want %q %q %q", got.States, got.Actions, got.Observations, want.States, want.Actions, want.Observations)
	}
	if got.HasDiscount != want.HasDiscount || got.Discount != want.Discount {
		return fmt.Errorf("discount: got %v, want %v", got.Discount, want.Discount)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= tol }
	for s := range want.States {
		if !near(got.B0[s], want.B0[s]) {
			return fmt.Errorf("b0(%s): got %v, want %v", want.States[s], got.B0[s], want.B0[s])
		}
		for a := range want.Actions {
			if !near(got.R[s][a], want.R[s][a]) {
				return fmt.Errorf("R(%s, %s): got %v, want %v", want.States[s], want.Actions[a], got.R[s][a], want.R[s][a])
			}
			for s2 := range want.States {
				if g, w := got.TransitionProb(s, a, s2), want.TransitionProb(s, a, s2); !near(g, w) {
					return fmt.Errorf("T(%s, %s, %s): got %v, want %v", want.States[s], want.Actions[a], want.States[s2], g, w)
				}
			}
			for o := range want.Observations {
				if g, w := got.ObsProb(s, a, o), want.ObsProb(s, a, o); !near(g, w) {
					return fmt.Errorf("Z(%s, %s, %s): got %v, want %v", want.States[s], want.Actions[a], want.Observations[o], g, w)
				}
			}
		}
	}
	return nil
}

// SameGround reports a difference between two ground metrics, comparing
// the entries bit for bit.
func SameGround(got, want *pomdp.Ground) error {
	switch {
	case got == nil && want == nil:
		return nil
	case got == nil || want == nil:
		return fmt.Errorf("ground: got %v, want %v", got, want)
	case got.Name != want.Name:
		return fmt.Errorf("ground name: got %q, want %q", got.Name, want.Name)
	case len(got.D) != len(want.D):
		return fmt.Errorf("ground: got %d points, want %d", len(got.D), len(want.D))
	}
	for i := range want.D {
		for j := range want.D[i] {
			if len(got.D[i]) != len(want.D[i]) || math.Float64bits(got.D[i][j]) != math.Float64bits(want.D[i][j]) {
				return fmt.Errorf("ground d(%d,%d): got %v, want %v", i, j, got.D[i], want.D[i])
			}
		}
	}
	return nil
}

// DetailPOMDP is a hand-written model whose reward depends on the next state and the
// observation, in both formats. Two states left/right, actions stay/go,
// observations beep/quiet; stay keeps the state, go from left moves right
// with 0.75, from right with 0.5; every state beeps with 0.8 (left) or 0.4
// (right). The rewards, later statements overriding earlier ones:
//
//	-1 everywhere; 5 for go arriving right; 7 for go from left arriving
//	right with a beep; 2 for stay in right with quiet.
const DetailPOMDP = `discount: 0.9
values: reward
states: left right
actions: stay go
observations: beep quiet
start: uniform
T: stay identity
T: go : left 0.25 0.75
T: go : right 0.5 0.5
O: * : left 0.8 0.2
O: * : right 0.4 0.6
R: * : * : * : * -1
R: go : * : right : * 5
R: go : left : right : beep 7
R: stay : right : * : quiet 2
`

// DetailPOMDPX is DetailPOMDP in the POMDPX format.
var DetailPOMDPX = `<?xml version="1.0"?>
<pomdpx version="1.0">
<Discount>0.9</Discount>
<Variable>
<StateVar vnamePrev="s_0" vnameCurr="s_1"><ValueEnum>left right</ValueEnum></StateVar>
<ObsVar vname="o"><ValueEnum>beep quiet</ValueEnum></ObsVar>
<ActionVar vname="act"><ValueEnum>stay go</ValueEnum></ActionVar>
<RewardVar vname="r"/>
</Variable>
<InitialStateBelief>
` + PXCondProb("s_0", "null", "-|uniform") + `</InitialStateBelief>
<StateTransitionFunction>
` + PXCondProb("s_1", "act s_0", "stay - -|identity", "go - -|0.25 0.75 0.5 0.5") + `</StateTransitionFunction>
<ObsFunction>
` + PXCondProb("o", "act s_1", "* - -|0.8 0.2 0.4 0.6") + `</ObsFunction>
<RewardFunction>
` + PXFunc("r", "act s_0 s_1 o", "* * * *|-1", "go * right *|5", "go left right beep|7", "stay right * quiet|2") + `</RewardFunction>
</pomdpx>
`

// PXCondProb writes a CondProb (or, with table "ValueTable", a Func) whose
// entries are "instance|table" pairs.
func PXCondProb(v, parents string, entries ...string) string {
	return pxTable("CondProb", "ProbTable", v, parents, entries)
}

// PXFunc writes a Func with a ValueTable, as PXCondProb writes a CondProb.
func PXFunc(v, parents string, entries ...string) string {
	return pxTable("Func", "ValueTable", v, parents, entries)
}

func pxTable(elem, tab, v, parents string, entries []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<%s><Var>%s</Var><Parent>%s</Parent><Parameter type=\"TBL\">\n", elem, v, parents)
	for _, e := range entries {
		inst, val, _ := strings.Cut(e, "|")
		fmt.Fprintf(&b, "<Entry><Instance>%s</Instance><%s>%s</%s></Entry>\n", inst, tab, val, tab)
	}
	fmt.Fprintf(&b, "</Parameter></%s>\n", elem)
	return b.String()
}

// A TwinFile is one of the files TwinFiles lists.
type TwinFile struct {
	File     string
	Features string // what of the classic files it exercises
	Want     DenseWant
	Tol      float64
}

// TwinFiles are this project's own classic-style model files
// (testdata/twins), each exercising what one or more of the third-party
// classic files exercise, with the model every entry of which is derived
// by hand from the file's text (or, for Tiger, from its published
// definition). They are the in-repository twins of
// TestReadCassandraSharedFiles and TestReadCassandraSharedValues.
var TwinFiles = []TwinFile{
	{
		// Kaelbling, Littman & Cassandra (1998): listen −1 and hear the
		// correct side with 0.85; open the tiger's door −100, the other +10;
		// opening resets the tiger uniformly. γ = 0.95 (tiger.95).
		File:     "tiger.POMDP",
		Features: "tiger.95: identity and uniform, full observation matrix, single rewards, .POMDP extension",
		Want: DenseWant{States: []string{"tiger-left", "tiger-right"}, Actions: []string{"listen", "open-left", "open-right"},
			Obs: []string{"tiger-left", "tiger-right"},
			T:   [][][]float64{{{1, 0}, {0, 1}}, {{0.5, 0.5}, {0.5, 0.5}}, {{0.5, 0.5}, {0.5, 0.5}}},
			Z:   [][][]float64{{{0.85, 0.15}, {0.15, 0.85}}, {{0.5, 0.5}, {0.5, 0.5}}, {{0.5, 0.5}, {0.5, 0.5}}},
			R:   [][]float64{{-1, -100, 10}, {-1, 10, -100}}, B0: []float64{0.5, 0.5}, Discount: 0.95},
	},
	{
		// R: * : * : goal : seen 1.0 and Z(goal, ·, seen) = 0.9, so
		// R(s, a) = 0.9·T(s, a, goal): go-west from goal 0.9·0.25 = 0.225,
		// from east 0.9·0.8 = 0.72; go-east from middle 0.9·0.5 = 0.45, from
		// goal 0.225. No start line: uniform.
		File:     "corridor.POMDP",
		Features: "1d, hallway: rewards on (end state, observation); network: no start; a matrix across lines; O row form without a colon",
		Want: DenseWant{States: []string{"west", "middle", "goal", "east"}, Actions: []string{"go-west", "go-east"},
			Obs: []string{"nothing", "seen"},
			T: [][][]float64{
				{{1, 0, 0, 0}, {1, 0, 0, 0}, {0.25, 0.25, 0.25, 0.25}, {0, 0, 0.8, 0.2}},
				{{0.2, 0.8, 0, 0}, {0, 0, 0.5, 0.5}, {0.25, 0.25, 0.25, 0.25}, {0, 0, 0, 1}}},
			Z: [][][]float64{
				{{1, 0}, {1, 0}, {0.1, 0.9}, {1, 0}},
				{{1, 0}, {1, 0}, {0.1, 0.9}, {1, 0}}},
			R:  [][]float64{{0, 0}, {0, 0.45}, {0.225, 0.225}, {0.72, 0}},
			B0: []float64{0.25, 0.25, 0.25, 0.25}, Discount: 0.75},
		Tol: 1e-15,
	},
	{
		// Costs negated; state 1 is worn, 2 broken; the fix row of broken
		// (0.333333 three times) and the start (0.333337 + 2·0.333333 =
		// 1.000003) are renormalised.
		File:     "repair.POMDP",
		Features: "bridge-repair: values: cost, discount 1.0; concert: named states by number; mini-hall2: six-decimal rows renormalised",
		Want: DenseWant{States: []string{"ok", "worn", "broken"}, Actions: []string{"wait", "fix"}, Obs: []string{"quiet", "noisy"},
			T: [][][]float64{
				{{0.6, 0.3, 0.1}, {0, 0.7, 0.3}, {0, 0, 1}},
				{{1, 0, 0}, {1, 0, 0}, {1.0 / 3, 1.0 / 3, 1.0 / 3}}},
			Z: [][][]float64{
				{{0.9, 0.1}, {0.5, 0.5}, {0.1, 0.9}},
				{{0.9, 0.1}, {0.5, 0.5}, {0.1, 0.9}}},
			R:  [][]float64{{0, -4}, {-1, -4}, {-3, -10}},
			B0: []float64{0.333337 / 1.000003, 0.333333 / 1.000003, 0.333333 / 1.000003}, Discount: 1},
		Tol: 1e-15,
	},
	{
		// b moves lo-A to hi-B (its two later lines override the wildcard
		// line); the second b reward line overrides the first.
		File:     "parr.POMDP",
		Features: "parr95: start include with a name, a wildcard action over named states; later lines override",
		Want: DenseWant{States: []string{"I", "lo-A", "lo-B", "hi-A", "hi-B"}, Actions: []string{"a", "b"},
			Obs: []string{"left", "right", "none"},
			T: [][][]float64{
				{{0, 0.5, 0.5, 0, 0}, {0, 0, 0, 1, 0}, {0, 0, 0, 0, 1}, {1, 0, 0, 0, 0}, {1, 0, 0, 0, 0}},
				{{0, 0.5, 0.5, 0, 0}, {0, 0, 0, 0, 1}, {0, 0, 0, 0, 1}, {1, 0, 0, 0, 0}, {1, 0, 0, 0, 0}}},
			Z: [][][]float64{
				{{0, 0, 1}, {0.75, 0.25, 0}, {0.25, 0.75, 0}, {0, 0, 1}, {0, 0, 1}},
				{{0, 0, 1}, {0.75, 0.25, 0}, {0.25, 0.75, 0}, {0, 0, 1}, {0, 0, 1}}},
			R:  [][]float64{{0, 0}, {0, 0}, {0, 0}, {1, 0}, {0, 2}},
			B0: []float64{1, 0, 0, 0, 0}, Discount: 0.95},
	},
}
