package pomdp

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pomdpq/pomdpq/lib/ot"
)

// Ground is a ground metric d_O on a model's observations as a file gives
// it: a ground-metric file (ReadGroundJSON, ReadGroundCSV) or the "ground"
// field of a JSON model.
type Ground struct {
	// Name says what the metric is ("discrete" for the JSON value
	// "discrete"; the file's "name"; empty when the file gives none).
	Name string
	// D is the metric, rows and columns in the order of the model's
	// Observations. It is a metric (ot.NewMetric): finite, non-negative,
	// symmetric, zero exactly on the diagonal, with the triangle
	// inequality.
	D ot.Ground
}

// MaxGroundPoints bounds the observations of a ground metric read from a
// file: the triangle-inequality check costs |O|³ comparisons (10⁹, about a
// second, at the bound), and a distance computation over more observations
// is out of reach anyway (|O|^T histories).
const MaxGroundPoints = 1000

// LoadGround reads a ground-metric file for a model with the given
// observations, choosing the format by extension: ".json" (ReadGroundJSON)
// or ".csv" (ReadGroundCSV), any letter case.
func LoadGround(path string, observations []string) (*Ground, error) {
	ext := filepath.Ext(path)
	var read func(io.Reader, string, []string) (*Ground, error)
	switch {
	case strings.EqualFold(ext, ".json"):
		read = ReadGroundJSON
	case strings.EqualFold(ext, ".csv"):
		read = ReadGroundCSV
	default:
		return nil, fmt.Errorf("pomdp: %s: unknown ground-metric file extension %q (want .json or .csv)", path, ext)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(bufio.NewReader(f), path, observations)
}

// ReadGroundJSON reads a ground metric on observations (a model's
// Observations, in order) from JSON. The document is one of
//
//	"discrete"                                       the discrete metric
//	[[0, 0.5, 0.5, 1], [0.5, 0, 1, 0.5], ...]         rows and columns in the order of observations
//	{"name": "quadrant-manhattan",                   optional: what the metric is
//	 "observations": ["NW", "NE", "SW", "SE"],       optional: the order of rows and columns
//	 "matrix": [[0, 0.5, 0.5, 1], ...]}              required
//
// With "observations" the rows and columns may come in any order; the
// list must name every observation once. The matrix must be a metric on
// the observations (ot.NewMetric): square |O|×|O|, finite, non-negative,
// zero on the diagonal and only there, symmetric and with the triangle
// inequality, both within ot.GroundTol. The "ground" field of a JSON model
// takes the same values.
//
// Errors are *ParseError values naming the file, the line and column, and
// the entry by observation names, for example
//
//	pomdp: g.json:4:21: d(NE, SW) (matrix[1][2]): 1.5 > d(NE, NW) + d(NW, SW) = 1: the triangle inequality must hold (within 1e-12)
//
// It runs in time linear in the input plus |O|³.
func ReadGroundJSON(r io.Reader, file string, observations []string) (*Ground, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &ParseError{File: file, Msg: "read failed: " + err.Error(), Err: err}
	}
	gr, err := newGroundReader(file, data, "", observations)
	if err != nil {
		return nil, err
	}
	return gr.readJSON(0, data, true)
}

// ReadGroundCSV reads a ground metric on observations (a model's
// Observations, in order) from comma-separated values:
//
//	# name: quadrant-manhattan          optional first line: what the metric is
//	,NW,NE,SW,SE                        optional header (see below)
//	NW,0,0.5,0.5,1
//	NE,0.5,0,1,0.5
//	...
//
// Without a header there are |O| rows of |O| numbers in the order of
// observations. A first row with a cell that is not a number is a header:
// the observation names of the columns, in any order, the rows then in the
// same order; when it starts with an empty cell, every row starts with its
// observation's name (rows in any order). Observations named by numbers ("0", "1", …) need that labelled
// form. Lines starting with # are comments; blank lines are skipped;
// spaces around cells are ignored. The matrix must be a metric, as for
// ReadGroundJSON; errors name the file, line, column and entry.
func ReadGroundCSV(r io.Reader, file string, observations []string) (*Ground, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &ParseError{File: file, Msg: "read failed: " + err.Error(), Err: err}
	}
	gr, err := newGroundReader(file, data, "", observations)
	if err != nil {
		return nil, err
	}
	return gr.readCSV()
}

