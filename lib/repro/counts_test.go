package repro

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/verdict"
)

// countsLine is the sentence that records the totals of `pomdpq reproduce
// all` (in docs/agreement.md, and in the README if it has one), with its
// whitespace collapsed.
var countsLine = regexp.MustCompile("Today \\(`pomdpq reproduce all`, (\\d+) tables\\): (\\d+) exact, (\\d+) statistical and (\\d+) " +
	"pattern agreements \\((\\d+) of (\\d+) judged rows\\), (\\d+) structural rows, (\\d+) formula checks, (\\d+) differences " +
	"explained by a table's one reading, (\\d+) unexplained, (\\d+) rows not judged, (\\d+) settings\\b")

// TestDocumentedCounts compares the totals documented in docs/agreement.md
// (and in the README, where it states them) with the statuses of every
// table of Specs, read from the golden files that TestGolden pins to what
// the code computes.
func TestDocumentedCounts(t *testing.T) {
	var total verdict.Counts
	for _, s := range Specs() {
		total = total.Add(goldenCounts(t, s.Name))
	}
	want := []int{len(Specs()), total.Exact, total.Statistical, total.Pattern, total.Agreeing(), total.Judged(), total.Structural,
		total.Formula, total.Explained, total.Unexplained, total.NotJudged, total.Settings}
	for _, doc := range []struct {
		path     string
		required bool
	}{{filepath.Join("..", "..", "docs", "agreement.md"), true}, {filepath.Join("..", "..", "README.md"), false}} {
		b, err := os.ReadFile(doc.path)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(b)), " ")
		if !doc.required && !strings.Contains(text, "Today (`pomdpq reproduce all`") {
			continue // the README may leave the counts to docs/agreement.md
		}
		m := countsLine.FindStringSubmatch(text)
		if m == nil {
			t.Errorf("%s: no sentence %q", doc.path, countsLine)
			continue
		}
		for k, w := range want {
			if got, _ := strconv.Atoi(m[k+1]); got != w {
				t.Errorf("%s says %q; the code gives %v (field %d: %d)", doc.path, m[0], want, k+1, w)
				break
			}
		}
	}
}

// goldenCounts returns the statuses of table name as its golden file
// records them.
func goldenCounts(t *testing.T, name string) verdict.Counts {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "golden", name+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	col := -1
	for c, h := range rows[0] {
		if h == "agreement" {
			col = c
		}
	}
	if col < 0 {
		t.Fatalf("%s: no agreement column", name)
	}
	var st []verdict.Status
	for _, r := range rows[1:] {
		st = append(st, verdict.Status(r[col]))
	}
	return verdict.Count(st)
}
