package nb

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxCellFuncLines is the longest function body (lines between its braces)
// that a notebook cell may define: longer code belongs in this package,
// documented and tested, and the cell shows the call.
const maxCellFuncLines = 10

// longCellFuncs are the notebook functions allowed to be longer, each with
// its reason, keyed "notebook-file-name func-name".
var longCellFuncs = map[string]string{
	"02-myhill-nerode.ipynb bruteDistances": "the independent recomputation of the distances (every probe, pair and order, one exact W1 solve each) that the library's d^Π is checked against in the notebook itself: in lib/nb it would share the library's side of the check",
	"14-reading-a-quotient.ipynb hallwayW1": "the independent recomputation (lib/law's suffix laws, one lib/ot solve per probe) of the distance lib/explain reports for hallway:10's pair, shown in the notebook beside it: in lib/nb it would move the check's other side into the library",
}

// cellFunc is a function (declared or literal) defined by a notebook cell.
type cellFunc struct {
	Notebook string // file name
	Cell     int    // index among the notebook's cells
	Line     int    // line of the func keyword in the cell
	Name     string // declared name; "func literal" for a literal
	Lines    int    // body lines between the braces
}

// cellSource returns a cell's source as Go: a declarations part (before a
// "%%" line) and a statements part (after it), with GoNB's magic ("%...")
// and shell ("!...") lines blanked so that line numbers stay those of the
// cell. split is the index of the "%%" line, -1 when there is none.
func cellSource(src string) (decls, stmts string, split int) {
	lines := strings.Split(src, "\n")
	split = -1
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "%%" && split < 0 {
			split = i
		}
		if strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!") {
			lines[i] = ""
		}
	}
	if split < 0 {
		return strings.Join(lines, "\n"), "", split
	}
	return strings.Join(lines[:split], "\n"), strings.Join(lines[split+1:], "\n"), split
}

// funcsOfCell parses one code cell and returns the functions it defines.
// A cell that does not parse is an error naming its line.
func funcsOfCell(src string) ([]cellFunc, error) {
	decls, stmts, split := cellSource(src)
	hasMain := split >= 0
	fset := token.NewFileSet()
	// "package p;" keeps the declarations on the cell's own line numbers.
	f, err := parser.ParseFile(fset, "cell", "package p;"+decls, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	files := []*ast.File{f}
	offset := []int{0}
	if hasMain {
		g, err := parser.ParseFile(fset, "cell", "package p;func main(){"+stmts+"\n}", parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("after %%%%: %w", err)
		}
		// The statements start on the line after "%%" (cell line split+2).
		files, offset = append(files, g), append(offset, split+1)
	}
	var out []cellFunc
	for k, file := range files {
		ast.Inspect(file, func(n ast.Node) bool {
			var name string
			var body *ast.BlockStmt
			switch fn := n.(type) {
			case *ast.FuncDecl:
				if hasMain && k == 1 && fn.Name.Name == "main" {
					return true // the wrapper of the cell's statements
				}
				name, body = fn.Name.Name, fn.Body
			case *ast.FuncLit:
				name, body = "func literal", fn.Body
			default:
				return true
			}
			if body == nil {
				return true
			}
			start, end := fset.Position(body.Lbrace).Line, fset.Position(body.Rbrace).Line
			out = append(out, cellFunc{Name: name, Line: fset.Position(n.Pos()).Line + offset[k], Lines: max(0, end-start-1)})
			return true
		})
	}
	return out, nil
}

// notebookFuncs returns the functions defined by the code cells of the
// notebook at path.
func notebookFuncs(path string) ([]cellFunc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var book struct {
		Cells []struct {
			Type   string          `json:"cell_type"`
			Source json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &book); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []cellFunc
	for i, c := range book.Cells {
		if c.Type != "code" {
			continue
		}
		var lines []string
		var src string
		if json.Unmarshal(c.Source, &lines) == nil {
			src = strings.Join(lines, "")
		} else if err := json.Unmarshal(c.Source, &src); err != nil {
			return nil, fmt.Errorf("%s: cell %d: source: %w", path, i, err)
		}
		fs, err := funcsOfCell(src)
		if err != nil {
			return nil, fmt.Errorf("%s: cell %d: %w", path, i, err)
		}
		for _, f := range fs {
			f.Notebook, f.Cell = filepath.Base(path), i
			out = append(out, f)
		}
	}
	return out, nil
}

// TestFuncsOfCell checks the parser of cells on cells whose function
// lengths are known.
func TestFuncsOfCell(t *testing.T) {
	body := func(n int) string { return strings.Repeat("\tx++\n", n) }
	tests := []struct {
		name, src string
		want      []cellFunc
	}{
		{"declarations", "import \"fmt\"\n\nfunc short() {\n" + body(3) + "}\n\nfunc long(x int) int {\n" + body(11) + "\treturn x\n}\n",
			[]cellFunc{{Name: "short", Line: 3, Lines: 3}, {Name: "long", Line: 9, Lines: 12}}},
		{"main part", "%%\nx := 0\nf := func() {\n" + body(2) + "}\nf()\n_ = x\n",
			[]cellFunc{{Name: "func literal", Line: 3, Lines: 2}}},
		{"both parts and magic", "!echo hi\nfunc a() {}\n%%\n%env X=1\nfunc() {\n" + body(12) + "}()\n",
			[]cellFunc{{Name: "a", Line: 2, Lines: 0}, {Name: "func literal", Line: 5, Lines: 12}}},
		{"method", "type T int\n\nfunc (t T) M() int {\n" + body(1) + "\treturn 0\n}\n",
			[]cellFunc{{Name: "M", Line: 3, Lines: 2}}},
		{"no functions", "%%\nfmt.Println(1)\n", nil},
	}
	for _, tc := range tests {
		got, err := funcsOfCell(tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if _, err := funcsOfCell("func broken( {\n"); err == nil {
		t.Error("a cell that does not parse: no error")
	}
}

// TestNotebookFuncsShort fails when a notebook cell defines a function whose
// body is longer than maxCellFuncLines, unless longCellFuncs allows it with a
// reason; an allowance that is no longer needed fails too.
func TestNotebookFuncsShort(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "notebooks", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks found (%v)", err)
	}
	used := map[string]bool{}
	var long []string
	for _, p := range paths {
		fs, err := notebookFuncs(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			if f.Lines <= maxCellFuncLines {
				continue
			}
			key := f.Notebook + " " + f.Name
			if _, ok := longCellFuncs[key]; ok {
				used[key] = true
				continue
			}
			long = append(long, fmt.Sprintf("%s: cell %d, line %d: %s has %d lines", f.Notebook, f.Cell, f.Line, f.Name, f.Lines))
		}
	}
	sort.Strings(long)
	for _, l := range long {
		t.Errorf("%s (more than %d): move it to lib/nb, documented and tested, or allow it in longCellFuncs with a reason", l, maxCellFuncLines)
	}
	for key := range longCellFuncs {
		if !used[key] {
			t.Errorf("longCellFuncs allows %q, which is no longer a long function in a notebook: remove the entry", key)
		}
	}
}
