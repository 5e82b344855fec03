package repro

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pomdpq/pomdpq/datasets"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

// Kind says how a column is compared with the paper (verdict.Kind).
type Kind = verdict.Kind

// The kinds of column (see verdict.Kind).
const (
	Key     = verdict.Key
	Exact   = verdict.Exact
	Pattern = verdict.Pattern
	Info    = verdict.Info
	Timing  = verdict.Timing
	Setting = verdict.Setting
	Formula = verdict.Formula
)

// Column is a named column of a table.
type Column struct {
	Name string
	Kind Kind
}

// Status is the verdict on a compared row (verdict.Status). Every compared
// row gets exactly one, and the summary (Counts) counts each row once, by
// its status.
type Status = verdict.Status

// The statuses of a row (see verdict.Status).
const (
	Agree       = verdict.Agree
	Statistical = verdict.Statistical
	Patterns    = verdict.Patterns
	Structural  = verdict.Structural
	Explained   = verdict.Explained
	Differs     = verdict.Differs
	NotJudged   = verdict.NotJudged
	SettingRow  = verdict.SettingRow
	OursOnly    = verdict.OursOnly
	// FormulaCheck rows check the paper's arithmetic on its own
	// constants; they are counted apart from reproductions.
	FormulaCheck = verdict.FormulaCheck
)

// How the notes of explained and not-judged rows begin. They are text for
// the reader: the status is decided by type (verdict.Decide), never by a
// note's prefix.
const (
	ExplainPrefix   = verdict.ExplainedNote
	NotJudgedPrefix = verdict.NotJudgedNote
)

// Counts summarises a compared table: every row is in exactly one field.
type Counts = verdict.Counts

// Table is a regenerated table.
type Table struct {
	Name    string // file stem, e.g. "probe-family-comparison"
	Paper   string // transcribed table compared with ("" for none)
	Label   string // LaTeX label, e.g. "tab:probe-family-comparison"
	Title   string
	Columns []Column
	Rows    [][]string
	// PatternRow, when set, marks rows whose exact columns are compared by
	// pattern only (rows of random models, sampled rows).
	PatternRow func(row int) bool
	// PatternOK, when set, judges a row's pattern cells (index into Rows);
	// its typed outcome sets the row's status (verdict.Decide).
	PatternOK func(row int) verdict.Judgement
	// Reading is the table's one alternative reading (nil for none): it is
	// applied to every row and explains a differing row only if it
	// reproduces every differing cell (verdict.Reading).
	Reading *verdict.Reading
	// Status and Note per row, filled by Compare; Printed[i][c] is the
	// paper's value for row i and column c ("" where it prints none).
	Status  []Status
	Note    []string
	Printed [][]string
	Notes   []string // free-text remarks shown under the table
	// ReadingNote, filled by Compare, says what the reading did on every
	// row ("" without a reading).
	ReadingNote string

	remarks  map[int][]string // computed remarks per row (Remark)
	cellKind map[[2]int]Kind  // per-cell kind overrides (SetKind)
}

// Remark adds a computed remark to row i's note whatever its status. It
// explains nothing: use it for what is known about an unexplained
// difference (a setting that gives one row's printed value is a remark,
// not a reading), or for context.
func (t *Table) Remark(i int, s string) {
	if t.remarks == nil {
		t.remarks = map[int][]string{}
	}
	t.remarks[i] = append(t.remarks[i], s)
}

// Row returns the index of the row with the given key, or −1.
func (t *Table) Row(key string) int {
	for i := range t.Rows {
		if t.Key(i) == key {
			return i
		}
	}
	return -1
}

// SetKind overrides the kind of one cell (row i, column col): for
// example Setting for an input echoed back in a row whose other cells are
// computed.
func (t *Table) SetKind(i int, col string, k Kind) {
	if t.cellKind == nil {
		t.cellKind = map[[2]int]Kind{}
	}
	for c, cd := range t.Columns {
		if cd.Name == col {
			t.cellKind[[2]int{i, c}] = k
			return
		}
	}
	panic("repro: " + t.Name + ": SetKind: no column " + col)
}

