package pomdpq_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
)

// twinName matches a string literal that names a test: the twin of an
// outside oracle ("TestX" or "TestX/subtest").
var twinName = regexp.MustCompile(`^(Test|Benchmark|Fuzz)[A-Za-z0-9_]*(/.*)?$`)

// oracle is a test that reads ../shared (through shared.Path) and the
// in-repository twin it names.
type oracle struct {
	dir, test, twin string
}

// testPackage is what oracleInventory learns about one folder's test files.
type testPackage struct {
	funcs   map[string]*ast.FuncDecl // every function of the test files, by name
	imports map[string]bool          // functions in files that import internal/shared
}

// oracleInventory parses every *_test.go file of the repository and returns
// the outside oracles with their twins, and the problems found: a test
// that joins a path to ../shared itself instead of going through
// internal/shared, a shared.Path call whose twin is neither a literal nor
// a parameter, an oracle without a twin, a twin that does not exist, and a
// twin that reads ../shared itself.
func oracleInventory(root string) ([]oracle, []string, error) {
	fset := token.NewFileSet()
	pkgs := map[string]*testPackage{}
	var problems []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "out") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		p := pkgs[dir]
		if p == nil {
			p = &testPackage{funcs: map[string]*ast.FuncDecl{}, imports: map[string]bool{}}
			pkgs[dir] = p
		}
		usesShared := slices.ContainsFunc(f.Imports, func(s *ast.ImportSpec) bool {
			return s.Path.Value == strconv.Quote("github.com/pomdpq/pomdpq/internal/shared")
		})
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil {
				p.funcs[fd.Name.Name] = fd
				p.imports[fd.Name.Name] = usesShared
			}
		}
		if !strings.HasPrefix(rel, "internal/shared/") {
			problems = append(problems, ownJoins(fset, rel, f)...)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var oracles []oracle
	dirs := make([]string, 0, len(pkgs))
	for dir := range pkgs {
		dirs = append(dirs, dir)
	}
	slices.Sort(dirs)
	for _, dir := range dirs {
		o, pr := packageOracles(fset, dir, pkgs[dir])
		oracles, problems = append(oracles, o...), append(problems, pr...)
	}
	return oracles, problems, nil
}

// ownJoins reports calls in f that pass the literal "shared" next to ".."
// or "data": a path to ../shared built by hand.
func ownJoins(fset *token.FileSet, rel string, f *ast.File) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		var lits []string
		for _, a := range call.Args {
			if b, ok := a.(*ast.BasicLit); ok && b.Kind == token.STRING {
				s, _ := strconv.Unquote(b.Value)
				lits = append(lits, s)
			}
		}
		if i := slices.Index(lits, "shared"); i >= 0 && (i > 0 && lits[i-1] == ".." || i+1 < len(lits) && lits[i+1] == "data") {
			out = append(out, fmt.Sprintf("%s:%d: builds a path to ../shared by hand: use internal/shared (Path, or Find for optional inputs)", rel, fset.Position(call.Pos()).Line))
		}
		return true
	})
	return out
}

// callsPath reports whether fd calls shared.Path, and checks the twin
// argument of each call.
func callsPath(fset *token.FileSet, dir string, fd *ast.FuncDecl, problems *[]string) bool {
	found := false
	ast.Inspect(fd, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Path" {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "shared" {
			return true
		}
		found = true
		if len(call.Args) < 2 {
			return true
		}
		switch a := call.Args[1].(type) {
		case *ast.BasicLit:
		case *ast.Ident:
		case *ast.SelectorExpr:
		default:
			*problems = append(*problems, fmt.Sprintf("%s:%d: shared.Path's twin is %T, want a string literal or a parameter", dir, fset.Position(a.Pos()).Line, a))
		}
		return true
	})
	return found
}

// calls returns the names of the package functions fd calls.
func calls(fd *ast.FuncDecl, funcs map[string]*ast.FuncDecl) []string {
	var out []string
	ast.Inspect(fd, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && funcs[id.Name] != nil {
				out = append(out, id.Name)
			}
		}
		return true
	})
	return out
}

