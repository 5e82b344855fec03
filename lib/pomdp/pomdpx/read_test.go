package pomdpx

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/pomdptest"
)

func readPX(src string, opts ...pomdp.ReadOption) (*pomdp.Model, error) {
	return Read(strings.NewReader(src), "t.pomdpx", opts...)
}

// pxDoc wraps the parts of a POMDPX document.
func pxDoc(vars, belief, trans, obs, reward string) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<pomdpx version=\"1.0\">\n<Discount>0.9</Discount>\n<Variable>\n")
	b.WriteString(vars)
	b.WriteString("</Variable>\n<InitialStateBelief>\n" + belief + "</InitialStateBelief>\n")
	b.WriteString("<StateTransitionFunction>\n" + trans + "</StateTransitionFunction>\n")
	if obs != "" {
		b.WriteString("<ObsFunction>\n" + obs + "</ObsFunction>\n")
	}
	b.WriteString("<RewardFunction>\n" + reward + "</RewardFunction>\n</pomdpx>\n")
	return b.String()
}

// A two-state model with one action a and observations o0, o1, used by
// the tests below with a varying transition table.
const (
	pxVars2   = `<StateVar vnamePrev="s_0" vnameCurr="s_1"><ValueEnum>s0 s1</ValueEnum></StateVar><ObsVar vname="o"><ValueEnum>o0 o1</ValueEnum></ObsVar><ActionVar vname="act"><ValueEnum>a b</ValueEnum></ActionVar><RewardVar vname="r"/>`
	pxBelief2 = `<CondProb><Var>s_0</Var><Parent>null</Parent><Parameter><Entry><Instance>-</Instance><ProbTable>0.25 0.75</ProbTable></Entry></Parameter></CondProb>`
)

func pxModel2(trans string) string {
	return pxDoc(pxVars2, pxBelief2, trans, pomdptest.PXCondProb("o", "act s_1", "* - -|0.6 0.4 0.1 0.9"), pomdptest.PXFunc("r", "act s_0", "a s1|2", "b *|-1"))
}