// groundReader reads one ground metric; data is the whole document, so
// that lines and columns count from its start.
type groundReader struct {
	file   string
	data   []byte
	prefix string // "" for a ground file, "ground" for a model's field
	obs    []string
	idx    map[string]int
}

// entryPos is where the file gives d(i, j): line and column, and the JSON
// path of the entry (empty for CSV).
type entryPos struct {
	line, col int
	path      string
}

func newGroundReader(file string, data []byte, prefix string, obs []string) (*groundReader, error) {
	gr := &groundReader{file: file, data: data, prefix: prefix, obs: obs, idx: make(map[string]int, len(obs))}
	if len(obs) == 0 {
		return nil, gr.errAt(entryPos{}, "", "the model has no observations")
	}
	if len(obs) > MaxGroundPoints {
		e := gr.errAt(entryPos{}, "", "the model has %d observations; a ground metric read from a file is limited to %d (MaxGroundPoints: its triangle check costs |O|³)", len(obs), MaxGroundPoints)
		e.Err = ErrTooLarge
		return nil, e
	}
	for i, o := range obs {
		gr.idx[o] = i
	}
	return gr, nil
}

func (gr *groundReader) field(f string) string {
	switch {
	case gr.prefix == "":
		return f
	case f == "":
		return gr.prefix
	case strings.HasPrefix(f, "["):
		return gr.prefix + f
	}
	return gr.prefix + "." + f
}

func (gr *groundReader) errAt(p entryPos, field, format string, args ...any) *ParseError {
	return &ParseError{File: gr.file, Line: p.line, Col: p.col, Field: gr.field(field), Msg: fmt.Sprintf(format, args...)}
}

// at returns the position (1-based line and column) of the byte at
// 0-based offset off of the document; off = len(data) is the end.
func (gr *groundReader) at(off int64) entryPos {
	off = min(max(off, 0), int64(len(gr.data)))
	before := gr.data[:off]
	return entryPos{line: 1 + bytes.Count(before, []byte("\n")), col: int(off) - bytes.LastIndexByte(before, '\n')}
}

// next returns the position of the next JSON token of a decoder reading
// from offset base: after the bytes it consumed, past white space and the
// separators ',' and ':'.
func (gr *groundReader) next(base int64, dec *json.Decoder) entryPos {
	off := base + dec.InputOffset()
	for off < int64(len(gr.data)) && strings.IndexByte(" \t\r\n,:", gr.data[off]) >= 0 {
		off++
	}
	return gr.at(off)
}

func (gr *groundReader) names() string {
	if len(gr.obs) > 8 {
		return strings.Join(gr.obs[:8], ", ") + ", …"
	}
	return strings.Join(gr.obs, ", ")
}

// discrete returns the discrete metric.
func (gr *groundReader) discrete() *Ground {
	return &Ground{Name: "discrete", D: ot.Discrete(len(gr.obs))}
}

// jsonErr converts an error of the JSON decoder reading from offset base
// into a *ParseError with line and column.
func (gr *groundReader) jsonErr(base int64, dec *json.Decoder, err error) *ParseError {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		p := gr.at(base + se.Offset) // a decoder's Offset is the offending byte's
		return &ParseError{File: gr.file, Line: p.line, Col: p.col, Field: gr.field(""), Msg: "invalid JSON: " + se.Error(), Err: err}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		p := gr.next(base, dec)
		return &ParseError{File: gr.file, Line: p.line, Col: p.col, Field: gr.field(""), Msg: "unexpected end of the JSON document", Err: err}
	}
	return &ParseError{File: gr.file, Field: gr.field(""), Msg: "invalid JSON: " + err.Error(), Err: err}
}

