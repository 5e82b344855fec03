package datasets

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpjson"
)

var regen = flag.Bool("regen", false, "rewrite models/ (the model files and README.md) from the built-in models")

// regenCommand is what a failing TestModelFiles tells the developer to run.
const regenCommand = "go test ./datasets -run TestModelFiles -regen"

// modelFiles is the one list of built-in models exported to models/: add a
// registry name (and its source) here and run regenCommand to add a file.
// Each model is written as models/NAME.pomdp (":" in the name becomes
// "-"), or as models/NAME.json when the .pomdp format would hold some of
// its names only renamed (the paper's Tiger observes "R", a keyword there;
// see pomdp.SafeNames), so that every file carries the model's own names.
var modelFiles = []struct {
	Name   string // bench.Lookup name
	Source string // where the definition comes from (Markdown)
}{
	// Classic problems, typed from their published definitions (lib/bench/classic.go).
	{"tiger95", "Kaelbling, Littman & Cassandra, *Planning and acting in partially observable stochastic domains*, Artificial Intelligence 101 (1998)"},
	{"maze4x3", "Russell & Norvig, *Artificial Intelligence: A Modern Approach* (1995), §17.1; sensors of Parr & Russell, IJCAI 1995"},
	{"cheese", "McCallum, *Overcoming incomplete perception with utile distinction memory*, ICML 1993"},
	{"1d", "Cassandra, Kaelbling & Littman, *Acting optimally in partially observable stochastic domains*, AAAI 1994"},
	{"paint", "Kushmerick, Hanks & Weld, *An algorithm for probabilistic planning*, Artificial Intelligence 76 (1995)"},
	// The paper's benchmarks as instantiated in its tables (lib/bench).
	{"tiger", paperSource},
	{"tiger-listen", paperSource},
	{"gridworld:3", paperSource},
	{"gridworld-goal:3", paperSource},
	{"gridworld-coarse:3", paperSource},
	{"gridworld:10", paperSource},
	{"hallway:10", paperSource},
	{"hallway:20", paperSource},
	{"netmon:4", paperSource},
	{"netmon:5", paperSource},
	{"rocksample:4:4", paperSource},
	{"witness", paperSource},
	{"inspection", paperSource},
	{"sensor-grid", paperSource + " (our reconstruction of its appendix example)"},
	{"channel:4:2:0.1", paperSource},
	// Smallest separating models found by `pomdpq search-witness` (lib/witness;
	// typed in lib/bench/separating.go, checked against the search by lib/witness).
	{"separating:clk", searchSource},
	{"separating:clk-free", searchSource},
	{"separating:clk-free-det", searchSource},
	{"separating:m2", searchSource},
	{"separating:m2-free", searchSource},
	{"separating:tv-free", searchSource},
	// Models people benchmark on (lib/bench/tag.go). RockSample(7,8) is a
	// built-in only (`rocksample:7:8`): its .pomdp file is 13 MB and
	// expands past the reader's default MaxEntries.
	{"tag", "Pineau, Gordon & Thrun, *Point-based value iteration: an anytime algorithm for POMDPs*, IJCAI 2003"},
}

const searchSource = "found by `pomdpq search-witness` (lib/witness), notebook 09"

const paperSource = "*The Myhill–Nerode Theorem for Bounded Interaction*, arXiv:2603.21399"

// exportModel returns the file name and content of a built-in model, with
// its ground metric: in the JSON format's "ground", or, since the .pomdp
// format has no place for one, in a comment of the .pomdp file and, when
// it is not the discrete metric, in the CSV file NAME.ground.csv beside it
// (ground is then its name, groundData its content).
func exportModel(name string) (file string, data []byte, ground string, groundData []byte, err error) {
	b, err := bench.Lookup(name)
	if err != nil {
		return "", nil, "", nil, err
	}
	b.Model.Ground = b.GroundFile()
	base := strings.ReplaceAll(b.Name, ":", "-")
	var buf bytes.Buffer
	if len(cassandra.Renames(b.Model)) == 0 {
		if err := cassandra.Write(&buf, b.Model); err != nil {
			return "", nil, "", nil, err
		}
		if b.Ground.IsDiscrete() {
			return base + ".pomdp", buf.Bytes(), "", nil, nil
		}
		var g bytes.Buffer
		if err := pomdp.WriteGroundCSV(&g, b.GroundFile(), b.Model.Observations); err != nil {
			return "", nil, "", nil, err
		}
		return base + ".pomdp", buf.Bytes(), base + ".ground.csv", g.Bytes(), nil
	}
	if err := pomdpjson.Write(&buf, b.Model); err != nil {
		return "", nil, "", nil, err
	}
	return base + ".json", buf.Bytes(), "", nil, nil
}

