package nb

import (
	"context"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/witness"
)

func TestLawText(t *testing.T) {
	tests := []struct {
		law  []witness.Atom
		want string
	}{
		{nil, "{}"},
		{[]witness.Atom{{Suffix: "LL", P: 0.25}, {Suffix: "R", P: 1.0 / 3}}, "{LL: 0.25, R: 0.3333}"},
	}
	for _, tt := range tests {
		if got := LawText(tt.law); got != tt.want {
			t.Errorf("LawText(%v) = %q, want %q", tt.law, got, tt.want)
		}
	}
}

// TestWitnessRow: for a separating model of each kind of criterion, the row
// fits the header, names the criterion and the pair, and shows the laws
// that tell the pair apart (with W1 and TV for the metric criterion); the
// two quotients are drawn.
func TestWitnessRow(t *testing.T) {
	tests := []struct {
		model string
		cr    witness.Criterion
		T     int
		laws  string // a piece of the laws cell
	}{
		{"separating:clk", witness.Clk, 2, " vs "},
		{"separating:tv-free", witness.MetricFree, 3, "W1 = "},
	}
	for _, tt := range tests {
		b, err := bench.Lookup(tt.model)
		if err != nil {
			t.Fatal(err)
		}
		w, err := witness.Check(context.Background(), tt.cr, b.Model, tt.T)
		if err != nil || w == nil {
			t.Fatalf("%s: witness %v, err %v", tt.model, w, err)
		}
		row := WitnessRow(tt.model, w)
		if len(row) != len(WitnessHeader) || row[0] != tt.model || row[1] != string(tt.cr) || row[7] != w.H1+" / "+w.H2 {
			t.Errorf("%s: row %q", tt.model, row)
		}
		if row[8] == "" || !strings.Contains(row[9], tt.laws) || !strings.HasPrefix(row[9], "{") {
			t.Errorf("%s: probe %q, laws %q", tt.model, row[8], row[9])
		}
		buf := captureText(t)
		if err := ShowWitnessQuotients(w, [2]string{"small", "large"}); err != nil {
			t.Fatal(err)
		}
		if out := buf.String(); !strings.Contains(out, "small of ") || !strings.Contains(out, "large of ") {
			t.Errorf("%s: quotients drawn as\n%s", tt.model, out)
		}
	}
}

func TestModelText(t *testing.T) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	text, err := ModelText(b.Model)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(text, "\n") {
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "discount") || strings.HasPrefix(l, "values") {
			t.Errorf("line %q kept", l)
		}
	}
	for _, want := range []string{"states:", "actions:", "observations:", "T:", "O:", "R:"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	buf := captureText(t)
	if err := ShowModel(b.Model); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "```\n"+text+"\n```") {
		t.Errorf("ShowModel wrote\n%s", buf.String())
	}
}