// readJSON reads the JSON value raw, which starts at offset base of the
// document; whole says raw is the whole document (nothing may follow).
func (gr *groundReader) readJSON(base int64, raw []byte, whole bool) (*Ground, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	start := gr.at(base)
	tok, err := dec.Token()
	if err != nil {
		return nil, gr.jsonErr(base, dec, err)
	}
	var g *Ground
	switch t := tok.(type) {
	case string:
		if t != "discrete" {
			return nil, gr.errAt(start, "", "unknown ground metric %q (want \"discrete\", a matrix, or an object with \"matrix\")", t)
		}
		g = gr.discrete()
	case json.Delim:
		var rows [][]float64
		var pos [][]entryPos
		var order []string
		var orderAt []entryPos
		var name string
		if t == '[' {
			rows, pos, err = gr.jsonMatrix(dec, base, "", start)
		} else if t == '{' {
			rows, pos, order, orderAt, name, err = gr.jsonObject(dec, base)
		} else {
			err = gr.errAt(start, "", "expected \"discrete\", a matrix or an object")
		}
		if err != nil {
			return nil, err
		}
		if g, err = gr.finish(name, rows, pos, order, orderAt); err != nil {
			return nil, err
		}
	default:
		return nil, gr.errAt(start, "", "expected \"discrete\", a matrix or an object, got %v", tok)
	}
	if whole {
		p := gr.next(base, dec)
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			return nil, gr.errAt(p, "", "unexpected data after the ground metric")
		}
	}
	return g, nil
}

// jsonObject reads {"name", "observations", "matrix"} after its '{'.
func (gr *groundReader) jsonObject(dec *json.Decoder, base int64) (rows [][]float64, pos [][]entryPos, order []string, orderAt []entryPos, name string, err error) {
	seen := map[string]bool{}
	start := gr.at(base)
	for dec.More() {
		kp := gr.next(base, dec)
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, nil, nil, "", gr.jsonErr(base, dec, err)
		}
		key, _ := tok.(string)
		p := gr.next(base, dec)
		if seen[key] {
			return nil, nil, nil, nil, "", gr.errAt(kp, key, "given twice")
		}
		seen[key] = true
		switch key {
		case "name":
			tok, err := dec.Token()
			if err != nil {
				return nil, nil, nil, nil, "", gr.jsonErr(base, dec, err)
			}
			s, ok := tok.(string)
			if !ok {
				return nil, nil, nil, nil, "", gr.errAt(p, "name", "expected a string")
			}
			name = s
		case "observations":
			if order, orderAt, err = gr.jsonNames(dec, base); err != nil {
				return nil, nil, nil, nil, "", err
			}
		case "matrix":
			tok, err := dec.Token()
			if err != nil {
				return nil, nil, nil, nil, "", gr.jsonErr(base, dec, err)
			}
			if d, ok := tok.(json.Delim); !ok || d != '[' {
				return nil, nil, nil, nil, "", gr.errAt(p, "matrix", "expected an array of %d rows", len(gr.obs))
			}
			if rows, pos, err = gr.jsonMatrix(dec, base, "matrix", p); err != nil {
				return nil, nil, nil, nil, "", err
			}
		default:
			return nil, nil, nil, nil, "", gr.errAt(kp, key, "unknown field (known fields: name, observations, matrix)")
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, nil, nil, nil, "", gr.jsonErr(base, dec, err)
	}
	if rows == nil {
		return nil, nil, nil, nil, "", gr.errAt(start, "matrix", "missing (the |O|×|O| matrix of distances is required)")
	}
	return rows, pos, order, orderAt, name, nil
}

// jsonNames reads the "observations" array and the position of each name.
func (gr *groundReader) jsonNames(dec *json.Decoder, base int64) ([]string, []entryPos, error) {
	p := gr.next(base, dec)
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, gr.jsonErr(base, dec, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, nil, gr.errAt(p, "observations", "expected an array of observation names")
	}
	var names []string
	var at []entryPos
	for dec.More() {
		q := gr.next(base, dec)
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, gr.jsonErr(base, dec, err)
		}
		s, ok := tok.(string)
		if !ok {
			return nil, nil, gr.errAt(q, fmt.Sprintf("observations[%d]", len(names)), "expected an observation name")
		}
		if len(names) == len(gr.obs) {
			return nil, nil, gr.errAt(q, "observations", "more than the model's %d observations (%s)", len(gr.obs), gr.names())
		}
		names = append(names, s)
		at = append(at, q)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, gr.jsonErr(base, dec, err)
	}
	if len(at) == 0 {
		at = append(at, p) // an empty list: errors point at it
	}
	return names, at, nil
}

