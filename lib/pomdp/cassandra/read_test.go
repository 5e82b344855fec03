package cassandra

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/pomdptest"
)

func roundTripCassandra(t *testing.T, m *pomdp.Model, opts ...pomdp.ReadOption) *pomdp.Model {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		t.Fatalf("Write: %v", err)
	}
	back, err := Read(&buf, "roundtrip.pomdp", opts...)
	if err != nil {
		t.Fatalf("reading back the written file: %v\n%s", err, buf.String())
	}
	return back
}

// TestReadCassandraSharedFiles reads the classic files (third-party,
// beside the repository): the sizes their headers declare, a discount,
// Validate, and an exact write→read round trip. Every file that should
// parse must. Twin: TestReadCassandraTwinFiles.
func TestReadCassandraSharedFiles(t *testing.T) {
	for _, tc := range pomdptest.SharedFiles {
		t.Run(tc.File, func(t *testing.T) {
			m, err := loadFile(shared.Path(t, "TestReadCassandraTwinFiles", "pomdp", tc.File))
			if err != nil {
				t.Fatal(err)
			}
			checkClassicFile(t, m, tc.NS, tc.NA, tc.NO)
		})
	}
}

// checkClassicFile checks what every classic file must satisfy: the sizes
// its header declares, a discount, Validate, and an exact write→read round
// trip.
func checkClassicFile(t *testing.T, m *pomdp.Model, nS, nA, nO int) {
	t.Helper()
	if m.NumStates() != nS || m.NumActions() != nA || m.NumObservations() != nO {
		t.Fatalf("sizes %d/%d/%d, want %d/%d/%d", m.NumStates(), m.NumActions(), m.NumObservations(), nS, nA, nO)
	}
	if !m.HasDiscount {
		t.Errorf("HasDiscount false, want true")
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	back := roundTripCassandra(t, m)
	if err := pomdptest.SameModel(back, m); err != nil {
		t.Errorf("write→read round trip: %v", err)
	}
	if back.Name != "roundtrip" {
		t.Errorf("Name = %q, want roundtrip", back.Name)
	}
}

// TestReadCassandraSharedValues checks entries of the classic files
// (third-party, beside the repository) against the numbers written in them
// (hand-read from each file). Twin: TestReadCassandraTwinFiles.
func TestReadCassandraSharedValues(t *testing.T) {
	load := func(name string) *pomdp.Model {
		t.Helper()
		m, err := loadFile(shared.Path(t, "TestReadCassandraTwinFiles", "pomdp", name))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	type entry struct {
		what string
		got  float64
		want float64
	}
	tiger := load("tiger.95.POMDP")
	parr := load("parr95.95.POMDP")
	oneD := load("1d.POMDP")
	concert := load("concert.POMDP")
	bridge := load("bridge-repair.POMDP")
	network := load("network.POMDP")
	mini := load("mini-hall2.POMDP")
	hall := load("hallway.POMDP")
	s := func(m *pomdp.Model, n string) int { return m.StateIndex(n) }
	a := func(m *pomdp.Model, n string) int { return m.ActionIndex(n) }
	sum := func(v []float64) float64 {
		x := 0.0
		for _, p := range v {
			x += p
		}
		return x
	}
	// hallway: "R: * : * : 56 : * 1" and friends, so R(s, a) is the
	// probability of arriving in the goal states 56..59.
	hallR := func(s, a int) float64 {
		p := 0.0
		hall.T[a].Entries(s, func(j int, v float64) {
			if j >= 56 {
				p += v
			}
		})
		return p
	}
	cases := []entry{
		{"tiger: discount", tiger.Discount, 0.95},
		{"tiger: Z(tiger-left, listen, tiger-left)", tiger.ObsProb(0, 0, 0), 0.85},
		{"tiger: T(tiger-left, open-left, tiger-right) (uniform)", tiger.TransitionProb(0, 1, 1), 0.5},
		{"tiger: T(tiger-left, listen, tiger-left) (identity)", tiger.TransitionProb(0, 0, 0), 1},
		{"tiger: R(tiger-left, open-left)", tiger.R[0][1], -100},
		{"tiger: R(tiger-right, open-left)", tiger.R[1][1], 10},
		{"tiger: R(tiger-right, listen)", tiger.R[1][0], -1},
		{"parr95: start include: I", parr.B0[s(parr, "I")], 1},
		{"parr95: T(I, b, lo-A) from T : * : I : lo-A 0.5", parr.TransitionProb(s(parr, "I"), a(parr, "b"), s(parr, "lo-A")), 0.5},
		// 1d: R: * : * : goal : goal 1.0, Z(goal, ·, goal) = 1, so R(s, a) = T(s, a, goal).
		{"1d: R(right, w0)", oneD.R[s(oneD, "right")][a(oneD, "w0")], 1},
		{"1d: R(middle, e0)", oneD.R[s(oneD, "middle")][a(oneD, "e0")], 1},
		{"1d: R(left, e0)", oneD.R[s(oneD, "left")][a(oneD, "e0")], 0},
		{"1d: R(goal, w0)", oneD.R[s(oneD, "goal")][a(oneD, "w0")], 0},
		// concert: "R: radio : 1 : *: * -4" names state 1 (bored) by number.
		{"concert: R(bored, radio)", concert.R[1][a(concert, "radio")], -4},
		{"concert: R(interested, radio)", concert.R[0][a(concert, "radio")], 0},
		{"concert: R(interested, tv)", concert.R[0][a(concert, "tv")], -10},
		{"concert: discount 1", concert.Discount, 1},
		{"bridge-repair: discount 1.0", bridge.Discount, 1},
		{"network: start commented out, uniform", network.B0[3], 1.0 / 7},
		{"mini-hall2: start renormalised", sum(mini.B0), 1},
		{"mini-hall2: start entry 0 (0.083337 / 1.000000)", mini.B0[0], 0.083337 / (0.083337 + 11*0.083333)},
		{"hallway: R(0, 1)", hall.R[0][1], hallR(0, 1)},
		{"hallway: R(55, 3)", hall.R[55][3], hallR(55, 3)},
	}
	// bridge-repair uses "values: cost": every reward is a negated cost.
	for st := range bridge.States {
		for ac := range bridge.Actions {
			if bridge.R[st][ac] > 0 {
				t.Errorf("bridge-repair: R(%d, %d) = %v > 0 although the file gives costs", st, ac, bridge.R[st][ac])
			}
		}
	}
	for _, c := range cases {
		if !(math.Abs(c.got-c.want) <= 1e-12) {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
}

// TestReadCassandraInvalidShared: ejs4 and ejs5 (third-party, beside the
// repository) say "values: rewards" and have no discount, which
// pomdp-solve rejects. Twin: TestReadCassandraInvalidTwin.
func TestReadCassandraInvalidShared(t *testing.T) {
	for _, tc := range []struct {
		file       string
		nS, nA, nO int
	}{{"ejs4.POMDP", 3, 2, 2}, {"ejs5.POMDP", 2, 2, 2}} {
		t.Run(tc.file, func(t *testing.T) {
			checkValuesRewards(t, shared.Path(t, "TestReadCassandraInvalidTwin", "pomdp", tc.file), tc.nS, tc.nA, tc.nO)
		})
	}
}

// checkValuesRewards checks a file whose line 3 says "values: rewards" and
// which has no discount: an error naming file, line 3 and column 9 and
// pointing at Lenient; in lenient mode, the model with two notes.
func checkValuesRewards(t *testing.T, path string, nS, nA, nO int) {
	t.Helper()
	file := filepath.Base(path)
	_, err := loadFile(path)
	var pe *pomdp.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want a *ParseError", err)
	}
	msg := err.Error()
	for _, want := range []string{file + ":3:9:", `values: expected reward or cost, got "rewards"`, "Lenient"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not contain %q", msg, want)
		}
	}
	var notes []string
	m, err := loadFile(path, pomdp.Lenient(func(s string) { notes = append(notes, s) }))
	if err != nil {
		t.Fatalf("lenient: %v", err)
	}
	if m.NumStates() != nS || m.NumActions() != nA || m.NumObservations() != nO {
		t.Errorf("sizes %d/%d/%d, want %d/%d/%d", m.NumStates(), m.NumActions(), m.NumObservations(), nS, nA, nO)
	}
	if m.HasDiscount {
		t.Errorf("lenient model has a discount; the file has none")
	}
	all := strings.Join(notes, "\n")
	if len(notes) != 2 || !strings.Contains(all, `read "rewards" as "reward"`) || !strings.Contains(all, "no discount") || !strings.Contains(all, file+":3:") {
		t.Errorf("lenient notes = %q, want one about values (line 3) and one about the discount", notes)
	}
}

// TestReadCassandraGrammar reads hand-written files exercising every form
// of the grammar; the expected entries are hand computations from the text.
func TestReadCassandraGrammar(t *testing.T) {
	id2 := [][]float64{{1, 0}, {0, 1}}
	u2 := [][]float64{{0.5, 0.5}, {0.5, 0.5}}
	cases := []struct {
		name string
		src  string
		want pomdptest.DenseWant
		tol  float64
	}{
		{
			name: "counts, full matrices, single rewards",
			src: `discount: 0.9
values: reward
states: 2
actions: 1
observations: 2
start: 0.25 0.75
T: 0
0.1 0.9
0.6 0.4
O: 0
1 0
0.3 0.7
R: 0 : 0 : * : * 5
R: 0 : 1 : * : * -2.5
`,
			want: pomdptest.DenseWant{States: []string{"0", "1"}, Actions: []string{"0"}, Obs: []string{"0", "1"},
				T: [][][]float64{{{0.1, 0.9}, {0.6, 0.4}}}, Z: [][][]float64{{{1, 0}, {0.3, 0.7}}},
				R: [][]float64{{5}, {-2.5}}, B0: []float64{0.25, 0.75}, Discount: 0.9},
		},
		{
			name: "identity, uniform, start uniform, names with - and _",
			src: `discount: 1
values: reward
states: s-0 s_1
actions: stay move-it
observations: o_a o-b
start: uniform
T: stay identity
T: move-it uniform
O: * uniform
`,
			want: pomdptest.DenseWant{States: []string{"s-0", "s_1"}, Actions: []string{"stay", "move-it"}, Obs: []string{"o_a", "o-b"},
				T: [][][]float64{id2, u2}, Z: [][][]float64{u2, u2}, R: [][]float64{{0, 0}, {0, 0}},
				B0: []float64{0.5, 0.5}, Discount: 1},
		},
		{
			name: "row forms: T row, T uniform row, T reset row, O row (no colon), O uniform row",
			src: `discount: 0.5 values: reward states: a b c actions: x observations: p q
start: 0.2 0.3 0.5
T: x : a 0 0.5 0.5
T: x : b uniform
T: x : c reset
O: x : a 0.25 0.75
O: x : b uniform
O: x : c 1 0
`,
			want: pomdptest.DenseWant{States: []string{"a", "b", "c"}, Actions: []string{"x"}, Obs: []string{"p", "q"},
				T:  [][][]float64{{{0, 0.5, 0.5}, {1.0 / 3, 1.0 / 3, 1.0 / 3}, {0.2, 0.3, 0.5}}},
				Z:  [][][]float64{{{0.25, 0.75}, {0.5, 0.5}, {1, 0}}},
				B0: []float64{0.2, 0.3, 0.5}, Discount: 0.5},
		},
		{
			name: "single entries, wildcards, later lines override, numbers for names",
			src: `discount: 0.95
values: reward
states: a b
actions: x y
observations: p q
start: a
T: * uniform
T: x : a : a 1.0
T: x : a : b 0
T: y : * : b 0.75
T: y : * : a 0.25
T: y : 1 : 1 1
T: 1 : b : a 0.0
O: * : * : p 1
O: * : * : q 0
O: y : 1 : p 0.4
O: 1 : b : q .6
`,
			want: pomdptest.DenseWant{States: []string{"a", "b"}, Actions: []string{"x", "y"}, Obs: []string{"p", "q"},
				T: [][][]float64{{{1, 0}, {0.5, 0.5}}, {{0.25, 0.75}, {0, 1}}},
				Z: [][][]float64{{{1, 0}, {1, 0}}, {{1, 0}, {0.4, 0.6}}},
				R: [][]float64{{0, 0}, {0, 0}}, B0: []float64{1, 0}, Discount: 0.95},
		},
		{
			name: "start include with names and numbers",
			src: `discount: 1 values: reward states: a b c d actions: x observations: p
start include: a 2 a
T: x identity
O: x uniform
`,
			want: pomdptest.DenseWant{States: []string{"a", "b", "c", "d"}, Actions: []string{"x"}, Obs: []string{"p"},
				T:  [][][]float64{{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}},
				Z:  [][][]float64{{{1}, {1}, {1}, {1}}},
				B0: []float64{0.5, 0, 0.5, 0}, Discount: 1},
		},
		{
			name: "start exclude",
			src: `discount: 1 values: reward states: 4 actions: x observations: p
start exclude: 1 3
T: x identity
O: x uniform
`,
			want: pomdptest.DenseWant{States: []string{"0", "1", "2", "3"}, Actions: []string{"x"}, Obs: []string{"p"},
				T:  [][][]float64{{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}},
				Z:  [][][]float64{{{1}, {1}, {1}, {1}}},
				B0: []float64{0.5, 0, 0.5, 0}, Discount: 1},
		},
		{
			name: "start include: *",
			src: `discount: 1 values: reward states: 2 actions: 1 observations: 1
start include: *
T: 0 identity
O: 0 uniform`,
			want: pomdptest.DenseWant{States: []string{"0", "1"}, Actions: []string{"0"}, Obs: []string{"0"},
				T: [][][]float64{id2}, Z: [][][]float64{{{1}, {1}}}, B0: []float64{0.5, 0.5}, Discount: 1},
		},
		{
			// Rewards depending on (s', o). T(a,x,·) = (0.5, 0.5); Z(a,x,·) = (1, 0),
			// Z(b,x,·) = (0.2, 0.8).
			// R(a, x): R: x : a : a : p 4 → 0.5·1·4; R: x : a : b 1 2 → 0.5·(0.2·1 + 0.8·2) = 0.9; total 2.9.
			// R(b, x): matrix [[1 1] [3 5]] overridden at (b, q) by 7 → T(b,x,·) = (0, 1): 0.2·3 + 0.8·7 = 6.2.
			name: "reward forms: single, row over o, matrix over (s', o), overrides",
			src: `discount: 1 values: reward states: a b actions: x observations: p q
T: x : a 0.5 0.5
T: x : b 0 1
O: x : a 1 0
O: x : b 0.2 0.8
R: x : * : * : * 100
R: x : a : a : p 4
R: x : a : b 1 2
R: x : b
1 1
3 5
R: * : b : b : q +7
`,
			want: pomdptest.DenseWant{States: []string{"a", "b"}, Actions: []string{"x"}, Obs: []string{"p", "q"},
				T: [][][]float64{{{0.5, 0.5}, {0, 1}}}, Z: [][][]float64{{{1, 0}, {0.2, 0.8}}},
				R: [][]float64{{2.9}, {6.2}}, B0: []float64{0.5, 0.5}, Discount: 1},
			tol: 1e-12,
		},
		{
			// values: cost negates; the (s', o) pattern that never has positive
			// probability (Z(b, x, p) = 0) does not count.
			name: "values: cost",
			src: `discount: 0.5 values: cost states: a b actions: x observations: p q
T: x identity
O: x : a 1 0
O: x : b 0 1
R: x : a : * : * 3
R: x : b : * : * 2
R: x : b : b : p 1000
`,
			want: pomdptest.DenseWant{States: []string{"a", "b"}, Actions: []string{"x"}, Obs: []string{"p", "q"},
				T: [][][]float64{id2}, Z: [][][]float64{{{1, 0}, {0, 1}}},
				R: [][]float64{{-3}, {-2}}, B0: []float64{0.5, 0.5}, Discount: 0.5},
		},
		{
			name: "comments, spaced colons, numbers in every lexical form, matrix across lines",
			src: `# a comment line
discount : 9.5e-1   # trailing comment
values :reward
states :2 actions:1 observations:2
start:
5e-1
.5
T:0
1. 0
0 1e0
O : 0 : 0
  0.25
  0.75
O:0:1:0 1 O:0:1:1 0
R:0:*:*:*-1.5e+1
`,
			want: pomdptest.DenseWant{States: []string{"0", "1"}, Actions: []string{"0"}, Obs: []string{"0", "1"},
				T: [][][]float64{id2}, Z: [][][]float64{{{0.25, 0.75}, {1, 0}}},
				R: [][]float64{{-15}, {-15}}, B0: []float64{0.5, 0.5}, Discount: 0.95},
			tol: 1e-15,
		},
		{
			// Rows within 1e-5 of 1 are renormalised (0.999999 → 1).
			name: "tolerance 1e-5 and renormalisation",
			src: `discount: 1 values: reward states: 3 actions: 1 observations: 1
start: 0.333333 0.333333 0.333333
T: 0
0.333333 0.333333 0.333333
0.5 0.5 0.000004
1 0 0
O: 0 uniform
`,
			want: pomdptest.DenseWant{States: []string{"0", "1", "2"}, Actions: []string{"0"}, Obs: []string{"0"},
				T:  [][][]float64{{{1.0 / 3, 1.0 / 3, 1.0 / 3}, {0.5 / 1.000004, 0.5 / 1.000004, 0.000004 / 1.000004}, {1, 0, 0}}},
				Z:  [][][]float64{{{1}, {1}, {1}}},
				B0: []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, Discount: 1},
			tol: 1e-15,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Read(strings.NewReader(tc.src), "case.pomdp")
			if err != nil {
				t.Fatal(err)
			}
			pomdptest.CheckDense(t, m, tc.want, tc.tol)
			if m.Name != "case" {
				t.Errorf("Name = %q, want case", m.Name)
			}
			if err := pomdptest.SameModel(roundTripCassandra(t, m), m); err != nil {
				t.Errorf("round trip: %v", err)
			}
		})
	}
}

// TestReadCassandraErrors checks that bad inputs give a *ParseError whose
// message names the file, the line (and column) and what was expected.
func TestReadCassandraErrors(t *testing.T) {
	const pre = "discount: 0.9\nvalues: reward\nstates: a b\nactions: x\nobservations: p q\n" // 5 lines
	const okTO = "T: x identity\nO: x uniform\n"
	cases := []struct {
		name string
		src  string
		opts []pomdp.ReadOption
		want []string // substrings of the message
		big  bool     // wraps ErrTooLarge
	}{
		{"non-stochastic T row", pre + "T: x : a 0.5 0.4\nT: x : b 0 1\nO: x uniform\n",
			nil, []string{"bad.pomdp:6: T:", `action "x", state "a" sums to 0.9`}, false},
		{"never specified O row", pre + "T: x identity\nO: x : a 1 0\n",
			nil, []string{"bad.pomdp: O:", `action "x", end state "b" is never specified`}, false},
		{"NaN", pre + "T: x : a NaN 1\n", nil, []string{"bad.pomdp:6:10: T: expected a probability (entry 1 of 2", `got "NaN"`}, false},
		{"not a number", pre + "T: x : a : b abc\n", nil, []string{"bad.pomdp:6:14: T: expected a probability, got \"abc\""}, false},
		{"unknown state", pre + "T: x : c 1 0\n", nil, []string{"bad.pomdp:6:8: T: unknown state \"c\""}, false},
		{"unknown action", pre + okTO + "R: y : * : * : * 1\n", nil, []string{"bad.pomdp:8:4: R: unknown action \"y\""}, false},
		{"unknown observation", pre + "T: x identity\nO: x : a : r 1\n", nil, []string{"bad.pomdp:7:12: O: unknown observation \"r\""}, false},
		{"state number out of range", pre + "T: x : 2 1 0\n", nil, []string{"bad.pomdp:6:8: T: state 2 out of range (2 states"}, false},
		{"too few numbers", pre + "T: x\n1 0\n0\nO: x uniform\n", nil, []string{"bad.pomdp:9:1: T: expected 4 numbers", "got only 3"}, false},
		{"too many numbers", pre + "T: x : a 1 0 0\n", nil, []string{"bad.pomdp:6:14: T: expected 2 numbers (a row of 2", "got more: \"0\""}, false},
		{"too many reward numbers", pre + okTO + "R: x : a : b 1 2 3\n", nil, []string{"bad.pomdp:8:18: R: expected 2 numbers", "got more"}, false},
		{"negative probability", pre + "T: x : a : b -0.5\n", nil, []string{"bad.pomdp:6:14: T: expected a probability, got a negative number"}, false},
		{"probability above 1", pre + "T: x : a : b 1.5\n", nil, []string{"bad.pomdp:6:14: T: probability 1.5 is greater than 1"}, false},
		{"number out of range", pre + okTO + "R: x : a : * : * 1e999\n", nil, []string{"bad.pomdp:8:18: R: number 1e999 is out of range"}, false},
		{"bad start sum", pre + "start: 0.5 0.6\n" + okTO, nil, []string{"bad.pomdp:6:8: start: probabilities sum to 1.1"}, false},
		{"bare state number in start", pre + "start: 1\n" + okTO, nil, []string{"bad.pomdp:7:1: start: expected 2 numbers", `start include: 1`}, false},
		{"unknown start state", pre + "start: c\n" + okTO, nil, []string{"bad.pomdp:6:8: start: unknown state \"c\""}, false},
		{"start exclude everything", pre + "start exclude: *\n" + okTO, nil, []string{"bad.pomdp:6:16: start exclude: excludes every state"}, false},
		{"empty start include", pre + "start include:\n" + okTO, nil, []string{"bad.pomdp:7:1: start include: expected a list of states"}, false},
		{"start reset", pre + "start: reset\n" + okTO, nil, []string{"bad.pomdp:6:8: start: reset is only valid in a transition row"}, false},
		{"start after T", pre + okTO + "start: uniform\n", nil, []string{"bad.pomdp:8:1: start: must come after the preamble"}, false},
		{"states after T", pre + okTO + "states: 3\n", nil, []string{"bad.pomdp:8:1: states: must come before start:"}, false},
		{"missing discount", "values: reward\nstates: 1\nactions: 1\nobservations: 1\nT: 0 identity\n", nil, []string{"bad.pomdp:5:1: discount: missing declaration"}, false},
		{"missing values", "discount: 1\nstates: 1\nactions: 1\nobservations: 1\nT: 0 identity\n", nil, []string{"bad.pomdp:5:1: values: missing declaration"}, false},
		{"missing observations", "discount: 1\nvalues: reward\nstates: 1\nactions: 1\nT: 0 identity\n", nil, []string{"bad.pomdp:5:1: observations: missing declaration"}, false},
		{"duplicate state name", "discount: 1\nstates: a b a\n", nil, []string{"bad.pomdp:2:13: states: name \"a\" used twice"}, false},
		{"keyword ends a name list", "discount: 1\nstates: a T\n", nil, []string{"bad.pomdp:2:11: actions: missing declaration"}, false},
		{"preamble typo", "discout: 1\n", nil, []string{"bad.pomdp:1:1: expected a preamble line", `got "discout"`}, false},
		{"keyword as first name", "discount: 1\nstates: uniform\n", nil, []string{"bad.pomdp:2:9: states: expected a count or a list of names, got the keyword \"uniform\""}, false},
		{"number in name list", "states: a 1\n", nil, []string{"bad.pomdp:1:11: states: expected a name (names start with a letter)"}, false},
		{"zero states", "states: 0\n", nil, []string{"bad.pomdp:1:9: states: need at least one state"}, false},
		{"declared twice", "states: 2\nstates: 3\n", nil, []string{"bad.pomdp:2:1: states: declared twice (first on line 1)"}, false},
		{"discount out of range", "discount: 1.5\n", nil, []string{"bad.pomdp:1:11: discount: 1.5 is outside [0, 1]"}, false},
		{"bad values keyword", "values: money\n", nil, []string{"bad.pomdp:1:9: values: expected reward or cost, got \"money\""}, false},
		{"reset in O", pre + "T: x identity\nO: x : a reset\n", nil, []string{"bad.pomdp:7:10: O: reset is not valid for observations"}, false},
		{"identity in a T row", pre + "T: x : a identity\n", nil, []string{"bad.pomdp:6:10: T: identity is only valid for a whole matrix"}, false},
		{"reset as a whole T matrix", pre + "T: x reset\n", nil, []string{"bad.pomdp:6:6: T: reset is only valid in a row"}, false},
		{"missing colon", pre + "T x identity\n", nil, []string{"bad.pomdp:6:3: T: expected \":\", got \"x\""}, false},
		{"stray token", pre + okTO + "foo\n", nil, []string{"bad.pomdp:8:1: expected T:, O: or R:, got \"foo\""}, false},
		{"bad character", pre + "T: x : a 1, 0\n", nil, []string{"bad.pomdp:6:11: T: expected a probability (entry 2 of 2", "got unexpected character \",\""}, false},
		{"sign without number", pre + okTO + "R: x : a : * : * - p\n", nil, []string{"bad.pomdp:8:20: R: expected a number after \"-\", got \"p\""}, false},
		{"huge state count", "states: 100000000\n", nil, []string{"bad.pomdp:1:9: states: 100000000 states exceed the limit of 1048576"}, true},
		{"state count over configured limit", "states: 11\n", []pomdp.ReadOption{pomdp.MaxSize(10)}, []string{"exceed the limit of 10"}, true},
		{"wildcard expansion over limit", "discount: 1 values: reward states: 1000 actions: 3 observations: 1\nT: * uniform\n",
			[]pomdp.ReadOption{pomdp.MaxEntries(1 << 20)}, []string{"bad.pomdp:2:1: T: the file expands to more than 1048576 matrix entries"}, true},
		{"states × actions over limit", "discount: 1 values: reward states: 1000 actions: 1000 observations: 1\n",
			[]pomdp.ReadOption{pomdp.MaxEntries(1 << 16)}, []string{"1000 states × 1000 actions exceed the limit of 65536"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Read(strings.NewReader(tc.src), "bad.pomdp", tc.opts...)
			if err == nil {
				t.Fatalf("no error; read %v", m)
			}
			var pe *pomdp.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("got %T %v, want *ParseError", err, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if got := errors.Is(err, pomdp.ErrTooLarge); got != tc.big {
				t.Errorf("errors.Is(err, ErrTooLarge) = %v, want %v", got, tc.big)
			}
		})
	}
}

// TestReadCassandraRowEntryError: a non-stochastic row wraps an
// *EntryError naming the row (action, state).
func TestReadCassandraRowEntryError(t *testing.T) {
	src := "discount: 1 values: reward states: a b actions: x y observations: p\nT: x identity\nT: y : a 1 0\nT: y : b 0.7 0.2\nO: * uniform\n"
	_, err := Read(strings.NewReader(src), "rows.pomdp")
	var pe *pomdp.ParseError
	var ee *pomdp.EntryError
	if !errors.As(err, &pe) || !errors.As(err, &ee) {
		t.Fatalf("got %v, want a *ParseError wrapping an *EntryError", err)
	}
	if pe.File != "rows.pomdp" || pe.Line != 4 || pe.Field != "T" {
		t.Errorf("ParseError at %s:%d field %q, want rows.pomdp:4 field T", pe.File, pe.Line, pe.Field)
	}
	if ee.Field != "T" || ee.Action != 1 || ee.State != 1 || ee.Next != -1 {
		t.Errorf("EntryError %+v, want T row action 1 state 1", ee)
	}
}

func TestWriteCassandra(t *testing.T) {
	// Kron kernels are written through Entries: a 2×3 product read back
	// equals its explicit sparse form.
	f0 := [][]float64{{0.9, 0.1}, {0.2, 0.8}}
	f1 := [][]float64{{1, 0, 0}, {0.25, 0.5, 0.25}, {0, 0, 1}}
	k := pomdp.NewKron(f0, f1)
	states := []string{"s0", "s1", "s2", "s3", "s4", "s5"}
	z := pomdp.NewSparseDense([][]float64{{1, 0}, {0, 1}, {1, 0}, {0, 1}, {1, 0}, {0, 1}})
	m := &pomdp.Model{Name: "kron", States: states, Actions: []string{"go"}, Observations: []string{"even", "odd"},
		T: []pomdp.Kernel{k}, Z: []*pomdp.Sparse{z}, R: [][]float64{{1}, {0}, {-2}, {0}, {0}, {0.125}},
		B0: []float64{0, 0, 1, 0, 0, 0}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	back := roundTripCassandra(t, m)
	want := pomdptest.ShallowCopy(m)
	want.T = []pomdp.Kernel{pomdp.SparseKernel(k)}
	want.HasDiscount, want.Discount = true, 1 // the format needs a discount
	if err := pomdptest.SameModel(back, want); err != nil {
		t.Errorf("Kron round trip: %v", err)
	}

	// Names that the format cannot hold are written renamed and restored
	// on reading (TestWriteCassandraRenames has the details).
	for _, st := range [][]string{{"s0", "s1", "s2", "s3", "s 4", "s5"}, {"s0", "s1", "s2", "s3", "uniform", "s5"}} {
		bad := pomdptest.ShallowCopy(m)
		bad.States = st
		back := roundTripCassandra(t, bad)
		if !slices.Equal(back.States, st) {
			t.Errorf("states %q read back as %q", st, back.States)
		}
	}

	// Sparse rows become single-entry lines; dense rows become rows.
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{"discount: 1\n", "values: reward\n", "states: s0 s1 s2 s3 s4 s5\n", "start include: s2\n",
		"T: go : s0\n0.9 0.1 0 0 0 0\n", "O: go : s1 : odd 1\n", "R: go : s5 : * : * 0.125\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("written file lacks %q:\n%s", want, text)
		}
	}
}

// FuzzReadCassandra: no input panics or hangs; every accepted model is
// valid and survives a write→read round trip exactly.
func FuzzReadCassandra(f *testing.F) {
	seeds := []string{
		"discount: 0.95\nvalues: reward\nstates: a b\nactions: x\nobservations: p q\nstart: 0.5 0.5\nT: x identity\nO: x uniform\nR: x : * : * : * 1\n",
		"discount: 1 values: cost states: 2 actions: 2 observations: 2\nstart include: 0\nT: * uniform\nT: 1 : 0 reset\nO: 0\n1 0 0 1\nO: 1 : * 0.5 0.5\nR: 0 : 1 : 1 2 3\nR: 1 : 0\n1 2 3 4\n",
		"discount: 0.5 values: reward states: a b c actions: x observations: p\nstart exclude: b\nT: x : * : a 1\nO: x : * : p 1\nR: * : a : * : p -1.5e2\n",
		"states: 100000000\n",
		"discount: 1 values: reward states: 500 actions: 3 observations: 500\nT: * uniform\nO: * uniform\n",
		"# comment\ndiscount:.5 values:reward states:1 actions:1 observations:1 T:0:0:0 1. O:0:0:0 1e0",
		// Rename comments and the POMDPs.jl dialect.
		"# pomdpq-rename states x0 \"0\"\n# pomdpq-rename observations R_ \"R\"\ndiscount: 0.9\nvalues: reward\nstates: x0 b\nactions: go\nobservations: L R_\nT: go : x0 : 0.5 0.5\nT: go : b : b : 1.0\nO: go : 0.25 0.75 1.0 0.0\nR: go : * : * : R_ : -2.5\n",
		"discount: 0.9 values: reward states: 2 actions: 1 observations: 2\nT: 0 : identity\nO: 0 : 0 : uniform\nO: 0 : 1 : 1 : 1.0\nR: 0 : 0 : 1.0 2.0 3.0 4.0\nR: 0 : 1 : 0 : -1.0 1.0\n",
		// Rewards of the next state and the observation (a reward table).
		pomdptest.DetailPOMDP,
	}
	// Our own classic-style files, and the third-party ones when present.
	twins, err := filepath.Glob(filepath.Join("..", "testdata", "twins", "*.POMDP"))
	if err != nil || len(twins) == 0 {
		f.Fatalf("no twin files in testdata/twins (%v)", err)
	}
	names := []string{"ejs4.POMDP"}
	for _, tc := range pomdptest.SharedFiles {
		names = append(names, tc.File)
	}
	twins = append(twins, shared.Seeds(f, "testdata/twins/*.POMDP", "pomdp", names...)...)
	for _, path := range twins {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, string(b))
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		opts := []pomdp.ReadOption{pomdp.MaxSize(1 << 12), pomdp.MaxEntries(1 << 16)}
		m, err := Read(strings.NewReader(src), "fuzz.pomdp", opts...)
		if err != nil {
			var pe *pomdp.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is a %T, want *ParseError", err, err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted model fails Validate: %v", err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, m); err != nil {
			t.Fatalf("Write: %v", err)
		}
		back, err := Read(&buf, "fuzz.pomdp")
		if err != nil {
			t.Fatalf("reading back: %v\n%s", err, buf.String())
		}
		if err := pomdptest.SameModel(back, m); err != nil {
			t.Fatalf("round trip: %v", err)
		}
	})
}

