package pomdpjson

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/pomdptest"
)

func roundTripJSON(t *testing.T, m *pomdp.Model) *pomdp.Model {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		t.Fatalf("Write: %v", err)
	}
	back, err := Read(&buf, "roundtrip.json")
	if err != nil {
		t.Fatalf("reading back the written JSON: %v\n%s", err, buf.String())
	}
	return back
}

func TestReadJSONTiger(t *testing.T) {
	want := pomdp.Must(pomdp.New(pomdptest.TigerDense()))
	m, err := loadFile(filepath.Join("..", "testdata", "tiger.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := pomdptest.SameModel(m, want); err != nil {
		t.Errorf("testdata/tiger.json: %v", err)
	}
	if m.Name != "tiger" {
		t.Errorf("Name = %q, want tiger (from the document)", m.Name)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	models := map[string]*pomdp.Model{"tiger": pomdp.Must(pomdp.New(pomdptest.TigerDense()))}
	// Names that the .pomdp format cannot hold, no discount, a Kron kernel.
	odd := &pomdp.Model{Name: "odd \"names\"", States: []string{"(0,0)", "état 1", "s\n2", "3"}, Actions: []string{"go", "stay put"},
		Observations: []string{"⊥", "T"},
		T: []pomdp.Kernel{pomdp.NewKron([][]float64{{0.5, 0.5}, {0, 1}}, [][]float64{{1, 0}, {1.0 / 3, 2.0 / 3}}),
			pomdp.NewSparseDense([][]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}})},
		Z:  []*pomdp.Sparse{pomdp.NewSparseDense([][]float64{{1, 0}, {0, 1}, {0.1, 0.9}, {1, 0}}), pomdp.NewSparseDense([][]float64{{1, 0}, {1, 0}, {1, 0}, {1, 0}})},
		R:  [][]float64{{0, 1e-300}, {-2.5, 0}, {1e300, 3}, {0.1, 0.2}},
		B0: []float64{0.1, 0.2, 0.3, 0.4}}
	if err := odd.Validate(); err != nil {
		t.Fatal(err)
	}
	models["odd"] = odd
	// Our own classic-style files (the twins of the third-party ones, which
	// TestJSONRoundTripShared reads).
	for _, tc := range pomdptest.TwinFiles {
		m, err := loadFile(filepath.Join("..", "testdata", "twins", tc.File))
		if err != nil {
			t.Fatal(err)
		}
		models[tc.File] = m
	}
	for name, m := range models {
		t.Run(name, func(t *testing.T) { checkJSONRoundTrip(t, m) })
	}
}

// checkJSONRoundTrip writes m as JSON, reads it back and compares every
// number exactly (kernels in their sparse form) and the name.
func checkJSONRoundTrip(t *testing.T, m *pomdp.Model) {
	t.Helper()
	back := roundTripJSON(t, m)
	want := pomdptest.ShallowCopy(m)
	want.T = make([]pomdp.Kernel, len(m.T))
	for a, k := range m.T {
		want.T[a] = pomdp.SparseKernel(k)
	}
	if err := pomdptest.SameModel(back, want); err != nil {
		t.Error(err)
	}
	if back.Name != m.Name {
		t.Errorf("Name = %q, want %q", back.Name, m.Name)
	}
}

// TestJSONRoundTripShared: the classic files (third-party, beside the
// repository) survive a JSON round trip; each must parse. Twin:
// TestJSONRoundTrip.
func TestJSONRoundTripShared(t *testing.T) {
	for _, tc := range pomdptest.SharedFiles {
		t.Run(tc.File, func(t *testing.T) {
			m, err := loadFile(shared.Path(t, "TestJSONRoundTrip", "pomdp", tc.File))
			if err != nil {
				t.Fatal(err)
			}
			checkJSONRoundTrip(t, m)
		})
	}
}

