package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestReproduceSummary checks agreement.csv: one column per status, every
// row of a table counted in exactly one of them, and the printed summary.
func TestReproduceSummary(t *testing.T) {
	dir := t.TempDir()
	out, err := runCLI(t, "reproduce", "planning-claims", "--out", dir, "--progress=off")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "agreement.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := "table,exact,statistical,pattern,structural,explained,unexplained,not_judged,settings,ours_only,formula,seconds"
	if got := strings.Join(rows[0], ","); got != want {
		t.Fatalf("agreement.csv header %q, want %q", got, want)
	}
	tf, err := os.Open(filepath.Join(dir, "planning-claims.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer tf.Close()
	table, err := csv.NewReader(tf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, c := range rows[1][1:11] {
		n, err := strconv.Atoi(c)
		if err != nil {
			t.Fatal(err)
		}
		sum += n
	}
	if sum != len(table)-1 {
		t.Errorf("statuses sum to %d, the table has %d rows", sum, len(table)-1)
	}
	if rows[1][8] == "0" {
		t.Errorf("planning-claims has settings rows (sample sizes, defaults), agreement.csv counts none: %v", rows[1])
	}
	if rows[1][10] == "0" {
		t.Errorf("planning-claims has formula checks (the paper's arithmetic on its constants), agreement.csv counts none: %v", rows[1])
	}
	for _, w := range []string{"not judged", "settings (not counted)", "computed explanation", "structural", "formula checks"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// TestReproduceWallTime checks that the summary line reports the real
// wall time of a fast table (it printed "in 0.0s" for tables under 50 ms).
func TestReproduceWallTime(t *testing.T) {
	out, err := runCLI(t, "reproduce", "worked-examples", "--out", t.TempDir(), "--progress=off")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`1 tables in (\S+);`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no wall time in the summary:\n%s", out)
	}
	d, err := time.ParseDuration(m[1])
	if err != nil || d <= 0 {
		t.Errorf("wall time %q is not a positive duration (%v):\n%s", m[1], err, out)
	}
}

func TestWallTime(t *testing.T) {
	for _, c := range []struct {
		secs float64
		want string
	}{{0.0114567, "11.457ms"}, {0.0000042, "4µs"}, {2.34567, "2.346s"}, {125.5, "2m5.5s"}} {
		if got := wallTime(c.secs); got != c.want {
			t.Errorf("wallTime(%g) = %q, want %q", c.secs, got, c.want)
		}
	}
}