func TestSyntheticRoundTrip(t *testing.T) {
	m := pomdptest.SyntheticModel(300, 4, 12)
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := pomdptest.SameModel(roundTripCassandra(t, m), m); err != nil {
		t.Error(err)
	}
}

func BenchmarkReadCassandra(b *testing.B) {
	for _, n := range []int{100, 2000} {
		m := pomdptest.SyntheticModel(n, 5, 20)
		var buf bytes.Buffer
		if err := Write(&buf, m); err != nil {
			b.Fatal(err)
		}
		src := buf.Bytes()
		b.Run(fmt.Sprintf("S=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := Read(bytes.NewReader(src), "bench.pomdp"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("hallway", func(b *testing.B) {
		src, err := os.ReadFile(shared.Path(b, "BenchmarkReadCassandra/S=2000", "pomdp", "hallway.POMDP"))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if _, err := Read(bytes.NewReader(src), "hallway.POMDP"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkWriteCassandra(b *testing.B) {
	m := pomdptest.SyntheticModel(2000, 5, 20)
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, m); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadCassandraEdgeCases are named regression cases for inputs at the
// edges of the number syntax and of the limits.
func TestReadCassandraEdgeCases(t *testing.T) {
	const pre = "discount: 1 values: cost states: a b actions: x observations: p\nT: x identity\nO: x uniform\n"
	t.Run("cost of 0 is reward +0", func(t *testing.T) {
		m, err := Read(strings.NewReader(pre+"R: x : * : * : * 0\n"), "c.pomdp")
		if err != nil {
			t.Fatal(err)
		}
		if m.R[0][0] != 0 || math.Signbit(m.R[0][0]) {
			t.Errorf("R = %v (signbit %v), want +0", m.R[0][0], math.Signbit(m.R[0][0]))
		}
	})
	t.Run("underflowing number reads as 0", func(t *testing.T) {
		m, err := Read(strings.NewReader(pre+"T: x : a : b 1e-400\nR: x : a : * : * 1e-400\n"), "u.pomdp")
		if err != nil {
			t.Fatal(err)
		}
		if m.TransitionProb(0, 0, 1) != 0 || m.R[0][0] != 0 {
			t.Errorf("T(a, x, b) = %v, R = %v, want 0, 0", m.TransitionProb(0, 0, 1), m.R[0][0])
		}
	})
	t.Run("reward reduction over the work limit", func(t *testing.T) {
		// 50×50 uniform T and Z: reducing a reward that depends on (s', o)
		// visits 50·50 pairs for each of the 50 states, more than 100000.
		src := "discount: 1 values: reward states: 50 actions: 1 observations: 50\nT: 0 uniform\nO: 0 uniform\nR: 0 : * : * : 0 1\nR: 0 : * : 3 : * 2\n"
		_, err := Read(strings.NewReader(src), "w.pomdp", pomdp.MaxEntries(100000))
		if !errors.Is(err, pomdp.ErrTooLarge) || !strings.Contains(err.Error(), "w.pomdp: R: reducing the rewards visits more than 100000") {
			t.Errorf("err = %v, want the reward-reduction limit", err)
		}
		m, err := Read(strings.NewReader(src), "w.pomdp")
		if err != nil {
			t.Fatal(err)
		}
		// R(s) = 1/50·2 (s' = 3) + 49/50·1/50·1 (o = 0 elsewhere).
		if want := 2.0/50 + 49.0/2500; !(math.Abs(m.R[7][0]-want) <= 1e-15) {
			t.Errorf("R(7, 0) = %v, want %v", m.R[7][0], want)
		}
	})
	t.Run("row of a single state", func(t *testing.T) {
		m, err := Read(strings.NewReader("discount: 1 values: reward states: 1 actions: 1 observations: 1\nstart: 1\nT: 0 : 0 1\nO: 0 : 0 1\n"), "one.pomdp")
		if err != nil {
			t.Fatal(err)
		}
		if m.B0[0] != 1 {
			t.Errorf("b0 = %v", m.B0)
		}
	})
	t.Run("empty input", func(t *testing.T) {
		_, err := Read(strings.NewReader(""), "empty.pomdp")
		if err == nil || !strings.Contains(err.Error(), "empty.pomdp:1:1: states: missing declaration") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("non-ASCII character", func(t *testing.T) {
		_, err := Read(strings.NewReader("states: é\n"), "u.pomdp")
		if err == nil || !strings.Contains(err.Error(), `u.pomdp:1:9: states: expected a count or a list of names, got unexpected character "é"`) {
			t.Errorf("err = %v", err)
		}
	})
}