// jsonMatrix reads the rows of a matrix after its '[', which is at start.
func (gr *groundReader) jsonMatrix(dec *json.Decoder, base int64, field string, start entryPos) ([][]float64, [][]entryPos, error) {
	n := len(gr.obs)
	var rows [][]float64
	var pos [][]entryPos
	for dec.More() {
		i := len(rows)
		rowAt := gr.next(base, dec)
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, gr.jsonErr(base, dec, err)
		}
		f := fmt.Sprintf("%s[%d]", field, i)
		if i == n {
			return nil, nil, gr.errAt(rowAt, field, "more than %d rows (one per observation: %s)", n, gr.names())
		}
		if d, ok := tok.(json.Delim); !ok || d != '[' {
			return nil, nil, gr.errAt(rowAt, f, "expected a row: an array of %d numbers", n)
		}
		row := make([]float64, 0, n)
		at := make([]entryPos, 0, n)
		for dec.More() {
			p := gr.next(base, dec)
			tok, err := dec.Token()
			if err != nil {
				return nil, nil, gr.jsonErr(base, dec, err)
			}
			num, ok := tok.(json.Number)
			fj := fmt.Sprintf("%s[%d]", f, len(row))
			if !ok {
				if s, isString := tok.(string); isString {
					tok = strconv.Quote(s)
				}
				return nil, nil, gr.errAt(p, fj, "expected a number, got %v", tok)
			}
			p.path = gr.field(fj)
			if len(row) == n {
				return nil, nil, gr.errAt(p, f, "more than %d entries (one per observation: %s)", n, gr.names())
			}
			v, err := strconv.ParseFloat(string(num), 64)
			if err != nil || math.IsInf(v, 0) {
				return nil, nil, gr.errAt(p, fj, "%s is not a finite number", num)
			}
			row = append(row, v)
			at = append(at, p)
		}
		if _, err := dec.Token(); err != nil {
			return nil, nil, gr.jsonErr(base, dec, err)
		}
		if len(row) != n {
			return nil, nil, gr.errAt(rowAt, f, "has %d entries, want %d (one per observation: %s)", len(row), n, gr.names())
		}
		rows = append(rows, row)
		pos = append(pos, at)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, gr.jsonErr(base, dec, err)
	}
	if len(rows) != n {
		return nil, nil, gr.errAt(start, field, "has %d rows, want %d (one per observation: %s)", len(rows), n, gr.names())
	}
	return rows, pos, nil
}

