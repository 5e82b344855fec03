package browsertest

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Edit changes a notebook's list of cells (nbformat 4 cells as decoded JSON).
type Edit func(cells []any) ([]any, error)

// CopyNotebook writes a copy of the notebook src to dst with every output and
// execution count removed, so that whatever the browser shows afterwards was
// produced by that run, then applies the edits in order.
func CopyNotebook(src, dst string, edits ...Edit) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("browsertest: %w", err)
	}
	var nb map[string]any
	if err := json.Unmarshal(b, &nb); err != nil {
		return fmt.Errorf("browsertest: %s is not a notebook: %w", src, err)
	}
	cells, ok := nb["cells"].([]any)
	if !ok {
		return fmt.Errorf("browsertest: %s has no cells", src)
	}
	for _, c := range cells {
		if cell, ok := c.(map[string]any); ok && cell["cell_type"] == "code" {
			cell["outputs"] = []any{}
			cell["execution_count"] = nil
		}
	}
	for _, e := range edits {
		if cells, err = e(cells); err != nil {
			return fmt.Errorf("browsertest: editing a copy of %s: %w", src, err)
		}
	}
	nb["cells"] = cells
	out, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		return fmt.Errorf("browsertest: %w", err)
	}
	if err := os.WriteFile(dst, append(out, '\n'), 0o644); err != nil {
		return fmt.Errorf("browsertest: %w", err)
	}
	return nil
}

// InsertCodeCell returns an [Edit] that inserts a code cell with source at
// position at (from 0; the cell then has that index).
func InsertCodeCell(at int, source string) Edit {
	return func(cells []any) ([]any, error) {
		if at < 0 || at > len(cells) {
			return nil, fmt.Errorf("cannot insert a cell at %d in %d cells", at, len(cells))
		}
		var lines []any
		for _, l := range strings.SplitAfter(source, "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
		cell := map[string]any{
			"cell_type":       "code",
			"execution_count": nil,
			"metadata":        map[string]any{},
			"outputs":         []any{},
			"source":          lines,
		}
		out := make([]any, 0, len(cells)+1)
		out = append(out, cells[:at]...)
		out = append(out, cell)
		return append(out, cells[at:]...), nil
	}
}
