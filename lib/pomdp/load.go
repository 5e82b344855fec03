package pomdp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// FileRowTol is the tolerance within which probability rows read from files
// must sum to 1 (pomdp-solve's tolerance). Rows that pass are divided by
// their sum unless they already sum to 1 within RowTol, so that every model
// a reader returns passes Validate and a model written by WriteCassandra or
// WriteJSON reads back bit for bit.
const FileRowTol = 1e-5

// Default limits of the readers (see MaxSize and MaxEntries).
const (
	DefaultMaxSize    = 1 << 20
	DefaultMaxEntries = 1 << 25
)

// ErrTooLarge is wrapped by the *ParseError a reader returns when a file
// declares more states, actions or observations than MaxSize allows, or
// would expand to more matrix entries than MaxEntries allows.
var ErrTooLarge = errors.New("pomdp: model exceeds the reader's size limits")

// ParseError reports invalid content in a model file: a syntax error, an
// unknown name, a wrong number of values, a row that is not stochastic, a
// missing declaration or a violated size limit. It prints as
//
//	pomdp: tiger.pomdp:12:4: T: expected a probability, got "abc"
//
// Line and Col are 1-based; 0 means unknown (for instance a row that no line
// ever specified). Err, when not nil, is the underlying error: an
// *EntryError naming the offending entry, ErrTooLarge, or an I/O error.
type ParseError struct {
	File  string // file name given to the reader
	Line  int    // line of the offending token, or 0
	Col   int    // column (byte offset in the line, 1-based), or 0
	Field string // statement or JSON field, e.g. "T", "start", "transitions[3].p"
	Msg   string // what was wrong or expected
	Err   error  // underlying error, or nil
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("pomdp: ")
	file := e.File
	if file == "" {
		file = "input"
	}
	b.WriteString(file)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// ReadOption configures ReadCassandra, ReadJSON and LoadFile.
type ReadOption func(*readConfig)

type readConfig struct {
	maxSize    int
	maxEntries int64
	lenient    bool
	note       func(string)
	source     *Source // filled when not nil (Describe)
	expected   bool    // ExpectedRewards
}

// ExpectedRewards makes a reader keep only the expected reward R(s, a) of
// a file whose rewards depend on the next state or the observation: the
// model's Rewards is nil and R is the same expectation as without the
// option (no value changes). Describe reports how many entries were
// dropped. Without it such rewards are kept in Model.Rewards.
func ExpectedRewards() ReadOption {
	return func(c *readConfig) { c.expected = true }
}

// rewardsDone stores the table b built and reports what was dropped.
func (c *readConfig) rewardsDone(b *rewardBuilder) {
	b.done()
	if c.source != nil {
		c.source.DroppedRewards = b.dropped
	}
}

func newReadConfig(opts []ReadOption) readConfig {
	c := readConfig{maxSize: DefaultMaxSize, maxEntries: DefaultMaxEntries}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// MaxSize sets the largest number of states, actions or observations a file
// may declare (default DefaultMaxSize); n ≤ 0 keeps the default. Larger
// declarations are refused with a *ParseError wrapping ErrTooLarge before
// any memory is allocated for them.
func MaxSize(n int) ReadOption {
	return func(c *readConfig) {
		if n > 0 {
			c.maxSize = n
		}
	}
}

// MaxEntries bounds the work a reader may do (default DefaultMaxEntries); n ≤ 0
// keeps the default. It counts |A|·|S| (the rows every model needs), every
// matrix entry written by a statement after wildcard and matrix expansion
// (so "T: * uniform" counts |A|·|S|² entries), and every (s', o) pair
// visited while reducing rewards to R(s,a). Exceeding it returns a
// *ParseError wrapping ErrTooLarge, which keeps hostile or mistaken files
// (e.g. "states: 100000000") from exhausting memory or time.
func MaxEntries(n int) ReadOption {
	return func(c *readConfig) {
		if n > 0 {
			c.maxEntries = int64(n)
		}
	}
}

// Lenient makes ReadCassandra accept files that pomdp-solve rejects in the
// ways found in published example files (ejs4 and ejs5), and calls note
// (if not nil) with a message, naming file and line, for every assumption:
//
//   - "values: rewards" / "values: costs" are read as "values: reward" / "cost";
//   - a missing "values:" line is read as "values: reward";
//   - a missing "discount:" line gives a model without a discount
//     (HasDiscount false).
//
// Without Lenient these are errors. It has no effect on ReadJSON.
func Lenient(note func(msg string)) ReadOption {
	return func(c *readConfig) {
		c.lenient = true
		c.note = note
	}
}

// LoadFile reads a model from a file, choosing the format by extension:
// ".pomdp" (any letter case, e.g. ".POMDP") is Cassandra's format
// (ReadCassandra), ".pomdpx" and ".xml" are POMDPX (ReadPOMDPX) and ".json"
// is the JSON format (ReadJSON). A ".pomdp" or ".json" file whose content
// is XML (its first non-blank character is "<") is read as POMDPX, as is
// a file of another extension that starts like a POMDPX document. The
// model's Name is the file's base name without the extension. Errors are
// *ParseError values naming path and line, or os errors.
func LoadFile(path string, opts ...ReadOption) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		if !knownExt(path) {
			return nil, unknownExt(path)
		}
		return nil, err
	}
	defer f.Close()
	return Read(f, path, opts...)
}

