package pomdp

import (
	"slices"
	"strings"
	"testing"
)

func TestSparse(t *testing.T) {
	// A 3×4 matrix with an empty row; expected values by hand.
	d := [][]float64{{0, 2, 0, 1}, {0, 0, 0, 0}, {5, 0, 0, 3}}
	m := NewSparseDense(d)
	if r, c := m.Dims(); r != 3 || c != 4 || m.NNZ() != 4 {
		t.Fatalf("Dims = %d×%d, NNZ = %d; want 3×4, 4", r, c, m.NNZ())
	}
	if !slices.Equal(m.RowPtr, []int{0, 2, 2, 4}) || !slices.Equal(m.Col, []int{1, 3, 0, 3}) || !slices.Equal(m.Val, []float64{2, 1, 5, 3}) {
		t.Errorf("CSR = %v %v %v", m.RowPtr, m.Col, m.Val)
	}
	for i := range d {
		for j := range d[i] {
			if got := m.At(i, j); got != d[i][j] {
				t.Errorf("At(%d,%d) = %v, want %v", i, j, got, d[i][j])
			}
		}
	}
	if got := m.Dense(); !slices.EqualFunc(got, d, slices.Equal) {
		t.Errorf("Dense = %v, want %v", got, d)
	}
	var cols []int
	m.Entries(2, func(j int, v float64) { cols = append(cols, j) })
	if !slices.Equal(cols, []int{0, 3}) {
		t.Errorf("Entries(2) columns %v, want [0 3]", cols)
	}
	// Push: src·m with src = (1, 10, 2): (10, 2, 0, 7).
	dst := []float64{9, 9, 9, 9}
	m.Push(dst, []float64{1, 10, 2})
	if !slices.Equal(dst, []float64{10, 2, 0, 7}) {
		t.Errorf("Push = %v, want [10 2 0 7]", dst)
	}
	tr := m.Transpose()
	if r, c := tr.Dims(); r != 4 || c != 3 {
		t.Fatalf("Transpose dims %d×%d", r, c)
	}
	for i := range d {
		for j := range d[i] {
			if tr.At(j, i) != d[i][j] {
				t.Errorf("Transpose(%d,%d) = %v, want %v", j, i, tr.At(j, i), d[i][j])
			}
		}
	}
	if err := tr.check(); err != nil {
		t.Errorf("Transpose is malformed: %v", err)
	}
	if allocs := testing.AllocsPerRun(10, func() { m.Push(dst, []float64{1, 10, 2}[:3]) }); allocs > 1 {
		t.Errorf("Push allocates %v times", allocs)
	}
}

func TestNewSparseDenseRagged(t *testing.T) {
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.HasPrefix(s, "pomdp: row 1 has 1 columns") {
			t.Errorf("panic = %v, want pomdp: row 1 has 1 columns", r)
		}
	}()
	NewSparseDense([][]float64{{1, 2}, {3}})
}

func TestTriplets(t *testing.T) {
	tr := NewTriplets(2, 3)
	tr.Set(1, 2, 4)
	tr.Set(0, 1, 1)
	tr.Set(1, 2, 5) // replaces 4
	tr.Add(0, 1, 0.5)
	tr.Add(1, 0, 2)
	tr.Set(0, 0, 3)
	tr.Set(0, 0, 0) // an explicit zero is dropped
	m := tr.Sparse()
	want := [][]float64{{0, 1.5, 0}, {2, 0, 5}}
	if got := m.Dense(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("Sparse = %v, want %v", got, want)
	}
	if m.NNZ() != 3 {
		t.Errorf("NNZ = %d, want 3 (zeros are not stored)", m.NNZ())
	}
	if err := m.check(); err != nil {
		t.Error(err)
	}
	for _, f := range []func(){func() { tr.Set(2, 0, 1) }, func() { tr.Add(0, -1, 1) }} {
		func() {
			defer func() {
				if s, _ := recover().(string); !strings.HasPrefix(s, "pomdp: entry") {
					t.Errorf("panic %q, want pomdp: entry ... outside", s)
				}
			}()
			f()
		}()
	}
}

func TestSparseCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    Sparse
		want string
	}{
		{"short RowPtr", Sparse{Rows: 2, Cols: 2, RowPtr: []int{0, 1}, Col: []int{0}, Val: []float64{1}}, "RowPtr has 2 entries"},
		{"decreasing RowPtr", Sparse{Rows: 2, Cols: 2, RowPtr: []int{0, 1, 0}, Col: []int{0}, Val: []float64{1}}, "RowPtr"},
		{"column out of range", Sparse{Rows: 1, Cols: 2, RowPtr: []int{0, 1}, Col: []int{2}, Val: []float64{1}}, "column 2"},
		{"columns not increasing", Sparse{Rows: 1, Cols: 2, RowPtr: []int{0, 2}, Col: []int{1, 1}, Val: []float64{0.5, 0.5}}, "not strictly increasing"},
		{"Val length", Sparse{Rows: 1, Cols: 2, RowPtr: []int{0, 1}, Col: []int{1}, Val: nil}, "Val"},
	} {
		err := tc.m.check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: check() = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
	if err := NewSparseDense([][]float64{{0.5, 0.5}}).check(); err != nil {
		t.Error(err)
	}
}
