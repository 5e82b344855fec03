// Package shared locates the third-party test inputs that some tests use as
// outside oracles: model files written for other solvers, and a solver's
// output. They are kept beside the repository, in ../shared/data relative
// to its root, never inside it, so a fresh clone does not have them.
//
// Every test that reads them goes through Path, which names the test's
// in-repository twin: a test that checks the same property on our own
// files against an independent fact (a value a solver printed, a published
// table, a hand derivation) and so runs in every clone. When an input is
// absent, Path skips the test with a one-line reason naming the twin; when
// the environment variable CI is "true" (the CI run has the inputs), an
// absent input fails the test instead.
//
// Only tests import this package.
package shared

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// module is the module path whose go.mod marks the repository root.
const module = "github.com/pomdpq/pomdpq"

// Dir is the folder of third-party inputs relative to the repository root.
var Dir = filepath.Join("..", "shared", "data")

// Root returns the repository root: the nearest folder at or above the
// working directory whose go.mod declares the module
// github.com/pomdpq/pomdpq.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if isRoot(dir) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod of module %s at or above the working directory", module)
		}
		dir = parent
	}
}

// isRoot reports whether dir holds the go.mod of this module.
func isRoot(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "module ") {
			return strings.TrimSpace(strings.TrimPrefix(line, "module ")) == module
		}
	}
	return false
}

// ToolsDir is the folder of third-party tools' sources (SARSOP's tarball)
// relative to the repository root, beside Dir.
var ToolsDir = filepath.Join("..", "shared", "tools")

// Find returns the path of a third-party input, elem joined below
// ../shared/data (for example Find("pomdp", "hallway.POMDP")), and whether
// it exists. It never skips: it is for optional uses such as fuzz seeds.
func Find(elem ...string) (string, bool) {
	return find(Dir, elem)
}

// FindTool returns the path of a third-party tool's source, elem joined
// below ../shared/tools (FindTool() is the folder itself, to glob in), and
// whether it exists. Like Find, it never skips: a test that needs a tool
// decides what its absence means.
func FindTool(elem ...string) (string, bool) {
	return find(ToolsDir, elem)
}

// find joins elem below dir (relative to the repository root) and reports
// whether the path exists.
func find(dir string, elem []string) (string, bool) {
	root, err := Root()
	if err != nil {
		return "", false
	}
	path := filepath.Join(append([]string{root, dir}, elem...)...)
	_, err = os.Stat(path)
	return path, err == nil
}

// CI reports whether the environment variable CI is "true": then an absent
// third-party input is a failure, not a skip.
func CI() bool { return os.Getenv("CI") == "true" }

// Path returns the path of a third-party input, elem joined below
// ../shared/data. When it is absent, it skips t with a one-line reason that
// names twin, the in-repository test that checks the same thing on our own
// files, or fails t when CI is true.
func Path(t testing.TB, twin string, elem ...string) string {
	t.Helper()
	path, ok := Find(elem...)
	if !ok {
		if CI() {
			t.Fatalf("outside oracle cannot run: %s; CI=true: the CI run must have ../shared beside the clone", Reason(twin, elem...))
		} else {
			t.Skip("outside oracle skipped: " + Reason(twin, elem...))
		}
	}
	return path
}

// Reason says, on one line, which third-party input is absent and which
// in-repository twin checks the same thing.
func Reason(twin string, elem ...string) string {
	return fmt.Sprintf("third-party input %s absent (kept beside the repository, not in it); in-repository twin: %s",
		filepath.ToSlash(filepath.Join(append([]string{"..", "shared", "data"}, elem...)...)), twin)
}

// Seeds returns the paths of the third-party inputs dir/name (for
// example Seeds(f, "testdata/counter.pg", "policies", "tiger.95.pg")) that
// exist, for inputs that only add seeds to a fuzz target. When some are
// absent, it says so on one line (t.Log, shown by go test -v and by the
// fuzz smoke run) naming twin, the in-repository seeds that stand in for
// them, or fails t when CI is true, as Path does.
func Seeds(t testing.TB, twin, dir string, names ...string) []string {
	t.Helper()
	var found, absent []string
	for _, name := range names {
		if path, ok := Find(dir, name); ok {
			found = append(found, path)
		} else {
			absent = append(absent, name)
		}
	}
	if len(absent) > 0 {
		what := fmt.Sprintf("%d of %d absent: %s", len(absent), len(names), Reason(twin, dir, "{"+strings.Join(absent, ",")+"}"))
		if CI() {
			t.Fatalf("%s; CI=true: the CI run must have ../shared beside the clone", what)
		} else {
			t.Log("fuzz seeds skipped, " + what)
		}
	}
	return found
}
