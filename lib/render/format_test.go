package render

import (
	"math"
	"testing"
)

func TestFormatNumber(t *testing.T) {
	// Expected strings: hand rounding.
	tests := []struct {
		x      float64
		digits int
		want   string
	}{
		{0.1234567, 4, "0.1235"},
		{0.1234567, 0, "0.123457"},
		{2.5, 6, "2.5"},
		{-3, 6, "-3"},
		{123456789, 3, "123456789"},
		{123456.7, 6, "123457"},
		{123456.7, 3, "1.23e+05"},
		{9.9999996, 6, "10"},
		{0.00012345, 6, "0.00012345"},
		{1e-7, 3, "1e-07"},
		{-2.0 / 3 * 1e-5, 3, "-6.67e-06"},
		{1e20, 6, "1e+20"},
		{math.Copysign(0, -1), 6, "0"},
		{math.NaN(), 6, "NaN"},
		{math.Inf(1), 6, "+Inf"},
		{math.Inf(-1), 6, "-Inf"},
	}
	for _, tt := range tests {
		if got := FormatNumber(tt.x, tt.digits); got != tt.want {
			t.Errorf("FormatNumber(%v, %d) = %q, want %q", tt.x, tt.digits, got, tt.want)
		}
	}
}
