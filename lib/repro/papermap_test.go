package repro

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestPaperMapListsEveryTable checks that docs/paper-map.md, the map from
// the paper to the repository, has a row for every table that `pomdpq
// reproduce` knows (Specs and Extras) and no row for a table it does not:
// a table added or renamed without its place in the map fails here.
func TestPaperMapListsEveryTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "paper-map.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|").FindAllStringSubmatch(string(data), -1) {
		rows[m[1]] = true
	}
	known := map[string]bool{}
	for _, s := range append(Specs(), Extras()...) {
		known[s.Name] = true
		if !rows[s.Name] {
			t.Errorf("docs/paper-map.md: no row | `%s` | in the table list (%s, %s)", s.Name, s.Label, s.Title)
		}
	}
	for name := range rows {
		if !known[name] {
			t.Errorf("docs/paper-map.md lists table %q, which `pomdpq reproduce` does not know (known: %s)", name, strings.Join(slices.Sorted(maps.Keys(known)), ", "))
		}
	}
}