// Read is LoadFile's counterpart for content already at hand (a file
// dropped on a web page, an embedded file): it reads a model from r,
// choosing the format by the extension of path and by the content as
// LoadFile does, and names path in its errors and the model. Nothing is
// opened: path is only a name.
func Read(r io.Reader, path string, opts ...ReadOption) (*Model, error) {
	ext := filepath.Ext(path)
	if strings.EqualFold(ext, ".pomdpx") || strings.EqualFold(ext, ".xml") {
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, err
		}
		return readPOMDPX(data, path, opts...)
	}
	br := bufio.NewReaderSize(r, 1<<16)
	switch {
	case sniffXML(br):
		return ReadPOMDPX(br, path, opts...)
	case strings.EqualFold(ext, ".pomdp"):
		return ReadCassandra(br, path, opts...)
	case strings.EqualFold(ext, ".json"):
		return ReadJSON(br, path, opts...)
	}
	return nil, unknownExt(path)
}

// knownExt reports whether path has an extension LoadFile reads.
func knownExt(path string) bool {
	ext := filepath.Ext(path)
	for _, e := range []string{".pomdp", ".pomdpx", ".xml", ".json"} {
		if strings.EqualFold(ext, e) {
			return true
		}
	}
	return false
}

func unknownExt(path string) error {
	return fmt.Errorf("pomdp: %s: unknown model file extension %q (want .pomdp, .pomdpx or .json)", path, filepath.Ext(path))
}

// sniffXML reports whether the buffered content starts, after white space
// and a byte order mark, with "<" (no .pomdp or JSON document does).
func sniffXML(br *bufio.Reader) bool {
	for n := 1; n <= 4096; n++ {
		b, err := br.Peek(n)
		if len(b) < n || err != nil {
			return false
		}
		c := b[n-1]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case n <= 3 && (c == 0xEF || c == 0xBB || c == 0xBF):
			continue // UTF-8 byte order mark
		}
		return c == '<'
	}
	return false
}

