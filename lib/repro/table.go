package repro

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
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
	// Exact columns must equal the printed value within the printed
	// precision (Tolerance); cells the paper marks ≈ or < are compared
	// with the explicit tolerance or bound of their qualifier.
	Exact
	// Pattern columns (random models, sampled statistics) are judged by the
	// table's PatternOK; a row with a printed pattern cell and no judge is
	// not judged.
	Pattern
	// Info columns are ours only.
	Info
	// Timing columns (wall-clock seconds and what derives from them) are
	// shown beside the printed values, never judged, and left out of
	// golden files.
	Timing
	// Setting columns echo an input of the computation back (a model's
	// size, a sample size, a controller count we chose): shown beside the
	// printed value, never counted as agreement.
	Setting
)

// Column is a named column of a table.
type Column struct {
	Name string
	Kind Kind
}

// Status of a row after comparison. Every compared row gets exactly one,
// and the summary (Counts) counts each row once, by its status.
const (
	// Agree: every judged column equals the printed value within its
	// tolerance (deterministic computation).
	Agree = "agree"
	// Statistical: the printed value lies inside our sampling interval or
	// range (the judge's note starts with StatPrefix).
	Statistical = "statistical"
	// Patterns: the row is judged by its shape (random models, bounds).
	Patterns = "pattern"
	// Explained: the row differs and a computation on the row accounts
	// for the printed value (the note starts with ExplainPrefix).
	Explained = "differs (explained)"
	// Differs: the row differs and nothing computed explains why.
	Differs = "differs"
	// NotJudged: printed values exist but nothing judges them.
	NotJudged = "not judged"
	// SettingRow: the row's only printed values are settings (inputs
	// echoed back): shown, never counted.
	SettingRow = "setting"
	// OursOnly: the paper prints no counterpart.
	OursOnly = "ours only"
)

// Prefixes of the notes PatternOK returns, which decide the status of a
// judged row: a passing judge whose note starts with StatPrefix gives
// Statistical (else Patterns); a failing one whose note starts with
// ExplainPrefix gives Explained (else Differs); a note starting with
// NotJudgedPrefix gives NotJudged whatever the verdict.
const (
	StatPrefix      = "statistical: "
	ExplainPrefix   = "paper differs: "
	NotJudgedPrefix = "not judged: "
)

// Table is a regenerated table.
type Table struct {
	Name    string // file stem, e.g. "probe-family-comparison"
	Paper   string // transcribed table compared with ("" for none)
	Label   string // LaTeX label, e.g. "tab:probe-family-comparison"
	Title   string
	Columns []Column
	Rows    [][]string
	// PatternRow, when set, marks rows whose exact columns are compared by
	// pattern only (rows of random models).
	PatternRow func(row int) bool
	// PatternOK, when set, judges pattern cells (index into Rows); see
	// StatPrefix for how its note sets the row's status.
	PatternOK func(row int) (bool, string)
	// Status and Note per row, filled by Compare; Printed[i][c] is the
	// paper's value for row i and column c ("" where it prints none).
	Status  []string
	Note    []string
	Printed [][]string
	Notes   []string // free-text remarks shown under the table

	explain  map[int]string    // computed explanation per row (Explain)
	remarks  map[int][]string  // computed remarks per row (Remark)
	rebuilt  map[int][]rebuild // second computations per row (Reconstruct)
	cellKind map[[2]int]Kind   // per-cell kind overrides (SetKind)
}

// rebuild is a second computation of one printed cell (Reconstruct).
type rebuild struct {
	col, value, how string
}

// Explain records why the paper's printed values in row i differ from
// ours. why must come from a computation on that row (a reconstructed
// value, a count, a bound): format the computed numbers into it. Compare
// uses it only if the row differs, as "paper differs: why (…)".
func (t *Table) Explain(i int, why string) {
	if t.explain == nil {
		t.explain = map[int]string{}
	}
	t.explain[i] = why
}

// Remark adds a computed remark to row i's note whatever its status (it
// explains nothing: use it for what is known about an unexplained
// difference, or for context).
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

