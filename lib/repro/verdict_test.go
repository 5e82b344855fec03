package repro

import (
	"math"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/sample"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

// TestOneReadingPerTable pins the rows that were explained by a reading
// picked row by row, or by a literal, and are not any more: each table
// declares at most one reading, applied to every row, and a row is
// explained only if that reading reproduces every differing cell. On main
// every row below was "differs (explained)".
func TestOneReadingPerTable(t *testing.T) {
	env := &Env{}
	for _, c := range []struct {
		table, key string
		want       string // a status (a string, so that this test also runs on the former API)
		says       string
	}{
		// ablation: one reading, T = 4; the m = 1 rows' printed 7 is
		// their count at T = 3, a horizon for those rows alone
		{"ablation", "Metric|W1 (discrete d_O)", "differs", "T = 3 is a horizon for the m = 1 rows alone"},
		{"ablation", "Metric|TV-equivalent", "differs", "T = 3 is a horizon for the m = 1 rows alone"},
		{"ablation", "Memory|m=1 (3 FSCs)", "differs", "T = 3 is a horizon for the m = 1 rows alone"},
		{"ablation", "Memory|m=2 (147 FSCs)", "differs (explained)", "the same variant at T = 4"},
		{"ablation", "Approx.|Greedy k=5", "differs (explained)", "the same variant at T = 4"},
		// capacity-sweep-tiger: one reading (the clock-aware family);
		// "every history apart" was a second candidate for one row
		{"capacity-sweep-tiger", "Tiger|4|1|0", "differs (explained)", "the clock-aware family's class count"},
		{"capacity-sweep-tiger", "Tiger|4|2|0", "differs", "a reading of this row alone"},
		// RockSample at T = 2, at a different ε on each row
		{"planning-claims", "pbvi_rocksample_quot_states_low", "differs", "a reading of this row alone"},
		{"planning-claims", "pbvi_rocksample_quot_states_high", "differs", "a reading of this row alone"},
		// the literal "0.000"
		{"pbvi-comparison", "GridWorld 3x3", "differs", "a reading of this row alone"},
		// the depth-2 histories apart for ε = 0 and together for ε = 0.5
		{"worked-examples", "tiger_we_classes_eps0", "differs", "a reading of this row alone"},
	} {
		tab := buildTable(t, env, c.table)
		i := tab.Row(c.key)
		if i < 0 {
			t.Errorf("%s: no row %q", c.table, c.key)
			continue
		}
		if string(tab.Status[i]) != c.want || !strings.Contains(tab.Note[i], c.says) {
			t.Errorf("%s row %q: %s, %q; want %s saying %q", c.table, c.key, tab.Status[i], tab.Note[i], c.want, c.says)
		}
	}
}

// TestHonestKinds pins the rows that agreed by construction (issue 23)
// and the kind each has now: a setting for an echoed input, a formula
// check for arithmetic on the paper's constants, a difference explained
// by the table's declared reading, an unexplained difference where the
// only account could not fail, and not judged where nothing is compared.
func TestHonestKinds(t *testing.T) {
	env := &Env{}
	for _, c := range []struct {
		table, key string
		want       Status
		says       string
	}{
		{"tractability", "tract_certified_gw_to", SettingRow, "setting"},
		{"tractability", "tract_certified_tiger_to", SettingRow, "setting"},
		{"planning-claims", "horizon_gap_canonical_T2", FormulaCheck, "formula check"},
		{"planning-claims", "horizon_gap_canonical_T10", FormulaCheck, "formula check"},
		{"planning-claims", "speedup_hallway_bound", FormulaCheck, "formula check"},
		{"planning-claims", "sanity_max_w1_max", NotJudged, "the number is not compared"},
		{"value-bounds", "A|0.5", Explained, "G = 1[o_1 = o_2 = first observation]"},
		{"layered-checks", "layered_checks_cases", Differs, "cannot fail"},
		{"worked-examples", "sensor_grid_w1_approx", NotJudged, "free parameter"},
		{"worked-examples", "sensor_grid_tv_approx", NotJudged, "free parameter"},
	} {
		tab := buildTable(t, env, c.table)
		i := tab.Row(c.key)
		if i < 0 {
			t.Errorf("%s: no row %q", c.table, c.key)
			continue
		}
		if tab.Status[i] != c.want || !strings.Contains(tab.Note[i], c.says) {
			t.Errorf("%s row %q: %s, %q; want %s saying %q", c.table, c.key, tab.Status[i], tab.Note[i], c.want, c.says)
		}
	}
}

// TestReadingNotes: every table with an explained row has one reading,
// which says what it did on every row.
func TestReadingNotes(t *testing.T) {
	env := &Env{}
	for _, name := range []string{"ablation", "capacity-sweep-tiger", "noise-sensitivity", "probe-family-comparison", "layered-checks"} {
		tab := buildTable(t, env, name)
		if tab.Counts().Explained > 0 && (tab.Reading == nil || !strings.Contains(tab.ReadingNote, "applied to every row")) {
			t.Errorf("%s: explained rows without a reading note (%q)", name, tab.ReadingNote)
		}
	}
}

// TestTiesJudgedAsMaximiser: where every action string ties on the
// quotient, a printed policy other than ours is judged as a maximiser (a
// computed pattern), not explained by free text.
func TestTiesJudgedAsMaximiser(t *testing.T) {
	tab := buildTable(t, &Env{}, "observation-planning")
	i := tab.Row("Tiger|Obs score|8")
	if i < 0 || string(tab.Status[i]) != "pattern" || !strings.Contains(tab.Note[i], "is a maximiser") {
		t.Fatalf("Tiger T = 8: row %d %v", i, tab.Status)
	}
}

// TestMaximiserJudge: the maximiser judge refuses a printed policy that
// is not an action string of the horizon's length.
func TestMaximiserJudge(t *testing.T) {
	tab := buildTable(t, &Env{}, "observation-planning")
	i := tab.Row("Tiger|Obs score|8")
	c := colIndex(tab, "policy")[0]
	tab.Printed[i][c] = "L L X" // not an action string of length 8
	if j := tab.PatternOK(i); j.Outcome != verdict.Disagree {
		t.Errorf("an impossible printed policy judged %v: %s", j.Outcome, j.Note)
	}
}

// TestRandomRowsStructural: the random-model rows' printed counts are
// fixed by |O| and T, so they are structural, not agreement (on main they
// were four pattern agreements that never judged the printed intervals).
func TestRandomRowsStructural(t *testing.T) {
	env := &Env{}
	for _, c := range []struct {
		table string
		keys  []string
	}{
		{"medium-scale", []string{"Random |S|=50", "Random |S|=100"}},
		{"larger-scale", []string{"Random |S|=20|2", "Random |S|=20|3"}},
	} {
		tab := buildTable(t, env, c.table)
		for _, k := range c.keys {
			i := tab.Row(k)
			if i < 0 || string(tab.Status[i]) != "structural" || !strings.Contains(tab.Note[i], "structural:") {
				t.Errorf("%s row %q: status %v", c.table, k, tab.Status)
			}
		}
		if agree, _ := tab.Compare(); agree != tab.Compared()-2 {
			t.Errorf("%s: %d of %d rows agree: the 2 random rows are counted as agreement", c.table, agree, tab.Compared())
		}
	}
}

func TestStructuralCount(t *testing.T) {
	if got := structuralCount(4, 3, 0); got != 22 { // 1 + 4 + 16 + 1
		t.Errorf("structuralCount(4, 3, 0) = %d, want 22", got)
	}
	if got := structuralCount(10, 2, 0.3); got != 3 {
		t.Errorf("structuralCount(10, 2, 0.3) = %d, want 3", got)
	}
}

// TestStatJudgeNothingParsed: a sampled row whose printed counts and
// interval do not parse is not judged (statJudge returned agreement).
func TestStatJudgeNothingParsed(t *testing.T) {
	tab := &Table{Columns: []Column{{"b", Key}, {"classes", Exact}, {"ci_low", Pattern}, {"ci_high", Pattern}},
		Rows: [][]string{{"x", "5", "0.1", "0.2"}}, Printed: [][]string{{"x", "–", "n/a", ""}}}
	j := statJudge{countCols: []int{1}, lo: []int{5}, hi: []int{5}, seeds: 10, ciCols: [2]int{2, 3},
		iv: sample.Interval{Low: 0.1, High: 0.2}, exactMax: math.NaN()}
	if got := j.judge(tab, 0); got.Outcome != verdict.Unjudged {
		t.Errorf("nothing printed parses: %v %q, want not judged", got.Outcome, got.Note)
	}
	tab.Printed[0][1] = "5"
	if got := j.judge(tab, 0); got.Outcome != verdict.AgreeStatistically {
		t.Errorf("a printed count among ours: %v %q", got.Outcome, got.Note)
	}
}
