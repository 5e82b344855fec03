package cassandra

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/pomdptest"
)

// TestSafeNames: the documented rule, applied by hand to each input.
func TestSafeNames(t *testing.T) {
	tests := []struct {
		names []string
		want  []string
		renam []pomdp.Rename
	}{
		{[]string{"L", "R"}, []string{"L", "R_"}, []pomdp.Rename{{Space: "observations", Written: "R_", Original: "R"}}},
		{[]string{"a", "b"}, []string{"a", "b"}, nil},
		// "R_" is taken by a kept name: "R_2" (k = 2) is next.
		{[]string{"R", "R_"}, []string{"R_2", "R_"}, []pomdp.Rename{{Space: "observations", Written: "R_2", Original: "R"}}},
		// Not starting with a letter: "x" is prefixed.
		{[]string{"0", "b"}, []string{"x0", "b"}, []pomdp.Rename{{Space: "observations", Written: "x0", Original: "0"}}},
		// Two names sanitizing to the same base: the second gets "_".
		{[]string{"a b", "a.b"}, []string{"a_b", "a_b_"}, []pomdp.Rename{{Space: "observations", Written: "a_b", Original: "a b"}, {Space: "observations", Written: "a_b_", Original: "a.b"}}},
		// One "_" per character, not per byte of its UTF-8 encoding.
		{[]string{"été"}, []string{"x_t_"}, []pomdp.Rename{{Space: "observations", Written: "x_t_", Original: "été"}}},
		{[]string{""}, []string{"x"}, []pomdp.Rename{{Space: "observations", Written: "x", Original: ""}}},
		// Keywords: "uniform" → "uniform_".
		{[]string{"uniform", "T"}, []string{"uniform_", "T_"}, []pomdp.Rename{{Space: "observations", Written: "uniform_", Original: "uniform"}, {Space: "observations", Written: "T_", Original: "T"}}},
	}
	for _, tc := range tests {
		got, rs, err := pomdp.SafeNames("observations", tc.names, isCassandraName)
		if err != nil {
			t.Fatalf("%q: %v", tc.names, err)
		}
		if !slices.Equal(got, tc.want) || !slices.Equal(rs, tc.renam) {
			t.Errorf("SafeNames(%q) = %q %v, want %q %v", tc.names, got, rs, tc.want, tc.renam)
		}
	}
	// A predicate that refuses everything: an error, not a loop or a panic.
	if _, _, err := pomdp.SafeNames("states", []string{"a"}, func(string) bool { return false }); err == nil {
		t.Error("SafeNames with a predicate refusing every name: no error")
	}
}

// TestRenameComment: String and ParseRename are inverse, for names with
// every kind of character, and the text fits a comment of either format.
func TestRenameComment(t *testing.T) {
	for _, orig := range []string{"R", "a b", "line\nbreak", `quote"d`, "été", "a--b", "-", "x-->y", "\x00", "#"} {
		r := pomdp.Rename{Space: "states", Written: "x_1", Original: orig}
		text := r.String()
		if strings.ContainsAny(text, "\n\r") || strings.Contains(text, "--") {
			t.Errorf("%q: comment text %q holds a line break or \"--\"", orig, text)
		}
		for _, c := range text {
			if c > 0x7e {
				t.Errorf("%q: comment text %q is not ASCII", orig, text)
				break
			}
		}
		back, ok, err := pomdp.ParseRename("  " + text + " ")
		if err != nil || !ok || back != r {
			t.Errorf("ParseRename(%q) = %+v, %v, %v; want %+v", text, back, ok, err, r)
		}
	}
	for _, tc := range []struct {
		text   string
		ok     bool
		errSub string
	}{
		{"written by pomdpq WriteCassandra", false, ""},
		{`pomdpq-renamed states a "b"`, false, ""},
		{`pomdpq-rename states a`, true, "expected"},
		{`pomdpq-rename rewards a "b"`, true, "unknown space"},
		{`pomdpq-rename states a b`, true, "not a quoted string"},
		{`pomdpq-rename states a "b`, true, "not a quoted string"},
	} {
		_, ok, err := pomdp.ParseRename(tc.text)
		if ok != tc.ok || (tc.errSub == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.errSub) {
			t.Errorf("ParseRename(%q): ok %v err %v; want ok %v and an error containing %q", tc.text, ok, err, tc.ok, tc.errSub)
		}
	}
}

// renamedTiger is Tiger with the paper's names (observation "R", a
// keyword of the .pomdp format) and a few more names the format cannot
// hold.
func renamedTiger(t *testing.T) *pomdp.Model {
	t.Helper()
	d := pomdptest.TigerDense()
	d.States = []string{"tiger left", "0"}
	d.Actions = []string{"listen", "open-left", "uniform"}
	d.Observations = []string{"L", "R"}
	return pomdp.Must(pomdp.New(d))
}

