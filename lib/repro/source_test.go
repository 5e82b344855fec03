package repro

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// printedReaders are the functions that read the paper's printed values
// (datasets/paper): a value derived from one of them may be shown in a
// note or a remark, never in a row of ours or as a reading's value.
var printedReaders = map[string]bool{
	"claimed": true, "claimedFloat": true, "paperValue": true, "paperFloat": true, "paperColumn": true,
	"paperCell": true, "plPrinted": true, "datasets.Claims": true, "datasets.Paper": true,
}

// printedDerivedRows are the row cells allowed to derive from printed
// values, each with why: none is judged against the paper.
var printedDerivedRows = map[string]string{
	"planningClaims.fitText": "the ours-only row sanity_per_seed_matching says which of our per-seed counts holds the printed mean; it has no printed counterpart and no verdict",
}

// TestRowSources checks, on the source of every table builder, that the
// values of our rows are computed: no cell of a row, no reading's value,
// is derived from the paper's printed tables or claims (printedReaders),
// no variable that only ever holds a literal ("5") is put in a row, and
// every claim that is neither a setting nor a formula check computes its
// value (no constant(…), no function returning arithmetic on literals).
// TestReadingsCompute checks the readings for literals; this checks
// where the rows' numbers come from.
func TestRowSources(t *testing.T) {
	fset, files := builderFiles(t)
	for _, p := range rowSourceProblems(fset, files) {
		t.Error(p)
	}
}

// TestRowSourcesCaught plants a value produced from constants or from the
// printed tables in a builder and checks that the guard reports it, and
// that computed values, settings and formula checks pass.
func TestRowSourcesCaught(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		caught    bool
	}{
		{"printed value in a row",
			`func b(t *Table) error { v, err := claimedFloat("x"); if err != nil { return err }; t.Rows = append(t.Rows, []string{"id", f3(v)}); return nil }`, true},
		{"printed value through a field",
			`func b(t *Table, p *panel) error { lr, err := claimedFloat("x"); p.LR = lr; t.Rows = append(t.Rows, []string{fg(p.LR * 2)}); return err }`, true},
		{"printed value through a row slice",
			`func b(t *Table) { s, _ := paperValue("t", nil, "c"); row := []string{"a"}; row = append(row, s); t.Rows = append(t.Rows, row) }`, true},
		{"printed value through a row helper",
			`func b(t *Table) { add := func(id, v string) { t.Rows = append(t.Rows, []string{id, v}) }; all, _ := datasets.Claims(); add("x", all["x"].Value) }`, true},
		{"printed value as a reading's value",
			`func b(t *Table) { v, _ := claimedFloat("x"); t.Reading = &verdict.Reading{Value: func(int, string) (float64, bool) { return v, true }} }`, true},
		{"a literal typed into a row",
			`func b(t *Table, rows [][]string) { at5 := ""; for _, r := range rows { if r[3] == "5" { at5 = "5" } }; t.Rows = append(t.Rows, []string{"id", at5}) }`, true},
		{"a constant claim",
			`var cs = []claim{{id: "x", value: constant("5")}}`, true},
		{"a claim of arithmetic on literals",
			`var cs = []claim{{id: "x", value: func(context.Context, *Env) (string, error) { return plF2(value.Bound(1, 2, 0.5)), nil }}}`, true},
		{"printed value in a note", `func b(t *Table) { v, _ := claimed("x"); t.Notes = append(t.Notes, "the paper's "+v) }`, false},
		{"computed row", `func b(t *Table, r []float64) { n := 0.0; for _, x := range r { n += x }; t.Rows = append(t.Rows, []string{"id", f3(n)}) }`, false},
		{"a constant setting claim", `var cs = []claim{{id: "x", setting: true, value: constant("5")}}`, false},
		{"a formula claim", `var cs = []claim{{id: "x", formula: true, value: func(context.Context, *Env) (string, error) { return plF2(value.Bound(1, 2, 0.5)), nil }}}`, false},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", "package repro\nimport (\n\"context\"\n\"github.com/pomdpq/pomdpq/datasets\"\n\"github.com/pomdpq/pomdpq/lib/value\"\n\"github.com/pomdpq/pomdpq/lib/verdict\"\n)\nvar _ = context.Background\nvar _ = value.Bound\nvar _ = datasets.Claims\nvar _ verdict.Kind\n"+tc.src, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		problems := rowSourceProblems(fset, []*ast.File{f})
		if caught := len(problems) > 0; caught != tc.caught {
			t.Errorf("%s: caught = %v (%v), want %v", tc.name, caught, problems, tc.caught)
		}
	}
}

