package pomdp

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func tigerModel(t *testing.T) *Model {
	t.Helper()
	m, err := New(tigerDense())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestValidateMessages breaks one entry of a valid Tiger model at a time
// and checks the *EntryError names it.
func TestValidateMessages(t *testing.T) {
	cases := []struct {
		name   string
		break_ func(m *Model)
		want   string
		field  string
	}{
		{"no states", func(m *Model) { m.States = nil }, "pomdp: tiger: sizes: need at least one state, action and observation (have 0, 3, 2)", "sizes"},
		{"empty name", func(m *Model) { m.Actions = []string{"listen", "", "x"} }, "pomdp: tiger: actions: name 1 is empty", "actions"},
		{"duplicate name", func(m *Model) { m.Observations = []string{"o", "o"} }, `pomdp: tiger: observations: name "o" used for 0 and 1`, "observations"},
		{"discount", func(m *Model) { m.Discount = 1.5 }, "pomdp: tiger: discount: discount 1.5 outside [0, 1]", "discount"},
		{"NaN discount", func(m *Model) { m.Discount = math.NaN() }, "discount NaN outside [0, 1]", "discount"},
		{"missing kernel", func(m *Model) { m.T = m.T[:2] }, "pomdp: tiger: T: have 2 transition kernels for 3 actions", "T"},
		{"wrong kernel size", func(m *Model) { m.T[1] = NewSparseDense([][]float64{{1}}) }, "pomdp: tiger: T[open-left]: kernel is 1×1, want 2×2", "T"},
		{"malformed kernel", func(m *Model) { m.T[1] = &Sparse{Rows: 2, Cols: 2, RowPtr: []int{0, 1}} }, "T[open-left]: malformed sparse matrix: RowPtr has 2 entries, want 3", "T"},
		{"negative T", func(m *Model) { m.T[0] = NewSparseDense([][]float64{{1.5, -0.5}, {0, 1}}) }, "pomdp: tiger: T(tiger-left, listen, tiger-right): probability -0.5 is not a finite non-negative number", "T"},
		{"NaN T", func(m *Model) { m.T[0] = NewSparseDense([][]float64{{math.NaN(), 1}, {0, 1}}) }, "T(tiger-left, listen, tiger-left): probability NaN", "T"},
		{"T row sum", func(m *Model) { m.T[2] = NewSparseDense([][]float64{{0.5, 0.5}, {0.5, 0.6}}) }, "pomdp: tiger: T(tiger-right, open-right, ·): row sums to 1.1, want 1 (within 1e-09)", "T"},
		{"Z row sum", func(m *Model) { m.Z[0] = NewSparseDense([][]float64{{0.85, 0.15}, {0.15, 0.8}}) }, "pomdp: tiger: Z(tiger-right, listen, ·): row sums to 0.95", "Z"},
		{"Z negative", func(m *Model) { m.Z[0] = NewSparseDense([][]float64{{1.5, -0.5}, {0, 1}}) }, "Z(tiger-left, listen, tiger-right): probability -0.5", "Z"},
		{"Z size", func(m *Model) { m.Z[0] = NewSparseDense([][]float64{{1}, {1}}) }, "Z[listen]: kernel is 2×1, want 2×2", "Z"},
		{"nil Z", func(m *Model) { m.Z[1] = nil }, "Z[open-left]: missing observation kernel for action open-left", "Z"},
		{"R rows", func(m *Model) { m.R = m.R[:1] }, "pomdp: tiger: R: have 1 reward rows for 2 states", "R"},
		{"R infinite", func(m *Model) { m.R[1][2] = math.Inf(1) }, "pomdp: tiger: R(tiger-right, open-right): reward +Inf is not finite", "R"},
		{"b0 length", func(m *Model) { m.B0 = []float64{1} }, "b0: has 1 entries for 2 states", "b0"},
		{"b0 negative", func(m *Model) { m.B0 = []float64{-0.5, 1.5} }, "b0(tiger-left): probability -0.5", "b0"},
		{"b0 sum", func(m *Model) { m.B0 = []float64{0.5, 0.4} }, "pomdp: tiger: b0: sums to 0.9, want 1", "b0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := tigerModel(t)
			tc.break_(m)
			err := m.Validate()
			var ee *EntryError
			if !errors.As(err, &ee) {
				t.Fatalf("Validate = %v, want an *EntryError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if ee.Field != tc.field {
				t.Errorf("Field = %q, want %q", ee.Field, tc.field)
			}
		})
	}
	if err := tigerModel(t).Validate(); err != nil {
		t.Errorf("valid Tiger: %v", err)
	}
}

func TestNewShapeErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(d *Dense)
		want   string
	}{
		{"T actions", func(d *Dense) { d.T = d.T[:1] }, "T: has 1 actions, want 3"},
		{"Z actions", func(d *Dense) { d.Z = d.Z[:1] }, "Z: has 1 actions, want 3"},
		{"T rows", func(d *Dense) { d.T[0] = d.T[0][:1] }, "T[listen]: has 1 rows, want 2"},
		{"T row length", func(d *Dense) { d.T[0] = [][]float64{{1}, {0, 1}} }, "T(tiger-left, listen, ·): row has 1 entries, want 2"},
		{"Z row length", func(d *Dense) { d.Z[1] = [][]float64{{1}, {0, 1}} }, "Z(tiger-left, open-left, ·): row has 1 entries, want 2"},
		{"invalid entry", func(d *Dense) { d.B0 = []float64{0.7, 0.7} }, "b0: sums to 1.4"},
	} {
		d := tigerDense()
		tc.break_(&d)
		_, err := New(d)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: New = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	// Defaults: nil R is zero, nil B0 is uniform.
	d := tigerDense()
	d.R, d.B0 = nil, nil
	m, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	if m.R[1][2] != 0 || m.B0[0] != 0.5 {
		t.Errorf("defaults: R = %v, B0 = %v", m.R, m.B0)
	}
}

