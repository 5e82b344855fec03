package repro

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// A note, remark, table's reading, judge's verdict or claim
// detail is text the notebooks, `pomdpq reproduce` and the golden files
// show beside our numbers. A number typed into such text drifts from the
// computation it describes (a note said 0.186 long after the cell said
// something else) and a paper value typed there is a second transcription
// beside datasets/paper. TestNoteNumbers reads the package's source and
// fails on any number typed into text that reaches those sinks: numbers of
// ours are formatted from the values computed for the table, the paper's
// are read from datasets/paper, and settings from the variables the
// computation uses.

// noteNotation are the fragments of mathematical notation whose digits are
// part of a formula or a name, not a value: removed before the digits of a
// string are checked. Each is notation, never a result, a setting or a
// paper value.
var noteNotation = []string{
	"1[",                   // the indicator 1[·]
	"(1 + 2T|S||O|)",       // prop:canonical-quotient's factor
	"N^{-1/2}",             // rem:sample-complexity's rate
	"N^-1/2",               //   (same, in a title)
	"(2a − 1)²",            // the Tiger pair distance as a function of the accuracy a
	"½(a² + (1 − a)² − ½)", // the P(LL) cost of merging L and R
	"1-Lipschitz",          // a property, not a constant of ours
	"f₁ + f₂",
	"2.5%–97.5%", // the central 95 % of a distribution, the definition of the range
	"95%",        // the confidence level of every interval (sample.Bootstrap, Wilson)
	"2^t",        // a power of a variable
	"§7.4",       // references to the paper's sections
	"§7",
	"notebook 01",                 // a reference to a notebook
	"⌈T/2⌉",                       // the middle depth
	"T − 2t",                      // the sliced suffix length
	"T − 1",                       // the last depth before T
	"1 + |O| + … + |O|^(T−1) + 1", // the ε = 0 class count that |O| and T fix (structuralCount)
	"ε > 0",                       // a condition on ε, not a value
	"δ_S = 0",                     // a certificate: the subset's gap is zero
	"δ=0",                         // r_env at tolerance zero
	"δ = 0",
	"Prop. C.1", // a reference to the paper
}

// noteExempt are files whose notes are rewritten elsewhere (they are not
// scanned): classic.go's notes describe the budget of a run, which is
// being reworked with its runner.
var noteExempt = map[string]string{
	"classic.go": "classic-models is an extra (not in goldens); its budget notes are rewritten with its runner",
}

// notePending are note texts (their first words) that still type numbers
// and are being rewritten. A listed text that no longer exists fails the
// test: remove it from the list.
var notePending = []string{}

// formatVerb matches a fmt verb with its flags, width and precision (a
// literal "%%" is read as "%" first).
var formatVerb = regexp.MustCompile(`%[-+#0]*(\d+|\*)?(\.(\d+|\*))?[a-zA-Z]`)

// digitsIn returns the numbers typed in s: runs of digits (with a decimal
// point or thousands comma between digits) that are not part of a name
// (preceded by a letter, '_' or '^', as in W1, o_1, 2^t) once format verbs
// and notation are removed.
func digitsIn(s string) []string {
	s = formatVerb.ReplaceAllString(strings.ReplaceAll(s, "%%", "%"), " ")
	for _, n := range noteNotation {
		s = strings.ReplaceAll(s, n, " ")
	}
	var out []string
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsDigit(r) || r > unicode.MaxASCII {
			i += w
			continue
		}
		prev, _ := utf8.DecodeLastRuneInString(s[:i])
		j := i
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || (s[j] == '.' || s[j] == ',') && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9') {
			j++
		}
		if i == 0 || !(unicode.IsLetter(prev) || prev == '_' || prev == '^') {
			out = append(out, s[i:j])
		}
		i = j
	}
	return out
}

