package pomdpx_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/randmodel"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/pomdptest"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpx"
)

// roundTripPOMDPX writes m with Write, reads it back and checks that
// the model is the same entry by entry (a model without a discount comes
// back with discount 1, the value written). It returns the file.
func roundTripPOMDPX(t *testing.T, m *pomdp.Model) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := pomdpx.Write(&buf, m); err != nil {
		t.Fatalf("Write: %v", err)
	}
	back, err := pomdpx.Read(bytes.NewReader(buf.Bytes()), "roundtrip.pomdpx")
	if err != nil {
		t.Fatalf("reading back: %v", err)
	}
	want := &pomdp.Model{Name: m.Name, States: m.States, Actions: m.Actions, Observations: m.Observations,
		Discount: m.Discount, HasDiscount: m.HasDiscount, T: m.T, Z: m.Z, R: m.R, Rewards: m.Rewards, B0: m.B0}
	if !want.HasDiscount {
		want.HasDiscount, want.Discount = true, 1
	}
	if err := pomdptest.SameModel(back, want); err != nil {
		t.Errorf("round trip: %v", err)
	}
	return buf.Bytes()
}

// TestWritePOMDPXBuiltins: every built-in model (netmon at 5 nodes, the
// others at their example sizes, RockSample(7,8) and Tag included) reads
// back identical, and the file stays linear in the non-zeros: nothing like
// a dense |S|×|S| table is written for a sparse kernel.
func TestWritePOMDPXBuiltins(t *testing.T) {
	names := []string{"rocksample:5:3", "netmon:5"}
	for _, n := range bench.Names() {
		if !strings.HasPrefix(n.Example, "netmon") {
			names = append(names, n.Example)
		}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			b, err := bench.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			m := b.Model
			file := roundTripPOMDPX(t, m)
			nnz := 0
			for a := range m.Actions {
				nnz += m.T[a].NNZ() + m.Z[a].NNZ()
			}
			// An entry is at most ~80 bytes plus two names; rows and
			// rewards add |S|·|A|·(a few numbers).
			maxName := 0
			for _, s := range m.States {
				maxName = max(maxName, len(s))
			}
			limit := (100+2*maxName)*nnz + 64*len(m.States)*len(m.Actions) + 4096
			if len(file) > limit {
				t.Errorf("file has %d bytes for %d non-zeros, more than %d", len(file), nnz, limit)
			}
		})
	}
}

// TestWritePOMDPXRandom: random models, dense and sparse, with random
// initial beliefs, rewards and discounts, including the implicit names
// s0, o0, a0 written as <NumValues>.
func TestWritePOMDPXRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 2))
	for i := 0; i < 30; i++ {
		nS, nA, nO := 1+rng.IntN(9), 1+rng.IntN(4), 1+rng.IntN(5)
		d := randmodel.Dense(fmt.Sprint("random", i), nS, nA, nO, randmodel.Sparse(rng, 0.5))
		d.B0 = randmodel.Sparse(rng, 0.3)(nS)
		d.R = make([][]float64, nS)
		for s := range d.R {
			d.R[s] = make([]float64, nA)
			for a := range d.R[s] {
				if rng.IntN(3) > 0 {
					d.R[s][a] = math.Round(rng.NormFloat64()*1000) / 7
				}
			}
		}
		d.HasDiscount = i%3 != 0
		d.Discount = rng.Float64()
		m, err := pomdp.New(d)
		if err != nil {
			t.Fatal(err)
		}
		file := roundTripPOMDPX(t, m)
		if !bytes.Contains(file, []byte(fmt.Sprintf("<NumValues>%d</NumValues>", nS))) {
			t.Errorf("model %d: the implicit state names are not written as <NumValues>", i)
		}
	}
}

// TestWritePOMDPXModelFiles: every model file of datasets/models reads
// back identical.
func TestWritePOMDPXModelFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "datasets", "models", "*"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if ext := filepath.Ext(f); ext != ".pomdp" && ext != ".json" {
			continue
		}
		n++
		t.Run(filepath.Base(f), func(t *testing.T) {
			m, err := modelfile.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			roundTripPOMDPX(t, m)
		})
	}
	if n < 20 {
		t.Errorf("found %d model files in datasets/models, want the 20 or more the repository has", n)
	}
}

