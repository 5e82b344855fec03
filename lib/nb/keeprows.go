package nb

import (
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/repro"
)

// KeepRows returns a copy of the compared table t restricted to the rows
// whose id (first column) has one of the prefixes, with their statuses,
// notes and printed values; the pattern rows are dropped. A table not yet
// compared (t.Compare) is an error.
func KeepRows(t *repro.Table, prefixes ...string) (*repro.Table, error) {
	if n := len(t.Rows); len(t.Status) != n || len(t.Note) != n || len(t.Printed) != n {
		return nil, fmt.Errorf("nb: KeepRows: table %s has %d rows but %d statuses, %d notes, %d printed rows: compare it first", t.Name, n, len(t.Status), len(t.Note), len(t.Printed))
	}
	out := *t
	out.Rows, out.Status, out.Note, out.Printed = nil, nil, nil, nil
	out.PatternRow, out.PatternOK = nil, nil
	for i, r := range t.Rows {
		for _, p := range prefixes {
			if len(r) > 0 && strings.HasPrefix(r[0], p) {
				out.Rows, out.Status = append(out.Rows, r), append(out.Status, t.Status[i])
				out.Note, out.Printed = append(out.Note, t.Note[i]), append(out.Printed, t.Printed[i])
				break
			}
		}
	}
	return &out, nil
}