// readCSV reads the CSV form.
func (gr *groundReader) readCSV() (*Ground, error) {
	n := len(gr.obs)
	name, err := gr.csvName()
	if err != nil {
		return nil, err
	}
	cr := csv.NewReader(bytes.NewReader(gr.data))
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	var header []string // column names, nil without a header
	var cols []int      // the model's index of each column, nil without a header
	labelled := false
	var rows [][]float64
	var pos [][]entryPos
	var rowNames []string
	var headerAt, rowNameAt []entryPos
	for rec := 0; ; rec++ {
		cells, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &ParseError{File: gr.file, Line: pe.Line, Col: pe.Column, Msg: "invalid CSV: " + pe.Err.Error(), Err: err}
			}
			return nil, &ParseError{File: gr.file, Msg: "invalid CSV: " + err.Error(), Err: err}
		}
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		cellAt := func(k int) entryPos {
			line, col := cr.FieldPos(k)
			return entryPos{line: line, col: col}
		}
		if rec == 0 && !allNumbers(cells) {
			first := 0
			if len(cells) == n+1 && cells[0] == "" {
				labelled, first = true, 1
			}
			if len(cells)-first != n {
				return nil, gr.errAt(cellAt(0), "header", "has %d column names, want %d (the observations: %s), or an empty cell and %d names", len(cells), n, gr.names(), n)
			}
			header = cells[first:]
			for k := range header {
				headerAt = append(headerAt, cellAt(k+first))
			}
			if cols, err = gr.permutation(header, "header", func(k int) entryPos { return headerAt[k] }); err != nil {
				return nil, err
			}
			continue
		}
		i := len(rows)
		if i == n {
			return nil, gr.errAt(cellAt(0), "", "more than %d rows (one per observation: %s)", n, gr.names())
		}
		off := 0
		if labelled {
			if len(cells) == 0 || cells[0] == "" {
				return nil, gr.errAt(cellAt(0), fmt.Sprintf("row %d", i+1), "missing the observation name (the header starts with an empty cell, so every row starts with a name)")
			}
			rowNames = append(rowNames, cells[0])
			rowNameAt = append(rowNameAt, cellAt(0))
			off = 1
		}
		if len(cells)-off != n {
			return nil, gr.errAt(cellAt(0), fmt.Sprintf("row %d", i+1), "has %d numbers, want %d (one per observation: %s)", len(cells)-off, n, gr.names())
		}
		row, at, err := gr.csvRow(cells[off:], i, func(j int) entryPos { return cellAt(j + off) })
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
		pos = append(pos, at)
	}
	if len(rows) != n {
		return nil, gr.errAt(gr.at(int64(len(gr.data))), "", "has %d rows, want %d (one per observation: %s)", len(rows), n, gr.names())
	}
	if labelled {
		// Rows by their labels, columns by the header.
		perm, err := gr.permutation(rowNames, "row names", func(k int) entryPos { return rowNameAt[k] })
		if err != nil {
			return nil, err
		}
		return gr.fromFile(name, rows, pos, perm, cols)
	}
	if header != nil {
		return gr.fromFile(name, rows, pos, cols, cols)
	}
	return gr.fromFile(name, rows, pos, nil, nil)
}

// csvName returns the metric's name that a first line "# name: …" of
// the CSV form gives, or "".
func (gr *groundReader) csvName() (string, error) {
	name := ""
	if first, _, _ := bytes.Cut(gr.data, []byte("\n")); bytes.HasPrefix(first, []byte("# name:")) {
		first = bytes.TrimSuffix(bytes.TrimPrefix(first, []byte("# name:")), []byte("\r"))
		name = string(bytes.TrimPrefix(first, []byte(" ")))
		if !utf8.ValidString(name) {
			// JSON, the other form, can only carry valid UTF-8.
			return "", &ParseError{File: gr.file, Line: 1, Field: "name", Msg: fmt.Sprintf("the metric's name %q is not valid UTF-8", name)}
		}
	}
	return name, nil
}

// csvRow reads the numbers of row i (0-based) of the CSV form, cells
// without the row's label; cellAt gives the position of cell j.
func (gr *groundReader) csvRow(cells []string, i int, cellAt func(j int) entryPos) ([]float64, []entryPos, error) {
	n := len(gr.obs)
	row := make([]float64, n)
	at := make([]entryPos, n)
	for j := range row {
		at[j] = cellAt(j)
		v, err := strconv.ParseFloat(cells[j], 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, nil, gr.errAt(at[j], fmt.Sprintf("row %d, column %d", i+1, j+1), "%q is not a finite number", cells[j])
		}
		row[j] = v
	}
	return row, at, nil
}

func allNumbers(cells []string) bool {
	for _, c := range cells {
		if _, err := strconv.ParseFloat(c, 64); err != nil {
			return false
		}
	}
	return true
}

