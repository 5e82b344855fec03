package nb

import (
	"fmt"
	"strconv"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/pomdpq/pomdpq/lib/render"
)

// TableOption changes how [Table], [TableHTML] and [TableText] present a
// DataFrame.
type TableOption func(*tableConfig)

type tableConfig struct {
	digits  int
	caption string
	maxRows int
}

// Digits sets the number of significant digits of floating-point cells
// (default [DefaultDigits]); see [FormatNumber].
func Digits(n int) TableOption { return func(c *tableConfig) { c.digits = n } }

// Caption sets a caption shown above the table.
func Caption(s string) TableOption { return func(c *tableConfig) { c.caption = s } }

// MaxRows limits the rows shown (default 200, zero or less meaning no limit):
// a longer table shows its first and last rows around a "…" row that tells how
// many were left out.
func MaxRows(n int) TableOption { return func(c *tableConfig) { c.maxRows = n } }

// newCellTable formats df for display.
func newCellTable(df dataframe.DataFrame, opts []TableOption) (*render.Table, error) {
	if df.Err != nil {
		return nil, fmt.Errorf("nb: dataframe: %w", df.Err)
	}
	cfg := tableConfig{digits: DefaultDigits, maxRows: 200}
	for _, o := range opts {
		o(&cfg)
	}
	t := &render.Table{Caption: cfg.caption, Header: df.Names()}
	types := df.Types()
	t.Right = make([]bool, len(types))
	for j, ty := range types {
		t.Right[j] = ty == series.Float || ty == series.Int
	}
	n := df.Nrow()
	show := func(i int) []string {
		row := make([]string, len(types))
		for j, ty := range types {
			e := df.Elem(i, j)
			switch {
			case e.IsNA():
				row[j] = "NA"
			case ty == series.Float:
				row[j] = render.FormatNumber(e.Float(), cfg.digits)
			default:
				row[j] = e.String()
			}
		}
		return row
	}
	if cfg.maxRows <= 0 || n <= cfg.maxRows {
		for i := range n {
			t.Rows = append(t.Rows, show(i))
		}
		return t, nil
	}
	head := (cfg.maxRows + 1) / 2
	tail := cfg.maxRows - head
	for i := range head {
		t.Rows = append(t.Rows, show(i))
	}
	t.Rows = append(t.Rows, nil)
	t.Elided = n - head - tail
	for i := n - tail; i < n; i++ {
		t.Rows = append(t.Rows, show(i))
	}
	return t, nil
}

// TableHTML returns df as an HTML table: header cells from the column names,
// numeric columns right-aligned, floating-point cells formatted with
// [FormatNumber], missing values as "NA", and every name and value
// HTML-escaped. It returns an error if df carries one (gota's DataFrame.Err).
func TableHTML(df dataframe.DataFrame, opts ...TableOption) (string, error) {
	t, err := newCellTable(df, opts)
	if err != nil {
		return "", err
	}
	return t.HTML(), nil
}

// TableText returns df as an aligned plain-text table, formatted as in
// [TableHTML].
func TableText(df dataframe.DataFrame, opts ...TableOption) (string, error) {
	t, err := newCellTable(df, opts)
	if err != nil {
		return "", err
	}
	return t.Text(), nil
}

// Table displays df as an HTML table (see [TableHTML]); outside a notebook it
// writes [TableText] to [Output]. It returns an error if df carries one.
func Table(df dataframe.DataFrame, opts ...TableOption) error {
	t, err := newCellTable(df, opts)
	if err != nil {
		return err
	}
	show("", bundle{html: t.HTML(), text: t.Text()})
	return nil
}

// Rows builds a DataFrame from a header and string rows, making a column
// numeric when every cell parses as a number (for tables assembled in a
// notebook cell). A row whose length differs from the header's gives a
// DataFrame whose Err names the row, which [Table], [TableHTML] and
// [TableText] return.
func Rows(header []string, rows [][]string) dataframe.DataFrame {
	var cols []series.Series
	for c, name := range header {
		cells := make([]string, len(rows))
		for i, r := range rows {
			if len(r) != len(header) {
				return dataframe.DataFrame{Err: fmt.Errorf("nb: row %d has %d cells for %d columns (%q)", i, len(r), len(header), header)}
			}
			cells[i] = r[c]
		}
		cols = append(cols, column(name, cells))
	}
	return dataframe.New(cols...)
}

// column makes a float column when every cell is a number, else a string one.
func column(name string, cells []string) series.Series {
	vals := make([]float64, len(cells))
	for i, c := range cells {
		v, err := strconv.ParseFloat(c, 64)
		if err != nil {
			return series.New(cells, series.String, name)
		}
		vals[i] = v
	}
	return series.New(vals, series.Float, name)
}

// RowsOf builds a DataFrame from rows of values, one type per column (for
// tables assembled in a notebook cell from computed numbers): a column
// whose cells are all int is an Int column, all float64 a Float column
// (formatted by [FormatNumber] when shown), and any other column a String
// column of fmt.Sprint of its cells. A table without rows has String
// columns. A row whose length differs from the header's gives a DataFrame
// whose Err names the row.
func RowsOf(header []string, rows [][]any) dataframe.DataFrame {
	for i, r := range rows {
		if len(r) != len(header) {
			return dataframe.DataFrame{Err: fmt.Errorf("nb: row %d has %d cells for %d columns (%q)", i, len(r), len(header), header)}
		}
	}
	cols := make([]series.Series, len(header))
	for j, name := range header {
		cols[j] = typedColumn(name, rows, j)
	}
	return dataframe.New(cols...)
}

// typedColumn is column j of rows as an Int, Float or String series.
func typedColumn(name string, rows [][]any, j int) series.Series {
	ints, floats := make([]int, len(rows)), make([]float64, len(rows))
	allInt, allFloat := len(rows) > 0, len(rows) > 0
	for i, r := range rows {
		switch v := r[j].(type) {
		case int:
			ints[i], allFloat = v, false
		case float64:
			floats[i], allInt = v, false
		default:
			allInt, allFloat = false, false
		}
	}
	switch {
	case allInt:
		return series.New(ints, series.Int, name)
	case allFloat:
		return series.New(floats, series.Float, name)
	}
	strs := make([]string, len(rows))
	for i, r := range rows {
		strs[i] = fmt.Sprint(r[j])
	}
	return series.New(strs, series.String, name)
}
