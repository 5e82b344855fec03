package render

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTextTable: a column is numeric (right-aligned, reformatted) only when
// every one of its cells parses as a number; "NaN" shows as "NA" in both
// kinds of column; a ragged row is an error naming the row.
func TestTextTable(t *testing.T) {
	tests := []struct {
		name    string
		header  []string
		rows    [][]string
		right   []bool
		cells   [][]string
		wantErr string
	}{
		{"numbers reformatted", []string{"k", "x"}, [][]string{{"1", "0.500000"}, {"2", "1e-7"}},
			[]bool{true, true}, [][]string{{"1", "0.5"}, {"2", "1e-07"}}, ""},
		{"one word makes text", []string{"x"}, [][]string{{"0.50"}, {"n/a"}},
			[]bool{false}, [][]string{{"0.50"}, {"n/a"}}, ""},
		{"NaN", []string{"x", "y"}, [][]string{{"NaN", "NaN"}, {"1", "a"}},
			[]bool{true, false}, [][]string{{"NA", "NA"}, {"1", "a"}}, ""},
		{"no rows", []string{"x"}, nil, []bool{true}, [][]string{}, ""},
		{"ragged", []string{"x", "y"}, [][]string{{"1", "2"}, {"3"}}, nil, nil, "row 1 has 1 cells for 2 columns"},
	}
	for _, tt := range tests {
		tab, err := TextTable("cap", tt.header, tt.rows, 0)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for j := range tt.right {
			if tab.Right[j] != tt.right[j] {
				t.Errorf("%s: column %d right-aligned %v, want %v", tt.name, j, tab.Right[j], tt.right[j])
			}
		}
		if len(tab.Rows) != len(tt.cells) {
			t.Fatalf("%s: %d rows, want %d", tt.name, len(tab.Rows), len(tt.cells))
		}
		for i, r := range tt.cells {
			if strings.Join(tab.Rows[i], "|") != strings.Join(r, "|") {
				t.Errorf("%s: row %d = %q, want %q", tt.name, i, tab.Rows[i], r)
			}
		}
	}
}

// TestTableHTMLEscapes: caption, names and cells are escaped, and the
// left-out rows of a long table are one row saying how many.
func TestTableHTMLEscapes(t *testing.T) {
	tab := &Table{Caption: "a<b", Header: []string{"x&y"}, Right: []bool{false},
		Rows: [][]string{{"<td>"}, nil}, Elided: 7}
	h := tab.HTML()
	for _, want := range []string{"a&lt;b", "x&amp;y", "&lt;td&gt;", "… 7 more rows …"} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q:\n%s", want, h)
		}
	}
	if n := strings.Count(h, "<tr>"); n != 3 {
		t.Errorf("%d rows opened with <tr>, want 3 (header and two)", n)
	}
	txt := tab.Text()
	// The rule is as wide as the widest cell of the column, the elision's.
	rule := strings.Repeat("-", utf8.RuneCountInString("… 7 more rows"))
	if want := "a<b\nx&y\n" + rule + "\n<td>\n… 7 more rows\n"; txt != want {
		t.Errorf("text %q, want %q", txt, want)
	}
}
