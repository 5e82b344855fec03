package repro

import (
	"os"
	"strings"
	"testing"
)

// TestOneFilePerTable checks the package's layout: every table of Specs
// is registered, and built, in a file named as the paper's table is
// (value-bounds in value_bounds.go), so a reader finds a table by its name.
func TestOneFilePerTable(t *testing.T) {
	for _, s := range Specs() {
		file := strings.ReplaceAll(s.Name, "-", "_") + ".go"
		src, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("table %s: %v", s.Name, err)
			continue
		}
		if !strings.Contains(string(src), `register(Spec{Name: "`+s.Name+`"`) {
			t.Errorf("table %s is not registered in %s", s.Name, file)
		}
	}
}