func TestDigitsIn(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"W1 between o_1 and d^clk", ""},
		{"the printed 2.89 is not %s", "2.89"},
		{"at most %d (%.3f s)", ""},
		{"G = 1[o_1 = o_2] with 95% intervals", ""},
		{"m = 1, T = 2", "1 2"},
		{"6,405 controllers; 95%% CI", "6,405"},
		{"3x3 and Hallway(10)", "3 10"},
		{"2^t and Σ_k", ""},
	}
	for _, tc := range tests {
		if got := strings.Join(digitsIn(tc.in), " "); got != tc.want {
			t.Errorf("digitsIn(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// noteSinks finds the text that reaches a note in the package's non-test
// files and returns the typed numbers found, "file:line: number in «text»".
type noteScanner struct {
	fset    *token.FileSet
	funcs   map[string]*ast.FuncDecl // package-level functions by name (not notes.go's formatting helpers)
	vals    map[string]*ast.ValueSpec
	seen    map[ast.Node]bool
	found   []string
	pending map[string]bool // the notePending entries met
}

func TestNoteNumbers(t *testing.T) {
	s := &noteScanner{fset: token.NewFileSet(), funcs: map[string]*ast.FuncDecl{}, vals: map[string]*ast.ValueSpec{},
		seen: map[ast.Node]bool{}, pending: map[string]bool{}}
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(s.fset, p, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && filepath.Base(p) != "notes.go" {
					s.funcs[d.Name.Name] = d
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok {
						for _, n := range vs.Names {
							s.vals[n.Name] = vs
						}
					}
				}
			}
		}
		if _, ok := noteExempt[filepath.Base(p)]; !ok {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		t.Fatal("no source files scanned")
	}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				s.sinks(fd)
			}
		}
	}
	sort.Strings(s.found)
	for _, p := range notePending {
		if !s.pending[p] {
			t.Errorf("notePending lists %q, which no note types any more: remove it", p)
		}
	}
	for _, f := range s.found {
		t.Error(f)
	}
	if len(s.found) > 0 {
		t.Logf("%d typed numbers in note text: format ours from the computed values, read the paper's from datasets/paper", len(s.found))
	}
}

// sinks scans the text reaching a note inside fd.
func (s *noteScanner) sinks(fd *ast.FuncDecl) {
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			switch fun := n.Fun.(type) {
			case *ast.Ident:
				if fun.Name == "append" && len(n.Args) > 1 {
					if sel, ok := n.Args[0].(*ast.SelectorExpr); ok && sel.Sel.Name == "Notes" {
						for _, a := range n.Args[1:] {
							s.text(a, fd, true)
						}
					}
				}
			case *ast.SelectorExpr:
				switch {
				case isVerdictJudgement(fun) && len(n.Args) > 0:
					s.text(n.Args[0], fd, true) // a judge's verdict: its note
				case fun.Sel.Name == "Remark" && len(n.Args) == 2:
					s.text(n.Args[1], fd, true)
				}
			}
		case *ast.AssignStmt:
			for k, l := range n.Lhs {
				if sel, ok := l.(*ast.SelectorExpr); ok && (sel.Sel.Name == "why" || sel.Sel.Name == "skip" || sel.Sel.Name == "Note") && k < len(n.Rhs) {
					s.text(n.Rhs[k], fd, true)
				}
			}
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok && (id.Name == "why" || id.Name == "skip" || id.Name == "How" || id.Name == "Covers") {
				s.text(n.Value, fd, true) // a table's reading: how it reads, what it covers
			}
		}
		return true
	})
	// judges (bool, string) and claim values with their detail or
	// reconstruction (string, string, error)
	var funcs []*ast.FuncType
	var bodies []*ast.BlockStmt
	funcs, bodies = append(funcs, fd.Type), append(bodies, fd.Body)
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if fl, ok := n.(*ast.FuncLit); ok {
			funcs, bodies = append(funcs, fl.Type), append(bodies, fl.Body)
		}
		return true
	})
	for k, ft := range funcs {
		if texts := textResults(ft); texts != nil {
			s.returns(bodies[k], texts, fd)
		}
	}
}

