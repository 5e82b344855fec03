package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchWitness runs a small search: JSON report, witness files
// that `pomdpq quotient` then reads and separates the same way.
func TestSearchWitness(t *testing.T) {
	dir := t.TempDir()
	out, err := runCLI(t, "search-witness", "--max-states", "2", "--max-t", "2", "--grids", "2", "--criteria", "clk,clk-free",
		"--json", "--out", dir, "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Witnesses []struct {
			Criterion    string `json:"criterion"`
			T            int    `json:"T"`
			SmallClasses int    `json:"small_classes"`
			LargeClasses int    `json:"large_classes"`
			Verified     bool   `json:"verified"`
			Possible     bool   `json:"possible"`
			Class        struct {
				S    int    `json:"states"`
				O    int    `json:"observations"`
				A    int    `json:"actions"`
				Grid string `json:"grid"`
			} `json:"class"`
		} `json:"witnesses"`
		Coverage []struct {
			Mode string `json:"mode"`
		} `json:"coverage"`
		Tested int64 `json:"tested"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Witnesses) != 2 || rep.Tested == 0 || len(rep.Coverage) == 0 {
		t.Fatalf("report: %s", out)
	}
	for _, w := range rep.Witnesses {
		want := map[string]int{"clk": 1, "clk-free": 2}[w.Criterion]
		if w.Class.S != want || w.Class.Grid != "2" || w.T != 2 || !w.Verified || w.SmallClasses >= w.LargeClasses {
			t.Errorf("witness %+v", w)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.pomdp"))
	if len(files) != 2 {
		t.Fatalf("files %v", files)
	}
	// The stand-in-free witness: the stationary m = 1 and clock-aware m = 1
	// quotients of the written file differ (3 vs 4 classes at T = 2).
	var free string
	for _, f := range files {
		if strings.Contains(f, "clk-free") {
			free = f
		}
	}
	q := map[string]string{}
	for _, fam := range []string{"stationary", "clock"} {
		o, err := runCLI(t, "quotient", "--model", free, "--family", fam, "--m", "1", "--T", "2", "--eps", "0", "--json", "--progress=off")
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ Classes []struct{ Count int } }
		if err := json.Unmarshal([]byte(o), &r); err != nil {
			t.Fatal(err)
		}
		q[fam] = fmt.Sprint(r.Classes[0].Count)
	}
	if q["stationary"] != "3" || q["clock"] != "4" {
		t.Errorf("pomdpq quotient on %s: stationary %s, clock %s classes; want 3 and 4", filepath.Base(free), q["stationary"], q["clock"])
	}
	if _, err := os.Stat(free); err != nil {
		t.Fatal(err)
	}
}

func TestSearchWitnessText(t *testing.T) {
	out, err := runCLI(t, "search-witness", "--max-states", "1", "--max-t", "2", "--grids", "1:2", "--criteria", "m2", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"smallest witnesses", "m2", "separated by", "verified by brute force: true", "coverage"} {
		if !strings.Contains(out, s) {
			t.Errorf("text report lacks %q:\n%s", s, out)
		}
	}
}

func TestSearchWitnessFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--criteria", "m3"},
		{"--grids", "0"},
		{"--max-states", "6"},
		{"--max-t", "0"},
		{"--models", "0"},
		{"extra"},
	} {
		_, err := runCLI(t, append([]string{"search-witness"}, args...)...)
		var u usageError
		if err == nil || !asUsage(err, &u) {
			t.Errorf("%v: error %v, want a usage error", args, err)
		}
	}
}

func asUsage(err error, u *usageError) bool {
	v, ok := err.(usageError)
	if ok {
		*u = v
	}
	return ok
}

// TestSearchWitnessHelp: --help prints the usage and every flag with its
// default on stdout and succeeds, like the other subcommands.
func TestSearchWitnessHelp(t *testing.T) {
	for _, h := range []string{"--help", "-h"} {
		out, err := runCLI(t, "search-witness", h)
		if err != nil {
			t.Fatalf("%s: %v", h, err)
		}
		for _, s := range []string{"usage: pomdpq search-witness", "-budget", "-class-models", "-no-symmetry", "default 300000"} {
			if !strings.Contains(out, s) {
				t.Errorf("%s output lacks %q:\n%s", h, s, out)
			}
		}
	}
}
