package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

var gridworld3File = filepath.Join("..", "..", "datasets", "models", "gridworld-3.pomdp")

// quadrantCSV is GridWorld's geometric metric typed from its definition,
// (|Δx| + |Δy|)/2 between the quadrants NW (0,0), NE (0,1), SW (1,0) and
// SE (1,1): not written by the code under test.
const quadrantCSV = `,NW,NE,SW,SE
NW,0,0.5,0.5,1
NE,0.5,0,1,0.5
SW,0.5,1,0,0.5
SE,1,0.5,0.5,0
`

// runCLI2 is runCLI with the standard error too.
func runCLI2(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = run(args, &out, &errb)
	return out.String(), errb.String(), err
}

func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// classCounts runs quotient --json and returns the class counts and the
// ground metric it reports.
func classCounts(t *testing.T, args ...string) ([]int, groundJSON) {
	t.Helper()
	out, err := runCLI(t, append([]string{"quotient", "--json", "--progress=off"}, args...)...)
	if err != nil {
		t.Fatalf("quotient %v: %v", args, err)
	}
	var q quotientJSON
	if err := json.Unmarshal([]byte(out), &q); err != nil {
		t.Fatal(err)
	}
	var counts []int
	for _, c := range q.Classes {
		counts = append(counts, c.Count)
	}
	return counts, q.Ground
}

// TestGroundFile: the .pomdp file of GridWorld 3×3 reads with the
// discrete metric and says so; given the geometric metric as a file it
// gives the built-in's quotient (9 and 6 classes at ε = 0.3 and 0.5,
// T = 3, the numbers issue 16 measured for the built-in), and without it
// another one (14 and 10).
func TestGroundFile(t *testing.T) {
	csv := writeFile(t, filepath.Join(t.TempDir(), "quadrants.csv"), quadrantCSV)
	common := []string{"--T", "3", "--eps", "0.3,0.5"}
	builtin, bg := classCounts(t, append([]string{"--model", "gridworld:3"}, common...)...)
	file, fg := classCounts(t, append([]string{"--model", gridworld3File}, common...)...)
	given, gg := classCounts(t, append([]string{"--model", gridworld3File, "--ground", csv}, common...)...)
	if !equalInts(given, builtin) || !equalInts(builtin, []int{9, 6}) {
		t.Errorf("file with --ground %v, built-in %v; want both [9 6]", given, builtin)
	}
	if equalInts(file, builtin) || !equalInts(file, []int{14, 10}) {
		t.Errorf("file without --ground: %v, want [14 10] (the discrete metric's), not the built-in's %v", file, builtin)
	}
	fp := bench.GridGround().Fingerprint()
	if bg.Label != "quadrant-manhattan [sha256 "+fp+"]" || bg.Source != "built-in gridworld:3" || bg.Discrete || !bg.Used {
		t.Errorf("built-in ground %+v", bg)
	}
	if !fg.Discrete || fg.Label != "discrete 0/1" || !strings.HasPrefix(fg.Source, "default: a .pomdp file carries no ground metric") {
		t.Errorf("file ground %+v", fg)
	}
	if gg.SHA256 != fp || gg.Source != "file "+csv {
		t.Errorf("--ground ground %+v, want the fingerprint %s of the built-in's", gg, fp)
	}
	// export --ground puts the file's metric into a JSON model.
	js := filepath.Join(t.TempDir(), "gw.json")
	if _, err := runCLI(t, "export", gridworld3File, "--ground", csv, "--format", "json", "--out", js); err != nil {
		t.Fatal(err)
	}
	if c, g := classCounts(t, append([]string{"--model", js}, common...)...); !equalInts(c, builtin) || g.SHA256 != bg.SHA256 {
		t.Errorf("the .pomdp file exported with --ground as JSON: %v %+v, want %v", c, g, builtin)
	}
	// --ground discrete on the built-in gives the file's quotient.
	if d, dg := classCounts(t, append([]string{"--model", "gridworld:3", "--ground", "discrete"}, common...)...); !equalInts(d, file) ||
		!strings.HasPrefix(dg.Source, "--ground discrete, replacing quadrant-manhattan") {
		t.Errorf("--ground discrete: %v %+v, want %v", d, dg, file)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestExportGroundJSON: export --format json of GridWorld 3×3 carries its
// ground metric, and the file gives the built-in's distances bit for bit.
func TestExportGroundJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gw.json")
	if _, err := runCLI(t, "export", "gridworld:3", "--format", "json", "--out", path); err != nil {
		t.Fatal(err)
	}
	m, err := modelfile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bench.Lookup("gridworld:3")
	if err != nil {
		t.Fatal(err)
	}
	if m.Ground == nil || m.Ground.Name != "quadrant-manhattan" || !bitEqual(m.Ground.D, bench.GridGround()) {
		t.Fatalf("exported ground %+v", m.Ground)
	}
	for _, mem := range []int{1, 2} {
		T := 4 - mem
		fam, err := fsc.NewStationary(5, 4, mem, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		opt := distance.Options{AllPairs: true}
		opt.Ground = b.Ground
		want, err := distance.Compute(context.Background(), b.Model, fam, T, opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.Ground = m.Ground.D
		got, err := distance.Compute(context.Background(), m, fam, T, opt)
		if err != nil {
			t.Fatal(err)
		}
		for d := range want.D {
			if !bitEqual(ot.Ground{got.D[d].Data}, ot.Ground{want.D[d].Data}) {
				t.Fatalf("m = %d, depth %d: the exported file's distances differ from the built-in's", mem, d)
			}
		}
	}
	counts, g := classCounts(t, "--model", path, "--T", "3", "--eps", "0.3,0.5")
	if !equalInts(counts, []int{9, 6}) || g.SHA256 != bench.GridGround().Fingerprint() || g.Source != "model file "+path {
		t.Errorf("quotient of the exported file: %v, ground %+v", counts, g)
	}
	// A discrete built-in is exported with "ground": "discrete".
	out, err := runCLI(t, "export", "tiger", "--format", "json")
	if err != nil || !strings.Contains(out, `"ground": "discrete",`) {
		t.Errorf("export tiger --format json: %v\n%s", err, out)
	}
}

func bitEqual(a, b ot.Ground) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if math.Float64bits(a[i][j]) != math.Float64bits(b[i][j]) {
				return false
			}
		}
	}
	return true
}

