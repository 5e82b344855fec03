package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnalyze runs the acceptance commands: a built-in model and a model
// file of datasets/models, each page with an SVG, a table and the diagram,
// and the exported files beside it.
func TestAnalyze(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		model string
		files []string
	}{
		{"tiger", []string{"x.html", "x-quotient.json"}},
		{filepath.Join("..", "..", "datasets", "models", "tiger95.pomdp"), []string{"x.html", "x-quotient.pomdp", "x-quotient.json"}},
	} {
		sub := filepath.Join(dir, filepath.Base(c.model))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		out, err := runCLI(t, "analyze", c.model, "--out", filepath.Join(sub, "x.html"), "--T", "3", "--progress=off")
		if err != nil {
			t.Fatalf("analyze %s: %v", c.model, err)
		}
		if !strings.Contains(out, "wrote ") {
			t.Errorf("analyze %s printed %q", c.model, out)
		}
		for _, f := range c.files {
			if _, err := os.Stat(filepath.Join(sub, f)); err != nil {
				t.Errorf("analyze %s: %v", c.model, err)
			}
		}
		page, err := os.ReadFile(filepath.Join(sub, "x.html"))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"<svg", "<table", `<g class="nodes">`, `<figure class="diagram">`} {
			if !strings.Contains(string(page), want) {
				t.Errorf("analyze %s: the page has no %s", c.model, want)
			}
		}
	}
}

func TestAnalyzeErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{"analyze"}, true, "usage: pomdpq analyze"},
		{[]string{"analyze", "tiger", "tiger"}, true, "usage: pomdpq analyze"},
		{[]string{"analyze", "tiger", "--m", "0"}, true, `--m: "0"`},
		{[]string{"analyze", "tiger", "--eps", "-1"}, true, "--eps"},
		{[]string{"analyze", "no-such-model"}, false, "no-such-model"},
		{[]string{"analyze", filepath.Join(dir, "missing.pomdp")}, false, "missing.pomdp"},
	} {
		_, err := runCLI(t, c.args...)
		var u usageError
		if err == nil || errors.As(err, &u) != c.usage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v (usage %v), want one containing %q (usage %v)", c.args, err, errors.As(err, &u), c.want, c.usage)
		}
	}
	// A budget too small for any family: the page is still written and
	// says why, and so does the command.
	path := filepath.Join(dir, "small.html")
	out, err := runCLI(t, "analyze", "tiger", "--T", "3", "--mem", "1K", "--out", path, "--progress=off")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "not computed") || !strings.Contains(out, "budget") {
		t.Errorf("analyze under 1 KiB printed %q", out)
	}
	if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), "exceeds the budget") {
		t.Errorf("page under 1 KiB: %v, mentions the budget refusal: %v", err, strings.Contains(string(b), "exceeds the budget"))
	}
}