// verdictJudgements are lib/verdict's constructors of a judge's verdict,
// whose first argument is the note shown beside the row.
var verdictJudgements = map[string]bool{"ByStatistics": true, "ByPattern": true, "ByStructure": true, "Differ": true, "NotJudgedBecause": true}

// isVerdictJudgement reports whether fun is verdict.X for a constructor X
// of a judge's verdict.
func isVerdictJudgement(fun *ast.SelectorExpr) bool {
	pkg, ok := fun.X.(*ast.Ident)
	return ok && pkg.Name == "verdict" && verdictJudgements[fun.Sel.Name]
}

// textResults returns the positions of the results of a judge
// (bool, string) or of a claim's value and detail (string, string, error)
// that are note text, or nil.
func textResults(ft *ast.FuncType) []int {
	if ft.Results == nil {
		return nil
	}
	var types []string
	for _, f := range ft.Results.List {
		id, ok := f.Type.(*ast.Ident)
		if !ok {
			return nil
		}
		for range max(1, len(f.Names)) {
			types = append(types, id.Name)
		}
	}
	switch strings.Join(types, ",") {
	case "bool,string":
		return []int{1}
	case "string,string,error":
		return []int{0, 1}
	}
	return nil
}

// returns scans the text results of the return statements of body (not of
// the function literals inside it, which are scanned on their own).
func (s *noteScanner) returns(body *ast.BlockStmt, texts []int, fd *ast.FuncDecl) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) == 1 {
				s.text(n.Results[0], fd, true) // a call returning the results
			}
			for _, k := range texts {
				if k < len(n.Results) && len(n.Results) > 1 {
					s.text(n.Results[k], fd, true)
				}
			}
		}
		return true
	})
}

// text checks every literal of e (string literals always; number literals
// other than 0 and 1 only when typed into the expression itself, direct), following local
// variables to their assignments in fd and package-level functions to
// their returned text.
func (s *noteScanner) text(e ast.Expr, fd *ast.FuncDecl, direct bool) {
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			switch n.Kind {
			case token.STRING:
				v, err := strconv.Unquote(n.Value)
				if err != nil {
					return false
				}
				if d := digitsIn(v); len(d) > 0 && !s.isPending(v) {
					s.report(n, strings.Join(d, ", "), v)
				}
			case token.INT, token.FLOAT:
				// 0 and 1 are offsets, indexes and identities (T−1, row 0,
				// L_R = 1 per unit); any other number typed into a note's
				// expression is a value
				if direct && n.Value != "0" && n.Value != "1" && !s.isPending(n.Value) {
					s.report(n, n.Value, n.Value)
				}
			}
			return false
		case *ast.IndexExpr:
			s.text(n.X, fd, direct)
			return false // an index is a position, not a number shown
		case *ast.SliceExpr:
			s.text(n.X, fd, direct)
			return false
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "strconv" && len(n.Args) > 1 {
					s.text(n.Args[0], fd, direct) // the rest are format, precision and size
					return false
				}
			}
			if id, ok := n.Fun.(*ast.Ident); ok {
				if f := s.funcs[id.Name]; f != nil && !s.seen[f] {
					s.seen[f] = true
					s.funcText(f)
				}
			}
		case *ast.Ident:
			s.ident(n, fd)
		}
		return true
	})
}

