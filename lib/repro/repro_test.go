package repro

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var regen = flag.Bool("regen", false, "rewrite the golden files under testdata/golden")

// TestGolden regenerates every table and compares it, cell by cell, with
// the golden CSV under testdata/golden (Timing columns blanked; sampled
// statistics are kept: their seeds are fixed), and its notes with
// NAME.notes.txt there (checkGoldenNotes). The golden
// files pin our numbers and each row's agreement with the paper: a change
// in a result or in its agreement status fails here. Run
// `go test ./lib/repro -run Golden -regen` after an intended change and
// review the diff.
func TestGolden(t *testing.T) {
	env := &Env{}
	for _, s := range Specs() {
		if testing.Short() && s.Heavy {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			tab, err := s.Build(context.Background(), env)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tab.Compare(); err != nil {
				t.Fatal(err)
			}
			checkGoldenNotes(t, tab)
			for c, col := range tab.Columns {
				if col.Kind == Timing {
					for i := range tab.Rows {
						tab.Rows[i][c] = "(timing)"
					}
				}
			}
			var buf bytes.Buffer
			if err := tab.WriteCSV(&buf); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "golden", s.Name+".csv")
			if *regen {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -regen to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s differs from %s:\n got:\n%s\nwant:\n%s", s.Name, path, buf.String(), want)
			}
		})
	}
}

// TestAgreement pins, per table, how many rows have each status
// (docs/agreement.md#row-status): {exact, statistical, pattern, explained, unexplained,
// not judged, settings, ours only}.
func TestAgreement(t *testing.T) {
	want := map[string]Counts{
		"capacity-sweep-gridworld": {Exact: 8},
		"partition-agreement":      {Exact: 6},
		"larger-scale":             {Exact: 2, Structural: 2},
		"latent-planning-exact":    {Exact: 7},
		"observation-planning":     {Exact: 15, Pattern: 1},
		"worked-examples":          {Exact: 32, Unexplained: 1, NotJudged: 2},
		"principal-horizon":        {Exact: 6},
		"capacity-sweep-tiger":     {Exact: 1, Explained: 1, Unexplained: 4, OursOnly: 8},
		"meaningful-scale":         {Explained: 1, Unexplained: 1, NotJudged: 1, OursOnly: 2},
		"probe-family-comparison":  {Explained: 9},
	}
	checkAgreement(t, &Env{}, want)
}

func TestAgrees(t *testing.T) {
	tests := []struct {
		ours, printed string
		want          bool
	}{
		{"0.4900", "0.49", true},
		{"0.4949", "0.49", true},
		{"0.4951", "0.49", false},
		{"16", "16", true},
		{"16", "31", false},
		{"L L", "L L", true},
		{"-0.000", "0.000", true},
		{"NaN", "0.5", false},
	}
	for _, tc := range tests {
		if got := Agrees(tc.ours, tc.printed); got != tc.want {
			t.Errorf("Agrees(%q, %q) = %v, want %v", tc.ours, tc.printed, got, tc.want)
		}
	}
}

// buildTable builds and compares one registered table.
func buildTable(t *testing.T, env *Env, name string) *Table {
	t.Helper()
	s, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := s.Build(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tab.Compare(); err != nil {
		t.Fatal(err)
	}
	return tab
}

// checkAgreement checks, per table, the number of rows of each status
// (want: table → Counts), that explained rows say "paper differs: …",
// and that unexplained ones do not.
func checkAgreement(t *testing.T, env *Env, want map[string]Counts) {
	t.Helper()
	for name, w := range want {
		tab := buildTable(t, env, name)
		for i, st := range tab.Status {
			explained := strings.HasPrefix(tab.Note[i], ExplainPrefix)
			if st == Explained && !explained {
				t.Errorf("%s row %d is explained without a 'paper differs' note: %s", name, i, tab.Note[i])
			}
			if st != Explained && explained {
				t.Errorf("%s row %d (%s) says 'paper differs': %s", name, i, st, tab.Note[i])
			}
		}
		if got := tab.Counts(); got != w {
			t.Errorf("%s: counts %+v, want %+v", name, got, w)
		}
	}
}
