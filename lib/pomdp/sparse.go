package pomdp

import (
	"fmt"
	"sort"
)

// Sparse is a matrix in compressed sparse row form. Row i holds the entries
// Col[RowPtr[i]:RowPtr[i+1]] (strictly increasing) with values
// Val[RowPtr[i]:RowPtr[i+1]]. Explicit zeros are never stored.
type Sparse struct {
	Rows, Cols int
	RowPtr     []int
	Col        []int
	Val        []float64
}

// NewSparseDense returns the sparse form of a dense matrix given by rows.
// It panics if the rows have different lengths.
func NewSparseDense(rows [][]float64) *Sparse {
	m := &Sparse{Rows: len(rows), RowPtr: make([]int, 1, len(rows)+1)}
	if len(rows) > 0 {
		m.Cols = len(rows[0])
	}
	for i, r := range rows {
		if len(r) != m.Cols {
			panic(fmt.Sprintf("pomdp: row %d has %d columns, want %d", i, len(r), m.Cols))
		}
		for j, v := range r {
			if v != 0 {
				m.Col = append(m.Col, j)
				m.Val = append(m.Val, v)
			}
		}
		m.RowPtr = append(m.RowPtr, len(m.Col))
	}
	return m
}

// Triplets accumulates (row, column, value) entries and builds a Sparse.
// Later entries for the same position replace earlier ones.
type Triplets struct {
	Rows, Cols int
	entries    map[[2]int]float64
}

// NewTriplets returns an empty accumulator for a rows×cols matrix.
func NewTriplets(rows, cols int) *Triplets {
	return &Triplets{Rows: rows, Cols: cols, entries: make(map[[2]int]float64)}
}

// Set sets entry (i, j) to v. It panics if (i, j) is out of range.
func (t *Triplets) Set(i, j int, v float64) {
	if i < 0 || i >= t.Rows || j < 0 || j >= t.Cols {
		panic(fmt.Sprintf("pomdp: entry (%d,%d) outside %d×%d", i, j, t.Rows, t.Cols))
	}
	t.entries[[2]int{i, j}] = v
}

// Add adds v to entry (i, j).
func (t *Triplets) Add(i, j int, v float64) {
	if i < 0 || i >= t.Rows || j < 0 || j >= t.Cols {
		panic(fmt.Sprintf("pomdp: entry (%d,%d) outside %d×%d", i, j, t.Rows, t.Cols))
	}
	t.entries[[2]int{i, j}] += v
}

// Sparse returns the accumulated matrix, dropping zero entries.
func (t *Triplets) Sparse() *Sparse {
	keys := make([][2]int, 0, len(t.entries))
	for k, v := range t.entries {
		if v != 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(a, b int) bool {
		if keys[a][0] != keys[b][0] {
			return keys[a][0] < keys[b][0]
		}
		return keys[a][1] < keys[b][1]
	})
	m := &Sparse{Rows: t.Rows, Cols: t.Cols, RowPtr: make([]int, t.Rows+1), Col: make([]int, len(keys)), Val: make([]float64, len(keys))}
	for n, k := range keys {
		m.RowPtr[k[0]+1]++
		m.Col[n] = k[1]
		m.Val[n] = t.entries[k]
	}
	for i := 0; i < t.Rows; i++ {
		m.RowPtr[i+1] += m.RowPtr[i]
	}
	return m
}

// Dims returns the numbers of rows and columns.
func (m *Sparse) Dims() (r, c int) { return m.Rows, m.Cols }

// Row returns the column indices and values of row i (shared, not copied).
func (m *Sparse) Row(i int) (cols []int, vals []float64) {
	lo, hi := m.RowPtr[i], m.RowPtr[i+1]
	return m.Col[lo:hi], m.Val[lo:hi]
}

// At returns entry (i, j).
func (m *Sparse) At(i, j int) float64 {
	cols, vals := m.Row(i)
	k := sort.SearchInts(cols, j)
	if k < len(cols) && cols[k] == j {
		return vals[k]
	}
	return 0
}

