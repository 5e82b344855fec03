package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpjson"
)

func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(args, &out, &errb)
	return out.String(), err
}

func TestInfoJSON(t *testing.T) {
	out, err := runCLI(t, "info", "rocksample:4:4", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	// Schema documented in main.go: name, states, actions, observations,
	// discount, rewards, reward_entries.
	for k, want := range map[string]any{"name": "rocksample:4:4", "states": 257.0, "actions": 9.0, "observations": 3.0, "discount": nil,
		"rewards": "R(s,a)", "reward_entries": 0.0} {
		if got[k] != want {
			t.Errorf("info %s = %v, want %v", k, got[k], want)
		}
	}
	if len(got) != 7 {
		t.Errorf("info has keys %v, want exactly the documented seven", got)
	}
}

// TestInfoFile reads model files: one of the repository's own
// (datasets/models) and an invalid one, whose error must name file and line.
func TestInfoFile(t *testing.T) {
	path := filepath.Join("..", "..", "datasets", "models", "tiger95.pomdp")
	out, err := runCLI(t, "info", path, "--json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"discount": 0.95`) || !strings.Contains(out, `"states": 2`) {
		t.Fatalf("info of %s: %s", path, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.pomdp")
	text := "discount: 0.95\nvalues: reward\nstates: 2\nactions: 1\nobservations: 1\nT: 0\n0.5 0.4\n0 1\nO: * uniform\n"
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := runCLI(t, "info", bad); err == nil || !strings.Contains(err.Error(), bad+":6") {
		t.Fatalf("invalid file: err = %v, want an error naming %s and line 6", err, bad)
	}
}

func TestFamilyJSON(t *testing.T) {
	// Family sizes: docs/conventions.md#probe-families.
	tests := []struct {
		args []string
		size float64
	}{
		{[]string{"--model", "tiger", "--kind", "stationary", "--m", "2"}, 147},
		{[]string{"--model", "gridworld:3", "--kind", "stationary", "--m", "2"}, 6405},
		{[]string{"--model", "netmon:9", "--kind", "stationary", "--m", "2"}, 6410},
		{[]string{"--model", "tiger", "--kind", "clock", "--m", "2", "--T", "2"}, 1296},
	}
	for _, tc := range tests {
		out, err := runCLI(t, append([]string{"family", "--json"}, tc.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if got["size"] != tc.size || len(got) != 4 {
			t.Errorf("family %v = %v, want size %v and keys kind, m, T, size", tc.args, got, tc.size)
		}
	}
}

func TestQuotientJSON(t *testing.T) {
	out, err := runCLI(t, "quotient", "--model", "tiger", "--family", "stationary", "--m", "2", "--T", "4", "--eps", "0,0.3,0.5", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got quotientJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	// tab:partition-agreement (16), fig:refinement-lattice m=2 ε=0.3 (14), tab:principal-horizon (10).
	want := []int{16, 14, 10}
	if got.FamilySize != 147 || got.Histories != 31 || len(got.Classes) != 3 {
		t.Fatalf("quotient = %+v", got)
	}
	for k, c := range got.Classes {
		if c.Count != want[k] {
			t.Errorf("ε = %v: %d classes, want %d", c.Epsilon, c.Count, want[k])
		}
	}
	// The time covers the whole command, and the phases add up to it.
	sum := 0.0
	names := map[string]bool{}
	for _, p := range got.Phases {
		sum += p.Seconds
		names[p.Name] = true
	}
	for _, n := range []string{"load", "probes", "classes", "distances", "linkage"} {
		if !names[n] {
			t.Errorf("phases %v lack %q", got.Phases, n)
		}
	}
	if !(sum <= got.Seconds) || got.EstimateBytes <= 0 || got.ExactClasses != 16 || got.Distinct == 0 {
		t.Errorf("phases sum to %v s of %v s; estimate %d; exact classes %d; distinct %d", sum, got.Seconds, got.EstimateBytes, got.ExactClasses, got.Distinct)
	}
	// Decision mode by default: the max distance is exact only with
	// --exact-distances.
	out, err = runCLI(t, "quotient", "--model", "tiger", "--m", "2", "--T", "4", "--eps", "0.3", "--json", "--exact-distances")
	if err != nil {
		t.Fatal(err)
	}
	var exact quotientJSON
	if err := json.Unmarshal([]byte(out), &exact); err != nil {
		t.Fatal(err)
	}
	if !exact.MaxDistanceExact || exact.Classes[0].Count != 14 || !(exact.MaxDistance >= got.MaxDistance) {
		t.Errorf("--exact-distances: %+v (decision mode max %v, exact %v)", exact, got.MaxDistance, got.MaxDistanceExact)
	}
}

// A run over the memory budget is refused before computing, naming the
// largest term and what helps; --dry-run prints the estimate. The runs
// whose estimate must fit are children: the estimate counts the heap
// already in use, this test binary's.
func TestQuotientBudget(t *testing.T) {
	// With --exact-distances: float matrices over the classes and larger
	// transport problems (estimate 111.8 MiB plus the law index).
	// Two workers: the estimate has per-worker terms (pair matrices,
	// transport buffers), so with all cores of an 8-core machine the
	// decision-mode run needed 41.5 MiB and was refused.
	args := []string{"quotient", "--model", "tiger", "--m", "2", "--T", "13", "--eps", "0,0.5", "--mem", "40M", "--workers", "2", "--progress", "off"}
	exact := append(slices.Clone(args), "--exact-distances")
	_, err := runCLI(t, exact...)
	if err == nil || !strings.Contains(err.Error(), "exceeds the budget 40.0 MiB") || !strings.Contains(err.Error(), "largest term") {
		t.Fatalf("--mem 40M: %v", err)
	}
	plan := func(args []string) planJSON {
		t.Helper()
		p := runChild(t, 1<<30, append(args, "--dry-run", "--json")...)
		if p.Err != nil {
			t.Fatalf("%v: %s", p.Err, p.Stderr)
		}
		var pl planJSON
		if err := json.Unmarshal(p.Stdout, &pl); err != nil {
			t.Fatal(err)
		}
		return pl
	}
	if pl := plan(exact); pl.Fits || pl.EstimateBytes <= 40<<20 || pl.Largest == "" || len(pl.ExactClasses) != 14 || pl.Distinct != 75 {
		t.Errorf("dry run %+v", pl)
	}
	// Decision mode keeps a bit per pair of classes and listed ε instead
	// (pair storage 252.8 KiB for 15.8 MiB of matrices per worker): the
	// same run fits (estimate 35.7 MiB, 15.9 MiB of it the law index of
	// the distances pass).
	if pl := plan(args); !pl.Fits || pl.EstimateBytes > 40<<20 || strings.HasPrefix(pl.Largest, "pair matrices") {
		t.Errorf("decision mode dry run %+v: want it to fit in 40 MiB", pl)
	}
	if p := runChild(t, 1<<30, args...); p.Err != nil {
		t.Errorf("decision mode in 40 MiB: %v: %s", p.Err, p.Stderr)
	}
	if _, err := runCLI(t, "quotient", "--model", "tiger", "--mem", "lots"); err == nil || !strings.Contains(err.Error(), "memory size") {
		t.Errorf("--mem lots: %v", err)
	}
	if _, err := runCLI(t, "quotient", "--model", "tiger", "--progress", "lines"); err != nil {
		t.Errorf("--progress lines (with a space): %v", err)
	}
	if _, err := runCLI(t, "quotient", "--model", "tiger", "lines"); err == nil || !strings.Contains(err.Error(), "--progress=lines") {
		t.Errorf("a bare mode: %v", err)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{"info", "no-such-model"}, false, "no-such-model"},
		{[]string{"quotient", "--model", "tiger", "--eps", "abc"}, true, "--eps"},
		// Without --enumerate the family above the limit is searched (lib/statbb).
		{[]string{"quotient", "--model", "rocksample:4:4", "--m", "3", "--T", "2", "--enumerate"}, false, "limit"},
		{[]string{"frobnicate"}, true, "unknown command"},
		{[]string{"family", "--model", "tiger", "--kind", "weird"}, true, "unknown family kind"},
		{[]string{"reproduce", "no-such-table", "--out", os.TempDir()}, true, "unknown table"},
	}
	for _, tc := range tests {
		_, err := runCLI(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want one mentioning %q", tc.args, err, tc.want)
			continue
		}
		var u usageError
		if errors.As(err, &u) != tc.usage {
			t.Errorf("%v: usage error = %v, want %v", tc.args, errors.As(err, &u), tc.usage)
		}
	}
}

func TestReproduceOne(t *testing.T) {
	dir := t.TempDir()
	if _, err := runCLI(t, "reproduce", "probe-family-comparison", "--out", dir); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "probe-family-comparison.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// The required header, then our extra columns.
	want := "benchmark,horizon,op_classes,clk_classes,ari,max_gap,obs_value_changed"
	if got := strings.Join(rows[0][:7], ","); got != want {
		t.Fatalf("header %q, want %q", got, want)
	}
	if len(rows) != 10 {
		t.Fatalf("%d rows, want 9 data rows and a header", len(rows))
	}
	// The stationary witness under both conventions (issue 9): def:equiv
	// gives 6 / 8 classes, the possibility pattern the printed 9 / 10 / 0.957.
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	witness := rows[len(rows)-1]
	got := []string{witness[col["op_classes"]], witness[col["clk_classes"]], witness[col["op_classes_pattern"]],
		witness[col["clk_classes_pattern"]], witness[col["ari_pattern"]]}
	if want := []string{"6", "8", "9", "10", "0.957"}; witness[0] != "Stationary witness" || !slices.Equal(got, want) {
		t.Errorf("witness row %v: classes and pattern columns %v, want %v", witness[:2], got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "agreement.csv")); err != nil {
		t.Fatal(err)
	}
}

// TestExport writes built-ins in both formats, to standard output and to a
// file, reads them back and compares every entry.
func TestExport(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		model string
		args  []string
		file  string // "" reads standard output
		read  func(io.Reader, string, ...pomdp.ReadOption) (*pomdp.Model, error)
	}{
		{"tiger95", nil, "", cassandra.Read},
		{"tiger", nil, "", cassandra.Read}, // the observation "R" is written renamed and restored
		{"maze4x3", []string{"--format", "pomdp"}, "", cassandra.Read},
		{"tiger", []string{"--format", "json"}, "", pomdpjson.Read},
		{"cheese", []string{"--out", filepath.Join(dir, "cheese.pomdp")}, filepath.Join(dir, "cheese.pomdp"), cassandra.Read},
		{"witness", []string{"--out", filepath.Join(dir, "w.json")}, filepath.Join(dir, "w.json"), pomdpjson.Read},
		{"paint", []string{"--format", "JSON", "--out", filepath.Join(dir, "paint.txt")}, filepath.Join(dir, "paint.txt"), pomdpjson.Read},
	}
	for _, tc := range tests {
		out, err := runCLI(t, append([]string{"export", tc.model}, tc.args...)...)
		if err != nil {
			t.Errorf("export %s %v: %v", tc.model, tc.args, err)
			continue
		}
		src := out
		if tc.file != "" {
			if out != "" {
				t.Errorf("export %s %v wrote %d bytes to stdout as well", tc.model, tc.args, len(out))
			}
			data, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			src = string(data)
		}
		got, err := tc.read(strings.NewReader(src), tc.model)
		if err != nil {
			t.Errorf("export %s %v: reading back: %v", tc.model, tc.args, err)
			continue
		}
		want, _, err := loadModel(tc.model)
		if err != nil {
			t.Fatal(err)
		}
		if msg := sameModel(got, want); msg != "" {
			t.Errorf("export %s %v: read back %s", tc.model, tc.args, msg)
		}
	}
}

// sameModel returns "" if a and b have the same names, discount, T, Z, R
// and b0 (bit for bit), else the first difference.
func sameModel(a, b *pomdp.Model) string {
	if !slices.Equal(a.States, b.States) || !slices.Equal(a.Actions, b.Actions) || !slices.Equal(a.Observations, b.Observations) {
		return fmt.Sprintf("names %v %v %v, want %v %v %v", a.States, a.Actions, a.Observations, b.States, b.Actions, b.Observations)
	}
	if a.Discount != b.Discount && b.HasDiscount {
		return fmt.Sprintf("discount %v, want %v", a.Discount, b.Discount)
	}
	if !slices.Equal(a.B0, b.B0) {
		return fmt.Sprintf("b0 %v, want %v", a.B0, b.B0)
	}
	for s := range a.States {
		for ac := range a.Actions {
			if a.R[s][ac] != b.R[s][ac] {
				return fmt.Sprintf("R(%d, %d) = %v, want %v", s, ac, a.R[s][ac], b.R[s][ac])
			}
			for s2 := range a.States {
				if a.TransitionProb(s, ac, s2) != b.TransitionProb(s, ac, s2) {
					return fmt.Sprintf("T(%d, %d, %d) differs", s, ac, s2)
				}
			}
			for o := range a.Observations {
				if a.ObsProb(s, ac, o) != b.ObsProb(s, ac, o) {
					return fmt.Sprintf("Z(%d, %d, %d) differs", s, ac, o)
				}
			}
		}
	}
	return ""
}

// TestExportErrors checks that bad requests fail with a message naming the
// problem and write no file.
func TestExportErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-model.pomdp")
	tests := []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{"export"}, true, "usage: pomdpq export"},
		{[]string{"export", "tiger95", "--format", "xml"}, true, `--format "xml"`},
		{[]string{"export", "tiger95", "--format", "json", "--out", filepath.Join(dir, "x.pomdp")}, true, "does not match"},
		{[]string{"export", "tiger", "--discount", "1", "--out", filepath.Join(dir, "tiger.pomdp")}, true, "--discount 1: want a discount in [0, 1)"},
		{[]string{"export", "no-such-model"}, false, "no-such-model"},
		{[]string{"export", missing}, false, "model file " + missing},
		{[]string{"info", filepath.Join(dir, "maze4x3.pomdp")}, false, `built-in model "maze4x3" needs no file`},
		{[]string{"export", "tiger95", "--out", filepath.Join(dir, "no-dir", "t.pomdp")}, false, "no-dir"},
	}
	for _, tc := range tests {
		_, err := runCLI(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want one mentioning %q", tc.args, err, tc.want)
			continue
		}
		var u usageError
		if errors.As(err, &u) != tc.usage {
			t.Errorf("%v: usage error = %v, want %v", tc.args, errors.As(err, &u), tc.usage)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed exports left files: %v", entries)
	}
}

// TestInfoClassic checks that the classic built-ins resolve by name
// (sizes as in pomdp-solve's files).
func TestInfoClassic(t *testing.T) {
	tests := []struct {
		name     string
		s, a, o  float64
		discount float64
	}{
		{"tiger95", 2, 3, 2, 0.95},
		{"maze4x3", 11, 4, 6, 0.95},
		{"cheese", 11, 4, 7, 0.95},
		{"1d", 4, 2, 2, 0.75},
		{"paint", 4, 4, 2, 0.95},
	}
	for _, tc := range tests {
		out, err := runCLI(t, "info", tc.name, "--json")
		if err != nil {
			t.Errorf("info %s: %v", tc.name, err)
			continue
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if got["states"] != tc.s || got["actions"] != tc.a || got["observations"] != tc.o || got["discount"] != tc.discount {
			t.Errorf("info %s = %v, want %v/%v/%v, discount %v", tc.name, got, tc.s, tc.a, tc.o, tc.discount)
		}
	}
}

// TestSubcommandHelp checks that -h and --help on every subcommand with
// flags print its usage lines and flags and succeed (they used to fail with
// "flag: help requested" and no flags).
func TestSubcommandHelp(t *testing.T) {
	for _, tc := range []struct{ cmd, flag string }{
		{"info", "-json"}, {"export", "-format"}, {"family", "-kind"}, {"quotient", "-eps"},
		{"merge", "-missing"}, {"exact", "-convention"}, {"reproduce", "-out"}, {"bench", "-out"},
		{"evaluate", "-policy"}, {"analyze", "-policy"}, {"search-witness", "-budget"},
	} {
		for _, h := range []string{"-h", "--help"} {
			var out, errb strings.Builder
			if err := run([]string{tc.cmd, h}, &out, &errb); err != nil {
				t.Errorf("%s %s: %v", tc.cmd, h, err)
				continue
			}
			if s := out.String(); !strings.Contains(s, "flags:") || !strings.Contains(s, "  "+tc.flag) {
				t.Errorf("%s %s: output lacks the flags (want %s):\n%s", tc.cmd, h, tc.flag, s)
			}
		}
	}
}
