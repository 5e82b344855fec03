package nb

import (
	"fmt"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// ShowText displays string rows under a header as a table with a caption,
// every column as text (left-aligned, numbers as written), where
// [ShowRows] would make a column of numbers numeric. A row whose length is
// not the header's is an error.
func ShowText(caption string, header []string, rows [][]string) error {
	cols := make([]series.Series, len(header))
	for c, name := range header {
		cells := make([]string, len(rows))
		for i, r := range rows {
			if len(r) != len(header) {
				return fmt.Errorf("nb: ShowText %q: row %d has %d cells for %d columns", caption, i, len(r), len(header))
			}
			cells[i] = r[c]
		}
		cols[c] = series.New(cells, series.String, name)
	}
	return Table(dataframe.New(cols...), Caption(caption))
}