// TestReadJSONForms reads the alternative forms of each field; expected
// values are hand computations from the documents.
func TestReadJSONForms(t *testing.T) {
	src := `{
  "states": ["a", "b"], "actions": ["x"], "observations": ["p", "q"],
  "start": {"b": 1},
  "transitions": [{"action": "x", "from": "a", "to": "b", "p": 1}, {"action": "x", "from": "b", "to": "b", "p": 0.999999}],
  "observation_model": {"x": [[0.25, 0.75], [1, 0]]},
  "rewards": [{"action": "x", "state": "b", "r": -3.5}]
}`
	m, err := Read(strings.NewReader(src), "dir/forms.json")
	if err != nil {
		t.Fatal(err)
	}
	want := pomdptest.DenseWant{States: []string{"a", "b"}, Actions: []string{"x"}, Obs: []string{"p", "q"},
		T: [][][]float64{{{0, 1}, {0, 1}}}, Z: [][][]float64{{{0.25, 0.75}, {1, 0}}},
		R: [][]float64{{0}, {-3.5}}, B0: []float64{0, 1}}
	if m.HasDiscount {
		t.Errorf("HasDiscount true without a discount field")
	}
	m.HasDiscount = true // checkDense expects a discount of 0
	pomdptest.CheckDense(t, m, want, 0)
	if m.Name != "forms" {
		t.Errorf("Name = %q, want forms (from the file name)", m.Name)
	}
}