// modelsReadme returns models/README.md, generated from modelFiles.
func modelsReadme(rows [][]string) []byte {
	var b bytes.Buffer
	b.WriteString(`# Model files

POMDPs written by this project from its built-in models (package ` + "`lib/bench`" + `),
so that notebooks, scripts and other solvers can read them as files. Every file is an
export of the built-in of the same name: ` + "`bench.Lookup(NAME)`" + ` (or ` + "`pomdpq info NAME`" + `)
gives the same model, and ` + "`modelfile.Load`" + ` / ` + "`pomdpq info FILE`" + ` read the file back bit for
bit. Files are in Tony Cassandra's ` + "`.pomdp`" + ` format, or in the project's JSON format when
` + "`.pomdp`" + ` would hold some of the model's names only renamed (the paper's Tiger observes
` + "`R`" + `, a keyword there). A model without a discount is written with ` + "`discount: 1`" + ` in ` + "`.pomdp`" + `.

The ground metric on the observations decides the distances between histories. The JSON
format carries it (` + "`\"ground\"`" + `); the ` + "`.pomdp`" + ` format has no place for one, so a ` + "`.pomdp`" + `
file reads with the discrete metric. When the built-in's metric is not the discrete one
(GridWorld's quadrant-manhattan, the sensor grid's ordered one) it is listed in a comment at the
top of the ` + "`.pomdp`" + ` file and written beside it as ` + "`NAME.ground.csv`" + `: give it with
` + "`pomdpq quotient --model datasets/models/gridworld-3.pomdp --ground datasets/models/gridworld-3.ground.csv …`" + `
(without it the quotients are the discrete metric's, which keeps apart histories that
quadrants at distance 0.5 merge). Every output of pomdpq names the ground metric it used.

The classic problems are typed in Go from their published definitions
(` + "`lib/bench/classic.go`" + ` documents every choice); the tests of ` + "`lib/bench`" + ` compare them
entry for entry with the files of Cassandra's pomdp-solve example collection when those are
available, and the 4×3 maze with the utilities printed by Russell & Norvig.

| file | built-in | \|S\| | \|A\| | \|O\| | discount | ground metric | source |
|---|---|---|---|---|---|---|---|
`)
	for _, r := range rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	b.WriteString(`
Regenerate every file (and this README) after changing a built-in, then review and commit:

    ` + regenCommand + `

` + "`go test ./datasets`" + ` regenerates them in memory and fails if a committed file differs. To add
a model, append its name to ` + "`modelFiles`" + ` in ` + "`datasets/models_test.go`" + ` and regenerate.
To export any model yourself: ` + "`pomdpq export NAME [--format pomdp|json] [--out FILE]`" + `.
`)
	return b.Bytes()
}

// TestModelFiles regenerates every file of models/ in memory and checks
// that it is bit for bit the committed one, that models/ holds no other
// file, and that each file reads back as its built-in. With -regen it
// rewrites models/ instead.
func TestModelFiles(t *testing.T) {
	dir := "models"
	want := map[string][]byte{}
	var rows [][]string
	for _, mf := range modelFiles {
		file, data, gfile, gdata, err := exportModel(mf.Name)
		if err != nil {
			t.Fatalf("%s: %v", mf.Name, err)
		}
		if _, dup := want[file]; dup {
			t.Fatalf("%s: file %s listed twice", mf.Name, file)
		}
		want[file] = data
		ground := "discrete"
		if gfile != "" {
			want[gfile] = gdata
			ground = "[" + gfile + "](" + gfile + ")"
		}
		m := pomdp.Must(bench.Lookup(mf.Name)).Model
		discount := "none"
		if m.HasDiscount {
			discount = fmt.Sprint(m.Discount)
		}
		rows = append(rows, []string{"[" + file + "](" + file + ")", "`" + mf.Name + "`",
			fmt.Sprint(m.NumStates()), fmt.Sprint(m.NumActions()), fmt.Sprint(m.NumObservations()), discount, ground, mf.Source})
	}
	want["README.md"] = modelsReadme(rows)

	if *regen {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for file, data := range want {
			if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("wrote %d files into datasets/%s", len(want), dir)
	}

	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("%v; run %s", err, regenCommand)
	}
	var have []string
	for _, e := range entries {
		have = append(have, e.Name())
	}
	for file, data := range want {
		path := filepath.Join(dir, file)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v; run %s", err, regenCommand)
			continue
		}
		if !bytes.Equal(got, data) {
			t.Errorf("datasets/%s differs from the export of its built-in; run %s (and review the diff)", path, regenCommand)
		}
	}
	for _, file := range have {
		if _, ok := want[file]; !ok {
			t.Errorf("datasets/%s/%s is not generated from modelFiles; remove it or add its model, then run %s", dir, file, regenCommand)
		}
	}

	// Each file reads back as its built-in, ground metric included: the
	// JSON model's own, the CSV file beside a .pomdp file, else discrete.
	for _, mf := range modelFiles {
		file, _, gfile, _, _ := exportModel(mf.Name)
		got, err := modelfile.Load(filepath.Join(dir, file))
		if err != nil {
			t.Errorf("%s: %v", mf.Name, err)
			continue
		}
		bm := pomdp.Must(bench.Lookup(mf.Name))
		b := bm.Model
		if got.NumStates() != b.NumStates() || !slices.Equal(got.Observations, b.Observations) || !slices.Equal(got.B0, b.B0) {
			t.Errorf("%s: %s reads back as %v, want %v", mf.Name, file, got, b)
		}
		g := got.Ground
		switch {
		case gfile != "":
			if g, err = pomdp.LoadGround(filepath.Join(dir, gfile), got.Observations); err != nil {
				t.Errorf("%s: %v", mf.Name, err)
				continue
			}
		case g == nil:
			g = &pomdp.Ground{Name: "discrete", D: ot.Discrete(got.NumObservations())}
		}
		if g.Name != bm.GroundName || g.D.Fingerprint() != bm.Ground.Fingerprint() || !reflect.DeepEqual(g.D, bm.Ground) {
			t.Errorf("%s: the files give the ground metric %s %v, the built-in %s %v", mf.Name, g.Name, g.D, bm.GroundName, bm.Ground)
		}
	}
}
