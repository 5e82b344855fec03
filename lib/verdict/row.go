package verdict

import (
	"fmt"
	"strings"
)

// Cell is one cell of a compared row.
type Cell struct {
	Column    string
	Kind      Kind
	Ours      string
	Printed   string // "" where the paper prints nothing
	Qualifier Qualifier
	Places    int // the printed precision of the column (ColumnPlaces)
}

// Row is a row of ours with its printed counterpart, to be decided.
type Row struct {
	Index int // the row's index in its table (passed to Reading.Value)
	Cells []Cell
	// Judge judges the row's pattern cells; nil when there is no judge.
	// It is called only when a pattern cell is printed.
	Judge func() Judgement
	// Reading is the table's reading (nil for none).
	Reading *Reading
}

// Decision is the verdict on a row.
type Decision struct {
	Status Status
	Note   string
	// Read lists, for every printed cell the reading covers, what the
	// reading gave there.
	Read []ReadCell
}

// Prefixes of notes, for the reader (statuses are decided by type, never
// by these).
const (
	ExplainedNote = "paper differs: "
	NotJudgedNote = "not judged: "
)

// Decide gives a row its status. Every printed cell is judged by its kind:
// Exact and Formula cells by Check, Pattern cells by the row's Judge,
// Setting and Timing cells are shown and never judged. A row agrees only
// if every judged cell does; a row whose only checked cells are Formula
// cells, all equal to the printed values, is a FormulaCheck (a failing
// formula makes the row differ).
//
// A differing row is explained only by the table's reading, and only if
// the reading accounts for every differing cell: each differing exact
// cell's column, and each column a failing judge names, must be covered by
// the reading and its value there must reproduce the printed value (within
// the cell's tolerance). Anything else is a remark, and the row stays
// unexplained.
func Decide(r Row) Decision {
	var d Decision
	var nExact, nPattern, nSetting, nTiming, nFormula int
	var diffs, remarks []string
	differing := map[string]bool{}
	for _, c := range r.Cells {
		p := strings.TrimSpace(c.Printed)
		if p == "" || c.Qualifier == Star {
			continue // nothing printed to compare with
		}
		switch c.Kind {
		case Exact, Formula:
			label := c.Column
			if c.Kind == Formula {
				nFormula++
				label += " (formula check)"
			} else {
				nExact++
			}
			ok, how := Check(c.Ours, p, c.Qualifier, c.Places)
			if how != "" {
				remarks = append(remarks, c.Column+" "+how)
			}
			if !ok {
				differing[c.Column] = true
				diffs = append(diffs, fmt.Sprintf("%s: ours %s, paper %s", label, c.Ours, p))
			}
		case Pattern:
			nPattern++
		case Setting:
			nSetting++
			if !AgreesText(c.Ours, p) {
				remarks = append(remarks, fmt.Sprintf("setting %s: ours %s, paper %s", c.Column, c.Ours, p))
			}
		case Timing:
			nTiming++
		}
	}
	var j Judgement
	judged := nPattern > 0 && r.Judge != nil
	if judged {
		j = r.Judge()
		if j.Outcome == Disagree {
			for _, col := range j.Differing {
				differing[col] = true
			}
		}
	}
	jfail := judged && j.Outcome == Disagree
	d.Read = read(r)
	for k := range d.Read {
		d.Read[k].Differing = differing[d.Read[k].Column]
	}
	switch {
	case len(diffs) > 0 || jfail:
		explained, parts := explain(r, d.Read, differing)
		explained = explained && (!jfail || len(j.Differing) > 0)
		if len(diffs) > 0 {
			parts = append(parts, "("+strings.Join(diffs, "; ")+")")
		}
		if jfail {
			parts = append(parts, j.Note)
		}
		d.Note = strings.Join(append(parts, remarks...), "; ")
		d.Status = Differs
		if explained {
			d.Status = Explained
			d.Note = ExplainedNote + d.Note
		}
	case nPattern > 0 && !judged:
		d.Status = NotJudged
		d.Note = join(NotJudgedNote+"no judge for the printed pattern values", remarks)
	case judged:
		d.Status = j.status()
		note := j.Note
		if d.Status == NotJudged {
			note = NotJudgedNote + note
		}
		d.Note = join(note, remarks)
	case nExact > 0:
		d.Status = Agree
		d.Note = join("", remarks)
	case nFormula > 0:
		d.Status = FormulaCheck
		d.Note = join("formula check: arithmetic on the paper's own constants, not a reproduction", remarks)
	case nSetting > 0:
		d.Status = SettingRow
		d.Note = join("setting: an input of the computation, not a result", remarks)
	default:
		d.Status = NotJudged
		d.Note = NotJudgedNote + "nothing printed to compare with"
		if nTiming > 0 {
			d.Note = NotJudgedNote + "the paper prints only timings here"
		}
	}
	return d
}

// read applies the reading to every printed cell it covers.
func read(r Row) []ReadCell {
	if r.Reading == nil {
		return nil
	}
	var out []ReadCell
	for _, c := range r.Cells {
		p := strings.TrimSpace(c.Printed)
		if _, ok := r.Reading.Covers[c.Column]; !ok || p == "" || c.Qualifier == Star {
			continue
		}
		rc := ReadCell{Column: c.Column}
		rc.Value, rc.HasValue = r.Reading.Value(r.Index, c.Column)
		rc.Reproduces = rc.HasValue && CheckValue(rc.Value, p, c.Qualifier, c.Places)
		out = append(out, rc)
	}
	return out
}

// explain reports whether the reading accounts for every differing
// column, with the note's account of each differing cell it covers.
func explain(r Row, cells []ReadCell, differing map[string]bool) (bool, []string) {
	covered := map[string]bool{}
	var parts []string
	printed := map[string]string{}
	for _, c := range r.Cells {
		printed[c.Column] = strings.TrimSpace(c.Printed)
	}
	for _, rc := range cells {
		if !differing[rc.Column] || !rc.HasValue {
			continue
		}
		what := r.Reading.Covers[rc.Column]
		v := FormatLike(rc.Value, printed[rc.Column])
		if rc.Reproduces {
			covered[rc.Column] = true
			parts = append(parts, fmt.Sprintf("by the table's reading, the printed %s %s is %s (%s)", rc.Column, printed[rc.Column], what, v))
		} else {
			parts = append(parts, fmt.Sprintf("the table's reading does not give the printed %s %s: %s is %s", rc.Column, printed[rc.Column], what, v))
		}
	}
	for col := range differing {
		if !covered[col] {
			return false, parts
		}
	}
	return len(differing) > 0, parts
}

func join(note string, more []string) string {
	parts := append([]string(nil), more...)
	if note != "" {
		parts = append([]string{note}, parts...)
	}
	return strings.Join(parts, "; ")
}