// TestUpdate checks Bayes' rule on Tiger (hand computation): from the
// uniform belief, listening and hearing tiger-left has probability 0.5 and
// gives (0.85, 0.15); hearing it again has probability
// 0.85·0.85 + 0.15·0.15 = 0.745 and gives (0.7225, 0.0225)/0.745.
func TestUpdate(t *testing.T) {
	m := tigerModel(t)
	listen, left := m.ActionIndex("listen"), m.ObsIndex("tiger-left")
	cases := []struct {
		name     string
		b        []float64
		a, o     int
		wantPost []float64
		wantProb float64
	}{
		{"first listen", []float64{0.5, 0.5}, listen, left, []float64{0.85, 0.15}, 0.5},
		{"second listen", []float64{0.85, 0.15}, listen, left, []float64{0.7225 / 0.745, 0.0225 / 0.745}, 0.745},
		{"open resets", []float64{1, 0}, m.ActionIndex("open-left"), left, []float64{0.5, 0.5}, 0.5},
		{"certain belief", []float64{0, 1}, listen, m.ObsIndex("tiger-right"), []float64{0, 1}, 0.85},
	}
	for _, tc := range cases {
		post, prob := m.Update(tc.b, tc.a, tc.o)
		if !(math.Abs(prob-tc.wantProb) <= 1e-15) {
			t.Errorf("%s: prob = %v, want %v", tc.name, prob, tc.wantProb)
		}
		for s := range tc.wantPost {
			if !(math.Abs(post[s]-tc.wantPost[s]) <= 1e-15) {
				t.Errorf("%s: post = %v, want %v", tc.name, post, tc.wantPost)
				break
			}
		}
	}
	// An impossible observation gives a nil posterior and probability 0.
	d := tigerDense()
	d.Z[0] = [][]float64{{1, 0}, {1, 0}}
	m2 := Must(New(d))
	if post, prob := m2.Update([]float64{0.5, 0.5}, 0, 1); post != nil || prob != 0 {
		t.Errorf("impossible observation: post %v prob %v, want nil 0", post, prob)
	}
	// ObsProbs and Observe agree with Update.
	pred := make([]float64, 2)
	m.Predict(pred, []float64{0.85, 0.15}, listen)
	probs := make([]float64, 2)
	m.ObsProbs(probs, pred, listen)
	if !(math.Abs(probs[left]-0.745) <= 1e-15) || !(math.Abs(probs[0]+probs[1]-1) <= 1e-15) {
		t.Errorf("ObsProbs = %v, want [0.745 0.255]", probs)
	}
	joint := make([]float64, 2)
	if tot := m.Observe(joint, pred, listen, left); !(math.Abs(tot-0.745) <= 1e-15) {
		t.Errorf("Observe total = %v, want 0.745", tot)
	}
	if allocs := testing.AllocsPerRun(10, func() { m.Observe(joint, pred, listen, left) }); allocs != 0 {
		t.Errorf("Observe allocates %v times", allocs)
	}
}

func TestModelAccessors(t *testing.T) {
	m := tigerModel(t)
	if got := m.String(); got != "tiger: |S|=2 |A|=3 |O|=2" {
		t.Errorf("String = %q", got)
	}
	if m.StateIndex("tiger-right") != 1 || m.ActionIndex("open-right") != 2 || m.ObsIndex("nope") != -1 {
		t.Errorf("index lookups wrong")
	}
	states, probs := m.ObsColumn(0, 0)
	if len(states) != 2 || probs[0] != 0.85 || probs[1] != 0.15 {
		t.Errorf("ObsColumn(listen, tiger-left) = %v %v", states, probs)
	}
	km := &Model{Name: "k", States: []string{"a", "b", "c", "d"}, Actions: []string{"x"}, Observations: []string{"o"},
		T: []Kernel{NewKron([][]float64{{0.5, 0.5}, {0, 1}}, [][]float64{{0.25, 0.75}, {1, 0}})},
		Z: []*Sparse{NewSparseDense([][]float64{{1}, {1}, {1}, {1}})}, R: [][]float64{{0}, {0}, {0}, {0}}, B0: Uniform(4)}
	if err := km.Validate(); err != nil {
		t.Fatal(err)
	}
	// T(0, x, 3): digits (0,0) → (1,1): 0.5·0.75.
	if got := km.TransitionProb(0, 0, 3); got != 0.375 {
		t.Errorf("Kron TransitionProb = %v, want 0.375", got)
	}
	defer func() {
		if r := recover(); r == nil {
			t.Errorf("Must did not panic on an error")
		}
	}()
	Must(New(Dense{}))
}

// tigerDense is the Tiger problem as written in tiger.95.POMDP (Cassandra,
// Kaelbling & Littman 1994): listening is 85% accurate, opening resets.
func tigerDense() Dense {
	u := [][]float64{{0.5, 0.5}, {0.5, 0.5}}
	return Dense{
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
