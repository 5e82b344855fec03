package repro

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadingsCompute checks, on the source of every table builder, that
// a reading's values are computed, never literals: each verdict.Reading's
// Value is a function literal whose returned value, and every value stored
// in the variables it reads (a map filled per row), depends on a variable
// of the computation. A literal ("0.000", 3, f3(0)) would be a printed
// number typed in as its own explanation.
func TestReadingsCompute(t *testing.T) {
	fset, parsed := builderFiles(t)
	problems, readings := literalReadings(fset, parsed)
	for _, p := range problems {
		t.Error(p)
	}
	if readings < 8 {
		t.Errorf("found %d readings in the builders, want at least 8 (the check does not see them)", readings)
	}
}

// builderFiles parses the package's non-test files.
func builderFiles(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, af)
	}
	return fset, parsed
}

// constNames returns the names that are not variables in files: the
// predeclared constants, the imported packages and the declared
// constants.
func constNames(files []*ast.File) map[string]bool {
	consts := map[string]bool{"true": true, "false": true, "nil": true, "iota": true, "_": true}
	for _, f := range files {
		for _, imp := range f.Imports {
			name := strings.Trim(imp.Path.Value, `"`)
			name = name[strings.LastIndex(name, "/")+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			consts[name] = true
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if d, ok := n.(*ast.GenDecl); ok && d.Tok == token.CONST {
				for _, s := range d.Specs {
					for _, id := range s.(*ast.ValueSpec).Names {
						consts[id.Name] = true
					}
				}
			}
			return true
		})
	}
	return consts
}

// TestLiteralReadingsCaught checks the check: readings whose values are
// literals, directly or through the map they read, are reported.
func TestLiteralReadingsCaught(t *testing.T) {
	for _, src := range []string{
		`func b(t *Table) { t.Reading = &verdict.Reading{How: "x", Covers: nil, Value: func(int, string) (float64, bool) { return 0, true }} }`,
		`func b(t *Table) { t.Reading = &verdict.Reading{Value: func(int, string) (float64, bool) { return f3(0.5), true }} }`,
		`func b(t *Table) { m := map[int]float64{}; m[2] = 0; t.Reading = &verdict.Reading{Value: func(i int, _ string) (float64, bool) { v, ok := m[i]; return v, ok }} }`,
		`func b(t *Table) { m := map[int]map[string]float64{}; m[0] = map[string]float64{"a": 3}; t.Reading = &verdict.Reading{Value: func(i int, c string) (float64, bool) { v, ok := m[i][c]; return v, ok }} }`,
		`func b(t *Table) { t.Reading = &verdict.Reading{Value: named} }`,
		`func b(t *Table) { t.Reading = &verdict.Reading{Value: func(int, string) (float64, bool) { return 3, 1 > 0 }} }`,
		`func b(t *Table) { g := 0.0; t.Reading = &verdict.Reading{Value: func(int, string) (float64, bool) { return g, true }} }`,
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", "package repro\nimport \"github.com/pomdpq/pomdpq/lib/verdict\"\n"+src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if problems, n := literalReadings(fset, []*ast.File{f}); len(problems) == 0 || n != 1 {
			t.Errorf("not caught (%d readings, %v): %s", n, problems, src)
		}
	}
	good := `func b(t *Table, r []int) { n := 0; for range r { n++ }; m := map[int]float64{}; for i, x := range r { m[i] = float64(x + n) }; t.Reading = &verdict.Reading{Value: func(i int, _ string) (float64, bool) { v, ok := m[i]; return v, ok }} }`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", "package repro\nimport \"github.com/pomdpq/pomdpq/lib/verdict\"\n"+good, 0)
	if err != nil {
		t.Fatal(err)
	}
	if problems, n := literalReadings(fset, []*ast.File{f}); len(problems) > 0 || n != 1 {
		t.Errorf("computed reading refused (%d readings): %v", n, problems)
	}
}

// literalReadings returns the readings of files whose values are not
// computed, and the number of readings found.
func literalReadings(fset *token.FileSet, files []*ast.File) (problems []string, readings int) {
	consts := constNames(files)
	for _, f := range files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				cl, ok := n.(*ast.CompositeLit)
				if !ok || !isReadingType(cl.Type) {
					return true
				}
				readings++
				where := fset.Position(cl.Pos()).String()
				value := fieldOf(cl, "Value")
				fl, ok := value.(*ast.FuncLit)
				if !ok {
					problems = append(problems, where+": a reading's Value must be a function literal, so that its values can be checked")
					return true
				}
				for _, p := range literalValues(fl, fd.Body, consts) {
					problems = append(problems, where+": "+p)
				}
				return true
			})
		}
	}
	return problems, readings
}

