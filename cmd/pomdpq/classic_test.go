package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMain lets the test binary stand in for pomdpq when a test runs
// child processes (reproduce classic-models runs `pomdpq classic-row`).
func TestMain(m *testing.M) {
	if os.Getenv("POMDPQ_TEST_AS_CLI") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func TestReproduceClassic(t *testing.T) {
	models := t.TempDir()
	for _, n := range []string{"tiger95.pomdp", "paint.pomdp"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "datasets", "models", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(models, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(models, "broken.POMDP"), []byte("states: 2\nbogus\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("POMDPQ_TEST_AS_CLI", "1") // children run main()
	out := t.TempDir()
	if _, err := runCLI(t, "reproduce", "classic-models", "--models", models, "--seconds", "30", "--mem", "512M", "--max-t", "4", "--out", out); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(out, "classic-models.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 7 {
		t.Fatalf("%d rows, want a header and 3 files × 2 memories", len(rows))
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, r := range rows[1:] {
		if r[0] == "broken.POMDP" {
			if !strings.Contains(r[col["note"]], "broken.POMDP") {
				t.Errorf("broken file row without the parse error naming it: %v", r)
			}
			continue
		}
		if r[col["T"]] != "4" || r[col["method"]] != "exact" {
			t.Errorf("row %v: want T = 4 (the cap), exact", r)
		}
		if mib, err := strconv.ParseFloat(r[col["peak_mib"]], 64); err != nil || mib <= 0 {
			t.Errorf("row %v: peak_mib %q not measured", r, r[col["peak_mib"]])
		}
	}
	if _, err := os.Stat(filepath.Join(out, "classic-models-notes.txt")); err != nil {
		t.Error(err)
	}
}

func TestReproduceClassicNoModels(t *testing.T) {
	t.Chdir(t.TempDir())
	_, err := runCLI(t, "reproduce", "classic-models", "--out", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "looked in") {
		t.Fatalf("err = %v, want one saying where it looked", err)
	}
}
