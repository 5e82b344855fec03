package repro_test

import (
	"strconv"
	"testing"

	"github.com/pomdpq/pomdpq/lib/nb"
	"github.com/pomdpq/pomdpq/lib/repro"
)

// TestOnePrecisionRule: the table comparison (repro.Agrees) and the
// notebooks' (nb.AgreeDigits) give the same verdict, the hand-derived one,
// on the cases where their former implementations disagreed (a bare 0, an
// exponent, a thousands separator, a Unicode minus, an absolute slack)
// and on their neighbours. scripts/test_nbcheck.py checks the Python
// checker on the same rule (scripts/precision-rules.json).
func TestOnePrecisionRule(t *testing.T) {
	for _, c := range []struct {
		printed, ours string
		want          bool
	}{
		{"0", "0.3", false},            // a bare 0 is a claim of zero (nb and Python gave ½)
		{"0", "0.0000000001", true},    // within 1e-9
		{"0.00", "0.004", true},        // two decimals: ½·10⁻²
		{"1e-3", "0.0004", false},      // the exponent sets the last digit (repro read ½)
		{"1.2e-3", "0.00123", true},    // ½·10⁻⁴
		{"1,234", "1234.4", true},      // a thousands separator (repro compared text)
		{"−1.23", "-1.234", true},      // a Unicode minus (repro compared text)
		{"0.5", "0.5500000005", false}, // past the bound by 5e-10 (repro's slack was 1e-9)
		{"0.13", "0.125", true},        // a tie at the decimal bound
		{"2", "2.4", true},
		{"2", "2.6", false},
	} {
		o, err := strconv.ParseFloat(c.ours, 64)
		if err != nil {
			t.Fatal(err)
		}
		r, n := repro.Agrees(c.ours, c.printed), nb.AgreeDigits(o, c.printed)
		if r != c.want || n != c.want {
			t.Errorf("ours %s against the printed %q: repro.Agrees %v, nb.AgreeDigits %v, want %v", c.ours, c.printed, r, n, c.want)
		}
	}
}
