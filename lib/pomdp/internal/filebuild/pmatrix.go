package filebuild

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// ModelName returns the base name of a file without its extension.
func ModelName(file string) string {
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

// PMatrix accumulates the per-action matrices T[a] or Z[a] while a file is
// read; later assignments replace earlier ones, unset entries are 0.
type PMatrix struct {
	nA, NRows, NCols int
	rows             [][]*prow // rows[a] is allocated on first use
}

// NewPMatrix returns an empty PMatrix of nA matrices of nRows × nCols.
func NewPMatrix(nA, nRows, nCols int) *PMatrix {
	return &PMatrix{nA: nA, NRows: nRows, NCols: nCols, rows: make([][]*prow, nA)}
}

func (m *PMatrix) row(a, i int) *prow {
	if m.rows[a] == nil {
		m.rows[a] = make([]*prow, m.NRows)
	}
	r := m.rows[a][i]
	if r == nil {
		r = &prow{}
		m.rows[a][i] = r
	}
	return r
}

// Set sets entry (i, j) of matrix a.
func (m *PMatrix) Set(a, i, j int, v float64, line int) {
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
	if len(r.sp) > m.NCols/4+4 {
		r.dense = make([]float64, m.NCols)
		for k, x := range r.sp {
			r.dense[k] = x
		}
		r.sp = nil
	}
}

// SetRow replaces row i of matrix a by vals, which is shared (never
// modified in place afterwards).
func (m *PMatrix) SetRow(a, i int, vals []float64, line int) {
	r := m.row(a, i)
	r.line, r.dense, r.shared, r.sp = line, vals, true, nil
}

// SetUnit replaces row i of matrix a by the unit vector e_j.
func (m *PMatrix) SetUnit(a, i, j int, line int) {
	r := m.row(a, i)
	r.line, r.dense, r.shared, r.sp = line, nil, false, map[int]float64{j: 1}
}

// RowError describes a row that is not stochastic.
type RowError struct {
	a, i  int
	sum   float64
	Line  int
	unset bool // no statement or entry ever set the row
}

// ParseError describes the row for a reader: field is the file's name for
// the kernel ("T", "O", "transitions", "observation_model"); the wrapped
// *EntryError uses the model's fields "T" and "Z".
func (re *RowError) ParseError(file, field string, states, actions []string) *pomdp.ParseError {
	st, ac := states[re.i], actions[re.a]
	e := &pomdp.EntryError{Model: file, Field: "T", Action: re.a, State: re.i, Next: -1, Obs: -1}
	what := "state"
	if field == "O" || field == "observation_model" {
		e.Field, e.State, e.Next = "Z", -1, re.i
		what = "end state"
	}
	pe := &pomdp.ParseError{File: file, Line: re.Line, Field: field, Err: e}
	if re.unset {
		e.Msg = "row is never specified"
		pe.Msg = fmt.Sprintf("the row of action %q, %s %q is never specified", ac, what, st)
	} else {
		e.Msg = fmt.Sprintf("row sums to %.9g, want 1 (within %g)", re.sum, pomdp.FileRowTol)
		pe.Msg = fmt.Sprintf("the row of action %q, %s %q sums to %.9g, want 1 (within %g)", ac, what, st, re.sum, pomdp.FileRowTol)
	}
	return pe
}

// Build returns the CSR matrix of action a, checking that every row sums
// to 1 within FileRowTol and renormalising rows that are off by more than
// RowTol. It returns the first bad row.
func (m *PMatrix) Build(a int) (*pomdp.Sparse, *RowError) {
	sp := &pomdp.Sparse{Rows: m.NRows, Cols: m.NCols, RowPtr: make([]int, 1, m.NRows+1)}
	var keys []int
	for i := 0; i < m.NRows; i++ {
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
		sum, ok := NormalizeRow(sp.Val[start:])
		if !ok {
			return nil, &RowError{a: a, i: i, sum: sum, Line: line, unset: r == nil}
		}
		sp.RowPtr = append(sp.RowPtr, len(sp.Col))
	}
	return sp, nil
}

// NormalizeRow checks that vals (finite, non-negative) sum to 1 within
// FileRowTol and, if they are off by more than RowTol, divides them by their
// sum. It returns the original sum and whether the row was acceptable.
func NormalizeRow(vals []float64) (float64, bool) {
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	if !(math.Abs(sum-1) <= pomdp.FileRowTol) {
		return sum, false
	}
	if !(math.Abs(sum-1) <= pomdp.RowTol) {
		for k := range vals {
			vals[k] /= sum
		}
	}
	return sum, true
}

// IsIdentity reports whether k is the identity on n states.
func IsIdentity(k pomdp.Kernel, n int) bool {
	if k.NNZ() < n {
		return false
	}
	for s := 0; s < n; s++ {
		ok, cnt := true, 0
		k.Entries(s, func(j int, p float64) {
			cnt++
			if j != s || p != 1 {
				ok = false
			}
		})
		if !ok || cnt != 1 {
			return false
		}
	}
	return true
}
