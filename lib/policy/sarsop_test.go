package policy

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// counterValue is the value at b0 of the Tiger policy "listen until one
// observation leads by 2, then open the other door" (datasets/policies),
// derived by hand: with p = 0.85 (a correct observation), q = 0.15 and γ =
// 0.95, and W(d) the value at lead d for the tiger behind the left door,
//
//	W(0)  = −1 + γ(p W(1) + q W(−1))
//	W(1)  = −1 + γ(p (10 + γ W(0)) + q W(0))        (lead 2: open right, +10, restart)
//	W(−1) = −1 + γ(p W(0) + q (−100 + γ W(0)))      (lead −2: open left, −100, restart)
//
// so W(0) = c / (1 − k) with the c and k below (the right door is the same
// by symmetry). It is pomdp-solve's value of tiger.95, 19.3713683744.
func counterValue() float64 {
	g, p, q := 0.95, 0.85, 0.15
	gp, gq := g*p, g*q
	c := -1 + gp*(-1+10*gp) + gq*(-1-100*gq)
	k := gp*(g*gp+gq) + gq*(gp+g*gq)
	return c / (1 - k)
}

// TestReadPolicySARSOP: SARSOP's own Tiger.policy on Tiger. SARSOP printed
// the lower bound 19.3713 (../shared/data/pomdpx/README.md). SARSOP prints
// every number with C++'s default 6 significant digits (AlphaPlane::write),
// so each vector entry here is within 5e-5 of the vector SARSOP held and
// the printed bound within 5e-5 of its bound: max_α α·b0 may differ from
// the printed value by at most 1e-4. Twin: TestCounterPolicyFile, our own
// .policy of Tiger against the hand-derived value.
func TestReadPolicySARSOP(t *testing.T) {
	pol := shared.Path(t, "TestCounterPolicyFile", "pomdpx", "Tiger.policy")
	m, err := modelfile.Load(shared.Path(t, "TestCounterPolicyFile", "pomdp", "Tiger.pomdp"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := LoadPolicy(pol, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Vectors) != 5 || p.VectorLength != 2 || p.NumObsValue != 1 || p.Model != "Tiger.pomdpx" {
		t.Fatalf("read %d vectors of length %d, %d obsValues, model %q", len(p.Vectors), p.VectorLength, p.NumObsValue, p.Model)
	}
	lb, best, err := p.LowerBound(m.B0)
	if err != nil {
		t.Fatal(err)
	}
	const printed, tol = 19.3713, 1e-4
	if math.Abs(lb-printed) > tol || best[0] != 4 {
		t.Errorf("lower bound at b0 %.10g (vector %d), SARSOP printed %g (tolerance %g), vector 4", lb, best[0], printed, tol)
	}
	// The same bound against the hand-derived optimal value.
	if math.Abs(lb-counterValue()) > tol {
		t.Errorf("lower bound %.10g, hand-derived optimum %.10g", lb, counterValue())
	}
	g, err := EvaluateGreedy(context.Background(), m, p, 300, GreedyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !(g.Low <= counterValue() && counterValue() <= g.High) || g.Low > lb+tol {
		t.Errorf("bracket [%g, %g] of the greedy policy: want it to hold the optimum %.10g and to reach the lower bound %g", g.Low, g.High, counterValue(), lb)
	}
}

// TestCounterPolicyFile: our own .policy (datasets/policies) holds the
// counter's vectors; its lower bound at b0 is the hand-derived value, and
// acting greedily on its vectors is the counter (the finite-horizon value
// of the graph, by policy.Evaluate).
func TestCounterPolicyFile(t *testing.T) {
	m := tiger95(t)
	p, err := LoadPolicy(filepath.Join("..", "..", "datasets", "policies", "tiger95-counter.policy"), m)
	if err != nil {
		t.Fatal(err)
	}
	lb, _, err := p.LowerBound(m.B0)
	if err != nil {
		t.Fatal(err)
	}
	if want := counterValue(); math.Abs(lb-want) > 1e-9*want {
		t.Errorf("lower bound at b0 %.15g, hand-derived %.15g", lb, want)
	}
	c, err := LoadPG(filepath.Join("..", "..", "datasets", "policies", "tiger95-counter.pg"), m)
	if err != nil {
		t.Fatal(err)
	}
	for _, T := range []int{1, 2, 5, 20} {
		g, err := EvaluateGreedy(context.Background(), m, p, T, GreedyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ev, err := Evaluate(m, c, T)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(g.Value-ev.Start[0]) > 1e-9*math.Max(1, math.Abs(ev.Start[0])) {
			t.Errorf("T = %d: greedy on the vectors %.12g, the counter graph from node 0 %.12g", T, g.Value, ev.Start[0])
		}
		if g.Horizon != T || g.Stopped != "" {
			t.Errorf("T = %d: horizon %d, stopped %q", T, g.Horizon, g.Stopped)
		}
	}
	g, err := EvaluateGreedy(context.Background(), m, p, 400, GreedyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := counterValue(); !(g.Low <= want && want <= g.High) || g.High-g.Low > 1e-5 {
		t.Errorf("T = 400: bracket [%.12g, %.12g] (width %g), want it to hold %.12g and be narrower than 1e-5", g.Low, g.High, g.High-g.Low, want)
	}
}

// TestEvaluateGreedyListen: one vector, always listen: the value over T
// steps is −(1 − γ^T)/(1 − γ) and the discounted value −1/(1 − γ) = −20.
func TestEvaluateGreedyListen(t *testing.T) {
	m := tiger95(t)
	p := &VectorPolicy{VectorLength: 2, NumObsValue: 1, Vectors: []ObsVector{{Alpha: Alpha{Action: 0, V: []float64{-20, -20}}}}}
	for _, T := range []int{1, 3, 50, 1000} {
		g, err := EvaluateGreedy(context.Background(), m, p, T, GreedyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := -(1 - math.Pow(0.95, float64(T))) / 0.05
		if math.Abs(g.Value-want) > 1e-9 || !(g.Low <= -20 && -20 <= g.High) {
			t.Errorf("T = %d: value %.12g, want %.12g; bracket [%g, %g] must hold −20", T, g.Value, want, g.Low, g.High)
		}
		if tail := math.Pow(0.95, float64(T)) * 100 / 0.05; math.Abs(g.Tail-tail) > 1e-9*tail {
			t.Errorf("T = %d: tail %g, want γ^T·100/(1−γ) = %g", T, g.Tail, tail)
		}
	}
}

// TestEvaluateGreedyTree: three plans (listen forever; open a door, then
// listen forever), whose greedy policy opens after two agreeing
// observations; the stepwise evaluation with merged beliefs equals a plain
// expansion of the belief tree.
func TestEvaluateGreedyTree(t *testing.T) {
	m := tiger95(t)
	// Hand-derived: listen forever −20; open left then listen: −100 − 19
	// with the tiger left, 10 − 19 right.
	p := &VectorPolicy{VectorLength: 2, NumObsValue: 1, Vectors: []ObsVector{
		{Alpha: Alpha{Action: 0, V: []float64{-20, -20}}},
		{Alpha: Alpha{Action: 1, V: []float64{-119, -9}}},
		{Alpha: Alpha{Action: 2, V: []float64{-9, -119}}},
	}}
	lb, best, err := p.LowerBound(m.B0)
	if err != nil || lb != -20 || best[0] != 0 {
		t.Fatalf("lower bound %v (vector %v, %v), want −20 from vector 0", lb, best, err)
	}
	var tree func(b []float64, T int) float64
	tree = func(b []float64, T int) float64 {
		if T == 0 {
			return 0
		}
		_, best, _ := p.LowerBound(b)
		a := p.Vectors[best[0]].Action
		v := 0.0
		for s := range b {
			v += b[s] * m.R[s][a]
		}
		for o := range m.Observations {
			post, po := m.Update(b, a, o)
			if po > 0 {
				v += m.Discount * po * tree(post, T-1)
			}
		}
		return v
	}
	for _, T := range []int{1, 2, 4, 10} {
		g, err := EvaluateGreedy(context.Background(), m, p, T, GreedyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if want := tree(m.B0, T); math.Abs(g.Value-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("T = %d: %.12g, tree %.12g", T, g.Value, want)
		}
	}
	// A budget of 2 beliefs per step stops at step 1 (b0 listens to 2 beliefs,
	// which then listen to 3 different beliefs).
	g, err := EvaluateGreedy(context.Background(), m, p, 10, GreedyOptions{MaxBeliefs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if g.Horizon != 2 || g.Stopped == "" || math.Abs(g.Value-tree(m.B0, 2)) > 1e-12 {
		t.Errorf("budget 2: horizon %d (stopped %q), value %v; want horizon 2 with the 2-step value %v", g.Horizon, g.Stopped, g.Value, tree(m.B0, 2))
	}
	// A budget of 3 visits: steps 0 and 1 visit 1 + 2 beliefs, then stop.
	g, err = EvaluateGreedy(context.Background(), m, p, 10, GreedyOptions{MaxVisits: 3})
	if err != nil {
		t.Fatal(err)
	}
	if g.Horizon != 2 || !strings.Contains(g.Stopped, "MaxVisits 3") || math.Abs(g.Value-tree(m.B0, 2)) > 1e-12 {
		t.Errorf("3 visits: horizon %d (stopped %q), value %v", g.Horizon, g.Stopped, g.Value)
	}
}

// momdp returns a model with a fully observed part x ∈ {0, 1} and a hidden
// part y ∈ {0, 1}, states numbered x·2 + y: action "stay" keeps the state,
// "flip" draws x anew (each value with probability ½); the observation is (x', hint on y) with a hint correct
// with probability 0.75; reward 1 in (x, y) = (1, 1) for stay. reveal false
// makes the observation the hint only.
func momdp(t *testing.T, reveal bool, b0 []float64) *pomdp.Model {
	t.Helper()
	id := [][]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
	flip := [][]float64{{0.5, 0, 0.5, 0}, {0, 0.5, 0, 0.5}, {0.5, 0, 0.5, 0}, {0, 0.5, 0, 0.5}}
	z := [][]float64{ // observations (x, hint): 00, 01, 10, 11
		{0.75, 0.25, 0, 0}, {0.25, 0.75, 0, 0}, {0, 0, 0.75, 0.25}, {0, 0, 0.25, 0.75}}
	obs := []string{"x0h0", "x0h1", "x1h0", "x1h1"}
	if !reveal {
		z = [][]float64{{0.75, 0.25}, {0.25, 0.75}, {0.75, 0.25}, {0.25, 0.75}}
		obs = []string{"h0", "h1"}
	}
	return pomdp.Must(pomdp.New(pomdp.Dense{
		States: []string{"x0y0", "x0y1", "x1y0", "x1y1"}, Actions: []string{"stay", "flip"}, Observations: obs,
		T: [][][]float64{id, flip}, Z: [][][]float64{z, z},
		R: [][]float64{{0, 0}, {0, 0}, {0, 0}, {1, 0}}, B0: b0, Discount: 0.9, HasDiscount: true,
	}))
}

// TestVectorPolicyMixed: vectors indexed by the fully observed part act as
// the flat vectors padded with a very low value outside their part.
func TestVectorPolicyMixed(t *testing.T) {
	mixed := &VectorPolicy{VectorLength: 2, NumObsValue: 2, Vectors: []ObsVector{
		{Alpha: Alpha{Action: 1, V: []float64{3, 4}}, ObsValue: 0},
		{Alpha: Alpha{Action: 0, V: []float64{0, 10}}, ObsValue: 1},
		{Alpha: Alpha{Action: 1, V: []float64{2, 1}}, ObsValue: 1},
	}}
	const low = -1e6
	flat := &VectorPolicy{VectorLength: 4, NumObsValue: 1}
	for _, v := range mixed.Vectors {
		w := []float64{low, low, low, low}
		copy(w[2*v.ObsValue:], v.V)
		flat.Vectors = append(flat.Vectors, ObsVector{Alpha: Alpha{Action: v.Action, V: w}})
	}
	m := momdp(t, true, []float64{0, 0, 0.5, 0.5})
	lb, best, err := mixed.LowerBound(m.B0)
	if err != nil || lb != 5 || best[0] != -1 || best[1] != 1 {
		t.Errorf("mixed lower bound %v %v %v, want 0.5·0 + 0.5·10 = 5 from vector 1", lb, best, err)
	}
	for _, T := range []int{1, 3, 8} {
		gm, err := EvaluateGreedy(context.Background(), m, mixed, T, GreedyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		gf, err := EvaluateGreedy(context.Background(), m, flat, T, GreedyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(gm.Value-gf.Value) > 1e-12 || gm.Split {
			t.Errorf("T = %d: mixed %v, flat padded %v (split %v)", T, gm.Value, gf.Value, gm.Split)
		}
	}
	// b0 over both parts: split (the lower bound sums over the parts).
	m2 := momdp(t, true, []float64{0.25, 0.25, 0.25, 0.25})
	lb, _, err = mixed.LowerBound(m2.B0)
	if want := 0.25*3 + 0.25*4 + 0.25*0 + 0.25*10; err != nil || math.Abs(lb-want) > 1e-12 {
		t.Errorf("lower bound over both parts %v, want %v", lb, want)
	}
	if g, err := EvaluateGreedy(context.Background(), m2, mixed, 3, GreedyOptions{}); err != nil || !g.Split {
		t.Errorf("split b0: %+v %v", g, err)
	}
	// A model that hides x: refused at the step where the belief spreads.
	_, err = EvaluateGreedy(context.Background(), momdp(t, false, []float64{0.25, 0.25, 0.25, 0.25}), mixed, 3, GreedyOptions{})
	if err == nil || !strings.Contains(err.Error(), "does not reveal the fully observed part") {
		t.Errorf("hidden x: err %v", err)
	}
	// A part with mass and no vector.
	nov := &VectorPolicy{VectorLength: 2, NumObsValue: 2, Vectors: mixed.Vectors[:1]}
	if _, _, err := nov.LowerBound(m.B0); err == nil || !strings.Contains(err.Error(), "obsValue 1") {
		t.Errorf("no vector for obsValue 1: %v", err)
	}
	// Written and read back.
	var buf bytes.Buffer
	if err := WritePolicy(&buf, mixed); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPolicy(&buf, "mixed.policy", m)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, mixed) {
		t.Errorf("round trip: %+v, want %+v", back, mixed)
	}
}

// TestPolicyRoundTrip: WritePolicy then ReadPolicy gives the policy back
// bit for bit, dense and sparse, and the layout is SARSOP's.
func TestPolicyRoundTrip(t *testing.T) {
	p := &VectorPolicy{Model: `a "model" & <more>`, VectorLength: 3, NumObsValue: 1, Vectors: []ObsVector{
		{Alpha: Alpha{Action: 2, V: []float64{0.1, -1e-300, 1.0 / 3}}},
		{Alpha: Alpha{Action: 0, V: []float64{0, 5, 0}}, Sparse: true},
		{Alpha: Alpha{Action: 1, V: []float64{0, 0, 0}}, Sparse: true},
	}}
	var buf bytes.Buffer
	if err := WritePolicy(&buf, p); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{
		"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<Policy version=\"0.1\" type=\"value\" model=\"a &#34;model&#34; &amp; &lt;more&gt;\"",
		"<AlphaVector vectorLength=\"3\" numObsValue=\"1\" numVectors=\"3\">\n",
		"<Vector action=\"2\" obsValue=\"0\">0.1 -1e-300 0.3333333333333333 </Vector>\n",
		"<SparseVector action=\"0\" obsValue=\"0\"><Entry>1 5</Entry></SparseVector>\n",
		"<SparseVector action=\"1\" obsValue=\"0\"></SparseVector>\n",
		"</AlphaVector> </Policy>\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("written file lacks %q:\n%s", want, text)
		}
	}
	back, err := ReadPolicy(strings.NewReader(text), "p.policy", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, p) {
		t.Errorf("round trip: %+v, want %+v", back, p)
	}
	for _, bad := range []*VectorPolicy{
		{VectorLength: 2, NumObsValue: 1},
		{VectorLength: 2, NumObsValue: 1, Vectors: []ObsVector{{Alpha: Alpha{V: []float64{1}}}}},
		{VectorLength: 1, NumObsValue: 1, Vectors: []ObsVector{{Alpha: Alpha{V: []float64{math.NaN()}}}}},
		{VectorLength: 1, NumObsValue: 1, Vectors: []ObsVector{{Alpha: Alpha{V: []float64{1}}, ObsValue: 1}}},
	} {
		if err := WritePolicy(&bytes.Buffer{}, bad); err == nil {
			t.Errorf("WritePolicy(%+v): no error", bad)
		}
	}
}

const tigerPolicy = `<?xml version="1.0" encoding="ISO-8859-1"?>
<Policy version="0.1" type="value" model="Tiger.pomdpx">
<AlphaVector vectorLength="2" numObsValue="1" numVectors="2">
<Vector action="2" obsValue="0">28.4028 -81.5972 </Vector>
<Vector action="0" obsValue="0">19.3713 19.3713 </Vector>
</AlphaVector> </Policy>
`

// TestReadPolicyErrors: broken files are refused with the line, the vector
// and the field.
func TestReadPolicyErrors(t *testing.T) {
	m := tiger95(t)
	swap := func(old, new string) string {
		if !strings.Contains(tigerPolicy, old) {
			t.Fatalf("%q not in the test policy", old)
		}
		return strings.Replace(tigerPolicy, old, new, 1)
	}
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "p.policy: empty file"},
		{"not XML", "hello", "p.policy:1: expected the root element <Policy>"},
		{"truncated", tigerPolicy[:len(tigerPolicy)/2], "p.policy:3: the file ends inside an element (truncated?)"},
		{"truncated text", tigerPolicy[:strings.Index(tigerPolicy, "19.3713")], "truncated"},
		{"wrong root", swap("<Policy", "<Polic"), "p.policy:2: expected the root element <Policy>, got <Polic>"},
		{"type", swap(`type="value"`, `type="graph"`), `p.policy:2: Policy, type: "graph"`},
		{"no AlphaVector", "<Policy></Policy>", "expected <AlphaVector>, got </Policy>"},
		{"vectorLength missing", swap(`vectorLength="2" `, ""), "p.policy:3: AlphaVector: missing the attribute vectorLength"},
		{"vectorLength model", swap(`vectorLength="2"`, `vectorLength="3"`), "p.policy:3: AlphaVector, vectorLength: 3, but the model has 2 states"},
		{"vectorLength text", swap(`vectorLength="2"`, `vectorLength="two"`), `p.policy:3: AlphaVector, vectorLength: expected a non-negative integer, got "two"`},
		{"numObsValue", swap(`numObsValue="1"`, `numObsValue="2"`), "vectorLength 2 × numObsValue 2 = 4 states, but the model has 2"},
		{"numVectors", swap(`numVectors="2"`, `numVectors="5"`), "p.policy:3: AlphaVector, numVectors: says 5 vectors, the element holds 2"},
		{"action range", swap(`action="2"`, `action="3"`), "p.policy:4: vector 0, action: 3 is not an action of the model (3 actions, 0 … 2)"},
		{"action text", swap(`action="0"`, `action="-1"`), `p.policy:5: vector 1, action: expected a non-negative integer, got "-1"`},
		{"action missing", swap(`action="0" `, ""), "p.policy:5: vector 1: missing the attribute action"},
		{"obsValue missing", swap(`action="0" obsValue="0"`, `action="0"`), "p.policy:5: vector 1: missing the attribute obsValue"},
		{"obsValue range", swap(`action="0" obsValue="0"`, `action="0" obsValue="1"`), "p.policy:5: vector 1, obsValue: 1 is out of range (numObsValue is 1: 0 … 0)"},
		{"short", swap("19.3713 19.3713", "19.3713"), "p.policy:5: vector 1: 1 numbers, want vectorLength = 2"},
		{"long", swap("19.3713 19.3713", "1 2 3"), "p.policy:5: vector 1: 3 numbers, want vectorLength = 2"},
		{"number", swap("-81.5972", "-81.5x"), `p.policy:4: vector 0, entry 1: expected a finite number, got "-81.5x"`},
		{"nan", swap("-81.5972", "nan"), `vector 0, entry 1: expected a finite number, got "nan"`},
		{"inf", swap("-81.5972", "-inf"), `vector 0, entry 1: expected a finite number, got "-inf"`},
		{"mis-nested", swap("</Vector>\n<Vector", "</AlphaVector>\n<Vector"), "p.policy:4: not well-formed XML"},
		{"unknown element", swap(`<Vector action="0"`, `<Vec action="0"`), "expected"},
		{"no vectors", "<Policy><AlphaVector vectorLength=\"2\"></AlphaVector></Policy>", "p.policy:1: AlphaVector: no vectors"},
		{"after Policy", tigerPolicy + "<x/>", "unexpected <x> after </Policy>"},
		{"two AlphaVector", swap("</AlphaVector> </Policy>", "</AlphaVector><AlphaVector vectorLength=\"2\"></AlphaVector></Policy>"), "expected </Policy> after </AlphaVector>"},
		{"sparse entry", swap(`<Vector action="0" obsValue="0">19.3713 19.3713 </Vector>`, `<SparseVector action="0" obsValue="0"><Entry>1</Entry></SparseVector>`), `p.policy:5: vector 1, Entry: expected "index value", got "1"`},
		{"sparse index", swap(`<Vector action="0" obsValue="0">19.3713 19.3713 </Vector>`, `<SparseVector action="0" obsValue="0"><Entry>2 1.0</Entry></SparseVector>`), `vector 1, Entry: index "2" is not a state 0 … 1`},
		{"sparse twice", swap(`<Vector action="0" obsValue="0">19.3713 19.3713 </Vector>`, `<SparseVector action="0" obsValue="0"><Entry>1 1.0</Entry><Entry>1 2.0</Entry></SparseVector>`), "vector 1, Entry 1: index given twice"},
		{"sparse value", swap(`<Vector action="0" obsValue="0">19.3713 19.3713 </Vector>`, `<SparseVector action="0" obsValue="0"><Entry>1 x</Entry></SparseVector>`), `vector 1, Entry 1: expected a finite number, got "x"`},
		{"sparse text", swap(`<Vector action="0" obsValue="0">19.3713 19.3713 </Vector>`, `<SparseVector action="0" obsValue="0">1 2</SparseVector>`), `vector 1: expected <Entry> or </SparseVector>, got the text "1 2"`},
		{"encoding", strings.Replace(tigerPolicy, "ISO-8859-1", "EBCDIC", 1), "EBCDIC"},
	}
	for _, tc := range tests {
		_, err := ReadPolicy(strings.NewReader(tc.text), "p.policy", m)
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want a *ParseError containing %q", tc.name, err, tc.want)
		}
	}
	// The same file is fine for the model, and in Latin-1 with a comment.
	latin := strings.Replace(tigerPolicy, `model="Tiger.pomdpx"`, "model=\"Tig\xe9r\"", 1) + "<!-- end -->\n"
	p, err := ReadPolicy(strings.NewReader(latin), "p.policy", m)
	if err != nil || p.Model != "Tigér" {
		t.Errorf("Latin-1 file: %v, model %q", err, p.Model)
	}
}

// FuzzReadPolicy: no input panics; whatever is read writes and reads back
// to the same policy.
func FuzzReadPolicy(f *testing.F) {
	f.Add(tigerPolicy)
	f.Add(`<Policy><AlphaVector vectorLength="3" numObsValue="2"><SparseVector action="1" obsValue="1"><Entry>2 -4.5</Entry></SparseVector></AlphaVector></Policy>`)
	f.Add(`<Policy><AlphaVector vectorLength="1"><Vector action="0" obsValue="0">1e308</Vector></AlphaVector></Policy>`)
	f.Add(tigerPolicy[:100])
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ReadPolicy(strings.NewReader(text), "f.policy", nil)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WritePolicy(&buf, p); err != nil {
			t.Fatalf("writing what was read: %v", err)
		}
		back, err := ReadPolicy(&buf, "f.policy", nil)
		if err != nil {
			t.Fatalf("reading back: %v\n%s", err, buf.String())
		}
		if back.VectorLength != p.VectorLength || back.NumObsValue != p.NumObsValue || !reflect.DeepEqual(back.Vectors, p.Vectors) {
			t.Fatalf("round trip differs:\n%+v\n%+v", back, p)
		}
	})
}