// TestWriteCassandraRenames: a model whose names the format cannot hold is
// written (it was refused), reads back to the same model with its names,
// and the file is an ordinary .pomdp file for other readers.
func TestWriteCassandraRenames(t *testing.T) {
	m := renamedTiger(t)
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		t.Fatalf("Write refused the model: %v", err)
	}
	text := buf.String()
	for _, want := range []string{
		"# pomdpq-rename states tiger_left \"tiger left\"\n",
		"# pomdpq-rename states x0 \"0\"\n",
		"# pomdpq-rename actions uniform_ \"uniform\"\n",
		"# pomdpq-rename observations R_ \"R\"\n",
		"states: tiger_left x0\n", "observations: L R_\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("written file lacks %q:\n%s", want, text)
		}
	}
	var src pomdp.Source
	back, err := Read(strings.NewReader(text), "t.pomdp", pomdp.Describe(&src))
	if err != nil {
		t.Fatal(err)
	}
	want := pomdptest.ShallowCopy(m)
	want.Name = "t"
	if err := pomdptest.SameModel(back, want); err != nil {
		t.Errorf("round trip: %v", err)
	}
	if len(src.Renames) != 4 || src.Renames[3] != (pomdp.Rename{Space: "observations", Written: "R_", Original: "R"}) {
		t.Errorf("Source.Renames = %v", src.Renames)
	}
	if got := Renames(m); !slices.Equal(got, src.Renames) {
		t.Errorf("Renames = %v, want the renames the reader restored %v", got, src.Renames)
	}
	// Without the comments (as pomdp-solve and SARSOP read it): the same
	// model under the written names.
	var plain []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "#") {
			plain = append(plain, l)
		}
	}
	other, err := Read(strings.NewReader(strings.Join(plain, "\n")), "t.pomdp")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(other.Observations, []string{"L", "R_"}) || !slices.Equal(other.States, []string{"tiger_left", "x0"}) {
		t.Errorf("without comments: names %q %q", other.States, other.Observations)
	}
	other.States, other.Actions, other.Observations = m.States, m.Actions, m.Observations
	if err := pomdptest.SameModel(other, want); err != nil {
		t.Errorf("without comments: %v", err)
	}
	// A model that needs no rename has no rename comment.
	buf.Reset()
	if err := Write(&buf, pomdptest.SyntheticModel(3, 2, 2)); err != nil || strings.Contains(buf.String(), pomdp.RenameTag) {
		t.Errorf("a model with valid names: err %v, file mentions %s:\n%s", err, pomdp.RenameTag, buf.String())
	}
}

// TestWriteCassandraRandomNames: random names of any characters round trip.
func TestWriteCassandraRandomNames(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 2))
	alphabet := []rune("aR0_- \t\n#:*\"\\é-TO")
	name := func() string {
		r := make([]rune, rng.IntN(4))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(r)
	}
	unique := func(n int) []string {
		seen := map[string]bool{}
		var out []string
		for len(out) < n {
			s := name()
			if s != "" && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		return out
	}
	for i := 0; i < 200; i++ {
		m := pomdptest.SyntheticModel(4, 3, 3)
		m.States, m.Actions, m.Observations = unique(4), unique(3), unique(3)
		back := roundTripCassandra(t, m)
		want := pomdptest.ShallowCopy(m)
		want.Name = "roundtrip"
		if err := pomdptest.SameModel(back, want); err != nil {
			t.Fatalf("names %q %q %q: %v", m.States, m.Actions, m.Observations, err)
		}
	}
}

// TestReadCassandraRenameErrors: rename comments that do not fit the file
// are errors naming the line.
func TestReadCassandraRenameErrors(t *testing.T) {
	body := "discount: 0.9\nvalues: reward\nstates: a b\nactions: go\nobservations: o\nT: go identity\nO: go uniform\n"
	for _, tc := range []struct {
		head string
		line int
		want string
	}{
		{"# pomdpq-rename states c \"x\"\n", 1, `the file has no state "c"`},
		{"#\n# pomdpq-rename states a \"b\"\n", 2, `the state "b" exists already`},
		{"# pomdpq-rename states a \"x\"\n# pomdpq-rename states b \"x\"\n", 2, `the state "x" exists already`},
		{"# pomdpq-rename states a x\n", 1, "not a quoted string"},
		{"# pomdpq-rename states a \"\"\n", 1, "empty"},
	} {
		_, err := Read(strings.NewReader(tc.head+body), "r.pomdp")
		var pe *pomdp.ParseError
		if !errors.As(err, &pe) || pe.Line != tc.line || !strings.Contains(err.Error(), tc.want) || pe.Field != "rename comment" {
			t.Errorf("%q: err %v, want a ParseError on line %d containing %q", tc.head, err, tc.line, tc.want)
		}
	}
	// Rename comments after the first statement are ordinary comments.
	m, err := Read(strings.NewReader(body+"# pomdpq-rename states c \"x\"\n"), "r.pomdp")
	if err != nil || m.States[0] != "a" {
		t.Errorf("a rename comment below the header: %v", err)
	}
}
