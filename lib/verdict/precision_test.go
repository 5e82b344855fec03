package verdict

import (
	"errors"
	"math"
	"strconv"
	"testing"
)

// TestCases checks Agrees on every conformance case against its
// hand-derived verdict (the Want column of Cases, worked out from the
// printed digits, not from this code).
func TestCases(t *testing.T) {
	for _, c := range Cases {
		o, err := strconv.ParseFloat(c.Ours, 64)
		if err != nil {
			t.Fatalf("case %q: ours %q: %v", c.Printed, c.Ours, err)
		}
		if got := Agrees(o, c.Printed); got != c.Want {
			t.Errorf("Agrees(%s, %q) = %v, want %v (%s)", c.Ours, c.Printed, got, c.Want, c.Why)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		printed string
		value   float64
		places  int
		tol     float64 // hand-derived: ½·10^(−places), or 1e-9 for a bare zero
		bare    bool
	}{
		{"0.25", 0.25, 2, 0.005, false},
		{"3", 3, 0, 0.5, false},
		{"-12.500", -12.5, 3, 0.0005, false},
		{"1.2e-3", 0.0012, 4, 0.00005, false},
		{"4E2", 400, -2, 50, false},
		{"0", 0, 0, 1e-9, true},
		{"−0", 0, 0, 1e-9, true},
		{"0.0", 0, 1, 0.05, false},
		{"1{,}234", 1234, 0, 0.5, false},
	}
	for _, tt := range tests {
		p, err := Parse(tt.printed)
		if err != nil || p.Value != tt.value || p.Places() != tt.places || p.Bare != tt.bare ||
			math.Abs(p.Tolerance()-tt.tol) > 1e-15*tt.tol {
			t.Errorf("Parse(%q) = %+v (places %d, tolerance %g), %v; want value %g, places %d, tolerance %g, bare %v",
				tt.printed, p, p.Places(), p.Tolerance(), err, tt.value, tt.places, tt.tol, tt.bare)
		}
	}
	if _, err := Parse("n/a"); !errors.Is(err, ErrNotNumber) {
		t.Errorf("Parse(n/a): err = %v, want ErrNotNumber", err)
	}
}

func TestHalfUnit(t *testing.T) {
	// the correctly rounded doubles of the decimal texts
	for places, want := range map[int]float64{0: 0.5, 1: 0.05, 2: 0.005, 3: 0.0005, -2: 50, 12: 5e-13} {
		if got := HalfUnit(places); got != want {
			t.Errorf("HalfUnit(%d) = %v, want %v", places, got, want)
		}
	}
}

func TestAgreesText(t *testing.T) {
	tests := []struct {
		ours, printed string
		want          bool
	}{
		{"0.4900", "0.49", true},
		{"0.4949", "0.49", true},
		{"0.4951", "0.49", false},
		{"16", "16", true},
		{"16", "31", false},
		{"L L", "L L", true},
		{" L L", "L L ", true},
		{"L R", "L L", false},
		{"-0.000", "0.000", true},
		{"NaN", "0.5", false},
		{"–", "0.5", false},
		{"0.3", "0", false},
		{"0.000", "0", true},
	}
	for _, tc := range tests {
		if got := AgreesText(tc.ours, tc.printed); got != tc.want {
			t.Errorf("AgreesText(%q, %q) = %v, want %v", tc.ours, tc.printed, got, tc.want)
		}
	}
}

func TestInterval(t *testing.T) {
	lo, hi, err := Interval("0.32")
	if err != nil || math.Abs(lo-0.315) > 1e-15 || math.Abs(hi-0.325) > 1e-15 {
		t.Errorf("Interval(0.32) = %v, %v, %v; want 0.315, 0.325", lo, hi, err)
	}
	if _, _, err := Interval("–"); err == nil {
		t.Error("Interval(–): no error")
	}
}

func TestFormatLike(t *testing.T) {
	for _, tc := range []struct {
		ours    float64
		printed string
		want    string
	}{{0.12345, "0.12", "0.12"}, {16, "31", "16"}, {0.00123, "1.2e-3", "1.2e-3"}, {0.5, "n/a", "0.5"}, {math.NaN(), "1", "NaN"}} {
		if got := FormatLike(tc.ours, tc.printed); got != tc.want {
			t.Errorf("FormatLike(%v, %q) = %q, want %q", tc.ours, tc.printed, got, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		ours, printed string
		q             Qualifier
		places        int
		want          bool
	}{
		{"0.004", "0", Approx, 2, true},  // ≈0 in a two-decimal column: 0.005
		{"0.006", "0", Approx, 2, false}, // not ½
		{"0.092", "0", Approx, 2, false},
		{"0.009", "0.01", Less, 2, true},
		{"0.01", "0.01", Less, 2, false},
		{"x", "0.01", Less, 2, false},
		{"3.4", "3", Plain, 0, true},
		{"0.4", "0", Plain, 0, false}, // a bare zero
	}
	for _, tc := range tests {
		if ok, _ := Check(tc.ours, tc.printed, tc.q, tc.places); ok != tc.want {
			t.Errorf("Check(%s, %s, %q, %d) = %v, want %v", tc.ours, tc.printed, tc.q, tc.places, ok, tc.want)
		}
	}
	if _, how := Check("0.004", "0", Approx, 2); how != "≈0 compared within 0.005" {
		t.Errorf("how = %q", how)
	}
}

func TestParseQualifiers(t *testing.T) {
	q, err := ParseQualifiers("empirical_error:approx; time_s:lt;x:star")
	if err != nil || q["empirical_error"] != Approx || q["time_s"] != Less || q["x"] != Star {
		t.Errorf("ParseQualifiers: %v, %v", q, err)
	}
	for _, bad := range []string{"a", "a:about", ":approx:x"} {
		if _, err := ParseQualifiers(bad); err == nil {
			t.Errorf("ParseQualifiers(%q): no error", bad)
		}
	}
}

func TestColumnPlaces(t *testing.T) {
	if got := ColumnPlaces([]string{"0", "0.25", "", "x", "3.5"}); got != 2 {
		t.Errorf("ColumnPlaces = %d, want 2", got)
	}
}