// TestExportGroundPomdp: a .pomdp export cannot carry the ground metric:
// it lists it in a comment, says so on stderr and writes it beside the
// file, and the quotient of the file points there.
func TestExportGroundPomdp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gw.pomdp")
	_, stderr, err := runCLI2(t, "export", "gridworld:3", "--out", path)
	if err != nil {
		t.Fatal(err)
	}
	side := filepath.Join(dir, "gw.ground.csv")
	if !strings.Contains(stderr, "the .pomdp format has no ground metric") || !strings.Contains(stderr, "--ground "+side) {
		t.Errorf("stderr: %q", stderr)
	}
	text, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(text), "# ground metric quadrant-manhattan") {
		t.Errorf("%s: %v\n%s", path, err, text)
	}
	g, err := pomdp.LoadGround(side, []string{"NW", "NE", "SW", "SE"})
	if err != nil || !bitEqual(g.D, bench.GridGround()) {
		t.Fatalf("%s: %v %+v", side, err, g)
	}
	out, err := runCLI(t, "quotient", "--model", path, "--T", "2", "--progress=off")
	if err != nil || !strings.Contains(unwrap(out), "gw.ground.csv beside it holds one: --ground "+side) {
		t.Errorf("quotient of the export: %v\n%s", err, out)
	}
	if c, _ := classCounts(t, "--model", path, "--ground", side, "--T", "3", "--eps", "0.3,0.5"); !equalInts(c, []int{9, 6}) {
		t.Errorf("with the sidecar: %v", c)
	}
	// To standard output: no file beside, so stderr says how; --ground-out
	// writes one anyway.
	_, stderr, err = runCLI2(t, "export", "gridworld:3")
	if err != nil || !strings.Contains(stderr, "--ground-out") {
		t.Errorf("export to stdout: %v, stderr %q", err, stderr)
	}
	gj := filepath.Join(dir, "g.json")
	if _, _, err := runCLI2(t, "export", "gridworld:3", "--ground-out", gj); err != nil {
		t.Fatal(err)
	}
	if g, err := pomdp.LoadGround(gj, []string{"NW", "NE", "SW", "SE"}); err != nil || g.Name != "quadrant-manhattan" || !bitEqual(g.D, bench.GridGround()) {
		t.Errorf("--ground-out %s: %v %+v", gj, err, g)
	}
	// A discrete metric loses nothing: no note, no file.
	_, stderr, err = runCLI2(t, "export", "tiger95", "--out", filepath.Join(dir, "t.pomdp"))
	if _, serr := os.Stat(filepath.Join(dir, "t.ground.csv")); err != nil || stderr != "" || serr == nil {
		t.Errorf("export tiger95: %v, stderr %q, sidecar %v", err, stderr, serr)
	}
}