func TestReadJSONErrors(t *testing.T) {
	const head = `"states": ["a", "b"], "actions": ["x"], "observations": ["p"]`
	const okTZ = `"transitions": {"x": [[1, 0], [0, 1]]}, "observation_model": {"x": [[1], [1]]}`
	cases := []struct {
		name string
		src  string
		opts []pomdp.ReadOption
		want []string
		big  bool
	}{
		{"syntax error with line", "{\n" + head + ",\n  \"transitions\": [,]\n}", nil, []string{"bad.json:3:"}, false},
		{"not an object", `[1, 2]`, nil, []string{"bad.json:1:", "must be a JSON object"}, false},
		{"null document", `null`, nil, []string{"must be a JSON object"}, false},
		{"trailing data", `{` + head + `, ` + okTZ + `} x`, nil, []string{"bad.json:1:"}, false},
		{"unknown field", `{` + head + `, ` + okTZ + `, "reward": []}`, nil, []string{`bad.json: reward: unknown field`}, false},
		{"missing states", `{"actions": ["x"]}`, nil, []string{"bad.json: states: missing"}, false},
		{"empty names", `{"states": [], "actions": ["x"], "observations": ["p"]}`, nil, []string{"states: need at least one state"}, false},
		{"duplicate names", `{"states": ["a", "a"]}`, nil, []string{`states[1]: name "a" is also states[0]`}, false},
		{"empty name", `{"states": ["a", ""]}`, nil, []string{`states[1]: empty name`}, false},
		{"names not strings", `{"states": [1, 2]}`, nil, []string{"states: expected a string, got number"}, false},
		{"discount out of range", `{` + head + `, "discount": 2}`, nil, []string{"discount: 2 is outside [0, 1]"}, false},
		{"discount not a number", `{` + head + `, "discount": "0.9"}`, nil, []string{"discount: expected a number, got string"}, false},
		{"start wrong length", `{` + head + `, "start": [1]}`, nil, []string{"start: has 1 entries, want 2"}, false},
		{"start bad sum", `{` + head + `, "start": [0.5, 0.6]}`, nil, []string{"start: probabilities sum to 1.1"}, false},
		{"start negative", `{` + head + `, "start": [-0.5, 1.5]}`, nil, []string{"start[0]: probability -0.5 is negative"}, false},
		{"start unknown state", `{` + head + `, "start": {"c": 1}}`, nil, []string{`start: unknown state "c"`}, false},
		{"start wrong type", `{` + head + `, "start": "uniform"}`, nil, []string{"start: expected an array of 2 probabilities"}, false},
		{"missing transitions", `{` + head + `}`, nil, []string{"transitions: missing"}, false},
		{"transition unknown state", `{` + head + `, "transitions": [{"action": "x", "from": "a", "to": "c", "p": 1}]}`, nil, []string{`transitions[0].to: unknown state "c"`}, false},
		{"transition missing p", `{` + head + `, "transitions": [{"action": "x", "from": "a", "to": "a"}]}`, nil, []string{"transitions[0].p: missing"}, false},
		{"transition unknown key", `{` + head + `, "transitions": [{"action": "x", "from": "a", "to": "a", "prob": 1}]}`, nil, []string{`transitions[0]: unknown field "prob"`}, false},
		{"transition p not a number", `{` + head + `, "transitions": [{"action": "x", "from": "a", "to": "a", "p": "1"}]}`, nil, []string{"transitions[0].p: expected a number, got string"}, false},
		{"transition negative", `{` + head + `, "transitions": [{"action": "x", "from": "a", "to": "a", "p": -1}]}`, nil, []string{"transitions[0].p: probability -1 is negative"}, false},
		{"transition duplicate", `{` + head + `, "transitions": [{"action": "x", "from": "a", "to": "a", "p": 1}, {"action": "x", "from": "a", "to": "a", "p": 1}]}`, nil, []string{`transitions[1]: duplicate entry for action "x", from "a", to "a" (also transitions[0])`}, false},
		{"transition row not stochastic", `{` + head + `, "transitions": [{"action": "x", "from": "a", "to": "a", "p": 0.5}, {"action": "x", "from": "b", "to": "a", "p": 1}], "observation_model": {"x": [[1], [1]]}}`, nil, []string{`transitions: the row of action "x", state "a" sums to 0.5`}, false},
		{"transition row missing", `{` + head + `, "transitions": [{"action": "x", "from": "a", "to": "a", "p": 1}], "observation_model": {"x": [[1], [1]]}}`, nil, []string{`transitions: the row of action "x", state "b" is never specified`}, false},
		{"dense unknown action", `{` + head + `, "transitions": {"y": [[1, 0], [0, 1]]}}`, nil, []string{`transitions: unknown action "y"`}, false},
		{"dense wrong rows", `{` + head + `, "transitions": {"x": [[1, 0]]}}`, nil, []string{"transitions.x: has 1 rows, want 2"}, false},
		{"dense wrong row length", `{` + head + `, "transitions": {"x": [[1, 0], [1]]}}`, nil, []string{"transitions.x[1]: has 1 entries, want 2"}, false},
		{"dense negative", `{` + head + `, "transitions": {"x": [[1, 0], [-1, 2]]}}`, nil, []string{"transitions.x[1][0]: probability -1 is negative"}, false},
		{"observation unknown obs", `{` + head + `, "transitions": {"x": [[1, 0], [0, 1]]}, "observation_model": [{"action": "x", "to": "a", "obs": "q", "p": 1}]}`, nil, []string{`observation_model[0].obs: unknown observation "q"`}, false},
		{"observation row missing", `{` + head + `, "transitions": {"x": [[1, 0], [0, 1]]}, "observation_model": [{"action": "x", "to": "a", "obs": "p", "p": 1}]}`, nil, []string{`observation_model: the row of action "x", end state "b" is never specified`}, false},
		{"reward unknown state", `{` + head + `, ` + okTZ + `, "rewards": [{"action": "x", "state": "z", "r": 1}]}`, nil, []string{`rewards[0].state: unknown state "z"`}, false},
		{"reward missing r", `{` + head + `, ` + okTZ + `, "rewards": [{"action": "x", "state": "a"}]}`, nil, []string{"rewards[0].r: missing"}, false},
		{"reward duplicate", `{` + head + `, ` + okTZ + `, "rewards": [{"action": "x", "state": "a", "r": 1}, {"action": "x", "state": "a", "r": 2}]}`, nil, []string{"rewards[1]: duplicate entry"}, false},
		{"dense rewards wrong length", `{` + head + `, ` + okTZ + `, "rewards": {"x": [1]}}`, nil, []string{"rewards.x: has 1 entries, want 2"}, false},
		{"number out of range", `{` + head + `, ` + okTZ + `, "rewards": {"x": [1e999, 0]}}`, nil, []string{"rewards.x: expected a number, got number 1e999"}, false},
		{"too many states", `{"states": ["a", "b", "c"]}`, []pomdp.ReadOption{pomdp.MaxSize(2)}, []string{"states: 3 states exceed the limit of 2"}, true},
		{"states × actions over limit", `{"states": ["a", "b", "c"], "actions": ["x", "y"], "observations": ["p"]}`, []pomdp.ReadOption{pomdp.MaxEntries(5)}, []string{"3 states × 2 actions exceed the limit of 5"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Read(strings.NewReader(tc.src), "bad.json", tc.opts...)
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

// FuzzReadJSON: no input panics; accepted models are valid and survive a
// Write→Read round trip exactly.
func FuzzReadJSON(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "testdata", "tiger.json")); err == nil {
		f.Add(string(b))
	}
	var buf bytes.Buffer
	if err := Write(&buf, pomdp.Must(pomdp.New(pomdptest.TigerDense()))); err == nil {
		f.Add(buf.String())
	}
	f.Add(`{"states": ["a", "b"], "actions": ["x"], "observations": ["p", "q"], "start": {"b": 1},
"transitions": [{"action": "x", "from": "a", "to": "b", "p": 1}, {"action": "x", "from": "b", "to": "b", "p": 0.999999}],
"observation_model": {"x": [[0.25, 0.75], [1, 0]]}, "rewards": [{"action": "x", "state": "b", "r": -3.5}]}`)
	f.Add(`{"states": ["a"], "actions": ["x"], "observations": ["p"], "discount": 1, "transitions": {"x": [[1]]}, "observation_model": {"x": [[1]]}, "rewards": {"x": [2]}}`)
	f.Add(`{"states": ["a"], "actions": ["x"], "observations": ["p", "q"], "ground": {"name": "g", "observations": ["q", "p"], "matrix": [[0, 0.5], [0.5, 0]]}, "transitions": {"x": [[1]]}, "observation_model": {"x": [[0.5, 0.5]]}}`)
	f.Add(`{"states": ["a"], "actions": ["x"], "observations": ["p", "q"], "ground": "discrete", "transitions": {"x": [[1]]}, "observation_model": {"x": [[0.5, 0.5]]}}`)
	buf.Reset() // a reward of the next state and the observation
	if m, err := cassandra.Read(strings.NewReader(pomdptest.DetailPOMDP), "detail.pomdp"); err == nil && Write(&buf, m) == nil {
		f.Add(buf.String())
	}
	f.Add(`[]`)
	f.Add(`{"states": null}`)
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Read(strings.NewReader(src), "fuzz.json", pomdp.MaxSize(1<<12), pomdp.MaxEntries(1<<16))
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
		var out bytes.Buffer
		if err := Write(&out, m); err != nil {
			t.Fatal(err)
		}
		back, err := Read(&out, "fuzz.json")
		if err != nil {
			t.Fatalf("reading back: %v\n%s", err, out.String())
		}
		if err := pomdptest.SameModel(back, m); err != nil {
			t.Fatalf("round trip: %v", err)
		}
		if back.Name != m.Name {
			t.Fatalf("Name %q, want %q", back.Name, m.Name)
		}
	})
}

func BenchmarkReadJSON(b *testing.B) {
	m := pomdptest.SyntheticModel(2000, 5, 20)
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		b.Fatal(err)
	}
	src := buf.Bytes()
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Read(bytes.NewReader(src), "bench.json"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteJSON(b *testing.B) {
	m := pomdptest.SyntheticModel(2000, 5, 20)
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, m); err != nil {
			b.Fatal(err)
		}
	}
}