// rowSourceProblems returns the values of rows, readings and claims in
// files that come from the printed tables or from literals.
func rowSourceProblems(fset *token.FileSet, files []*ast.File) []string {
	consts := constNames(files)
	var problems []string
	for _, f := range files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Body != nil {
					problems = append(problems, funcSourceProblems(fset, d.Name.Name, d.Body, consts)...)
				}
			case *ast.GenDecl:
				ast.Inspect(d, func(n ast.Node) bool {
					if cl, ok := n.(*ast.CompositeLit); ok {
						problems = append(problems, claimProblems(fset, cl, consts)...)
					}
					return true
				})
			}
		}
	}
	return problems
}

// claimProblems checks the elements of a []claim literal: a claim that is
// neither a setting nor a formula check must compute its value.
func claimProblems(fset *token.FileSet, cl *ast.CompositeLit, consts map[string]bool) []string {
	at, ok := cl.Type.(*ast.ArrayType)
	if !ok {
		return nil
	}
	if id, ok := at.Elt.(*ast.Ident); !ok || id.Name != "claim" {
		return nil
	}
	var problems []string
	for _, e := range cl.Elts {
		c, ok := e.(*ast.CompositeLit)
		if !ok || isTrue(fieldOf(c, "setting")) || isTrue(fieldOf(c, "formula")) {
			continue
		}
		where := fset.Position(c.Pos()).String()
		switch v := fieldOf(c, "value").(type) {
		case *ast.CallExpr:
			if id, ok := v.Fun.(*ast.Ident); ok && id.Name == "constant" {
				problems = append(problems, where+": a claim's value is a constant: mark it a setting (an input echoed back) or compute it")
			}
		case *ast.FuncLit:
			ast.Inspect(v.Body, func(n ast.Node) bool {
				if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) > 0 && !computed(r.Results[0], consts) && !isEmptyString(r.Results[0]) {
					problems = append(problems, where+": a claim returns "+exprString(r.Results[0])+", arithmetic on literals: mark it a formula check or compute it")
				}
				return true
			})
		}
	}
	return problems
}

// funcSourceProblems follows, in one function body, the values derived
// from the printed tables (tainted) and the variables that only hold
// literals, and reports those that reach a row (an append to X.Rows,
// directly, through a row slice or a local helper that appends) or a
// reading's value.
func funcSourceProblems(fset *token.FileSet, fn string, body *ast.BlockStmt, consts map[string]bool) []string {
	tainted := map[string]bool{}
	isTainted := func(e ast.Expr) bool { return exprTainted(e, tainted) }
	for changed := true; changed; {
		changed = false
		mark := func(lhs []ast.Expr, rhs []ast.Expr) {
			for k, l := range lhs {
				r := rhs[0]
				if len(rhs) == len(lhs) {
					r = rhs[k]
				}
				if name := pathName(l); name != "" && !tainted[name] && isTainted(r) {
					tainted[name], changed = true, true
				}
			}
		}
		ast.Inspect(body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				mark(x.Lhs, x.Rhs)
			case *ast.ValueSpec:
				if len(x.Values) > 0 {
					var lhs []ast.Expr
					for _, id := range x.Names {
						lhs = append(lhs, id)
					}
					mark(lhs, x.Values)
				}
			case *ast.RangeStmt:
				if isTainted(x.X) {
					for _, e := range []ast.Expr{x.Key, x.Value} {
						if e != nil {
							mark([]ast.Expr{e}, []ast.Expr{x.X})
						}
					}
				}
			}
			return true
		})
	}
	literal := literalOnly(body)
	helpers := rowHelpers(body)
	var problems []string
	check := func(e ast.Expr, what string) {
		where := fset.Position(e.Pos()).String()
		if id, ok := e.(*ast.Ident); ok && printedDerivedRows[fn+"."+id.Name] != "" {
			return
		}
		if isTainted(e) {
			problems = append(problems, where+": "+what+" "+exprString(e)+" is derived from the paper's printed values")
		}
		if id, ok := e.(*ast.Ident); ok && literal[id.Name] {
			problems = append(problems, where+": "+what+" "+id.Name+" only ever holds a literal")
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			for _, a := range rowCells(x, helpers) {
				check(a, "a row's cell")
			}
		case *ast.CompositeLit:
			if isReadingType(x.Type) {
				if fl, ok := fieldOf(x, "Value").(*ast.FuncLit); ok {
					ast.Inspect(fl.Body, func(n ast.Node) bool {
						if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) > 0 {
							check(r.Results[0], "a reading's value")
						}
						return true
					})
				}
			}
		}
		return true
	})
	return problems
}