// TestWritePOMDPXNames: names that need XML escaping (<, &, quotes) are
// written escaped; names the format cannot hold (white space, the
// wildcards "*" and "-", control characters) are written renamed, the
// renames listed in comments before the root; reading back gives the
// model with its names either way. Leading digits and non-ASCII letters
// are values POMDPX holds, kept as they are; "a b" and "a\tb" both
// sanitise to "a_b", a name the model already has, and get "a_b_",
// "a_b_2"; "*" and "-" sanitise to "x_" (SafeNames prefixes "x" to a
// name that does not start with a letter) and get "x_", "x__".
func TestWritePOMDPXNames(t *testing.T) {
	states := []string{"a<b", "c&d", "two words", "*", "-", "0", "a_b", "a b", "a\tb", "bell\a"}
	n := len(states)
	id := make([][]float64, n)
	z := make([][]float64, n)
	for i := range id {
		id[i] = make([]float64, n)
		id[i][i] = 1
		z[i] = []float64{1, 0}
	}
	m, err := pomdp.New(pomdp.Dense{Name: "awkward", States: states, Actions: []string{"\"x\"", "'y'", "go on"}, Observations: []string{"ü", "R"},
		T: [][][]float64{id, id, id}, Z: [][][]float64{z, z, z}})
	if err != nil {
		t.Fatal(err)
	}
	file := string(roundTripPOMDPX(t, m))
	want := []pomdp.Rename{{Space: "states", Written: "two_words", Original: "two words"}, {Space: "states", Written: "x_", Original: "*"},
		{Space: "states", Written: "x__", Original: "-"}, {Space: "states", Written: "a_b_", Original: "a b"}, {Space: "states", Written: "a_b_2", Original: "a\tb"},
		{Space: "states", Written: "bell_", Original: "bell\a"}, {Space: "actions", Written: "go_on", Original: "go on"}}
	if got := pomdpx.Renames(m); !slices.Equal(got, want) {
		t.Errorf("renames %v\nwant %v", got, want)
	}
	root := strings.Index(file, "<pomdpx")
	for _, r := range want {
		c := "<!-- " + r.String() + " -->\n"
		if k := strings.Index(file, c); k < 0 || k > root {
			t.Errorf("no %q before the root element", c)
		}
	}
	for _, esc := range []string{"a&lt;b", "c&amp;d", "&#34;x&#34;", "&#39;y&#39;", " 0 ", "ü"} {
		if !strings.Contains(file, esc) {
			t.Errorf("the file lacks %q", esc)
		}
	}
	var src pomdp.Source
	if _, err := pomdpx.Read(strings.NewReader(file), "awkward.pomdpx", pomdp.Describe(&src)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(src.Renames, want) || src.Format != "pomdpx" {
		t.Errorf("Source: %+v", src)
	}
	// Without the comments (as SARSOP reads it): the written names.
	var plain []string
	for _, l := range strings.Split(file, "\n") {
		if !strings.Contains(l, pomdp.RenameTag) {
			plain = append(plain, l)
		}
	}
	other, err := pomdpx.Read(strings.NewReader(strings.Join(plain, "\n")), "plain.pomdpx")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(other.States, " "); got != "a<b c&d two_words x_ x__ 0 a_b a_b_ a_b_2 bell_" {
		t.Errorf("without the comments: states %q", got)
	}
	// A bad rename comment is an error naming its line.
	bad := strings.Replace(file, `pomdpq-rename states x_ "*"`, `pomdpq-rename states nothere "*"`, 1)
	_, err = pomdpx.Read(strings.NewReader(bad), "bad.pomdpx")
	if err == nil || !strings.Contains(err.Error(), `bad.pomdpx:6: rename comment: pomdpq-rename states nothere "*": the file has no state "nothere"`) {
		t.Errorf("err = %v", err)
	}
}

// TestPOMDPXTigerMatchesBuiltin: our hand-written testdata/tiger.pomdpx is
// the built-in Tiger, every entry within 1e-15 (the built-in stores
// 1 − 0.85, the file 0.15), apart from the discount the file adds.
func TestPOMDPXTigerMatchesBuiltin(t *testing.T) {
	got, err := modelfile.Load(filepath.Join("..", "testdata", "tiger.pomdpx"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	want := b.Model
	if strings.Join(got.States, " ") != strings.Join(want.States, " ") || strings.Join(got.Actions, " ") != strings.Join(want.Actions, " ") ||
		strings.Join(got.Observations, " ") != strings.Join(want.Observations, " ") {
		t.Fatalf("names %v %v %v, want %v %v %v", got.States, got.Actions, got.Observations, want.States, want.Actions, want.Observations)
	}
	for a := range want.Actions {
		for s := range want.States {
			if math.Abs(got.R[s][a]-want.R[s][a]) > 0 || math.Abs(got.B0[s]-want.B0[s]) > 1e-15 {
				t.Errorf("R or b0 differ at (%d, %d)", s, a)
			}
			for s2 := range want.States {
				if d := math.Abs(got.TransitionProb(s, a, s2) - want.TransitionProb(s, a, s2)); d > 1e-15 {
					t.Errorf("T(%d, %d, %d) differs by %g", s, a, s2, d)
				}
			}
			for o := range want.Observations {
				if d := math.Abs(got.ObsProb(s, a, o) - want.ObsProb(s, a, o)); d > 1e-15 {
					t.Errorf("Z(%d, %d, %d) differs by %g", s, a, o, d)
				}
			}
		}
	}
}
