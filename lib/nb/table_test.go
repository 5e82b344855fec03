package nb

import (
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

func smallFrame() dataframe.DataFrame {
	return dataframe.New(
		series.New([]string{"<script>alert('x')</script>", "a & b", `"q"`}, series.String, "name <i>"),
		series.New([]float64{0.123456789, 2, math.NaN()}, series.Float, "value"),
		series.New([]int{1, 20, 300}, series.Int, "n"),
	)
}

// cells parses an HTML table as XML (which also checks that it is well
// formed) and returns the text of its th and td cells, row by row.
func cells(t *testing.T, doc string) [][]string {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	d.Strict = true
	var rows [][]string
	var text *strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, doc)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			switch tok.Name.Local {
			case "tr":
				rows = append(rows, nil)
			case "td", "th":
				text = &strings.Builder{}
			}
		case xml.CharData:
			if text != nil {
				text.Write(tok)
			}
		case xml.EndElement:
			if (tok.Name.Local == "td" || tok.Name.Local == "th") && text != nil {
				rows[len(rows)-1] = append(rows[len(rows)-1], text.String())
				text = nil
			}
		}
	}
	return rows
}

func TestTableHTML(t *testing.T) {
	got, err := TableHTML(smallFrame(), Caption("T<1>"), Digits(3))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "<script>") || strings.Contains(got, "<i>") {
		t.Errorf("unescaped markup in table:\n%s", got)
	}
	for _, want := range []string{"T&lt;1&gt;", "&lt;script&gt;", "a &amp; b", "&#34;q&#34;", "name &lt;i&gt;"} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	want := [][]string{
		{"name <i>", "value", "n"},
		{"<script>alert('x')</script>", "0.123", "1"},
		{"a & b", "2", "20"},
		{`"q"`, "NA", "300"}, // gota stores NaN floats as NA
	}
	rows := cells(t, got)
	if len(rows) != len(want) {
		t.Fatalf("got %d rows %q, want %d", len(rows), rows, len(want))
	}
	for i := range want {
		if strings.Join(rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d = %q, want %q", i, rows[i], want[i])
		}
	}
}

func TestTableMaxRows(t *testing.T) {
	vals := make([]int, 10)
	for i := range vals {
		vals[i] = i
	}
	df := dataframe.New(series.New(vals, series.Int, "i"))
	got, err := TableHTML(df, MaxRows(4))
	if err != nil {
		t.Fatal(err)
	}
	rows := cells(t, got)
	var flat []string
	for _, r := range rows {
		flat = append(flat, strings.Join(r, ","))
	}
	want := "i|0|1|… 6 more rows …|8|9"
	if strings.Join(flat, "|") != want {
		t.Errorf("rows %q, want %q", strings.Join(flat, "|"), want)
	}
	txt, err := TableText(df, MaxRows(0))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(txt, "\n"); n != 12 {
		t.Errorf("unlimited text table has %d lines, want 12:\n%s", n, txt)
	}
}

func TestTableText(t *testing.T) {
	buf := captureText(t)
	if err := Table(smallFrame(), Digits(2)); err != nil {
		t.Fatal(err)
	}
	want := `name <i>                     value    n
---------------------------  -----  ---
<script>alert('x')</script>   0.12    1
a & b                            2   20
"q"                             NA  300
`
	if got := buf.String(); got != want {
		t.Errorf("text table:\n%s\nwant:\n%s", got, want)
	}
}

func TestTableError(t *testing.T) {
	tests := []struct {
		name string
		df   dataframe.DataFrame
		want string
	}{
		{"failed frame", dataframe.DataFrame{Err: errors.New("broken")}, "broken"},
		{"ragged rows", Rows([]string{"a", "b"}, [][]string{{"1", "2"}, {"3"}}), "row 1 has 1 cells for 2 columns"},
	}
	for _, tt := range tests {
		if _, err := TableHTML(tt.df); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: TableHTML err = %v, want %q", tt.name, err, tt.want)
		}
		buf := captureText(t)
		if err := Table(tt.df); err == nil {
			t.Errorf("%s: Table: no error", tt.name)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: Table wrote %q", tt.name, buf.String())
		}
	}
}

func TestTableNotebook(t *testing.T) {
	sent, out := fakeNotebook(t)
	if err := Table(smallFrame()); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 || len(*sent) != 1 {
		t.Fatalf("wrote %q and sent %d displays", out.String(), len(*sent))
	}
	d := (*sent)[0].Data
	if h, _ := d["text/html"].(string); !strings.HasPrefix(h, "<table") {
		t.Errorf("text/html = %q", h)
	}
	if p, _ := d["text/plain"].(string); !strings.HasPrefix(p, "name <i>") {
		t.Errorf("text/plain = %q", p)
	}
}

// TestRowsOf: each column takes the one type of its cells; mixed columns
// and columns of other types are strings; ragged rows are an error.
func TestRowsOf(t *testing.T) {
	tests := []struct {
		name    string
		rows    [][]any
		types   []series.Type
		text    string // TableText of the frame, "" to skip
		wantErr string
	}{
		{"typed", [][]any{{1, 0.5, "a"}, {22, 1.0 / 3, true}}, []series.Type{series.Int, series.Float, series.String},
			" n         x  s\n--  --------  ----\n 1       0.5  a\n22  0.333333  true\n", ""},
		{"mixed numbers are text", [][]any{{1, 2.5, "a"}, {2.5, 1.0, "b"}}, []series.Type{series.String, series.Float, series.String}, "", ""},
		{"no rows", nil, []series.Type{series.String, series.String, series.String}, "", ""},
		{"ragged", [][]any{{1, 2, 3}, {4}}, nil, "", "row 1 has 1 cells for 3 columns"},
	}
	for _, tt := range tests {
		df := RowsOf([]string{"n", "x", "s"}, tt.rows)
		if tt.wantErr != "" {
			if df.Err == nil || !strings.Contains(df.Err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want %q", tt.name, df.Err, tt.wantErr)
			}
			continue
		}
		if df.Err != nil {
			t.Fatalf("%s: %v", tt.name, df.Err)
		}
		if got := df.Types(); len(got) != len(tt.types) || got[0] != tt.types[0] || got[1] != tt.types[1] || got[2] != tt.types[2] {
			t.Errorf("%s: types %v, want %v", tt.name, got, tt.types)
		}
		if tt.text != "" {
			if got, err := TableText(df); err != nil || got != tt.text {
				t.Errorf("%s: text\n%q, want\n%q (err %v)", tt.name, got, tt.text, err)
			}
		}
	}
}
