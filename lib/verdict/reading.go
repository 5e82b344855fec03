package verdict

import (
	"fmt"
	"slices"
	"strings"
)

// Reading is an alternative reading of a paper's table: another setting,
// convention or mechanism under which the table was evidently computed
// (the authors' sliced gap, the segmented reference, the clock-aware
// family). A table declares at most one, once; it is applied to every row.
//
// A reading explains a differing row only if, for every differing cell of
// the row, it covers the cell's column and its computed value reproduces
// the printed one (Decide). A setting found row by row that gives the
// printed number is not a reading: it explains nothing (make it a remark).
type Reading struct {
	// How states the reading, once, for the whole table.
	How string
	// Covers maps each column the reading reconstructs to what it computes
	// there ("the count under the possibility-pattern labelling").
	Covers map[string]string
	// Value returns the reading's value of column col in row i, computed
	// (never a literal: repro's tests refuse one); ok is false where the
	// reading gives no value, and it then explains nothing in that cell.
	Value func(row int, col string) (v float64, ok bool)
}

// Validate checks a reading against the columns of its table: it states
// what it is, covers at least one column, every column it covers exists,
// and it has a Value function.
func (r *Reading) Validate(columns []string) error {
	switch {
	case strings.TrimSpace(r.How) == "":
		return fmt.Errorf("verdict: a reading must say what it is (How)")
	case len(r.Covers) == 0:
		return fmt.Errorf("verdict: reading %q covers no column", r.How)
	case r.Value == nil:
		return fmt.Errorf("verdict: reading %q has no Value", r.How)
	}
	for c := range r.Covers {
		if !slices.Contains(columns, c) {
			return fmt.Errorf("verdict: reading %q covers %q, which is not a column", r.How, c)
		}
	}
	return nil
}

// ReadCell is what a reading gave for one printed cell it covers.
type ReadCell struct {
	Column   string
	Value    float64
	HasValue bool // the reading gives a value here
	// Reproduces reports that the value reproduces the printed one.
	Reproduces bool
	// Differing reports that ours differs from the printed value here.
	Differing bool
}

// Record summarises a reading applied to every row of a table.
type Record struct {
	Cells      int      // printed cells it covers
	Reproduced int      // of which its value reproduces the printed one
	NoValue    int      // of which it gives no value
	Explained  int      // rows it explains
	Misses     []string // "col in row KEY: reading v, printed p" where it gives another value
}

// Add records the cells one row's decision read.
func (rec *Record) Add(key string, d Decision, printed map[string]string) {
	for _, c := range d.Read {
		rec.Cells++
		switch {
		case !c.HasValue:
			rec.NoValue++
		case c.Reproduces:
			rec.Reproduced++
		default:
			rec.Misses = append(rec.Misses, fmt.Sprintf("%s in row %s: %s, printed %s", c.Column, key,
				FormatLike(c.Value, printed[c.Column]), strings.TrimSpace(printed[c.Column])))
		}
	}
	if d.Status == Explained {
		rec.Explained++
	}
}

// Note returns the record as a sentence for the table's notes.
func (rec *Record) Note(r *Reading) string {
	s := fmt.Sprintf("The table's one reading, applied to every row: %s. It reproduces %d of the %d printed cells it covers and explains %d row(s)",
		r.How, rec.Reproduced, rec.Cells, rec.Explained)
	if rec.NoValue > 0 {
		s += fmt.Sprintf("; it gives no value for %d", rec.NoValue)
	}
	if len(rec.Misses) > 0 {
		s += "; it gives another value for " + strings.Join(rec.Misses, "; ")
	}
	return s + "."
}