// ident follows a variable to the expressions assigned to it in fd, or to
// a package-level value.
func (s *noteScanner) ident(id *ast.Ident, fd *ast.FuncDecl) {
	if id.Obj == nil {
		if vs := s.vals[id.Name]; vs != nil && !s.seen[vs] {
			s.seen[vs] = true
			for _, v := range vs.Values {
				s.text(v, fd, false)
			}
		}
		return
	}
	if id.Obj.Kind != ast.Var && id.Obj.Kind != ast.Con {
		return
	}
	obj := id.Obj
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for k, l := range n.Lhs {
				if li, ok := l.(*ast.Ident); ok && li.Obj == obj && !s.seen[n] && len(n.Rhs) == len(n.Lhs) {
					s.seen[n] = true
					if r := n.Rhs[k]; isText(r) {
						s.text(r, fd, false)
					}
				}
			}
		case *ast.ValueSpec:
			for k, nm := range n.Names {
				if nm.Obj == obj && k < len(n.Values) && !s.seen[n] {
					s.seen[n] = true
					s.text(n.Values[k], fd, false)
				}
			}
		}
		return true
	})
}

// isText reports whether e builds text: a string literal, a concatenation
// with one, a fmt or strings call, or an append of such.
func isText(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.STRING
	case *ast.BinaryExpr:
		return e.Op == token.ADD && (isText(e.X) || isText(e.Y))
	case *ast.CallExpr:
		switch fun := e.Fun.(type) {
		case *ast.SelectorExpr:
			if pkg, ok := fun.X.(*ast.Ident); ok {
				return pkg.Name == "fmt" || pkg.Name == "strings"
			}
		case *ast.Ident:
			if fun.Name == "append" {
				for _, a := range e.Args[1:] {
					if isText(a) {
						return true
					}
				}
			}
		}
	}
	return false
}

// funcText scans the string results of a package-level function called in
// note text.
func (s *noteScanner) funcText(f *ast.FuncDecl) {
	if f.Body == nil || f.Type.Results == nil {
		return
	}
	var texts []int
	k := 0
	for _, r := range f.Type.Results.List {
		for range max(1, len(r.Names)) {
			if id, ok := r.Type.(*ast.Ident); ok && id.Name == "string" {
				texts = append(texts, k)
			}
			k++
		}
	}
	if len(texts) == 0 {
		return
	}
	ast.Inspect(f.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, k := range texts {
				if k < len(n.Results) {
					s.text(n.Results[k], f, true)
				}
			}
		}
		return true
	})
}

// isPending reports whether text starts with a notePending entry (and
// records the entry as met).
func (s *noteScanner) isPending(text string) bool {
	for _, p := range notePending {
		if strings.HasPrefix(text, p) {
			s.pending[p] = true
			return true
		}
	}
	return false
}

func (s *noteScanner) report(n ast.Node, nums, text string) {
	p := s.fset.Position(n.Pos())
	if len(text) > 90 {
		text = text[:90] + "…"
	}
	s.found = append(s.found, p.Filename+":"+strconv.Itoa(p.Line)+": "+nums+" in «"+text+"»")
}

// TestNoteSinksVerdict checks that the scanner reads the text of the
// verdict engine: a table's reading (How, Covers), a judge's verdict
// (verdict.ByPattern, …) and a note appended to one.
func TestNoteSinksVerdict(t *testing.T) {
	src := `package p
func f() {
	t.Reading = &verdict.Reading{How: "every row at T = 4", Covers: map[string]string{"c": "at T = 5"}}
	j := verdict.ByPattern("seeds 7 and 42")
	j.Note += "; seed 3"
	_ = verdict.Differ(fmt.Sprintf("ours %s", x), "col_2")
}`
	s := &noteScanner{fset: token.NewFileSet(), funcs: map[string]*ast.FuncDecl{}, vals: map[string]*ast.ValueSpec{},
		seen: map[ast.Node]bool{}, pending: map[string]bool{}}
	f, err := parser.ParseFile(s.fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	s.sinks(f.Decls[0].(*ast.FuncDecl))
	var got []string
	for _, x := range s.found {
		got = append(got, x[strings.Index(x, ": ")+2:strings.Index(x, " in «")])
	}
	if want := "4 5 7, 42 3"; strings.Join(got, " ") != want {
		t.Errorf("found %q, want the numbers %q", s.found, want)
	}
}