// TestGroundPrinted: every command whose result depends on the ground
// metric names it, and the commands whose results do not say so.
func TestGroundPrinted(t *testing.T) {
	dir := t.TempDir()
	fp := bench.GridGround().Fingerprint()
	gw := "ground metric quadrant-manhattan [sha256 " + fp + "] (built-in gridworld:3)"
	half := writeFile(t, filepath.Join(dir, "half.csv"), "0,0.5\n0.5,0\n")
	halfFP := ot.Ground{{0, 0.5}, {0.5, 0}}.Fingerprint()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"quotient", "--model", "gridworld:3", "--T", "2"}, gw},
		{[]string{"quotient", "--model", "gridworld:3", "--T", "2", "--dry-run"}, gw},
		{[]string{"quotient", "--model", "gridworld:3", "--T", "2", "--metric", "tv"}, gw + ": not used (--metric tv"},
		{[]string{"quotient", "--model", "tiger", "--family", "clock", "--m", "2", "--T", "2"}, "ground metric discrete 0/1 (built-in tiger)"},
		{[]string{"quotient", "--model", "tiger", "--family", "clock", "--m", "2", "--T", "2", "--dry-run"}, "ground metric discrete 0/1 (built-in tiger)"},
		{[]string{"quotient", "--model", gridworld3File, "--T", "2"}, "ground metric discrete 0/1 (default: a .pomdp file carries no ground metric"},
		{[]string{"exact", "--model", "gridworld:3", "--T", "2"}, gw + ": not used (exact quotients"},
		{[]string{"info", "gridworld:3"}, "ground:       quadrant-manhattan [sha256 " + fp + "] (built-in gridworld:3)"},
		{[]string{"evaluate", "--model", "tiger95", "--policy", counterPG, "--quotient-eps", "0.3", "--T", "2", "--m", "1", "--ground", half},
			"ground metric unnamed 2×2 matrix [sha256 " + halfFP + "] (file " + half + ")"},
		{[]string{"analyze", "gridworld:3", "--T", "2", "--m", "1", "--out", filepath.Join(dir, "gw.html")}, gw},
	}
	for _, c := range cases {
		args := c.args
		if args[0] != "exact" && args[0] != "info" {
			args = append(args, "--progress=off")
		}
		out, err := runCLI(t, args...)
		if err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		if !strings.Contains(unwrap(out), c.want) {
			t.Errorf("%v: no %q in\n%s", c.args, c.want, out)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "gw.html"))
	if err != nil || !strings.Contains(string(page), "ground metric d_O</td>") || !strings.Contains(string(page), "quadrant-manhattan [sha256 "+fp+"] (built-in gridworld:3)</td>") {
		t.Errorf("the report page does not name the ground metric: %v", err)
	}
	q, err := os.ReadFile(filepath.Join(dir, "gw-quotient.json"))
	if err != nil || !strings.Contains(string(q), `"ground": {"name": "quadrant-manhattan"`) {
		t.Errorf("the exported quotient does not carry the ground metric: %v", err)
	}

	// JSON outputs: evaluate's quotient and a sharded run's parts.
	out, err := runCLI(t, "evaluate", "--model", "tiger95", "--policy", counterPG, "--quotient-eps", "0.3", "--T", "2", "--m", "1", "--json")
	var ev evaluateJSON
	if err != nil || json.Unmarshal([]byte(out), &ev) != nil || ev.Quotient == nil || ev.Quotient.Ground.Label != "discrete 0/1" {
		t.Errorf("evaluate --json: %v\n%s", err, out)
	}
	common := []string{"quotient", "--model", "gridworld:3", "--T", "2", "--eps", "0.3", "--progress=off"}
	var parts []string
	for round, extra := range [][]string{nil, {"--plan", filepath.Join(dir, "plan.pq")}} {
		var files []string
		for i := range 2 {
			f := filepath.Join(dir, []string{"c", "d"}[round]+string(rune('0'+i))+".pq")
			args := append(append(append([]string{}, common...), extra...), "--shard", string(rune('0'+i))+"/2", "--save", f)
			out, err := runCLI(t, args...)
			if err != nil || !strings.Contains(out, gw) {
				t.Fatalf("%v: %v\n%s", args, err, out)
			}
			files = append(files, f)
		}
		if round == 0 {
			if _, err := runCLI(t, append(append([]string{"merge"}, files...), "--out", filepath.Join(dir, "plan.pq"))...); err != nil {
				t.Fatal(err)
			}
		}
		parts = files
	}
	out, err = runCLI(t, append(append([]string{"merge"}, parts...), "--eps", "0.3")...)
	if err != nil || !strings.Contains(out, "ground metric: recorded in the parts only through the model hash") {
		t.Errorf("merge: %v\n%s", err, out)
	}
	// The model hash covers the ground metric: parts of runs with another
	// one do not merge.
	other := filepath.Join(dir, "other.pq")
	if _, err := runCLI(t, append(append([]string{}, common...), "--ground", "discrete", "--shard", "1/2", "--save", other)...); err != nil {
		t.Fatal(err)
	}
	_, err = runCLI(t, "merge", filepath.Join(dir, "c0.pq"), other, "--out", filepath.Join(dir, "plan2.pq"))
	if err == nil || !strings.Contains(err.Error(), "another ground metric") {
		t.Errorf("merging parts of two ground metrics: %v", err)
	}
}

