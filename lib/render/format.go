package render

import (
	"math"
	"strconv"
	"strings"
)

// DefaultDigits is the number of significant digits that [FormatNumber] keeps
// when it is given zero, and that tables use unless told otherwise.
const DefaultDigits = 6

// FormatNumber returns x as a short decimal for display: integers in full
// (below 1e15), other values rounded to digits significant digits without
// trailing zeros, in plain notation when 1e-4 ≤ |x| < 10^digits and in
// exponent notation otherwise. If digits ≤ 0, [DefaultDigits] is used.
// NaN and infinities are written "NaN", "+Inf" and "-Inf"; negative zero is "0".
//
//	FormatNumber(0.1234567, 4) = "0.1235"
//	FormatNumber(2.5, 6)       = "2.5"
//	FormatNumber(1e-7, 3)      = "1e-07"
func FormatNumber(x float64, digits int) string {
	if digits <= 0 {
		digits = DefaultDigits
	}
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "+Inf"
	case math.IsInf(x, -1):
		return "-Inf"
	case x == 0:
		return "0"
	}
	ax := math.Abs(x)
	if x == math.Trunc(x) && ax < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	if ax >= 1e-4 && ax < math.Pow(10, float64(digits)) {
		decimals := digits - 1 - int(math.Floor(math.Log10(ax)))
		if decimals < 0 {
			decimals = 0
		}
		return trimZeros(strconv.FormatFloat(x, 'f', decimals, 64))
	}
	s := strconv.FormatFloat(x, 'e', digits-1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	return trimZeros(mant) + "e" + exp
}

// trimZeros removes trailing zeros after a decimal point, and the point itself
// when nothing follows it.
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
