package repro

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/runner"
)

// classicFixture copies a handful of the repository's model files into a
// temporary folder, with one file that does not parse.
func classicFixture(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join("..", "..", "datasets", "models", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.pomdp"), []byte("discount: 0.9\nstates: 2\nactions: nonsense ::\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkClassic checks the invariants of a classic-models table: one row per
// (file, m), class counts ordered ε = 0 ≥ 0.1 ≥ 0.3 and at most the
// histories, δ_clk only on m = 1 rows, and a note on rows without a horizon.
func checkClassic(t *testing.T, tab *Table, files int, ms []int) {
	t.Helper()
	if len(tab.Rows) != files*len(ms) {
		t.Fatalf("%d rows, want %d", len(tab.Rows), files*len(ms))
	}
	col := map[string]int{}
	for i, c := range tab.Columns {
		col[c.Name] = i
	}
	for i, r := range tab.Rows {
		if tab.Status[i] != OursOnly {
			t.Errorf("row %d: status %q, want %q", i, tab.Status[i], OursOnly)
		}
		if r[col["T"]] == "" {
			if tab.Note[i] == "" {
				t.Errorf("row %d (%s m=%s): no horizon and no note", i, r[0], r[1])
			}
			continue
		}
		n := func(name string) int {
			v, err := strconv.Atoi(r[col[name]])
			if err != nil {
				t.Fatalf("row %d %s: %q: %v", i, name, r[col[name]], err)
			}
			return v
		}
		h, c0, c1, c3 := n("histories"), n("classes_eps0"), n("classes_eps0_1"), n("classes_eps0_3")
		if !(h >= c0 && c0 >= c1 && c1 >= c3 && c3 >= 1) {
			t.Errorf("row %d (%s m=%s): histories %d, classes %d ≥ %d ≥ %d violated", i, r[0], r[1], h, c0, c1, c3)
		}
		if r[col["delta_clk"]] != "" && r[1] != "1" {
			t.Errorf("row %d: δ_clk on an m = %s row", i, r[1])
		}
	}
}

// TestClassicModelsSmall runs the table in-process on a few models with
// budgets of 2 s and 512 MiB (the CLI default is 60 s and 4 GiB).
func TestClassicModelsSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the classic-models table takes seconds")
	}
	dir := classicFixture(t, "tiger95.pomdp", "1d.pomdp", "paint.pomdp", "tag.pomdp")
	var logs bytes.Buffer
	tab, err := ClassicModels(context.Background(), ClassicOptions{Dir: dir, Seconds: 2, Mem: 512 << 20, MaxT: 6,
		Log: func(f string, a ...any) { logs.WriteString(f + "\n") }})
	if err != nil {
		t.Fatal(err)
	}
	checkClassic(t, tab, 5, []int{1, 2})
	var buf bytes.Buffer
	if err := tab.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", buf.String())
	// The broken file is reported, not fatal.
	if tab.Rows[0][0] != "1d.pomdp" || tab.Rows[2][0] != "broken.pomdp" || tab.Rows[2][6] != "not loaded" {
		t.Errorf("rows 0 and 2: %v / %v", tab.Rows[0], tab.Rows[2])
	}
	// tag m = 2 has 25·2^60 + 5 controllers: sampled.
	for i, r := range tab.Rows {
		if r[0] == "tag.pomdp" && r[1] == "2" && r[6] != runner.MethodSampled {
			t.Errorf("row %d: tag m = 2 method %q, want sampled", i, r[6])
		}
	}
}

// TestClassicModelsShared runs the table on the classic files of
// ../shared/data/pomdp (third-party test inputs) with small budgets. Twin:
// TestClassicModelsSmall, on the repository's own model files.
func TestClassicModelsShared(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the classic-models table takes seconds")
	}
	dir := shared.Path(t, "TestClassicModelsSmall", "pomdp")
	files, err := ModelFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := ClassicModels(context.Background(), ClassicOptions{Dir: dir, Seconds: 0.5, Mem: 256 << 20, MaxT: 3, Ms: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	checkClassic(t, tab, len(files), []int{1})
}

func TestFindModelsDir(t *testing.T) {
	d, err := FindModelsDir("")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(d) != "models" {
		t.Errorf("FindModelsDir = %s", d)
	}
	if _, err := FindModelsDir(t.TempDir()); err == nil {
		t.Error("FindModelsDir found a folder in an empty temporary directory")
	}
}

// TestClassicRowsSayWhatHappened checks that a job that did not finish is
// reported in its row: the horizon search stops at it and why_not_larger
// gives its outcome with the measured peak and wall time, and a δ_clk job
// that did not finish is explained in the row's note. The runs are
// scripted (Run), so the outcomes do not depend on the machine.
func TestClassicRowsSayWhatHappened(t *testing.T) {
	dir := classicFixture(t, "tiger95.pomdp")
	killed := "T = 3: killed at resident memory 2.2 GiB > 2.1 GiB (the 2.0 GiB budget + 128.0 MiB slack)"
	stopped := "T = 2: stopped at the time limit of 5 s"
	run := func(ctx context.Context, job runner.Job) (*runner.Result, error) {
		switch {
		case job.Method == runner.MethodClock:
			return &runner.Result{Over: stopped, Reason: runner.ReasonTime, PeakBytes: 300 << 20, Wall: 5.1}, nil
		case job.T >= 3:
			return &runner.Result{Over: killed, Reason: runner.ReasonKilledMemory, PeakBytes: 2200 << 20, Wall: 4.2}, nil
		}
		return &runner.Result{Histories: 7, Classes0: 3, Classes01: 2, Classes03: 1, Seconds: 0.01, PeakBytes: 20 << 20}, nil
	}
	tab, err := ClassicModels(context.Background(), ClassicOptions{Dir: dir, Seconds: 5, Mem: 2 << 30, Ms: []int{1}, Run: run})
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, c := range tab.Columns {
		col[c.Name] = i
	}
	var row []string
	var note string
	for i, r := range tab.Rows {
		if r[0] == "tiger95.pomdp" {
			row, note = r, tab.Note[i]
		}
	}
	if row == nil {
		t.Fatal("no tiger95 row")
	}
	if row[col["T"]] != "2" || row[col["why_not_larger"]] != killed+" (peak 2.1 GiB, 4.2 s)" {
		t.Errorf("T %q, why_not_larger %q: want T = 2 and the killed job with its peak and wall time", row[col["T"]], row[col["why_not_larger"]])
	}
	if !strings.Contains(note, "δ_clk not computed (T = 2): "+stopped+" (peak 300.0 MiB, 5.1 s)") {
		t.Errorf("note %q: want the δ_clk job's outcome", note)
	}
}