// Reconstruct records a second computation on row i whose result, value,
// is claimed to be the paper's printed value of column col (how says what
// was computed). Compare checks the claim with the column's tolerance: a
// matching reconstruction explains a difference in that column, a failing
// one is reported and explains nothing.
func (t *Table) Reconstruct(i int, col, value, how string) {
	if t.rebuilt == nil {
		t.rebuilt = map[int][]rebuild{}
	}
	t.rebuilt[i] = append(t.rebuilt[i], rebuild{col, value, how})
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
// digits: numbers agree when |ours − printed| ≤ ½·10^{−d} (+1e-9) with d
// the printed decimals; other text must be equal.
func Agrees(ours, printed string) bool {
	ok, _ := agreesWithin(ours, printed, Tolerance(printed))
	return ok
}

// Tolerance returns half a unit of the last printed digit of a number
// (½·10^{−d}, d its decimals), the tolerance of an exact cell.
func Tolerance(printed string) float64 {
	return 0.5 * math.Pow(10, -float64(decimals(printed)))
}

// decimals returns the number of printed decimals of s.
func decimals(s string) int {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

// agreesWithin compares ours with printed within an absolute tolerance
// (+1e-9 for rounding noise); it reports whether both are numbers.
func agreesWithin(ours, printed string, tol float64) (ok, numeric bool) {
	printed = strings.TrimSpace(printed)
	ours = strings.TrimSpace(ours)
	p, errP := strconv.ParseFloat(printed, 64)
	o, errO := strconv.ParseFloat(ours, 64)
	if errP != nil || errO != nil {
		return ours == printed, false
	}
	return math.Abs(o-p) <= tol+1e-9, true
}

// Qualifiers of printed cells (datasets/paper/README.md).
const (
	qualApprox = "approx" // printed with ∼ or ≈
	qualLess   = "lt"     // printed as <x: a strict upper bound
	qualStar   = "star"   // printed as ∗: no number
)

// qualifiers parses a paper row's qualifiers cell ("col:kind;col:kind").
func qualifiers(cell string) (map[string]string, error) {
	out := map[string]string{}
	for _, q := range strings.Split(cell, ";") {
		q = strings.TrimSpace(q)
		if q == "" {
			continue
		}
		col, kind, ok := strings.Cut(q, ":")
		if !ok || (kind != qualApprox && kind != qualLess && kind != qualStar) {
			return nil, fmt.Errorf("qualifier %q: want column:approx, column:lt or column:star", q)
		}
		out[col] = kind
	}
	return out, nil
}

// cellCheck compares our value with a printed cell under its qualifier.
// prec is the largest number of decimals printed in the cell's column of
// the paper table: an ≈ cell is compared within ½·10^{−prec} (0.005 for
// "≈0" in a column printed at two decimals), never at the integer
// precision of its own digits. A bare printed 0 is compared as exactly
// zero (within 1e-9). It returns the verdict and, for qualified cells, the
// tolerance or bound used.
func cellCheck(ours, printed, qual string, prec int) (ok bool, how string) {
	switch qual {
	case qualApprox:
		d := max(prec, decimals(printed))
		tol := 0.5 * math.Pow(10, -float64(d))
		ok, _ = agreesWithin(ours, printed, tol)
		return ok, fmt.Sprintf("≈%s compared within %s", strings.TrimSpace(printed), strconv.FormatFloat(tol, 'g', -1, 64))
	case qualLess:
		p, errP := strconv.ParseFloat(strings.TrimSpace(printed), 64)
		o, errO := strconv.ParseFloat(strings.TrimSpace(ours), 64)
		return errP == nil && errO == nil && o < p, "<" + strings.TrimSpace(printed) + " compared as a strict bound"
	}
	if isZero(printed) {
		// A bare printed 0 is a claim of zero ("the gap is 0", a count
		// of 0), not a real value rounded to integers: within 1e-9, never
		// ½, so a real 0.3 cannot agree with it.
		ok, _ = agreesWithin(ours, printed, 0)
		return ok, ""
	}
	return Agrees(ours, printed), ""
}

// isZero reports whether a printed cell is a bare integer zero ("0", "-0").
func isZero(printed string) bool {
	p := strings.TrimPrefix(strings.TrimSpace(printed), "-")
	return p == "0"
}

// Counts summarises a compared table: every row is in exactly one field.
type Counts struct {
	Exact       int // Agree
	Statistical int // Statistical
	Pattern     int // Patterns
	Explained   int // Explained
	Unexplained int // Differs
	NotJudged   int // NotJudged
	Settings    int // SettingRow
	OursOnly    int // OursOnly
}

// Agreeing returns the rows that agree: exactly, statistically or by
// pattern.
func (c Counts) Agreeing() int { return c.Exact + c.Statistical + c.Pattern }

// Judged returns the rows with a verdict (agreeing or differing).
func (c Counts) Judged() int { return c.Agreeing() + c.Explained + c.Unexplained }

// Add returns the field-wise sum of c and d.
func (c Counts) Add(d Counts) Counts {
	return Counts{c.Exact + d.Exact, c.Statistical + d.Statistical, c.Pattern + d.Pattern, c.Explained + d.Explained,
		c.Unexplained + d.Unexplained, c.NotJudged + d.NotJudged, c.Settings + d.Settings, c.OursOnly + d.OursOnly}
}

// Counts returns the summary of a compared table (zero before Compare).
func (t *Table) Counts() Counts {
	var c Counts
	for _, s := range t.Status {
		switch s {
		case Agree:
			c.Exact++
		case Statistical:
			c.Statistical++
		case Patterns:
			c.Pattern++
		case Explained:
			c.Explained++
		case Differs:
			c.Unexplained++
		case NotJudged:
			c.NotJudged++
		case SettingRow:
			c.Settings++
		case OursOnly:
			c.OursOnly++
		}
	}
	return c
}

// Compare fills Status and Note for every row against the transcribed
// paper table (if any) and returns the number of agreeing rows (exact,
// statistical or pattern; see Counts for the full summary).
//
// Every printed cell of a row is judged by its kind: Exact cells within
// their tolerance (qualifiers: ≈ cells within the column's printed
// precision, < cells as strict bounds), Pattern cells by PatternOK, and
// Setting and Timing cells are shown but never judged. A row agrees only
// if every judged cell does; a printed pattern cell without a judge
// leaves the row NotJudged, never agreeing.
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
	// printed precision per column: the most decimals of any number in it
	prec := map[string]int{}
	for _, r := range paper {
		for j, h := range header {
			if _, err := strconv.ParseFloat(strings.TrimSpace(r[j]), 64); err == nil {
				prec[h] = max(prec[h], decimals(r[j]))
			}
		}
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
		if !ok {
			t.Status[i] = OursOnly
			if t.Paper != "" {
				t.Note[i] = "not in the paper's table"
			}
			continue
		}
		quals := map[string]string{}
		if j, in := col["qualifiers"]; in {
			if quals, err = qualifiers(pr[j]); err != nil {
				return 0, fmt.Errorf("repro: paper/%s.csv, row %q, column qualifiers: %w", t.Paper, key, err)
			}
		}
		for c, cd := range t.Columns {
			if j, in := col[cd.Name]; in {
				t.Printed[i][c] = pr[j]
			}
		}
		var nExact, nPattern, nSetting, nTiming int
		var diffs, remarks []string
		diffCols := map[string]bool{}
		for c, cd := range t.Columns {
			p := strings.TrimSpace(t.Printed[i][c])
			if p == "" || quals[cd.Name] == qualStar {
				continue // nothing printed to compare with
			}
			switch t.kind(i, c) {
			case Exact:
				nExact++
				okc, how := cellCheck(row[c], p, quals[cd.Name], prec[cd.Name])
				if how != "" {
					remarks = append(remarks, cd.Name+" "+how)
				}
				if !okc {
					diffCols[cd.Name] = true
					diffs = append(diffs, fmt.Sprintf("%s: ours %s, paper %s", cd.Name, row[c], p))
				}
			case Pattern:
				nPattern++
			case Setting:
				nSetting++
				if !Agrees(row[c], p) {
					remarks = append(remarks, fmt.Sprintf("setting %s: ours %s, paper %s", cd.Name, row[c], p))
				}
			case Timing:
				nTiming++
			}
		}
		judged, jok, jnote := false, false, ""
		if nPattern > 0 && t.PatternOK != nil {
			judged = true
			jok, jnote = t.PatternOK(i)
		}
		// second computations of printed cells: a matching one explains
		// its column; a failing one is reported unless another matched
		var rebuilt []string
		matched := map[string]bool{}
		var failed []rebuild
		for _, rb := range t.rebuilt[i] {
			c := slices.IndexFunc(t.Columns, func(cd Column) bool { return cd.Name == rb.col })
			if c < 0 || t.Printed[i][c] == "" {
				return 0, fmt.Errorf("repro: %s row %q: reconstruction of %q, which the paper does not print", t.Name, key, rb.col)
			}
			p := strings.TrimSpace(t.Printed[i][c])
			if okc, _ := cellCheck(rb.value, p, quals[rb.col], prec[rb.col]); okc {
				delete(diffCols, rb.col)
				matched[rb.col] = true
				rebuilt = append(rebuilt, fmt.Sprintf("the printed %s %s is %s (%s)", rb.col, p, rb.how, rb.value))
			} else {
				failed = append(failed, rb)
			}
		}
		for _, rb := range failed {
			if !matched[rb.col] && diffCols[rb.col] {
				rebuilt = append(rebuilt, fmt.Sprintf("the printed %s is not %s (%s)", rb.col, rb.how, rb.value))
			}
		}
		jfail := judged && !jok && !strings.HasPrefix(jnote, NotJudgedPrefix)
		switch {
		case len(diffs) > 0 || jfail:
			why, hasWhy := t.explain[i]
			explained := (len(diffs) == 0 || hasWhy || len(diffCols) == 0) &&
				(!jfail || strings.HasPrefix(jnote, ExplainPrefix))
			var parts []string
			if hasWhy && len(diffs) > 0 {
				parts = append(parts, why)
			}
			parts = append(parts, rebuilt...)
			if len(diffs) > 0 {
				parts = append(parts, "("+strings.Join(diffs, "; ")+")")
			}
			if jfail {
				parts = append(parts, jnote)
			}
			parts = append(parts, remarks...)
			note := strings.Join(parts, "; ")
			if explained {
				t.Status[i] = Explained
				if !strings.HasPrefix(note, ExplainPrefix) {
					note = ExplainPrefix + note
				}
			} else {
				t.Status[i] = Differs
			}
			t.Note[i] = note
		case strings.HasPrefix(jnote, NotJudgedPrefix) || (nPattern > 0 && !judged):
			t.Status[i] = NotJudged
			t.Note[i] = jnote
			if !judged {
				t.Note[i] = NotJudgedPrefix + "no judge for the printed pattern values"
			}
			t.Note[i] = joinNote(t.Note[i], remarks)
		case judged:
			t.Status[i] = Patterns
			if strings.HasPrefix(jnote, StatPrefix) {
				t.Status[i] = Statistical
			}
			t.Note[i] = joinNote(jnote, remarks)
		case nExact > 0:
			t.Status[i] = Agree
			t.Note[i] = joinNote("", remarks)
		case nSetting > 0:
			t.Status[i] = SettingRow
			t.Note[i] = joinNote("setting: an input of the computation, not a result", remarks)
		default:
			t.Status[i] = NotJudged
			t.Note[i] = NotJudgedPrefix + "the paper prints only timings here"
			if nTiming == 0 {
				t.Note[i] = NotJudgedPrefix + "nothing printed to compare with"
			}
		}
	}
	for i, r := range t.remarks {
		if i >= 0 && i < len(t.Rows) {
			t.Note[i] = joinNote(t.Note[i], r)
		}
	}
	c := t.Counts()
	return c.Agreeing(), nil
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
