package modelfile

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLayers keeps the layering of the model packages: pomdp (the model)
// below filebuild (what readers share), below the format packages, below
// modelfile. A package may import only packages of the layers below it, so
// that no format package reaches another format or the loader, and the
// model package reaches none of them. Only non-test files count (a format
// package's tests read the other formats).
func TestLayers(t *testing.T) {
	const mod = "github.com/pomdpq/pomdpq/lib/pomdp"
	model := []string{mod + "/cassandra", mod + "/pomdpx", mod + "/pomdpjson", mod + "/modelfile", mod + "/internal/filebuild", mod + "/internal/pomdptest"}
	for _, tc := range []struct {
		dir       string
		forbidden []string
	}{
		{"..", model},
		{"../internal/filebuild", model},
		{"../cassandra", []string{mod + "/pomdpx", mod + "/pomdpjson", mod + "/modelfile", mod + "/internal/pomdptest"}},
		{"../pomdpx", []string{mod + "/cassandra", mod + "/pomdpjson", mod + "/modelfile", mod + "/internal/pomdptest"}},
		{"../pomdpjson", []string{mod + "/cassandra", mod + "/pomdpx", mod + "/modelfile", mod + "/internal/pomdptest"}},
		{".", []string{mod + "/internal/pomdptest"}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			files, err := filepath.Glob(filepath.Join(tc.dir, "*.go"))
			if err != nil || len(files) == 0 {
				t.Fatalf("no Go files in %s (%v)", tc.dir, err)
			}
			for _, f := range files {
				if strings.HasSuffix(f, "_test.go") {
					continue
				}
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				af, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
				if err != nil {
					t.Fatal(err)
				}
				for _, imp := range af.Imports {
					path, _ := strconv.Unquote(imp.Path.Value)
					for _, bad := range tc.forbidden {
						if path == bad {
							t.Errorf("%s imports %s, a package of its own layer or above", f, path)
						}
					}
				}
			}
		})
	}
}