// SaveFile writes m to path in the format chosen by the extension, as
// LoadFile reads it (WriteCassandra for ".pomdp", WritePOMDPX for
// ".pomdpx", WriteJSON for ".json").
func SaveFile(path string, m *Model) error {
	ext := filepath.Ext(path)
	var write func(*bufio.Writer) error
	switch {
	case strings.EqualFold(ext, ".pomdp"):
		write = func(w *bufio.Writer) error { return WriteCassandra(w, m) }
	case strings.EqualFold(ext, ".pomdpx"):
		write = func(w *bufio.Writer) error { return WritePOMDPX(w, m) }
	case strings.EqualFold(ext, ".json"):
		write = func(w *bufio.Writer) error { return WriteJSON(w, m) }
	default:
		return fmt.Errorf("pomdp: %s: unknown model file extension %q (want .pomdp, .pomdpx or .json)", path, ext)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := write(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// modelName returns the base name of a file without its extension.
func modelName(file string) string {
	base := filepath.Base(file)
	if base == "." || base == string(filepath.Separator) {
		return ""
	}
	for _, ext := range []string{".pomdpx", ".pomdp", ".json", ".xml"} {
		if len(base) > len(ext) && strings.EqualFold(base[len(base)-len(ext):], ext) {
			return base[:len(base)-len(ext)]
		}
	}
	return base
}

// prow is one row of a matrix under construction: either dense (possibly
// shared copy-on-write with other rows) or a sparse map. line is the last
// line that set an entry of the row (0 if none).
type prow struct {
	dense  []float64
	shared bool
	sp     map[int]float64
	line   int
}

// pmatrix accumulates the per-action matrices T[a] or Z[a] while a file is
// read; later assignments replace earlier ones, unset entries are 0.
type pmatrix struct {
	nA, nRows, nCols int
	rows             [][]*prow // rows[a] is allocated on first use
}

func newPMatrix(nA, nRows, nCols int) *pmatrix {
	return &pmatrix{nA: nA, nRows: nRows, nCols: nCols, rows: make([][]*prow, nA)}
}

func (m *pmatrix) row(a, i int) *prow {
	if m.rows[a] == nil {
		m.rows[a] = make([]*prow, m.nRows)
	}
	r := m.rows[a][i]
	if r == nil {
		r = &prow{}
		m.rows[a][i] = r
	}
	return r
}

// set sets entry (i, j) of matrix a.
func (m *pmatrix) set(a, i, j int, v float64, line int) {
	r := m.row(a, i)
	r.line = line
	if r.dense != nil {
		if r.shared {
			r.dense = slices.Clone(r.dense)
			r.shared = false
		}
		r.dense[j] = v
		return
	}
	if r.sp == nil {
		r.sp = make(map[int]float64)
	}
	r.sp[j] = v
	if len(r.sp) > m.nCols/4+4 {
		r.dense = make([]float64, m.nCols)
		for k, x := range r.sp {
			r.dense[k] = x
		}
		r.sp = nil
	}
}

// setRow replaces row i of matrix a by vals, which is shared (never
// modified in place afterwards).
func (m *pmatrix) setRow(a, i int, vals []float64, line int) {
	r := m.row(a, i)
	r.line, r.dense, r.shared, r.sp = line, vals, true, nil
}

// setUnit replaces row i of matrix a by the unit vector e_j.
func (m *pmatrix) setUnit(a, i, j int, line int) {
	r := m.row(a, i)
	r.line, r.dense, r.shared, r.sp = line, nil, false, map[int]float64{j: 1}
}

// rowError describes a row that is not stochastic.
type rowError struct {
	a, i  int
	sum   float64
	line  int
	unset bool // no statement or entry ever set the row
}

// parseError describes the row for a reader: field is the file's name for
// the kernel ("T", "O", "transitions", "observation_model"); the wrapped
// *EntryError uses the model's fields "T" and "Z".
func (re *rowError) parseError(file, field string, states, actions []string) *ParseError {
	st, ac := states[re.i], actions[re.a]
	e := &EntryError{Model: file, Field: "T", Action: re.a, State: re.i, Next: -1, Obs: -1}
	what := "state"
	if field == "O" || field == "observation_model" {
		e.Field, e.State, e.Next = "Z", -1, re.i
		what = "end state"
	}
	pe := &ParseError{File: file, Line: re.line, Field: field, Err: e}
	if re.unset {
		e.Msg = "row is never specified"
		pe.Msg = fmt.Sprintf("the row of action %q, %s %q is never specified", ac, what, st)
	} else {
		e.Msg = fmt.Sprintf("row sums to %.9g, want 1 (within %g)", re.sum, FileRowTol)
		pe.Msg = fmt.Sprintf("the row of action %q, %s %q sums to %.9g, want 1 (within %g)", ac, what, st, re.sum, FileRowTol)
	}
	return pe
}

// build returns the CSR matrix of action a, checking that every row sums
// to 1 within FileRowTol and renormalising rows that are off by more than
// RowTol. It returns the first bad row.
func (m *pmatrix) build(a int) (*Sparse, *rowError) {
	sp := &Sparse{Rows: m.nRows, Cols: m.nCols, RowPtr: make([]int, 1, m.nRows+1)}
	var keys []int
	for i := 0; i < m.nRows; i++ {
		var r *prow
		if m.rows[a] != nil {
			r = m.rows[a][i]
		}
		start := len(sp.Col)
		line := 0
		if r != nil {
			line = r.line
			if r.dense != nil {
				for j, v := range r.dense {
					if v != 0 {
						sp.Col = append(sp.Col, j)
						sp.Val = append(sp.Val, v)
					}
				}
			} else {
				keys = keys[:0]
				for j, v := range r.sp {
					if v != 0 {
						keys = append(keys, j)
					}
				}
				slices.Sort(keys)
				for _, j := range keys {
					sp.Col = append(sp.Col, j)
					sp.Val = append(sp.Val, r.sp[j])
				}
			}
		}
		sum, ok := normalizeRow(sp.Val[start:])
		if !ok {
			return nil, &rowError{a: a, i: i, sum: sum, line: line, unset: r == nil}
		}
		sp.RowPtr = append(sp.RowPtr, len(sp.Col))
	}
	return sp, nil
}

// normalizeRow checks that vals (finite, non-negative) sum to 1 within
// FileRowTol and, if they are off by more than RowTol, divides them by their
// sum. It returns the original sum and whether the row was acceptable.
func normalizeRow(vals []float64) (float64, bool) {
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	if !(math.Abs(sum-1) <= FileRowTol) {
		return sum, false
	}
	if !(math.Abs(sum-1) <= RowTol) {
		for k := range vals {
			vals[k] /= sum
		}
	}
	return sum, true
}
