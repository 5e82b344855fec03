package repro

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pomdpq/pomdpq/datasets"
)

// Kind says how a column is compared with the paper.
type Kind int

const (
	// Key columns identify a row (benchmark, horizon, ε, …).
	Key Kind = iota
	// Exact columns must equal the printed value to the printed digits.
	Exact
	// Pattern columns (timings, random models) are not compared digit by digit.
	Pattern
	// Info columns are ours only.
	Info
	// Timing columns (wall-clock seconds and what derives from them) are
	// compared by pattern, like Pattern, and left out of golden files.
	Timing
)

// Column is a named column of a table.
type Column struct {
	Name string
	Kind Kind
}

// Status of a row after comparison.
const (
	Agree    = "agree"
	Differs  = "differs"
	Patterns = "pattern"
	OursOnly = "ours only"
)

// Table is a regenerated table.
type Table struct {
	Name    string // file stem, e.g. "probe-family-comparison"
	Paper   string // transcribed table compared with ("" for none)
	Label   string // LaTeX label, e.g. "tab:probe-family-comparison"
	Title   string
	Columns []Column
	Rows    [][]string
	// Explain maps a row key to the known reason why the paper's printed
	// value differs from the exact computation.
	Explain map[string]string
	// PatternRow, when set, marks rows whose exact columns are compared by
	// pattern only (rows of random models).
	PatternRow func(row int) bool
	// PatternOK, when set, judges pattern rows (index into Rows).
	PatternOK func(row int) (bool, string)
	// Status and Note per row, filled by Compare; Printed[i][c] is the
	// paper's value for row i and column c ("" where it prints none).
	Status  []string
	Note    []string
	Printed [][]string
	Notes   []string // free-text remarks shown under the table
}

// Spec describes a reproducible table.
type Spec struct {
	Name  string
	Label string
	Title string
	// Heavy tables take more than a few seconds; `reproduce all` runs them
	// too, tests may skip them in -short mode.
	Heavy bool
	Build func(ctx context.Context, env *Env) (*Table, error)
}

// Env carries options and caches shared by the tables of one run. The
// zero value is ready to use.
type Env struct {
	Workers  int
	Progress func(stage string, done, total int)

	mu    sync.Mutex
	cache map[string]any
}

// memo returns the cached value for key, computing it with f once.
func memo[T any](e *Env, key string, f func() (T, error)) (T, error) {
	e.mu.Lock()
	if v, ok := e.cache[key]; ok {
		e.mu.Unlock()
		return v.(T), nil
	}
	e.mu.Unlock()
	v, err := f()
	if err != nil {
		return v, err
	}
	e.mu.Lock()
	if e.cache == nil {
		e.cache = map[string]any{}
	}
	e.cache[key] = v
	e.mu.Unlock()
	return v, nil
}

func (e *Env) progress(stage string) func(done, total int) {
	if e == nil || e.Progress == nil {
		return nil
	}
	return func(done, total int) { e.Progress(stage, done, total) }
}

// Key returns the key of row i (its key columns joined by "|").
func (t *Table) Key(i int) string {
	var parts []string
	for c, col := range t.Columns {
		if col.Kind == Key {
			parts = append(parts, normNum(t.Rows[i][c]))
		}
	}
	return strings.Join(parts, "|")
}

// normNum writes numbers canonically so that "0.0" and "0" match as keys.
func normNum(s string) string {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.TrimSpace(s)
}

// Agrees reports whether ours equals the printed value to the printed
// digits: numbers agree when |ours − printed| ≤ ½·10^{−d} (+1e-9) with d
// the printed decimals; other text must be equal.
func Agrees(ours, printed string) bool {
	printed = strings.TrimSpace(printed)
	ours = strings.TrimSpace(ours)
	p, errP := strconv.ParseFloat(printed, 64)
	o, errO := strconv.ParseFloat(ours, 64)
	if errP != nil || errO != nil {
		return ours == printed
	}
	d := 0
	if i := strings.IndexByte(printed, '.'); i >= 0 {
		d = len(printed) - i - 1
	}
	return math.Abs(o-p) <= 0.5*math.Pow(10, -float64(d))+1e-9
}

