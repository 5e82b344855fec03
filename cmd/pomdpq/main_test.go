package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	// Schema documented in main.go: name, states, actions, observations, discount.
	for k, want := range map[string]any{"name": "rocksample:4:4", "states": 257.0, "actions": 9.0, "observations": 3.0, "discount": nil} {
		if got[k] != want {
			t.Errorf("info %s = %v, want %v", k, got[k], want)
		}
	}
	if len(got) != 5 {
		t.Errorf("info has keys %v, want exactly the documented five", got)
	}
}

func TestInfoFile(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "data", "pomdp", "tiger.95.POMDP")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("shared model files absent (%v); CI provides them at ../shared/data/pomdp", err)
	}
	out, err := runCLI(t, "info", path, "--json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"discount": 0.95`) || !strings.Contains(out, `"states": 2`) {
		t.Fatalf("info of tiger.95: %s", out)
	}
	bad := filepath.Join("..", "..", "..", "shared", "data", "pomdp", "ejs4.POMDP")
	if _, err := runCLI(t, "info", bad); err == nil || !strings.Contains(err.Error(), "ejs4.POMDP") {
		t.Fatalf("invalid file: err = %v, want an error naming the file", err)
	}
}

func TestFamilyJSON(t *testing.T) {
	// Family sizes: CONVENTIONS.md.
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
}

func TestErrors(t *testing.T) {
	tests := []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{"info", "no-such-model"}, false, "no-such-model"},
		{[]string{"quotient", "--model", "tiger", "--eps", "abc"}, true, "--eps"},
		{[]string{"quotient", "--model", "rocksample:4:4", "--m", "3", "--T", "2"}, false, "limit"},
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
	if _, err := os.Stat(filepath.Join(dir, "agreement.csv")); err != nil {
		t.Fatal(err)
	}
}