// kind returns how cell (i, c) is compared.
func (t *Table) kind(i, c int) Kind {
	if k, ok := t.cellKind[[2]int{i, c}]; ok {
		return k
	}
	k := t.Columns[c].Kind
	if k == Exact && t.PatternRow != nil && t.PatternRow(i) {
		k = Pattern
	}
	return k
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
// digits (verdict.AgreesText): numbers agree within half a unit of the
// last printed digit (a bare printed 0 as exactly zero, within 1e-9);
// other text must be equal.
func Agrees(ours, printed string) bool { return verdict.AgreesText(ours, printed) }

// Tolerance returns the tolerance of an exact cell printed as printed:
// half a unit of its last digit (1e-9 for a bare 0), or 0 for text.
func Tolerance(printed string) float64 {
	p, err := verdict.Parse(printed)
	if err != nil {
		return 0
	}
	return p.Tolerance()
}

// Counts returns the summary of a compared table (zero before Compare).
func (t *Table) Counts() Counts { return verdict.Count(t.Status) }

// Compare fills Status and Note for every row against the transcribed
// paper table (if any) and returns the number of agreeing rows (exact,
// statistical or pattern; see Counts for the full summary).
//
// Each row is decided by verdict.Decide: every printed cell is judged by
// its kind (Exact cells within their tolerance, ≈ cells within the
// column's printed precision, < cells as strict bounds, Pattern cells by
// PatternOK; Setting and Timing cells are shown, never judged), and a
// differing row is explained only by the table's Reading, when it
// reproduces every differing cell. ReadingNote says what the reading did
// on every row.
func (t *Table) Compare() (agree int, err error) {
	t.Status = make([]Status, len(t.Rows))
	t.Note = make([]string, len(t.Rows))
	t.Printed = make([][]string, len(t.Rows))
	t.ReadingNote = ""
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
	if t.Reading != nil {
		var names []string
		for _, c := range t.Columns {
			names = append(names, c.Name)
		}
		if err := t.Reading.Validate(names); err != nil {
			return 0, fmt.Errorf("repro: %s: %w", t.Name, err)
		}
		for c := range t.Reading.Covers {
			if _, ok := col[c]; !ok {
				return 0, fmt.Errorf("repro: %s: the reading covers %q, which paper/%s.csv does not print", t.Name, c, t.Paper)
			}
		}
	}
	// printed precision per column: the last digit of its finest number
	places := map[string]int{}
	for j, h := range header {
		cells := make([]string, len(paper))
		for k, r := range paper {
			cells[k] = r[j]
		}
		places[h] = verdict.ColumnPlaces(cells)
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
	var rec verdict.Record
	for i, row := range t.Rows {
		key := t.Key(i)
		pr, ok := byKey[key]
		t.Printed[i] = make([]string, len(t.Columns))
		if !ok {
			t.Status[i] = OursOnly
			if t.Paper != "" {
				t.Note[i] = "not in the paper's table"
			}
			continue
		}
		quals := map[string]verdict.Qualifier{}
		if j, in := col["qualifiers"]; in {
			if quals, err = verdict.ParseQualifiers(pr[j]); err != nil {
				return 0, fmt.Errorf("repro: paper/%s.csv, row %q, column qualifiers: %w", t.Paper, key, err)
			}
		}
		r := verdict.Row{Index: i, Reading: t.Reading}
		printed := map[string]string{}
		for c, cd := range t.Columns {
			if j, in := col[cd.Name]; in {
				t.Printed[i][c] = pr[j]
			}
			printed[cd.Name] = t.Printed[i][c]
			r.Cells = append(r.Cells, verdict.Cell{Column: cd.Name, Kind: t.kind(i, c), Ours: row[c], Printed: t.Printed[i][c],
				Qualifier: quals[cd.Name], Places: places[cd.Name]})
		}
		if t.PatternOK != nil {
			r.Judge = func() verdict.Judgement { return t.PatternOK(i) }
		}
		d := verdict.Decide(r)
		t.Status[i], t.Note[i] = d.Status, d.Note
		rec.Add(key, d, printed)
	}
	for i, r := range t.remarks {
		if i >= 0 && i < len(t.Rows) {
			t.Note[i] = joinNote(t.Note[i], r)
		}
	}
	if t.Reading != nil {
		t.ReadingNote = rec.Note(t.Reading)
	}
	return t.Counts().Agreeing(), nil
}

func joinNote(note string, more []string) string {
	parts := append([]string(nil), more...)
	if note != "" {
		parts = append([]string{note}, parts...)
	}
	return strings.Join(parts, "; ")
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
			st, note = string(t.Status[i]), t.Note[i]
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
