package verdict

import (
	"strings"
	"testing"
)

// cells builds a row of exact cells: name → {ours, printed}.
func cells(kv ...string) []Cell {
	var out []Cell
	for i := 0; i+2 < len(kv)+1; i += 3 {
		out = append(out, Cell{Column: kv[i], Kind: Exact, Ours: kv[i+1], Printed: kv[i+2]})
	}
	return out
}

// reading returns a reading covering cols whose value is given per column.
func reading(values map[string]float64) *Reading {
	covers := map[string]string{}
	for c := range values {
		covers[c] = "the " + c + " of the other setting"
	}
	return &Reading{How: "another setting", Covers: covers,
		Value: func(_ int, col string) (float64, bool) { v, ok := values[col]; return v, ok }}
}

// TestExplanationCoversColumns: an explanation is tied to the columns it
// covers; a row is explained only when every differing cell is covered
// and reproduced (on main, Table.Explain marked a row with any number of
// differing columns explained).
func TestExplanationCoversColumns(t *testing.T) {
	two := cells("a", "4", "7", "b", "0.10", "0.20", "c", "1", "1")
	for _, tc := range []struct {
		name    string
		reading *Reading
		judge   func() Judgement
		want    Status
	}{
		{"no reading", nil, nil, Differs},
		{"covers one of two differing columns", reading(map[string]float64{"a": 7}), nil, Differs},
		{"covers both", reading(map[string]float64{"a": 7, "b": 0.2}), nil, Explained},
		{"covers both, one value wrong", reading(map[string]float64{"a": 7, "b": 0.3}), nil, Differs},
		{"covers both and an agreeing one it gets wrong", reading(map[string]float64{"a": 7, "b": 0.2, "c": 2}), nil, Explained},
	} {
		d := Decide(Row{Cells: two, Reading: tc.reading, Judge: tc.judge})
		if d.Status != tc.want {
			t.Errorf("%s: status %q (%s), want %q", tc.name, d.Status, d.Note, tc.want)
		}
		if (d.Status == Explained) != strings.HasPrefix(d.Note, ExplainedNote) {
			t.Errorf("%s: status %q with note %q", tc.name, d.Status, d.Note)
		}
	}
}

// TestReadingNoValue: where the reading gives no value it explains nothing.
func TestReadingNoValue(t *testing.T) {
	r := &Reading{How: "the clock-aware family", Covers: map[string]string{"a": "its count"},
		Value: func(int, string) (float64, bool) { return 0, false }}
	d := Decide(Row{Cells: cells("a", "4", "7"), Reading: r})
	if d.Status != Differs || len(d.Read) != 1 || d.Read[0].HasValue {
		t.Errorf("no value: %+v", d)
	}
}

// TestJudgedRows: a judge's typed outcome decides, never its note; a
// failing judge is explained only when the reading covers the columns it
// names.
func TestJudgedRows(t *testing.T) {
	row := []Cell{{Column: "n", Kind: Setting, Ours: "9", Printed: "9"}, {Column: "k", Kind: Pattern, Ours: "5", Printed: "5"}}
	for _, tc := range []struct {
		name    string
		judge   func() Judgement
		reading *Reading
		want    Status
	}{
		{"no judge", nil, nil, NotJudged},
		{"not judged, note says agree", func() Judgement { return NotJudgedBecause("statistical: looks fine") }, nil, NotJudged},
		{"statistical", func() Judgement { return ByStatistics("inside") }, nil, Statistical},
		{"pattern", func() Judgement { return ByPattern("holds") }, nil, Patterns},
		{"structural", func() Judgement { return ByStructure("fixed by |O| and T") }, nil, Structural},
		{"differs, note says explained", func() Judgement { return Differ(ExplainedNote+"because", "k") }, nil, Differs},
		{"differs, covered", func() Judgement { return Differ("out of range", "k") }, reading(map[string]float64{"k": 5}), Explained},
		{"differs, no columns named", func() Judgement { return Differ("out of range") }, reading(map[string]float64{"k": 5}), Differs},
	} {
		if d := Decide(Row{Cells: row, Judge: tc.judge, Reading: tc.reading}); d.Status != tc.want {
			t.Errorf("%s: status %q (%s), want %q", tc.name, d.Status, d.Note, tc.want)
		}
	}
}