// dense2 is the model pxModel2 describes with transition matrices ta, tb.
func dense2(t *testing.T, ta, tb [][]float64) *pomdp.Model {
	t.Helper()
	z := [][]float64{{0.6, 0.4}, {0.1, 0.9}}
	m, err := pomdp.New(pomdp.Dense{States: []string{"s0", "s1"}, Actions: []string{"a", "b"}, Observations: []string{"o0", "o1"},
		T: [][][]float64{ta, tb}, Z: [][][]float64{z, z}, R: [][]float64{{0, -1}, {2, -1}},
		B0: []float64{0.25, 0.75}, Discount: 0.9, HasDiscount: true})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestReadPOMDPXTables: the shorthands of <Instance> and <ProbTable> and
// the overriding of entries, each against the matrices written out by hand
// from the format's definition (SARSOP's parser: "-" lists the values of
// its positions with the first "-" most significant, "*" repeats the
// table, a later entry replaces an earlier one cell by cell).
func TestReadPOMDPXTables(t *testing.T) {
	id := [][]float64{{1, 0}, {0, 1}}
	for _, tc := range []struct {
		name    string
		entries []string
		ta, tb  [][]float64
	}{
		{"single entries", []string{"a s0 s0|0.3", "a s0 s1|0.7", "a s1 s1|1", "b s0 s0|1", "b s1 s0|1"},
			[][]float64{{0.3, 0.7}, {0, 1}}, [][]float64{{1, 0}, {1, 0}}},
		{"dash over parent and child", []string{"a - -|0.3 0.7 0 1", "b - -|1 0 1 0"},
			[][]float64{{0.3, 0.7}, {0, 1}}, [][]float64{{1, 0}, {1, 0}}},
		{"dash over action, first most significant", []string{"- s0 -|0.3 0.7 1 0", "- s1 -|0 1 1 0"},
			[][]float64{{0.3, 0.7}, {0, 1}}, [][]float64{{1, 0}, {1, 0}}},
		{"three dashes", []string{"- - -|0.3 0.7 0 1 1 0 1 0"},
			[][]float64{{0.3, 0.7}, {0, 1}}, [][]float64{{1, 0}, {1, 0}}},
		{"star repeats the table", []string{"* * s0|1", "a * s0|0.5", "a * s1|0.5"},
			[][]float64{{0.5, 0.5}, {0.5, 0.5}}, [][]float64{{1, 0}, {1, 0}}},
		{"later entry replaces a cell", []string{"* - -|identity", "a s0 s0|0.2", "a s0 s1|0.8"},
			[][]float64{{0.2, 0.8}, {0, 1}}, id},
		{"later entry replaces a whole row", []string{"a s0 s1|0.9", "* * -|0.5 0.5", "b s1 -|0 1"},
			[][]float64{{0.5, 0.5}, {0.5, 0.5}}, [][]float64{{0.5, 0.5}, {0, 1}}},
		{"identity replaces the whole row", []string{"* * -|0.5 0.5", "a - -|identity"},
			id, [][]float64{{0.5, 0.5}, {0.5, 0.5}}},
		{"keywords in any case", []string{"a - -|Identity", "b * -|UNIFORM"},
			id, [][]float64{{0.5, 0.5}, {0.5, 0.5}}},
		{"star child", []string{"* * *|0.5"},
			[][]float64{{0.5, 0.5}, {0.5, 0.5}}, [][]float64{{0.5, 0.5}, {0.5, 0.5}}},
		{"zero star clears the row", []string{"* - -|identity", "a s1 *|0", "a s1 s0|1"},
			[][]float64{{1, 0}, {1, 0}}, id},
		{"white space and line breaks in tables", []string{"  a\n - \t -  |\n 0.3 0.7\n 0 1 \n", "b - -|1 0 1 0"},
			[][]float64{{0.3, 0.7}, {0, 1}}, [][]float64{{1, 0}, {1, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readPX(pxModel2(pomdptest.PXCondProb("s_1", "act s_0", tc.entries...)))
			if err != nil {
				t.Fatal(err)
			}
			if err := pomdptest.SameModel(got, dense2(t, tc.ta, tc.tb)); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestReadPOMDPXNumValues: <NumValues> names values as SARSOP does:
// s0, s1, … for states, o0, … for observations, a0, … for actions.
func TestReadPOMDPXNumValues(t *testing.T) {
	vars := `<StateVar vnamePrev="x" vnameCurr="y"><NumValues>3</NumValues></StateVar>
<ObsVar vname="o"><NumValues>2</NumValues></ObsVar><ActionVar vname="act"><NumValues>2</NumValues></ActionVar>`
	m, err := readPX(pxDoc(vars, pomdptest.PXCondProb("x", "null", "-|uniform"), pomdptest.PXCondProb("y", "act x", "* - -|identity"), pomdptest.PXCondProb("o", "act y", "* * -|uniform"), ""))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.States, []string{"s0", "s1", "s2"}) || !slices.Equal(m.Observations, []string{"o0", "o1"}) || !slices.Equal(m.Actions, []string{"a0", "a1"}) {
		t.Errorf("names %v %v %v, want s0… o0… a0…", m.States, m.Observations, m.Actions)
	}
}

// The factored model of TestReadPOMDPXFactored: x fully observed (x0, x1),
// y hidden (y0, y1), one action go, one observation variable o.
const (
	pxFactVars = `<StateVar vnamePrev="x_0" vnameCurr="x_1" fullyObs="true"><ValueEnum>x0 x1</ValueEnum></StateVar>
<StateVar vnamePrev="y_0" vnameCurr="y_1"><ValueEnum>y0 y1</ValueEnum></StateVar>
<ObsVar vname="o"><ValueEnum>o0 o1</ValueEnum></ObsVar>
<ActionVar vname="act"><ValueEnum>go</ValueEnum></ActionVar>
<RewardVar vname="r1"/><RewardVar vname="r2"/>`
)

// TestReadPOMDPXFactored: a factored, mixed-observability file whose
// hidden variable depends on the next value of the fully observed one,
// whose initial belief is conditional, and whose reward depends on the
// next state and the observation, against the flat model computed by hand.
func TestReadPOMDPXFactored(t *testing.T) {
	belief := pomdptest.PXCondProb("x_0", "null", "x0|1") + pomdptest.PXCondProb("y_0", "x_0", "x0 -|0.4 0.6", "x1 -|uniform")
	trans := pomdptest.PXCondProb("x_1", "act x_0", "go - -|0.7 0.3 0.2 0.8") +
		pomdptest.PXCondProb("y_1", "act x_1 y_0", "go x0 * -|0.9 0.1", "go x1 - -|identity")
	obs := pomdptest.PXCondProb("o", "act y_1", "go - -|0.8 0.2 0.25 0.75")
	reward := pomdptest.PXFunc("r1", "act y_0", "go y1|5") + pomdptest.PXFunc("r2", "act x_1 o", "go x1 o1|2")
	got, err := readPX(pxDoc(pxFactVars, belief, trans, obs, reward))
	if err != nil {
		t.Fatal(err)
	}
	// Flat states (x, y), x most significant; observations (x', o).
	// T((x,y),(x',y')) = P(x'|x)·P(y'|x',y): P(y'|x0,·) = (0.9, 0.1), P(y'|x1,y) = [y' = y].
	// Z((x',y'),(x',o)) = P(o|y'). b0 = (0.4, 0.6, 0, 0).
	// R(s) = 5·[y = y1] + 2·P(x' = x1, o = o1 | s):
	//   s = (x0,y0): 2·0.3·0.2 = 0.12;  (x0,y1): 5 + 2·0.3·0.75 = 5.45
	//   s = (x1,y0): 2·0.8·0.2 = 0.32;  (x1,y1): 5 + 2·0.8·0.75 = 6.2
	want, err := pomdp.New(pomdp.Dense{
		States:       []string{"x=x0,y=y0", "x=x0,y=y1", "x=x1,y=y0", "x=x1,y=y1"},
		Actions:      []string{"go"},
		Observations: []string{"x=x0,o=o0", "x=x0,o=o1", "x=x1,o=o0", "x=x1,o=o1"},
		T: [][][]float64{{
			{0.63, 0.07, 0.3, 0}, {0.63, 0.07, 0, 0.3}, {0.18, 0.02, 0.8, 0}, {0.18, 0.02, 0, 0.8}}},
		Z: [][][]float64{{
			{0.8, 0.2, 0, 0}, {0.25, 0.75, 0, 0}, {0, 0, 0.8, 0.2}, {0, 0, 0.25, 0.75}}},
		R:  [][]float64{{0.12}, {5.45}, {0.32}, {6.2}},
		B0: []float64{0.4, 0.6, 0, 0}, Discount: 0.9, HasDiscount: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := pomdptest.CloseModel(got, want, 1e-12); err != nil {
		t.Error(err)
	}
}

// TestReadPOMDPXFullyObservedIsObserved: a fully observed variable is an
// unobserved one plus an observation variable that copies its next value
// (an identity table): both files give the same laws, entry by entry
// (only the observation names differ, by the observation variable's name).
func TestReadPOMDPXFullyObservedIsObserved(t *testing.T) {
	doc := func(fullyObs, copyVar, copyTable string) string {
		vars := `<StateVar vnamePrev="x_0" vnameCurr="x_1" fullyObs="` + fullyObs + `"><ValueEnum>x0 x1 x2</ValueEnum></StateVar>
<StateVar vnamePrev="y_0" vnameCurr="y_1"><ValueEnum>y0 y1</ValueEnum></StateVar>` + copyVar + `
<ObsVar vname="o"><ValueEnum>o0 o1</ValueEnum></ObsVar>
<ActionVar vname="act"><ValueEnum>stay move</ValueEnum></ActionVar><RewardVar vname="r"/>`
		belief := pomdptest.PXCondProb("x_0", "null", "-|0.5 0.5 0") + pomdptest.PXCondProb("y_0", "null", "-|0.3 0.7")
		trans := pomdptest.PXCondProb("x_1", "act x_0", "stay - -|identity", "move - -|0.1 0.9 0 0 0.2 0.8 0.5 0 0.5") +
			pomdptest.PXCondProb("y_1", "act x_0 y_0", "* * - -|0.9 0.1 0.4 0.6", "move x2 * -|1 0")
		obs := copyTable + pomdptest.PXCondProb("o", "act y_1", "stay - -|0.7 0.3 0.2 0.8", "move * -|uniform")
		reward := pomdptest.PXFunc("r", "act x_1 y_1 o", "move x2 y1 o1|4", "stay * y0 *|-1")
		return pxDoc(vars, belief, trans, obs, reward)
	}
	full, err := readPX(doc("true", "", ""))
	if err != nil {
		t.Fatal(err)
	}
	copied, err := readPX(doc("false", `<ObsVar vname="xcopy"><ValueEnum>c0 c1 c2</ValueEnum></ObsVar>`, pomdptest.PXCondProb("xcopy", "act x_1", "* - -|identity")))
	if err != nil {
		t.Fatal(err)
	}
	if full.NumObservations() != 6 || copied.NumObservations() != 6 {
		t.Fatalf("|O| = %d and %d, want 3·2 = 6", full.NumObservations(), copied.NumObservations())
	}
	if full.Observations[5] != "x=x2,o=o1" || copied.Observations[5] != "xcopy=c2,o=o1" {
		t.Errorf("last observation names %q and %q", full.Observations[5], copied.Observations[5])
	}
	renamed := pomdptest.ShallowCopy(copied)
	renamed.Observations = full.Observations
	if err := pomdptest.SameModel(renamed, full); err != nil {
		t.Error(err)
	}
}

// TestReadPOMDPXTigerTwin: our hand-written Tiger (testdata/tiger.pomdpx,
// which uses every shorthand) is the built-in Tiger of the paper:
// T(listen) = I, T(open) = 1/2, Z(listen) = 0.85 on the tiger's side,
// Z(open) = 1/2, R(listen) = −1, R(open the tiger's door) = −100, else 10,
// b0 uniform, here with discount 0.95. (The built-in, in package bench,
// is compared in the external test TestPOMDPXTigerMatchesBuiltin.)
func TestReadPOMDPXTigerTwin(t *testing.T) {
	got, err := loadFile(filepath.Join("..", "testdata", "tiger.pomdpx"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := pomdp.New(pomdp.Dense{Name: "tiger",
		States: []string{"tiger_left", "tiger_right"}, Actions: []string{"listen", "open_left", "open_right"}, Observations: []string{"L", "R"},
		T: [][][]float64{{{1, 0}, {0, 1}}, {{0.5, 0.5}, {0.5, 0.5}}, {{0.5, 0.5}, {0.5, 0.5}}},
		Z: [][][]float64{{{0.85, 0.15}, {0.15, 0.85}}, {{0.5, 0.5}, {0.5, 0.5}}, {{0.5, 0.5}, {0.5, 0.5}}},
		R: [][]float64{{-1, -100, 10}, {-1, 10, -100}}, Discount: 0.95, HasDiscount: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := pomdptest.SameModel(got, want); err != nil {
		t.Error(err)
	}
	if got.Name != "tiger" {
		t.Errorf("Name = %q, want the file's base name tiger", got.Name)
	}
}

// TestReadPOMDPXSharedTiger: SARSOP's own Tiger.pomdpx is, entry by entry,
// the model of pomdp-solve's Tiger.pomdp (third-party inputs; their README
// says they are the same problem), and its sizes are 2/3/2. Twin:
// TestReadPOMDPXTigerTwin, our own Tiger file against the paper's numbers.
func TestReadPOMDPXSharedTiger(t *testing.T) {
	got, err := loadFile(shared.Path(t, "TestReadPOMDPXTigerTwin", "pomdpx", "Tiger.pomdpx"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := loadFile(shared.Path(t, "TestReadPOMDPXTigerTwin", "pomdp", "Tiger.pomdp"))
	if err != nil {
		t.Fatal(err)
	}
	if got.NumStates() != 2 || got.NumActions() != 3 || got.NumObservations() != 2 {
		t.Errorf("sizes %d/%d/%d, want 2/3/2", got.NumStates(), got.NumActions(), got.NumObservations())
	}
	if err := pomdptest.SameModel(got, want); err != nil {
		t.Error(err)
	}
}

// TestReadPOMDPXSharedRockSample reads SARSOP's factored RockSample(7,8):
// robot (50 values, fully observed) and rock0…rock7 (2 values each),
// 13 actions, one observation variable obs_sensor (ogood, obad).
//
// Sizes, derived by hand from the declarations: |S| = 50·2^8 = 12,800;
// |A| = 13; |O| = (values of the fully observed robot) × (values of
// obs_sensor) = 50·2 = 100 by the mixed-observability construction.
//
// Entries checked against the file's text: the robot starts at s03 and the
// rocks are uniform (b0 = 1/256 on each of the 256 states with robot=s03);
// "as" (sample) at s20, where rock0 lies, turns a good rock0 bad (the
// Entry "as s20 * -" → "1 0") and moves the robot to s20 (entry
// "as s20 s20"); ac0 (check rock0) from s00 reports ogood with
// probability 0.966516 when rock0 is good (Entry "ac0 s00 - * … -" →
// "0.033484 0.966516 0.966516 0.033484", bad first); R(as, s01, rock1
// good) = 10 and R(ams, s00) = −100. Twin: TestReadPOMDPXFactored, a
// factored mixed-observability file of ours against its flat model
// computed by hand.
func TestReadPOMDPXSharedRockSample(t *testing.T) {
	m, err := loadFile(shared.Path(t, "TestReadPOMDPXFactored", "pomdpx", "RockSample_7_8.pomdpx"))
	if err != nil {
		t.Fatal(err)
	}
	if m.NumStates() != 12800 || m.NumActions() != 13 || m.NumObservations() != 100 {
		t.Fatalf("sizes %d/%d/%d, want 12800/13/100", m.NumStates(), m.NumActions(), m.NumObservations())
	}
	state := func(robot string, rocks string) int {
		var parts []string
		parts = append(parts, "robot="+robot)
		for i, c := range rocks {
			q := "bad"
			if c == 'G' {
				q = "good"
			}
			parts = append(parts, fmt.Sprintf("rock%d=%s", i, q))
		}
		s := m.StateIndex(strings.Join(parts, ","))
		if s < 0 {
			t.Fatalf("no state %s", strings.Join(parts, ","))
		}
		return s
	}
	start := 0
	for s, p := range m.B0 {
		if p != 0 {
			start++
			if !strings.HasPrefix(m.States[s], "robot=s03,") || p != 1.0/256 {
				t.Fatalf("b0(%s) = %v, want 1/256 on robot=s03 only", m.States[s], p)
			}
		}
	}
	if start != 256 {
		t.Errorf("b0 has %d states, want 256", start)
	}
	as, ac0, ams := m.ActionIndex("as"), m.ActionIndex("ac0"), m.ActionIndex("ams")
	if p := m.TransitionProb(state("s20", "GBBBBBBB"), as, state("s20", "BBBBBBBB")); p != 1 {
		t.Errorf("T(s20 rock0 good, as, s20 all bad) = %v, want 1", p)
	}
	good := m.ObsIndex("robot=s00,obs_sensor=ogood")
	if p := m.ObsProb(state("s00", "GBBBBBBB"), ac0, good); p != 0.966516 {
		t.Errorf("Z(s00 rock0 good, ac0, ogood) = %v, want 0.966516", p)
	}
	if p := m.ObsProb(state("s00", "BGGGGGGG"), ac0, good); p != 0.033484 {
		t.Errorf("Z(s00 rock0 bad, ac0, ogood) = %v, want 0.033484", p)
	}
	if r := m.R[state("s01", "BGBBBBBB")][as]; r != 10 {
		t.Errorf("R(s01 rock1 good, as) = %v, want 10", r)
	}
	if r := m.R[state("s00", "GGGGGGGG")][ams]; r != -100 {
		t.Errorf("R(s00, ams) = %v, want -100", r)
	}
}

// TestReadPOMDPXNames: multiple action variables give joint actions named
// "var=value,…"; a single state variable keeps its values as names; an
// MDP (every state variable fully observed) ignores observation variables,
// as SARSOP does.
func TestReadPOMDPXNames(t *testing.T) {
	vars := `<StateVar vnamePrev="pos_0" vnameCurr="pos_1" fullyObs="true"><ValueEnum>l r</ValueEnum></StateVar>
<ObsVar vname="o"><ValueEnum>o0 o1</ValueEnum></ObsVar>
<ActionVar vname="move"><ValueEnum>stay go</ValueEnum></ActionVar><ActionVar vname="talk"><ValueEnum>no yes</ValueEnum></ActionVar>`
	m, err := readPX(pxDoc(vars, pomdptest.PXCondProb("pos_0", "null", "l|1"), pomdptest.PXCondProb("pos_1", "move talk pos_0", "stay * - -|identity", "go * - -|0 1 1 0"),
		pomdptest.PXCondProb("o", "move pos_1", "* * -|uniform"), ""))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"move=stay,talk=no", "move=stay,talk=yes", "move=go,talk=no", "move=go,talk=yes"}; !slices.Equal(m.Actions, want) {
		t.Errorf("actions %q, want %q", m.Actions, want)
	}
	if !slices.Equal(m.States, []string{"l", "r"}) || !slices.Equal(m.Observations, []string{"l", "r"}) {
		t.Errorf("states %q observations %q, want the values of pos", m.States, m.Observations)
	}
	if p := m.TransitionProb(0, 3, 1); p != 1 {
		t.Errorf("T(l, go+yes, r) = %v, want 1", p)
	}
}

// TestReadPOMDPXErrors: each malformed file gives a *ParseError naming the
// file, the line and the element, with the message a user can act on.
func TestReadPOMDPXErrors(t *testing.T) {
	good := pxModel2(pomdptest.PXCondProb("s_1", "act s_0", "* - -|identity"))
	for _, tc := range []struct {
		name, src, want string
	}{
		{"empty", "", "t.pomdpx:1: no <pomdpx> element"},
		{"not XML", "discount: 0.9\n", "t.pomdpx:1: expected the <pomdpx> element, got text"},
		{"other root", "<model/>", "t.pomdpx:1: the root element is <model>"},
		{"truncated in a tag", good[:strings.Index(good, `type="TBL"`)+8], `t.pomdpx:9: XML: unterminated value of attribute type`},
		{"truncated between elements", good[:strings.Index(good, "<ObsFunction>")], "t.pomdpx:13: pomdpx: unexpected end of file inside <pomdpx> (opened at line 2)"},
		{"truncated in a table", good[:strings.Index(good, "identity")], "t.pomdpx:10: ProbTable: unexpected end of file inside <ProbTable> (opened at line 10)"},
		{"mis-nested", strings.Replace(good, "</Variable>", "</Variables>", 1), "t.pomdpx:5: Variable: </Variables> closes <Variable> (opened at line 4)"},
		{"unterminated comment", "<pomdpx><!-- x", "t.pomdpx:1: XML: unterminated comment"},
		{"unknown entity", "<pomdpx>\n<Discount>&pi;</Discount></pomdpx>", "t.pomdpx:2: XML: invalid character entity &pi;"},
		{"DD", strings.Replace(good, `<Parameter type="TBL">`, `<Parameter type="DD">`, 1), `t.pomdpx:9: StateTransitionFunction s_1 Parameter: type="DD" (decision diagrams) is not supported`},
		{"terminal reward", strings.Replace(good, `<RewardVar vname="r"/>`, `<TerminalStateRewardVar vname="t"/>`, 1), "TerminalStateRewardVar: terminal rewards are not supported"},
		{"no discount", strings.Replace(good, "<Discount>0.9</Discount>", "", 1), "no <Discount>"},
		{"discount out of range", strings.Replace(good, "<Discount>0.9</Discount>", "<Discount>1.5</Discount>", 1), "t.pomdpx:3: Discount: discount 1.5 outside [0, 1]"},
		{"unknown element", strings.Replace(good, "<Discount>", "<Discounts>0.9</Discounts><Discount>", 1), "t.pomdpx:3: Discounts: unknown element <Discounts> in <pomdpx>"},
		{"functions without variables", "<pomdpx><Discount>1</Discount><StateTransitionFunction/></pomdpx>", "t.pomdpx: pomdpx: no <Variable>"},

		{"unknown value", pxModel2(pomdptest.PXCondProb("s_1", "act s_0", "* - -|identity", "a s2 s0|1")), `t.pomdpx:11: StateTransitionFunction s_1 Instance: "s2" is not a value of s_0 (2 values: s0, s1)`},
		{"wrong instance length", pxModel2(pomdptest.PXCondProb("s_1", "act s_0", "* -|identity")), "StateTransitionFunction s_1 Instance: has 2 values, want 3 (act, s_0, s_1)"},
		{"wrong table length", pxModel2(pomdptest.PXCondProb("s_1", "act s_0", "* - -|0.5 0.5 1")), `ProbTable: has 3 numbers, want 4 (one per combination of the "-" positions: s_0 (2 values) × s_1 (2 values))`},
		{"not a number", pxModel2(pomdptest.PXCondProb("s_1", "act s_0", "* - -|1 0\n0 one")), `t.pomdpx:11: StateTransitionFunction s_1 ProbTable: expected a probability, got "one"`},
		{"negative", pxModel2(pomdptest.PXCondProb("s_1", "act s_0", "* - -|1 0 -0.5 1.5")), "probability -0.5 is negative"},
		{"keyword with numbers", pxModel2(pomdptest.PXCondProb("s_1", "act s_0", "* - -|identity 1")), `the keyword "identity" must be the whole <ProbTable>`},
		{"identity without two dashes", pxModel2(pomdptest.PXCondProb("s_1", "act s_0", "* * -|identity")), `"identity" needs an <Instance> ending in "-" with exactly one other "-"`},
		{"uniform with a value", pxModel2(pomdptest.PXCondProb("s_1", "act s_0", "* * s0|uniform")), `"uniform" needs "-" or "*" for s_1`},
		{"row sum", pxModel2(pomdptest.PXCondProb("s_1", "act s_0", "* - -|identity", "b s1 s0|0.5")), "t.pomdpx:11: StateTransitionFunction s_1: P(s_1 | act=b, s_0=s1) sums to 1.5, want 1 (within 1e-05)"},
		{"row never given", pxModel2(pomdptest.PXCondProb("s_1", "act s_0", "a - -|identity", "b s0 -|1 0")), "StateTransitionFunction s_1: P(s_1 | act=b, s_0=s1) is never specified"},
		{"missing transition", pxDoc(pxVars2, pxBelief2, "", pomdptest.PXCondProb("o", "act s_1", "* * -|uniform"), pomdptest.PXFunc("r", "act", "*|0")), "no <CondProb> gives the transition of s_1"},
		{"observation of a previous value", pxDoc(pxVars2, pxBelief2, pomdptest.PXCondProb("s_1", "act s_0", "* - -|identity"), pomdptest.PXCondProb("o", "act s_0", "* * -|uniform"), ""), "ObsFunction o Parent: an observation depends on next values; s_0 is a vnamePrev (use s_1)"},
		{"transition of a previous value", pxDoc(pxVars2, pxBelief2, pomdptest.PXCondProb("s_0", "act s_0", "* - -|identity"), "", ""), `StateTransitionFunction Var: "s_0" is a vnamePrev`},
		{"hidden next parent", strings.Replace(pxDoc(pxFactVars, "", pomdptest.PXCondProb("y_1", "act x_1 y_0", "* * * -|uniform"), "", ""), `fullyObs="true"`, "", 1), "StateTransitionFunction y_1 Parent: a transition may depend on the next value x_1 only if x_1 is fully observed and y_1 is not"},
		{"parent twice", pxModel2(pomdptest.PXCondProb("s_1", "act s_0 act", "* * * -|uniform")), `t.pomdpx:9: StateTransitionFunction s_1 Parent: act appears twice`},
		{"undeclared parent", pxModel2(pomdptest.PXCondProb("s_1", "act z_0", "* * -|uniform")), `StateTransitionFunction s_1 Parent: "z_0" is not a declared variable`},
		{"duplicate value", strings.Replace(good, "<ValueEnum>s0 s1</ValueEnum>", "<ValueEnum>s0 s0</ValueEnum>", 1), `ValueEnum: value "s0" appears twice`},
		{"duplicate variable", strings.Replace(good, `<ObsVar vname="o">`, `<ObsVar vname="s_0">`, 1), `variable name "s_0" is declared twice`},
		{"fullyObs value", strings.Replace(good, `vnameCurr="s_1"`, `vnameCurr="s_1" fullyObs="yes"`, 1), `fullyObs="yes": want "true" or "false"`},
		{"reward keyword", pxDoc(pxVars2, pxBelief2, pomdptest.PXCondProb("s_1", "act s_0", "* - -|identity"), pomdptest.PXCondProb("o", "act s_1", "* * -|uniform"), pomdptest.PXFunc("r", "act", "*|uniform")), `RewardFunction r ValueTable: the keyword "uniform" is for probabilities`},
		{"probtable in a Func", strings.Replace(good, "<ValueTable>2</ValueTable>", "<ProbTable>2</ProbTable>", 1), "a <Func> holds <ValueTable>"},
		{"encoding", strings.Replace(good, `<?xml version="1.0"?>`, `<?xml version="1.0" encoding="UTF-16"?>`, 1), `unsupported encoding "UTF-16"`},
		{"content after root", good + "<pomdpx/>", "content after </pomdpx>"},
		{"flat names collide", pxDoc(`<StateVar vnamePrev="a_0" vnameCurr="a_1"><ValueEnum>x x,b=y</ValueEnum></StateVar><StateVar vnamePrev="b_0" vnameCurr="b_1"><ValueEnum>y y,b=y</ValueEnum></StateVar><ActionVar vname="act"><ValueEnum>go</ValueEnum></ActionVar>`,
			pomdptest.PXCondProb("a_0", "null", "-|uniform")+pomdptest.PXCondProb("b_0", "null", "-|uniform"), pomdptest.PXCondProb("a_1", "act a_0", "* - -|identity")+pomdptest.PXCondProb("b_1", "act b_0", "* - -|identity"), "", ""),
			`t.pomdpx: the flat model is invalid: states: name "a=x,b=y,b=y" used for 1 and 2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readPX(tc.src)
			var pe *pomdp.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v (%T), want a *ParseError", err, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

// TestReadPOMDPXElementOrder: the sections of <pomdpx> may come in any
// order, as SARSOP's parser (a DOM) accepts them; a section before
// <Variable> gives the same model as in the usual order, and an error in
// it names its own line.
func TestReadPOMDPXElementOrder(t *testing.T) {
	parts := map[string]string{
		"D": "<Discount>0.9</Discount>\n",
		"V": "<Variable>\n" + pxVars2 + "\n</Variable>\n",
		"B": "<InitialStateBelief>\n" + pxBelief2 + "\n</InitialStateBelief>\n",
		"T": "<StateTransitionFunction>\n" + pomdptest.PXCondProb("s_1", "act s_0", "* - -|identity", "b s0 -|0.5 0.5") + "</StateTransitionFunction>\n",
		"O": "<ObsFunction>\n" + pomdptest.PXCondProb("o", "act s_1", "* - -|0.6 0.4 0.1 0.9") + "</ObsFunction>\n",
		"R": "<RewardFunction>\n" + pomdptest.PXFunc("r", "act s_0", "a s1|2", "b *|-1") + "</RewardFunction>\n",
	}
	doc := func(order string) string {
		var b strings.Builder
		b.WriteString("<pomdpx version=\"1.0\">\n")
		for _, k := range order {
			b.WriteString(parts[string(k)])
		}
		b.WriteString("</pomdpx>\n")
		return b.String()
	}
	want := dense2(t, [][]float64{{1, 0}, {0, 1}}, [][]float64{{0.5, 0.5}, {0, 1}})
	for _, order := range []string{"DVBTOR", "BTORVD", "RDOVTB", "TVDBRO"} {
		m, err := readPX(doc(order))
		if err != nil {
			t.Errorf("order %s: %v", order, err)
			continue
		}
		if err := pomdptest.SameModel(m, want); err != nil {
			t.Errorf("order %s: %v", order, err)
		}
	}
	// An error in the transition table, which comes first: line 3 holds
	// <CondProb> (line 1 <pomdpx>, line 2 <StateTransitionFunction>) and
	// line 4 the bad entry.
	parts["T"] = "<StateTransitionFunction>\n" + pomdptest.PXCondProb("s_1", "act s_0", "* - -|0.5 0.5 1") + "</StateTransitionFunction>\n"
	_, err := readPX(doc("TDVBOR"))
	if wantErr := `t.pomdpx:4: StateTransitionFunction s_1 ProbTable: has 3 numbers, want 4`; err == nil || !strings.Contains(err.Error(), wantErr) {
		t.Errorf("err = %v, want %q", err, wantErr)
	}
}

// TestReadPOMDPXSizeGuard: a joint state space past MaxSize is refused
// when <Variable> ends, naming the product, before any table exists (the
// file has none); so is a table with too many parent combinations.
func TestReadPOMDPXSizeGuard(t *testing.T) {
	var vars strings.Builder
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&vars, `<StateVar vnamePrev="v%d_0" vnameCurr="v%d_1"><NumValues>1000</NumValues></StateVar>`, i, i)
	}
	vars.WriteString(`<ActionVar vname="act"><NumValues>2</NumValues></ActionVar>`)
	src := "<pomdpx><Discount>1</Discount><Variable>" + vars.String() + "</Variable></pomdpx>"
	_, err := readPX(src)
	want := "t.pomdpx:1: Variable: the joint state space v0_0 (1000) × v1_0 (1000) × v2_0 (1000) × v3_0 (1000) = more than 1048576 exceeds the limit of 1048576 (see MaxSize)"
	if !errors.Is(err, pomdp.ErrTooLarge) || err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v\nwant ErrTooLarge and %q", err, want)
	}
	// |S|·|A| past MaxEntries.
	_, err = readPX(src, pomdp.MaxSize(1<<40), pomdp.MaxEntries(1e6))
	if !errors.Is(err, pomdp.ErrTooLarge) || !strings.Contains(err.Error(), "times 2 actions") {
		t.Errorf("err = %v, want ErrTooLarge naming |S|·|A|", err)
	}
	// Wildcards that expand past MaxEntries.
	_, err = readPX(pxModel2(pomdptest.PXCondProb("s_1", "act s_0", "* * *|0.5")), pomdp.MaxEntries(10))
	if !errors.Is(err, pomdp.ErrTooLarge) {
		t.Errorf("err = %v, want ErrTooLarge", err)
	}
}

// TestSimpleDecimal: the reader's fast path for plain decimals gives
// exactly strconv.ParseFloat's value, and leaves every other form to it.
func TestSimpleDecimal(t *testing.T) {
	for _, s := range []string{"0", "1", "-0", "0.5", "-2.5", "0.1", "0.3", "0.00048828125", "123456789012345", "9007199254740991",
		"0.10770795105162456", "1.", ".25", "5e-1", "+1", "1e22", "", "-", ".", "1.2.3", "inf", "0x1p-2", "00012.500", "0.0000000000000000000001", "0.00000000000000000000001"} {
		want, werr := strconv.ParseFloat(s, 64)
		got, ok := simpleDecimal([]byte(s))
		if ok && (werr != nil || math.Float64bits(got) != math.Float64bits(want)) {
			t.Errorf("simpleDecimal(%q) = %v, ParseFloat gives %v (%v)", s, got, want, werr)
		}
	}
	// Random decimals of up to 15 digits with up to 22 after the point.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		digits := strconv.FormatUint(rng.Uint64N(1_000_000_000_000_000), 10)
		k := rng.IntN(len(digits) + 8)
		s := digits
		if k > len(digits) {
			s = "0." + strings.Repeat("0", k-len(digits)) + digits
		} else if k > 0 {
			s = digits[:len(digits)-k] + "." + digits[len(digits)-k:]
		}
		want, _ := strconv.ParseFloat(s, 64)
		got, ok := simpleDecimal([]byte(s))
		if !ok || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("simpleDecimal(%q) = %v (%v), ParseFloat gives %v", s, got, ok, want)
		}
	}
}