func isReadingType(e ast.Expr) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && x.Name == "verdict" && s.Sel.Name == "Reading"
}

func fieldOf(cl *ast.CompositeLit, name string) ast.Expr {
	for _, e := range cl.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == name {
				return kv.Value
			}
		}
	}
	return nil
}

// literalValues checks the values a reading's Value returns: the first
// result of each return statement, and the values stored (in body, the
// builder) into the variables of the enclosing function it reads.
func literalValues(fl *ast.FuncLit, body *ast.BlockStmt, consts map[string]bool) []string {
	var problems []string
	local := map[string]bool{}
	for _, p := range fl.Type.Params.List {
		for _, n := range p.Names {
			local[n.Name] = true
		}
	}
	ast.Inspect(fl.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					local[id.Name] = true
				}
			}
		}
		if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) > 0 && !computed(r.Results[0], consts) && !noValue(r) {
			problems = append(problems, "returns a literal "+exprString(r.Results[0]))
		}
		return true
	})
	// the outer variables the function reads
	outer := map[string]bool{}
	ast.Inspect(fl.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !local[id.Name] && !consts[id.Name] {
			outer[id.Name] = true
		}
		return true
	})
	// Every store into those variables must be computed, but for an
	// initialisation (:=, var) followed by computed stores (a counter
	// started at 0).
	var inits []string
	updated := map[string]bool{}
	check := func(name string, rhs ast.Expr, init bool) {
		var lits []string
		if cl, ok := rhs.(*ast.CompositeLit); ok {
			for _, e := range cl.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				if !computed(e, consts) {
					lits = append(lits, exprString(e))
				}
			}
		} else if !computed(rhs, consts) {
			lits = append(lits, exprString(rhs))
		}
		for _, l := range lits {
			if init {
				inits = append(inits, name+"\x00"+l)
			} else {
				problems = append(problems, name+" holds a literal "+l)
			}
		}
		if !init && len(lits) == 0 {
			updated[name] = true
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if len(x.Lhs) != len(x.Rhs) {
				break
			}
			for k, l := range x.Lhs {
				if name := rootName(l); outer[name] {
					check(name, x.Rhs[k], x.Tok == token.DEFINE)
				}
			}
		case *ast.IncDecStmt:
			updated[rootName(x.X)] = true
		case *ast.ValueSpec:
			for k, id := range x.Names {
				if outer[id.Name] && k < len(x.Values) {
					check(id.Name, x.Values[k], true)
				}
			}
		}
		return true
	})
	for _, in := range inits {
		name, lit, _ := strings.Cut(in, "\x00")
		if !updated[name] {
			problems = append(problems, name+" holds a literal "+lit)
		}
	}
	return problems
}

// noValue reports a return of no value: (_, false).
func noValue(r *ast.ReturnStmt) bool {
	if len(r.Results) != 2 {
		return false
	}
	id, ok := r.Results[1].(*ast.Ident)
	return ok && id.Name == "false"
}

// rootName returns the variable an assignment target is rooted at (m for
// m, m[i], m[i][c], m.x).
func rootName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x.Name
		case *ast.IndexExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		default:
			return ""
		}
	}
}

// computed reports whether e depends on a variable: an identifier that is
// not a constant, a package, a called function's name or a field name.
func computed(e ast.Expr, consts map[string]bool) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return !consts[x.Name]
	case *ast.BasicLit:
		return false
	case *ast.ParenExpr:
		return computed(x.X, consts)
	case *ast.UnaryExpr:
		return computed(x.X, consts)
	case *ast.BinaryExpr:
		return computed(x.X, consts) || computed(x.Y, consts)
	case *ast.SelectorExpr:
		return computed(x.X, consts)
	case *ast.IndexExpr:
		return computed(x.X, consts) || computed(x.Index, consts)
	case *ast.CallExpr:
		if s, ok := x.Fun.(*ast.SelectorExpr); ok && computed(s.X, consts) {
			return true // a method of a variable
		}
		for _, a := range x.Args {
			if computed(a, consts) {
				return true
			}
		}
		return false
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if computed(el, consts) {
				return true
			}
		}
		return len(x.Elts) == 0 // an empty map or slice to be filled
	case *ast.FuncLit:
		return true
	}
	return true // anything else (type assertions, slices of variables) reads a variable
}

func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.BasicLit:
		return x.Value
	case *ast.CallExpr:
		return exprString(x.Fun) + "(…)"
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	}
	return "expression"
}