// permutation maps a list of observation names given by the file to the
// model's indices: perm[k] is the model index of the k-th name. It
// requires every observation exactly once.
func (gr *groundReader) permutation(names []string, what string, at func(k int) entryPos) ([]int, error) {
	n := len(gr.obs)
	if len(names) != n {
		return nil, gr.errAt(at(0), what, "names %d observations, want the model's %d (%s)", len(names), n, gr.names())
	}
	perm := make([]int, n)
	seen := make([]int, n)
	for k, s := range names {
		i, ok := gr.idx[s]
		if !ok {
			return nil, gr.errAt(at(k), what, "unknown observation %q (the model's: %s)", s, gr.names())
		}
		if seen[i] > 0 {
			return nil, gr.errAt(at(k), what, "observation %q named twice", s)
		}
		seen[i] = k + 1
		perm[k] = i
	}
	return perm, nil
}

// finish maps a JSON matrix to the model's order (order: the file's
// "observations", nil for the model's) and checks it.
func (gr *groundReader) finish(name string, rows [][]float64, pos [][]entryPos, order []string, orderAt []entryPos) (*Ground, error) {
	if order == nil {
		return gr.fromFile(name, rows, pos, nil, nil)
	}
	perm, err := gr.permutation(order, "observations", func(k int) entryPos { return orderAt[min(k, len(orderAt)-1)] })
	if err != nil {
		return nil, err
	}
	return gr.fromFile(name, rows, pos, perm, perm)
}

// fromFile reorders the file's matrix (row k is observation rowPerm[k],
// column k observation colPerm[k]; nil: the model's order) and checks that
// it is a metric, naming the offending entry by its observations and
// position.
func (gr *groundReader) fromFile(name string, rows [][]float64, pos [][]entryPos, rowPerm, colPerm []int) (*Ground, error) {
	n := len(gr.obs)
	id := func(p []int, k int) int {
		if p == nil {
			return k
		}
		return p[k]
	}
	d := make(ot.Ground, n)
	at := make([][]entryPos, n)
	for i := range d {
		d[i] = make([]float64, n)
		at[i] = make([]entryPos, n)
	}
	for k, row := range rows {
		i := id(rowPerm, k)
		for l, v := range row {
			j := id(colPerm, l)
			d[i][j], at[i][j] = v, pos[k][l]
		}
	}
	if _, err := ot.NewMetric(d); err != nil {
		return nil, gr.metricError(err, d, at)
	}
	return &Ground{Name: name, D: d}, nil
}

// metricError describes an *ot.GroundError by observation names and the
// entry's position in the file.
func (gr *groundReader) metricError(err error, d ot.Ground, at [][]entryPos) error {
	var ge *ot.GroundError
	if !errors.As(err, &ge) || ge.I < 0 || ge.J < 0 {
		return &ParseError{File: gr.file, Field: gr.field(""), Msg: err.Error(), Err: err}
	}
	o := gr.obs
	dn := func(i, j int) string { return fmt.Sprintf("d(%s, %s)", o[i], o[j]) }
	i, j := ge.I, ge.J
	var msg string
	switch ge.Kind {
	case ot.Triangle:
		k := ge.K
		j = k // the entry reported is d(I, K)
		msg = fmt.Sprintf("%v > %s + %s = %v: %s", ge.Value, dn(ge.I, ge.J), dn(ge.J, k), ge.Other, ge.Kind.Rule())
	case ot.Asymmetric:
		p := at[ge.J][ge.I]
		msg = fmt.Sprintf("%v, but %s = %v (line %d): %s", ge.Value, dn(ge.J, ge.I), ge.Other, p.line, ge.Kind.Rule())
	case ot.NotSeparated:
		msg = fmt.Sprintf("0 between distinct observations: %s (the probe distance is then 0 between different laws; merge the observations in the model instead)", ge.Kind.Rule())
	default:
		msg = fmt.Sprintf("%v: %s", d[i][j], ge.Kind.Rule())
	}
	p := at[i][j]
	field := dn(i, j)
	if p.path != "" {
		field += " (" + p.path + ")"
	}
	return &ParseError{File: gr.file, Line: p.line, Col: p.col, Field: field, Msg: msg, Err: err}
}

