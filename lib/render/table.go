package render

import (
	"fmt"
	"html"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Table is a table whose cells are already formatted, ready to be drawn as
// HTML ([Table.HTML]) or aligned text ([Table.Text]).
type Table struct {
	// Caption, if not empty, is shown above the table.
	Caption string
	// Header holds the column names.
	Header []string
	// Right marks the right-aligned (numeric) columns, one entry per column.
	Right []bool
	// Rows holds the cells, one slice per row; a nil row stands for the rows
	// left out of a long table (Elided of them).
	Rows [][]string
	// Elided is the number of rows left out at the nil row.
	Elided int
}

// TextTable builds a table from string cells the way a notebook's table of
// strings shows them: a column whose every cell parses as a number
// (strconv.ParseFloat) is right-aligned and its cells are rewritten by
// [FormatNumber] to digits significant digits (NaN as "NA"); other columns
// keep their cells, a cell "NaN" being shown as "NA". Every row must have
// as many cells as header names; the error names the first row that does
// not.
func TextTable(caption string, header []string, rows [][]string, digits int) (*Table, error) {
	for i, r := range rows {
		if len(r) != len(header) {
			return nil, fmt.Errorf("render: table %q: row %d has %d cells for %d columns", caption, i, len(r), len(header))
		}
	}
	t := &Table{Caption: caption, Header: header, Right: make([]bool, len(header)), Rows: make([][]string, len(rows))}
	for i := range rows {
		t.Rows[i] = make([]string, len(header))
	}
	for j := range header {
		vals := make([]float64, len(rows))
		t.Right[j] = true
		for i, r := range rows {
			v, err := strconv.ParseFloat(r[j], 64)
			if err != nil {
				t.Right[j] = false
				break
			}
			vals[i] = v
		}
		for i, r := range rows {
			switch {
			case t.Right[j] && vals[i] != vals[i]: // NaN
				t.Rows[i][j] = "NA"
			case t.Right[j]:
				t.Rows[i][j] = FormatNumber(vals[i], digits)
			case r[j] == "NaN":
				t.Rows[i][j] = "NA"
			default:
				t.Rows[i][j] = r[j]
			}
		}
	}
	return t, nil
}

// TableHTML is [TextTable] drawn as HTML with [DefaultDigits] digits, the
// table of the analysis report and of the planning section.
func TableHTML(caption string, header []string, rows [][]string) (string, error) {
	t, err := TextTable(caption, header, rows, DefaultDigits)
	if err != nil {
		return "", err
	}
	return t.HTML(), nil
}

// TableStyle is the inline style of every table drawn: collapsed borders and
// digits of equal width.
const TableStyle = `border-collapse:collapse;font-variant-numeric:tabular-nums`

// HTML returns t as an HTML table (class "pomdpq-table"), numeric columns
// right-aligned, every caption, name and cell HTML-escaped, and the left-out
// rows of a long table as one "… n more rows …" row.
func (t *Table) HTML() string {
	var b strings.Builder
	b.WriteString(`<table class="pomdpq-table" style="` + TableStyle + `">`)
	if t.Caption != "" {
		b.WriteString(`<caption style="caption-side:top;text-align:left;font-weight:bold">`)
		b.WriteString(html.EscapeString(t.Caption))
		b.WriteString(`</caption>`)
	}
	b.WriteString("\n<thead><tr>")
	for j, h := range t.Header {
		b.WriteString(`<th style="` + t.align(j) + `;padding:2px 8px;border-bottom:1px solid #888">`)
		b.WriteString(html.EscapeString(h))
		b.WriteString("</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, row := range t.Rows {
		if row == nil {
			fmt.Fprintf(&b, `<tr><td colspan="%d" style="text-align:center;color:#888">… %d more rows …</td></tr>`+"\n",
				len(t.Header), t.Elided)
			continue
		}
		b.WriteString("<tr>")
		for j, c := range row {
			b.WriteString(`<td style="` + t.align(j) + `;padding:2px 8px">`)
			b.WriteString(html.EscapeString(c))
			b.WriteString("</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

func (t *Table) align(j int) string {
	if j < len(t.Right) && t.Right[j] {
		return "text-align:right"
	}
	return "text-align:left"
}

// Text returns t as aligned plain text: the caption, the header, a rule, and
// the rows, numeric columns right-aligned.
func (t *Table) Text() string {
	rows := [][]string{t.Header}
	for _, r := range t.Rows {
		if r == nil {
			r = make([]string, len(t.Header))
			if len(r) > 0 {
				r[0] = fmt.Sprintf("… %d more rows", t.Elided)
			}
		}
		rows = append(rows, r)
	}
	var b strings.Builder
	if t.Caption != "" {
		b.WriteString(t.Caption + "\n")
	}
	b.WriteString(AlignColumns(rows, t.Right, 1))
	return b.String()
}

// AlignColumns lays rows out in columns separated by two spaces, the columns
// marked in right right-aligned, with a rule of dashes under the first
// ruleAfter rows; trailing spaces are trimmed from every line.
func AlignColumns(rows [][]string, right []bool, ruleAfter int) string {
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