// Entries calls fn for every stored entry of row i in column order.
func (m *Sparse) Entries(i int, fn func(j int, v float64)) {
	cols, vals := m.Row(i)
	for k, j := range cols {
		fn(j, vals[k])
	}
}

// Push sets dst[j] = Σ_i src[i]·m[i][j], the row-vector product src·m.
// dst must have length Cols, src length Rows, and they must not alias.
// It costs O(nnz) and does not allocate.
func (m *Sparse) Push(dst, src []float64) {
	clear(dst[:m.Cols])
	for i := 0; i < m.Rows; i++ {
		x := src[i]
		if x == 0 {
			continue
		}
		lo, hi := m.RowPtr[i], m.RowPtr[i+1]
		cols, vals := m.Col[lo:hi], m.Val[lo:hi]
		for k, j := range cols {
			dst[j] += x * vals[k]
		}
	}
}

// NNZ returns the number of stored entries.
func (m *Sparse) NNZ() int { return len(m.Val) }

// Dense returns the matrix as dense rows.
func (m *Sparse) Dense() [][]float64 {
	out := make([][]float64, m.Rows)
	for i := range out {
		out[i] = make([]float64, m.Cols)
		cols, vals := m.Row(i)
		for k, j := range cols {
			out[i][j] = vals[k]
		}
	}
	return out
}

// Transpose returns the transposed matrix.
func (m *Sparse) Transpose() *Sparse {
	t := &Sparse{Rows: m.Cols, Cols: m.Rows, RowPtr: make([]int, m.Cols+1), Col: make([]int, len(m.Col)), Val: make([]float64, len(m.Val))}
	for _, j := range m.Col {
		t.RowPtr[j+1]++
	}
	for j := 0; j < m.Cols; j++ {
		t.RowPtr[j+1] += t.RowPtr[j]
	}
	next := append([]int(nil), t.RowPtr[:m.Cols]...)
	for i := 0; i < m.Rows; i++ {
		cols, vals := m.Row(i)
		for k, j := range cols {
			p := next[j]
			t.Col[p] = i
			t.Val[p] = vals[k]
			next[j]++
		}
	}
	return t
}

// check verifies the compressed-row structure: len(RowPtr) = Rows+1,
// RowPtr non-decreasing from 0 to len(Col) = len(Val), and the columns of
// each row strictly increasing within [0, Cols). It costs O(Rows + nnz).
func (m *Sparse) check() error {
	if m.Rows < 0 || m.Cols < 0 {
		return fmt.Errorf("negative dimensions %d×%d", m.Rows, m.Cols)
	}
	if len(m.RowPtr) != m.Rows+1 {
		return fmt.Errorf("RowPtr has %d entries, want %d", len(m.RowPtr), m.Rows+1)
	}
	if len(m.Val) != len(m.Col) {
		return fmt.Errorf("Val has %d entries and Col %d", len(m.Val), len(m.Col))
	}
	if m.RowPtr[0] != 0 || m.RowPtr[m.Rows] != len(m.Col) {
		return fmt.Errorf("RowPtr runs from %d to %d, want 0 to %d", m.RowPtr[0], m.RowPtr[m.Rows], len(m.Col))
	}
	for i := 0; i < m.Rows; i++ {
		lo, hi := m.RowPtr[i], m.RowPtr[i+1]
		if lo > hi || hi > len(m.Col) {
			return fmt.Errorf("RowPtr[%d:%d] = %d, %d is not a valid range", i, i+2, lo, hi)
		}
		for k := lo; k < hi; k++ {
			if j := m.Col[k]; j < 0 || j >= m.Cols {
				return fmt.Errorf("row %d: column %d out of range [0, %d)", i, j, m.Cols)
			}
			if k > lo && m.Col[k] <= m.Col[k-1] {
				return fmt.Errorf("row %d: columns %d, %d are not strictly increasing", i, m.Col[k-1], m.Col[k])
			}
		}
	}
	return nil
}