// WriteGroundJSON writes g in the object form of ReadGroundJSON, with its
// name (when not empty), the observations and one row per line, numbers in
// strconv's shortest round-tripping form, so that ReadGroundJSON returns g
// bit for bit.
func WriteGroundJSON(w io.Writer, g *Ground, observations []string) error {
	if len(g.D) != len(observations) {
		return fmt.Errorf("pomdp: WriteGroundJSON: the metric has %d points for %d observations", len(g.D), len(observations))
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("{\n")
	if g.Name != "" {
		fmt.Fprintf(bw, "  \"name\": %s,\n", jsonString(g.Name))
	}
	bw.WriteString("  \"observations\": [")
	for i, o := range observations {
		if i > 0 {
			bw.WriteString(", ")
		}
		bw.WriteString(jsonString(o))
	}
	bw.WriteString("],\n  \"matrix\": ")
	writeMatrix(bw, g.D, "  ")
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// WriteGroundCSV writes g in the labelled form of ReadGroundCSV (a header
// starting with an empty cell, each row starting with its observation),
// preceded by "# name: NAME" when g has a name, so that ReadGroundCSV
// returns g bit for bit. A name holding a line break, and observations
// starting with # or with spaces around them, cannot be written.
func WriteGroundCSV(w io.Writer, g *Ground, observations []string) error {
	if len(g.D) != len(observations) {
		return fmt.Errorf("pomdp: WriteGroundCSV: the metric has %d points for %d observations", len(g.D), len(observations))
	}
	if strings.ContainsAny(g.Name, "\r\n") {
		return fmt.Errorf("pomdp: WriteGroundCSV: the name %q holds a line break", g.Name)
	}
	for _, o := range observations {
		if strings.HasPrefix(o, "#") || strings.TrimSpace(o) != o {
			return fmt.Errorf("pomdp: WriteGroundCSV: observation %q starts with # or has spaces around it, which ReadGroundCSV reads otherwise; use WriteGroundJSON", o)
		}
	}
	bw := bufio.NewWriter(w)
	if g.Name != "" {
		fmt.Fprintf(bw, "# name: %s\n", g.Name)
	}
	cw := csv.NewWriter(bw)
	cw.Write(append([]string{""}, observations...))
	for i, row := range g.D {
		rec := []string{observations[i]}
		for _, v := range row {
			rec = append(rec, strconv.FormatFloat(v, 'g', -1, 64))
		}
		cw.Write(rec)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// writeMatrix writes d as a JSON array with one row per line.
func writeMatrix(bw *bufio.Writer, d ot.Ground, indent string) {
	bw.WriteString("[")
	for i, row := range d {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n" + indent + "  [")
		for j, v := range row {
			if j > 0 {
				bw.WriteString(", ")
			}
			bw.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		bw.WriteString("]")
	}
	bw.WriteString("\n" + indent + "]")
}

// fieldOffset returns the offset in data (a valid JSON object) of the
// value of its last top-level field key, or −1.
func fieldOffset(data []byte, key string) int64 {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return -1
	}
	found := int64(-1)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return found
		}
		off := dec.InputOffset()
		for off < int64(len(data)) && strings.IndexByte(" \t\r\n:", data[off]) >= 0 {
			off++
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return found
		}
		if tok == key {
			found = off
		}
	}
	return found
}

// ReadGroundJSONField reads the ground metric that a JSON model file gives
// as its field "ground": data is the whole document and raw the field's
// value. Errors name the file, the line and column in data and the field
// ("ground", "ground.matrix[1][0]", …), as ReadGroundJSON's do. The JSON
// model reader (package pomdpjson) uses it.
func ReadGroundJSONField(file string, data, raw []byte, observations []string) (*Ground, error) {
	gr, err := newGroundReader(file, data, "ground", observations)
	if err != nil {
		return nil, err
	}
	return gr.readJSON(fieldOffset(data, "ground"), raw, false)
}

// WriteGroundMatrix writes d as a JSON array with one row per line, each
// line indented by indent, as WriteGroundJSON writes its matrix.
func WriteGroundMatrix(bw *bufio.Writer, d ot.Ground, indent string) { writeMatrix(bw, d, indent) }