func TestDecideKinds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cells []Cell
		want  Status
	}{
		{"exact agrees", cells("a", "0.49", "0.49"), Agree},
		{"bare zero", cells("a", "0.3", "0"), Differs},
		{"settings only", []Cell{{Column: "n", Kind: Setting, Ours: "9", Printed: "10"}}, SettingRow},
		{"timings only", []Cell{{Column: "s", Kind: Timing, Ours: "1", Printed: "2"}}, NotJudged},
		{"nothing printed", cells("a", "1", ""), NotJudged},
		{"star", []Cell{{Column: "a", Kind: Exact, Ours: "1", Printed: "5", Qualifier: Star}}, NotJudged},
		{"approx", []Cell{{Column: "a", Kind: Exact, Ours: "0.004", Printed: "0", Qualifier: Approx, Places: 2}}, Agree},
		{"formula holds", []Cell{{Column: "b", Kind: Formula, Ours: "17", Printed: "17"}}, FormulaCheck},
		{"formula fails", []Cell{{Column: "b", Kind: Formula, Ours: "58", Printed: "5.8"}}, Differs},
		{"formula beside a setting", []Cell{{Column: "b", Kind: Formula, Ours: "1.0", Printed: "1.0"}, {Column: "n", Kind: Setting, Ours: "9", Printed: "9"}}, FormulaCheck},
		{"formula beside an exact cell", append(cells("a", "0.49", "0.49"), Cell{Column: "b", Kind: Formula, Ours: "1.0", Printed: "1.0"}), Agree},
		{"formula fails beside an exact cell", append(cells("a", "0.49", "0.49"), Cell{Column: "b", Kind: Formula, Ours: "2.0", Printed: "1.0"}), Differs},
	} {
		if d := Decide(Row{Cells: tc.cells}); d.Status != tc.want {
			t.Errorf("%s: %q (%s), want %q", tc.name, d.Status, d.Note, tc.want)
		}
	}
}

func TestCounts(t *testing.T) {
	c := Count([]Status{Agree, Statistical, Patterns, Structural, Explained, Differs, NotJudged, SettingRow, OursOnly, FormulaCheck, Agree})
	want := Counts{Exact: 2, Statistical: 1, Pattern: 1, Structural: 1, Explained: 1, Unexplained: 1, NotJudged: 1, Settings: 1, OursOnly: 1, Formula: 1}
	if c != want {
		t.Errorf("Count = %+v, want %+v", c, want)
	}
	if c.Agreeing() != 4 || c.Judged() != 6 {
		t.Errorf("agreeing %d, judged %d; want 4, 6 (structural and formula-check rows are neither)", c.Agreeing(), c.Judged())
	}
	if c.Add(c) != (Counts{Exact: 4, Statistical: 2, Pattern: 2, Structural: 2, Explained: 2, Unexplained: 2, NotJudged: 2, Settings: 2, OursOnly: 2, Formula: 2}) {
		t.Errorf("Add: %+v", c.Add(c))
	}
	for _, s := range []Status{Structural, Explained, NotJudged, SettingRow, FormulaCheck} {
		if s.Agreeing() {
			t.Errorf("%q agrees", s)
		}
	}
}

func TestValidate(t *testing.T) {
	cols := []string{"a", "b"}
	good := reading(map[string]float64{"a": 1})
	if err := good.Validate(cols); err != nil {
		t.Error(err)
	}
	for _, bad := range []*Reading{
		{Covers: good.Covers, Value: good.Value},
		{How: "x", Value: good.Value},
		{How: "x", Covers: good.Covers},
		reading(map[string]float64{"z": 1}),
	} {
		if err := bad.Validate(cols); err == nil {
			t.Errorf("reading %+v accepted", bad)
		}
	}
}