// Compare fills Status and Note for every row against the transcribed
// paper table (if any) and returns the number of agreeing rows.
func (t *Table) Compare() (agree int, err error) {
	t.Status = make([]string, len(t.Rows))
	t.Note = make([]string, len(t.Rows))
	t.Printed = make([][]string, len(t.Rows))
	var header []string
	var paper [][]string
	if t.Paper != "" {
		header, paper, err = datasets.Paper(t.Paper)
		if err != nil {
			return 0, err
		}
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	// paper rows by key
	byKey := map[string][]string{}
	for _, r := range paper {
		var parts []string
		for _, c := range t.Columns {
			if c.Kind == Key {
				j, ok := col[c.Name]
				if !ok {
					return 0, fmt.Errorf("repro: %s: key column %q not in paper/%s.csv", t.Name, c.Name, t.Paper)
				}
				parts = append(parts, normNum(r[j]))
			}
		}
		byKey[strings.Join(parts, "|")] = r
	}
	for i, row := range t.Rows {
		key := t.Key(i)
		pr, ok := byKey[key]
		t.Printed[i] = make([]string, len(t.Columns))
		if ok {
			for c, cd := range t.Columns {
				if j, in := col[cd.Name]; in {
					t.Printed[i][c] = pr[j]
				}
			}
		}
		exact, pattern := 0, 0
		var diffs []string
		for c, cd := range t.Columns {
			j, inPaper := col[cd.Name]
			if !ok || !inPaper || strings.TrimSpace(pr[j]) == "" {
				continue // nothing printed to compare with
			}
			kind := cd.Kind
			if kind == Exact && t.PatternRow != nil && t.PatternRow(i) {
				kind = Pattern
			}
			switch kind {
			case Exact:
				exact++
				if !Agrees(row[c], pr[j]) {
					diffs = append(diffs, fmt.Sprintf("%s: ours %s, paper %s", cd.Name, row[c], pr[j]))
				}
			case Pattern, Timing:
				pattern++
			}
		}
		switch {
		case !ok && t.Paper != "":
			t.Status[i] = OursOnly
			t.Note[i] = "not in the paper's table"
		case t.Paper == "":
			t.Status[i] = OursOnly
		case len(diffs) > 0:
			t.Status[i] = Differs
			t.Note[i] = strings.Join(diffs, "; ")
			if why, ok := t.Explain[key]; ok {
				t.Note[i] = "paper differs: " + why + " (" + t.Note[i] + ")"
			}
		case exact == 0 && pattern > 0:
			t.Status[i] = Patterns
			if t.PatternOK != nil {
				okp, why := t.PatternOK(i)
				t.Note[i] = why
				if !okp {
					t.Status[i] = Differs
				}
			}
		default:
			t.Status[i] = Agree
		}
		if t.Status[i] == Agree || t.Status[i] == Patterns {
			agree++
		}
	}
	return agree, nil
}

// Compared returns the number of rows that have a paper counterpart.
func (t *Table) Compared() int {
	n := 0
	for _, s := range t.Status {
		if s != OursOnly {
			n++
		}
	}
	return n
}

// WriteCSV writes the table with two extra columns, agreement and note.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	var h []string
	for _, c := range t.Columns {
		h = append(h, c.Name)
	}
	if err := cw.Write(append(h, "agreement", "note")); err != nil {
		return err
	}
	for i, r := range t.Rows {
		st, note := "", ""
		if t.Status != nil {
			st, note = t.Status[i], t.Note[i]
		}
		if err := cw.Write(append(append([]string(nil), r...), st, note)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Specs returns every reproducible table, in a stable order.
func Specs() []Spec {
	out := append([]Spec(nil), registry...)
	sort.SliceStable(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// Lookup returns the spec named name (file stem or LaTeX label).
func Lookup(name string) (Spec, error) {
	name = strings.TrimPrefix(name, "tab:")
	for _, s := range append(Extras(), registry...) {
		if s.Name == name || strings.TrimPrefix(s.Label, "tab:") == name {
			return s, nil
		}
	}
	var names []string
	for _, s := range append(Specs(), Extras()...) {
		names = append(names, s.Name)
	}
	return Spec{}, fmt.Errorf("repro: unknown table %q; known: %s", name, strings.Join(names, ", "))
}

var registry, extras []Spec

func register(s Spec) { registry = append(registry, s) }

// registerExtra registers a table of our own that is not part of Specs
// (and so not of `reproduce all` nor of the golden tests).
func registerExtra(s Spec) { extras = append(extras, s) }

// Extras returns the tables of our own results that are run by name only
// (`pomdpq reproduce NAME`), not by `reproduce all`: they have no paper
// counterpart and take minutes (classic-models), in a stable order.
func Extras() []Spec {
	out := append([]Spec(nil), extras...)
	sort.SliceStable(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

func f3(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
func itoa(x int) string   { return strconv.Itoa(x) }
