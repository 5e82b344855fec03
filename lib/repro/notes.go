package repro

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/datasets"
)

// Numbers in notes. The text beside a table (Table.Notes, a row's remark,
// the table's Reading, a judge's verdict) types no number: ours
// are formatted from the values computed for the table, the paper's are
// read from datasets/paper with paperValue and claimed, and settings from the
// variables the computation uses (TestNoteNumbers checks the source).

// paperValue returns the paper's printed cell of column col in the row of
// datasets/paper/TABLE.csv whose columns equal keys (numbers compared as
// numbers); an error names the file, the row and the column when there is
// none.
func paperValue(table string, keys map[string]string, col string) (string, error) {
	if v := paperCell(table, keys, col); v != "" {
		return v, nil
	}
	var k []string
	for name, v := range keys {
		k = append(k, name+" = "+v)
	}
	return "", fmt.Errorf("repro: datasets/paper/%s.csv: no printed %s in the row %s", table, col, strings.Join(k, ", "))
}

// paperFloat is paperValue as a number.
func paperFloat(table string, keys map[string]string, col string) (float64, string, error) {
	s, err := paperValue(table, keys, col)
	if err != nil {
		return 0, "", err
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, "", fmt.Errorf("repro: datasets/paper/%s.csv, column %s: %q is not a number", table, col, s)
	}
	return v, strings.TrimSpace(s), nil
}

// paperColumn returns the distinct printed values of column col of
// datasets/paper/TABLE.csv, in row order (numbers written canonically).
func paperColumn(table, col string) ([]string, error) {
	h, rows, err := datasets.Paper(table)
	if err != nil {
		return nil, err
	}
	j := slices.Index(h, col)
	if j < 0 {
		return nil, fmt.Errorf("repro: datasets/paper/%s.csv has no column %s", table, col)
	}
	var out []string
	for _, r := range rows {
		if v := normNum(r[j]); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}

// claimed returns the value of the inline claim id
// (datasets/paper/inline-claims.csv).
func claimed(id string) (string, error) {
	all, err := datasets.Claims()
	if err != nil {
		return "", err
	}
	c, ok := all[id]
	if !ok || strings.TrimSpace(c.Value) == "" {
		return "", fmt.Errorf("repro: claim %q is not in datasets/paper/inline-claims.csv", id)
	}
	return strings.TrimSpace(c.Value), nil
}

// claimedFloat is claimed as a number.
func claimedFloat(id string) (float64, error) {
	s, err := claimed(id)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("repro: datasets/paper/inline-claims.csv, claim %s: %q is not a number", id, s)
	}
	return v, nil
}

// fg formats x with the fewest digits that read it back (0.5, 110, 1e-9).
func fg(x float64) string {
	s := strconv.FormatFloat(x, 'g', -1, 64)
	s = strings.Replace(s, "e-0", "e-", 1)
	return strings.Replace(s, "e+0", "e+", 1)
}

// fe formats a grid value (0.30000000000000004 as 0.3).
func fe(x float64) string { return fg(math.Round(x*1e9) / 1e9) }

// gridText writes a grid of ε as "0, 0.1, …, 0.6" (every value when
// there are at most three).
func gridText(grid []float64) string {
	if len(grid) <= 3 {
		return floats(grid, fe, ", ")
	}
	return fe(grid[0]) + ", " + fe(grid[1]) + ", …, " + fe(grid[len(grid)-1])
}

// thousands writes n with a thousands comma (6,405), as the notes do.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// thousandsBig writes n with thousands commas, as thousands does.
func thousandsBig(n *big.Int) string {
	if n.IsInt64() {
		return thousands(int(n.Int64()))
	}
	return n.String()
}

// minus writes a negative number with the minus sign (−1, not -1).
func minus(s string) string {
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		return "−" + rest
	}
	return s
}

// plural writes "1 class", "3 classes", "2 observations".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "s") {
		return itoa(n) + " " + noun + "es"
	}
	return itoa(n) + " " + noun + "s"
}

// floats formats a list of numbers with f, joined by sep.
func floats(x []float64, f func(float64) string, sep string) string {
	s := make([]string, len(x))
	for i, v := range x {
		s[i] = f(v)
	}
	return strings.Join(s, sep)
}

// printedAt returns the paper's cell of column col in row i of t ("" where
// it prints none; Compare fills Printed).
func (t *Table) printedAt(i int, col string) string {
	for c, cd := range t.Columns {
		if cd.Name == col {
			return t.Printed[i][c]
		}
	}
	panic("repro: " + t.Name + ": no column " + col)
}

// at returns the cell of column col in row i of t (a panic names the
// table and column if there is none: a programming error).
func (t *Table) at(i int, col string) string {
	for c, cd := range t.Columns {
		if cd.Name == col {
			return t.Rows[i][c]
		}
	}
	panic("repro: " + t.Name + ": no column " + col)
}
