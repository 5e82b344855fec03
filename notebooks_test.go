package pomdpq_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExplorerLast: a notebook's ε explorer (lib/nb Explorer.Show, whose
// cell runs until Done is pressed or ten idle minutes pass) is its last
// code cell, and the markdown just before it says so, so that Jupyter's
// Run All is not held up by it: a code cell below it would wait.
func TestExplorerLast(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("notebooks", "*.ipynb"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no notebooks (%v)", err)
	}
	type cell struct {
		Type   string          `json:"cell_type"`
		Source json.RawMessage `json:"source"`
	}
	text := func(raw json.RawMessage) string {
		var lines []string
		if json.Unmarshal(raw, &lines) == nil {
			return strings.Join(lines, "")
		}
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	}
	explorers := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var nb struct{ Cells []cell }
		if err := json.Unmarshal(data, &nb); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		lastCode := -1
		for i, c := range nb.Cells {
			if c.Type == "code" {
				lastCode = i
			}
		}
		for i, c := range nb.Cells {
			src := text(c.Source)
			if c.Type != "code" || !strings.Contains(src, "EpsExplorer(") && !strings.Contains(src, "ExplorerOptions") {
				continue
			}
			explorers++
			if i != lastCode {
				t.Errorf("%s: cell %d runs an ε explorer but is not the last code cell (cell %d is): with Run All the cells below wait until it closes", f, i, lastCode)
			}
			if i == 0 || nb.Cells[i-1].Type != "markdown" || !strings.Contains(text(nb.Cells[i-1].Source), "Run All") || !strings.Contains(text(nb.Cells[i-1].Source), "Done") {
				t.Errorf("%s: the markdown before the ε explorer (cell %d) should say that the cell runs until Done and why it is last (Run All)", f, i)
			}
		}
	}
	if explorers == 0 {
		t.Error("no notebook runs an ε explorer (the quickstart and the workshop notebook should)")
	}
}