// TestGroundErrors: a bad --ground is refused naming the file, the line
// and the entry.
func TestGroundErrors(t *testing.T) {
	dir := t.TempDir()
	tri := writeFile(t, filepath.Join(dir, "tri.csv"), strings.Replace(quadrantCSV, "NW,0,0.5,0.5,1", "NW,0,0.5,0.5,2", 1)+"\n")
	sym := writeFile(t, filepath.Join(dir, "sym.json"), "{\"matrix\": [[0, 0.5, 0.5, 1],\n [0.5, 0, 1, 0.5],\n [0.5, 1, 0, 0.5],\n [1, 0.5, 0.7, 0]]}")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"quotient", "--model", "gridworld:3", "--ground", tri}, tri + ":2:14: d(NW, SE): 2, but d(SE, NW) = 1 (line 5)"},
		{[]string{"quotient", "--model", "gridworld:3", "--ground", sym}, sym + ":3:14: d(SW, SE) (matrix[2][3]): 0.5, but d(SE, SW) = 0.7 (line 4)"},
		{[]string{"quotient", "--model", "tiger", "--ground", tri}, tri + ":1:1: header: has 5 column names, want 2"},
		{[]string{"quotient", "--model", "gridworld:3", "--ground", filepath.Join(dir, "none.csv")}, "--ground " + filepath.Join(dir, "none.csv") + ": no such file"},
		{[]string{"quotient", "--model", "gridworld:3", "--ground", filepath.Join(dir, "g.txt")}, "unknown ground-metric file extension"},
		{[]string{"analyze", "gridworld:3", "--ground", tri}, tri + ":2:14"},
		{[]string{"evaluate", "--model", "tiger95", "--policy", counterPG, "--ground", "discrete"}, "give --quotient-eps too"},
		{[]string{"export", "gridworld:3", "--ground-out", filepath.Join(dir, "g.txt")}, "want a .csv or .json file"},
	}
	for _, c := range cases {
		_, err := runCLI(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}

// unwrap joins the lines writeSummary wrapped (a continuation starts with
// two spaces), so that a sentence can be found whole.
func unwrap(s string) string { return strings.ReplaceAll(s, "\n  ", " ") }