// rowCells returns the cells a call puts in a row: the elements appended
// to X.Rows (and of the composite literals among them), or the arguments
// of a local helper that appends to X.Rows.
func rowCells(call *ast.CallExpr, helpers map[string]bool) []ast.Expr {
	fn, ok := call.Fun.(*ast.Ident)
	if !ok {
		return nil
	}
	if helpers[fn.Name] {
		return call.Args
	}
	if fn.Name != "append" || len(call.Args) < 2 {
		return nil
	}
	if s, ok := call.Args[0].(*ast.SelectorExpr); !ok || s.Sel.Name != "Rows" {
		return nil
	}
	var out []ast.Expr
	for _, a := range call.Args[1:] {
		if cl, ok := a.(*ast.CompositeLit); ok {
			out = append(out, cl.Elts...)
			continue
		}
		out = append(out, a)
	}
	return out
}

// rowHelpers returns the local functions (name := func…) of body that
// append to X.Rows.
func rowHelpers(body *ast.BlockStmt) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return true
		}
		fl, ok := as.Rhs[0].(*ast.FuncLit)
		id, isID := as.Lhs[0].(*ast.Ident)
		if !ok || !isID {
			return true
		}
		ast.Inspect(fl.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && len(rowCells(c, nil)) > 0 {
				out[id.Name] = true
			}
			return true
		})
		return true
	})
	return out
}

// literalOnly returns the variables of body whose every store is a
// literal, at least one of them not empty (a row cell "5" typed in).
func literalOnly(body *ast.BlockStmt) map[string]bool {
	lit, other := map[string]bool{}, map[string]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			if ok {
				for _, l := range as.Lhs {
					other[rootName(l)] = true
				}
			}
			return true
		}
		for k, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				continue
			}
			if b, ok := as.Rhs[k].(*ast.BasicLit); ok {
				if !isEmptyString(b) {
					lit[id.Name] = true
				}
			} else {
				other[id.Name] = true
			}
		}
		return true
	})
	out := map[string]bool{}
	for name := range lit {
		if !other[name] {
			out[name] = true
		}
	}
	return out
}

// exprTainted reports whether e calls a printed reader or reads a
// tainted variable or field.
func exprTainted(e ast.Expr, tainted map[string]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.CallExpr:
			if printedReaders[callName(x)] {
				found = true
			}
		case *ast.Ident:
			found = tainted[pathName(x)]
		case *ast.SelectorExpr:
			if x.Sel.Name == "Quantity" || x.Sel.Name == "Label" {
				return false // a claim's description (text shown beside it), not a value
			}
			if tainted[pathName(x)] {
				found = true
			}
		case *ast.FuncLit:
			return false // a closure's body is checked where it is called
		}
		return !found
	})
	return found
}

// callName returns the name of a call's function (f or pkg.f).
func callName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			return x.Name + "." + f.Sel.Name
		}
	}
	return ""
}

// pathName returns the variable or field path an assignment target
// names: x, p.LR, or m for m[i]. A variable is named by the object the
// parser resolved it to, so that a shadowing variable of the same name
// is another variable.
func pathName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		if x.Name == "_" || x.Name == "err" {
			return ""
		}
		if x.Obj != nil {
			return fmt.Sprintf("%s@%p", x.Name, x.Obj)
		}
		return x.Name
	case *ast.SelectorExpr:
		if p := pathName(x.X); p != "" {
			return p + "." + x.Sel.Name
		}
	case *ast.IndexExpr:
		return pathName(x.X)
	}
	return ""
}

func isTrue(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "true"
}

func isEmptyString(e ast.Expr) bool {
	b, ok := e.(*ast.BasicLit)
	return ok && b.Kind == token.STRING && strings.Trim(b.Value, "`\"") == ""
}
