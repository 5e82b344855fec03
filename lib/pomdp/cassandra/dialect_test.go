package cassandra

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/pomdptest"
)

// TestReadCassandraPOMDPsJL: Tiger written in POMDPs.jl's dialect (a colon
// before every number, our hand-written file) is the same model as Tiger
// typed from its definition (tigerDense) and as its pomdp-solve form
// (datasets/models/tiger95.pomdp). On main it was refused at the first
// entry ("expected a probability, got ':'").
func TestReadCassandraPOMDPsJL(t *testing.T) {
	var src pomdp.Source
	m, err := loadFile(filepath.Join("..", "testdata", "tiger95-pomdpsjl.pomdp"), pomdp.Describe(&src))
	if err != nil {
		t.Fatal(err)
	}
	if err := pomdptest.SameModel(m, pomdp.Must(pomdp.New(pomdptest.TigerDense()))); err != nil {
		t.Errorf("against Tiger typed from its definition: %v", err)
	}
	std, err := loadFile(filepath.Join("..", "..", "..", "datasets", "models", "tiger95.pomdp"))
	if err != nil {
		t.Fatal(err)
	}
	if err := pomdptest.SameModel(m, std); err != nil {
		t.Errorf("against its pomdp-solve form: %v", err)
	}
	// 10 T, 12 O and 6 R statements; the first T: is on line 16.
	if src.Dialect != pomdp.DialectPOMDPsJL || src.DialectEntries != 28 || src.DialectLine != 16 {
		t.Errorf("Source = %+v, want the POMDPs.jl dialect, 28 statements, first on line 16", src)
	}
	want := ".pomdp, POMDPs.jl dialect (a colon before the numbers of 28 T:/O:/R: statements, the first on line 16)"
	if src.String() != want {
		t.Errorf("Source.String() = %q, want %q", src.String(), want)
	}
	var std2 pomdp.Source
	if _, err := loadFile(filepath.Join("..", "..", "..", "datasets", "models", "tiger95.pomdp"), pomdp.Describe(&std2)); err != nil || std2.Dialect != pomdp.DialectPOMDPSolve || std2.DialectEntries != 0 {
		t.Errorf("pomdp-solve file: %+v %v", std2, err)
	}
}

// TestReadCassandraDialectForms: every form of T:, O: and R: with the
// colon before its number(s) gives the model of the same statement in
// pomdp-solve's grammar.
func TestReadCassandraDialectForms(t *testing.T) {
	head := "discount: 0.9\nvalues: reward\nstates: a b\nactions: go stay\nobservations: x y\n"
	base := map[string]string{
		"T": "T: go identity\nT: stay identity\n",
		"O": "O: * uniform\n",
	}
	tests := []struct {
		name, dialect, standard string
		entries                 int
	}{
		{"T entry", "T: go : a : b : 1.0\nT: go : a : a : 0.0", "T: go : a : b 1.0\nT: go : a : a 0.0", 2},
		{"T entry wildcards", "T: * : * : a : 1\nT: * : * : b : 0", "T: * : * : a 1\nT: * : * : b 0", 2},
		{"T row", "T: go : a : 0.25 0.75", "T: go : a\n0.25 0.75", 1},
		{"T row uniform", "T: go : b : uniform", "T: go : b uniform", 1},
		{"T row reset", "T: go : b : reset", "T: go : b reset", 1},
		{"T matrix", "T: go : 0.5 0.5 0.0 1.0", "T: go\n0.5 0.5 0.0 1.0", 1},
		{"T matrix identity", "T: stay : identity", "T: stay identity", 1},
		{"O entry", "O: go : a : x : 0.25\nO: go : a : y : 0.75", "O: go : a : x 0.25\nO: go : a : y 0.75", 2},
		{"O row", "O: go : b : 0.1 0.9", "O: go : b\n0.1 0.9", 1},
		{"O matrix", "O: stay : 0.1 0.9 0.2 0.8", "O: stay\n0.1 0.9 0.2 0.8", 1},
		{"O matrix uniform", "O: stay : uniform", "O: stay uniform", 1},
		{"R single", "R: go : a : b : y : -3.5", "R: go : a : b : y -3.5", 1},
		{"R single wildcards", "R: * : * : * : * : +2.0", "R: * : * : * : * +2.0", 1},
		{"R row", "R: go : a : * : 1.0 -2.0", "R: go : a : *\n1.0 -2.0", 1},
		{"R matrix", "R: go : a : 1.0 2.0 3.0 4.0", "R: go : a\n1.0 2.0 3.0 4.0", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			build := func(stmts string) string {
				field := stmts[:1]
				rest := base["T"] + base["O"]
				if field == "T" {
					rest = base["O"] + base["T"]
				}
				return head + rest + stmts + "\n"
			}
			var src pomdp.Source
			got, err := Read(strings.NewReader(build(tc.dialect)), "d.pomdp", pomdp.Describe(&src))
			if err != nil {
				t.Fatalf("dialect: %v", err)
			}
			want, err := Read(strings.NewReader(build(tc.standard)), "s.pomdp")
			if err != nil {
				t.Fatalf("standard: %v", err)
			}
			if err := pomdptest.SameModel(got, want); err != nil {
				t.Error(err)
			}
			if src.Dialect != pomdp.DialectPOMDPsJL || src.DialectEntries != tc.entries {
				t.Errorf("Source %+v, want %d statements in the POMDPs.jl dialect", src, tc.entries)
			}
		})
	}
}

// TestReadCassandraDialectAmbiguity: an integer after the colon is a state
// or observation number, as pomdp-solve reads it; errors in dialect
// statements still name line and field.
func TestReadCassandraDialectAmbiguity(t *testing.T) {
	head := "discount: 0.9\nvalues: reward\nstates: 2\nactions: 1\nobservations: 2\nO: * uniform\n"
	// "T: 0 : 0 : 1 1.0" is pomdp-solve's entry T(0, 0, 1) = 1, not a row.
	var src pomdp.Source
	m, err := Read(strings.NewReader(head+"T: 0 : 0 : 1 1.0\nT: 0 : 1 : 1 1.0\n"), "n.pomdp", pomdp.Describe(&src))
	if err != nil {
		t.Fatal(err)
	}
	if m.TransitionProb(0, 0, 1) != 1 || src.Dialect != pomdp.DialectPOMDPSolve {
		t.Errorf("T(0,0,1) = %v, dialect %q; want 1, pomdp-solve", m.TransitionProb(0, 0, 1), src.Dialect)
	}
	for _, tc := range []struct{ stmts, want string }{
		{"T: 0 : 0 : 1 : x", `n.pomdp:7:16: T: expected a probability, got "x"`},
		{"T: 0 : 0 : -0.5 1.5", `n.pomdp:7:12: T: expected a probability, got a negative number`},
		{"T: 0 : 0 : 0.5", `n.pomdp:8:1: T: expected 2 numbers (a row of 2, "uniform" or "reset"), got only 1 before end of file`},
	} {
		_, err := Read(strings.NewReader(head+tc.stmts+"\n"), "n.pomdp")
		var pe *pomdp.ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.stmts, err, tc.want)
		}
	}
}
