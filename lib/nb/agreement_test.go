package nb

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestAgreeDigits(t *testing.T) {
	// Expected values: hand rounding of ours to the printed precision.
	tests := []struct {
		ours    float64
		printed string
		want    bool
	}{
		{0.1234, "0.12", true},
		{0.1251, "0.13", true},
		{0.125, "0.13", true}, // tie, rounded half up
		{0.125, "0.12", true}, // tie, rounded half to even
		{0.1351, "0.13", false},
		{0.1349, "0.13", true},
		{2.4, "2", true},
		{2.6, "2", false},
		{-0.004, "0.00", true},
		{-0.004, "-0.00", true},
		{-1.234, "−1.23", true}, // Unicode minus
		{-1.234, "1.23", false},
		{1234.4, "1,234", true},
		{1234.4, "1{,}234", true},
		{0.00123, "1.2e-3", true},
		{0.00126, "1.2e-3", false},
		{12.34, "$12.3$", true},
		{12.34, " +12.3 ", true},
		{1.5, "1.50", true},
		{1.506, "1.50", false},
		{math.NaN(), "0.5", false},
		{math.Inf(1), "1", false},
		{0.5, "50%", false},
		{0.5, "", false},
		{0.5, "abc", false},
		{0.5, "0.5.1", false},
		{0.5, "1-2", false},
		{0.5, "-", false},
		{0.3, "0", false}, // a bare 0 is a claim of zero (verdict's rule), not ½
		{1e-10, "0", true},
		{0.3, "0.0", false},
		{0.04, "0.0", true},
	}
	for _, tt := range tests {
		if got := AgreeDigits(tt.ours, tt.printed); got != tt.want {
			t.Errorf("AgreeDigits(%v, %q) = %v, want %v", tt.ours, tt.printed, got, tt.want)
		}
	}
}

func TestParsePrinted(t *testing.T) {
	tests := []struct {
		printed     string
		value, half float64
	}{
		{"0.25", 0.25, 0.005},
		{"3", 3, 0.5},
		{"-12.500", -12.5, 0.0005},
		{"1.2e-3", 0.0012, 5e-5},
		{"4E2", 400, 50},
	}
	for _, tt := range tests {
		v, h, err := ParsePrinted(tt.printed)
		if err != nil || !(math.Abs(v-tt.value) <= 1e-15*math.Abs(tt.value)) || !(math.Abs(h-tt.half) <= 1e-15*tt.half) {
			t.Errorf("ParsePrinted(%q) = %v, %v, %v; want %v, %v", tt.printed, v, h, err, tt.value, tt.half)
		}
	}
	if _, _, err := ParsePrinted("n/a"); !errors.Is(err, ErrNotNumber) {
		t.Errorf("ParsePrinted(n/a): err = %v, want ErrNotNumber", err)
	}
}

func TestFormatLike(t *testing.T) {
	tests := []struct {
		ours    float64
		printed string
		want    string
	}{
		{0.12345, "0.12", "0.12"},
		{2, "1.500", "2.000"},
		{0.00126, "1.2e-3", "1.3e-3"},
		{-0.5, "−1.0", "-0.5"},
		{1.5, "n/a", "1.5"},
		{math.NaN(), "1.0", "NaN"},
	}
	for _, tt := range tests {
		if got := FormatLike(tt.ours, tt.printed); got != tt.want {
			t.Errorf("FormatLike(%v, %q) = %q, want %q", tt.ours, tt.printed, got, tt.want)
		}
	}
}

func TestRows(t *testing.T) {
	rows := []Row{
		DigitsRow("tab:a/1", "V", 0.4567, "0.46"),
		DigitsRow("tab:a/2", "W1", 0.4567, "0.45"),
		DigitsRow("tab:a/3", "classes", 3, "three"),
		WithinRow("fig:b", "mean", 1.02, 1, 0.05),
		WithinRow("fig:b", "sd", math.NaN(), 1, 0.05),
		{Key: "thm:x", Quantity: "order", Ours: "a<b", Paper: "a<b", OK: true, Kind: KindPattern},
	}
	wantOK := []bool{true, false, false, true, false, true}
	for i, r := range rows {
		if r.OK != wantOK[i] {
			t.Errorf("row %d (%+v): OK = %v, want %v", i, r, r.OK, wantOK[i])
		}
	}
	if rows[0].Ours != "0.46" || rows[0].Kind != KindExact || rows[3].Kind != KindStatistical || rows[3].Note != "±0.05" {
		t.Errorf("rows built as %+v", rows)
	}
	if !strings.Contains(rows[2].Note, "not a printed number") {
		t.Errorf("unparsable paper value: note %q", rows[2].Note)
	}
	if a, n := CountAgreement(rows); a != 3 || n != 6 {
		t.Errorf("CountAgreement = %d, %d; want 3, 6", a, n)
	}

	text := AgreementText("Table 1", rows)
	if !strings.HasPrefix(text, "Table 1: 3 of 6 agree\n") || strings.Count(text, "✓") != 3 || strings.Count(text, "✗") != 3 {
		t.Errorf("AgreementText:\n%s", text)
	}
	h := AgreementHTML("T<1>", rows)
	if !strings.Contains(h, "T&lt;1&gt;: <span") || strings.Count(h, "✓") != 3 || strings.Count(h, "✗") != 3 || !strings.Contains(h, "a&lt;b") {
		t.Errorf("AgreementHTML:\n%s", h)
	}
	cells(t, h) // well-formed
}
