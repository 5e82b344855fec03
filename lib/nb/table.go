package nb

import (
	"fmt"
	"html"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
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

// cellTable is a DataFrame formatted for display.
type cellTable struct {
	caption string
	header  []string
	numeric []bool     // right-aligned columns
	rows    [][]string // formatted cells; nil marks the elision row
	elided  int        // rows left out at the nil row
}

func newCellTable(df dataframe.DataFrame, opts []TableOption) (*cellTable, error) {
	if df.Err != nil {
		return nil, fmt.Errorf("nb: dataframe: %w", df.Err)
	}
	cfg := tableConfig{digits: DefaultDigits, maxRows: 200}
	for _, o := range opts {
		o(&cfg)
	}
	t := &cellTable{caption: cfg.caption, header: df.Names()}
	types := df.Types()
	t.numeric = make([]bool, len(types))
	for j, ty := range types {
		t.numeric[j] = ty == series.Float || ty == series.Int
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
				row[j] = FormatNumber(e.Float(), cfg.digits)
			default:
				row[j] = e.String()
			}
		}
		return row
	}
	if cfg.maxRows <= 0 || n <= cfg.maxRows {
		for i := range n {
			t.rows = append(t.rows, show(i))
		}
		return t, nil
	}
	head := (cfg.maxRows + 1) / 2
	tail := cfg.maxRows - head
	for i := range head {
		t.rows = append(t.rows, show(i))
	}
	t.rows = append(t.rows, nil)
	t.elided = n - head - tail
	for i := n - tail; i < n; i++ {
		t.rows = append(t.rows, show(i))
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
	return t.html(), nil
}

// TableText returns df as an aligned plain-text table, formatted as in
// [TableHTML].
func TableText(df dataframe.DataFrame, opts ...TableOption) (string, error) {
	t, err := newCellTable(df, opts)
	if err != nil {
		return "", err
	}
	return t.text(), nil
}

// Table displays df as an HTML table (see [TableHTML]); outside a notebook it
// writes [TableText] to [Output]. It returns an error if df carries one.
func Table(df dataframe.DataFrame, opts ...TableOption) error {
	t, err := newCellTable(df, opts)
	if err != nil {
		return err
	}
	show("", bundle{html: t.html(), text: t.text()})
	return nil
}

const tableStyle = `border-collapse:collapse;font-variant-numeric:tabular-nums`

func (t *cellTable) html() string {
	var b strings.Builder
	b.WriteString(`<table class="pomdpq-table" style="` + tableStyle + `">`)
	if t.caption != "" {
		b.WriteString(`<caption style="caption-side:top;text-align:left;font-weight:bold">`)
		b.WriteString(html.EscapeString(t.caption))
		b.WriteString(`</caption>`)
	}
	b.WriteString("\n<thead><tr>")
	for j, h := range t.header {
		b.WriteString(`<th style="` + align(t.numeric[j]) + `;padding:2px 8px;border-bottom:1px solid #888">`)
		b.WriteString(html.EscapeString(h))
		b.WriteString("</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, row := range t.rows {
		if row == nil {
			fmt.Fprintf(&b, `<tr><td colspan="%d" style="text-align:center;color:#888">… %d more rows …</td></tr>`+"\n",
				len(t.header), t.elided)
			continue
		}
		b.WriteString("<tr>")
		for j, c := range row {
			b.WriteString(`<td style="` + align(t.numeric[j]) + `;padding:2px 8px">`)
			b.WriteString(html.EscapeString(c))
			b.WriteString("</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

func align(numeric bool) string {
	if numeric {
		return "text-align:right"
	}
	return "text-align:left"
}

func (t *cellTable) text() string {
	rows := [][]string{t.header}
	for _, r := range t.rows {
		if r == nil {
			r = make([]string, len(t.header))
			if len(r) > 0 {
				r[0] = fmt.Sprintf("… %d more rows", t.elided)
			}
		}
		rows = append(rows, r)
	}
	var b strings.Builder
	if t.caption != "" {
		b.WriteString(t.caption + "\n")
	}
	b.WriteString(alignColumns(rows, t.numeric, 1))
	return b.String()
}

// alignColumns lays rows out in columns separated by two spaces, numeric
// columns right-aligned, with a rule under the first ruleAfter rows.
func alignColumns(rows [][]string, right []bool, ruleAfter int) string {
	var width []int
	for _, r := range rows {
		for j, c := range r {
			if j >= len(width) {
				width = append(width, 0)
			}
			width[j] = max(width[j], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	line := func(r []string) {
		var l strings.Builder
		for j, c := range r {
			if j > 0 {
				l.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(c))
			if j < len(right) && right[j] {
				l.WriteString(pad + c)
			} else {
				l.WriteString(c + pad)
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	for i, r := range rows {
		line(r)
		if i == ruleAfter-1 {
			rule := make([]string, len(width))
			for j, w := range width {
				rule[j] = strings.Repeat("-", w)
			}
			line(rule)
		}
	}
	return b.String()
}

// Rows builds a DataFrame from a header and string rows, making a column
// numeric when every cell parses as a number (for tables assembled in a
// notebook cell). It panics if a row's length differs from the header's.
func Rows(header []string, rows [][]string) dataframe.DataFrame {
	var cols []series.Series
	for c, name := range header {
		cells := make([]string, len(rows))
		for i, r := range rows {
			if len(r) != len(header) {
				panic(fmt.Sprintf("nb: row %d has %d cells for %d columns", i, len(r), len(header)))
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