// twinLiterals returns the string literals of fd that name a test.
func twinLiterals(fd *ast.FuncDecl) []string {
	var out []string
	ast.Inspect(fd, func(n ast.Node) bool {
		if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING {
			if s, err := strconv.Unquote(b.Value); err == nil && twinName.MatchString(s) {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

// packageOracles finds the oracles of one folder: its top-level tests and
// benchmarks that call shared.Path, directly or through a helper of the
// folder, with the twins their string literals name.
func packageOracles(fset *token.FileSet, dir string, p *testPackage) ([]oracle, []string) {
	var problems []string
	reads := map[string]bool{}
	for name, fd := range p.funcs {
		if callsPath(fset, dir, fd, &problems) {
			reads[name] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for name, fd := range p.funcs {
			if !reads[name] && slices.ContainsFunc(calls(fd, p.funcs), func(c string) bool { return reads[c] }) {
				reads[name], changed = true, true
			}
		}
	}
	var names []string
	for name := range reads {
		if strings.HasPrefix(name, "Test") || strings.HasPrefix(name, "Benchmark") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var out []oracle
	for _, name := range names {
		twins := twinLiterals(p.funcs[name])
		if len(twins) == 0 {
			problems = append(problems, fmt.Sprintf("%s: %s reads ../shared but names no in-repository twin", dir, name))
		}
		slices.Sort(twins)
		for _, twin := range slices.Compact(twins) {
			top, sub, _ := strings.Cut(twin, "/")
			switch fd := p.funcs[top]; {
			case fd == nil:
				problems = append(problems, fmt.Sprintf("%s: %s names the twin %s, which does not exist", dir, name, twin))
			case reads[top] && (sub == "" || top != name):
				problems = append(problems, fmt.Sprintf("%s: %s names the twin %s, which reads ../shared itself", dir, name, twin))
			}
			out = append(out, oracle{dir, name, twin})
		}
	}
	return out, problems
}

// TestOracleInventory lists the outside oracles (tests that read ../shared)
// with their in-repository twins, and fails on a test that reads ../shared
// without going through internal/shared, an oracle without a twin, or a
// twin that does not exist or reads ../shared itself. When ../shared/data is
// absent it logs which oracle tests skipped in this checkout (go test -v,
// or make test-go, shows them).
func TestOracleInventory(t *testing.T) {
	root, err := shared.Root()
	if err != nil {
		t.Fatal(err)
	}
	oracles, problems, err := oracleInventory(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if len(oracles) < 20 {
		t.Errorf("found %d oracle/twin pairs; the repository has more than 20 (is the inventory missing them?)", len(oracles))
	}
	_, present := shared.Find()
	what := "ran against ../shared/data"
	if !present {
		what = "SKIPPED here (../shared/data absent); each twin ran"
	}
	tests := map[string]bool{}
	for _, o := range oracles {
		tests[o.dir+" "+o.test] = true
	}
	t.Logf("outside oracles: %d tests (%d oracle/twin pairs), %s:", len(tests), len(oracles), what)
	for _, o := range oracles {
		t.Logf("  %s %s → twin %s", o.dir, o.test, o.twin)
	}
}

// TestOracleInventoryRules runs the inventory on a small tree with one
// test of each kind of problem.
func TestOracleInventoryRules(t *testing.T) {
	dir := t.TempDir()
	write := func(path, src string) {
		t.Helper()
		path = filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/a_test.go", `package a
import (
	"path/filepath"
	"testing"
	"github.com/pomdpq/pomdpq/internal/shared"
)
func load(t *testing.T, twin string) string { return shared.Path(t, twin, "pomdp", "x") }
func TestGood(t *testing.T) { load(t, "TestTwin") }
func TestTwin(t *testing.T) {}
func TestNoTwin(t *testing.T) { shared.Path(t, "", "x") }
func TestMissingTwin(t *testing.T) { shared.Path(t, "TestNowhere", "x") }
func TestTwinReads(t *testing.T) { shared.Path(t, "TestGood", "x") }
func TestSubTwin(t *testing.T) { shared.Path(t, "TestSubTwin/own", "x"); t.Run("own", func(*testing.T) {}) }
func TestByHand(t *testing.T) { _ = filepath.Join("..", "..", "..", "shared", "data") }
`)
	oracles, problems, err := oracleInventory(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range oracles {
		got = append(got, o.test+"→"+o.twin)
	}
	want := []string{"TestGood→TestTwin", "TestMissingTwin→TestNowhere", "TestSubTwin→TestSubTwin/own", "TestTwinReads→TestGood"}
	if !slices.Equal(got, want) {
		t.Errorf("oracles %q, want %q", got, want)
	}
	wantProblems := []string{
		"a/a_test.go:14: builds a path to ../shared by hand",
		"a: TestMissingTwin names the twin TestNowhere, which does not exist",
		"a: TestNoTwin reads ../shared but names no in-repository twin",
		"a: TestTwinReads names the twin TestGood, which reads ../shared itself",
	}
	slices.Sort(problems)
	if len(problems) != len(wantProblems) {
		t.Fatalf("problems:\n%s\nwant %d", strings.Join(problems, "\n"), len(wantProblems))
	}
	for i, w := range wantProblems {
		if !strings.HasPrefix(problems[i], w) {
			t.Errorf("problem %d: %q, want prefix %q", i, problems[i], w)
		}
	}
}

// TestSharedHelperTestsOnly: internal/shared, which may name ../shared, is
// imported by test files only; nothing a user runs depends on ../shared.
func TestSharedHelperTestsOnly(t *testing.T) {
	root, err := shared.Root()
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "out") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, s := range f.Imports {
			if s.Path.Value == strconv.Quote("github.com/pomdpq/pomdpq/internal/shared") {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s imports internal/shared: only tests may depend on ../shared", filepath.ToSlash(rel))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
