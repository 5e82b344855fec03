package verdict

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// ErrNotNumber is returned by Parse for text that is not a printed number.
var ErrNotNumber = errors.New("verdict: not a printed number")

// Rules is the rule for reading printed numbers and comparing ours with
// them. It is data, not code, so that scripts/nbcheck.py can apply the very
// same rule: RulesJSON writes it to scripts/precision-rules.json.
type Rules struct {
	// Strip is the set of characters trimmed from both ends (after
	// white space): LaTeX math delimiters.
	Strip string `json:"strip"`
	// Remove lists the thousands separators deleted everywhere, in order.
	Remove []string `json:"remove"`
	// Minus lists the characters read as a minus sign.
	Minus []string `json:"minus"`
	// Number is the grammar of what is left, a regular expression in the
	// common subset of Go's and Python's syntax with five groups: sign,
	// integer digits, the decimal point, decimal digits, exponent. A bare
	// zero has no point and no exponent.
	Number string `json:"number"`
	// ZeroTolerance is the tolerance of a bare printed zero ("0": no
	// decimal point, no exponent), a claim that something is zero rather
	// than a real rounded to integers.
	ZeroTolerance float64 `json:"zero_tolerance"`
	// RelativeSlack absorbs the binary representation of decimal bounds:
	// ours agrees when |ours − printed| ≤ tol + RelativeSlack·max(|printed|, tol).
	RelativeSlack float64 `json:"relative_slack"`
}

// Precision is the rule in force.
var Precision = Rules{
	Strip:         "$",
	Remove:        []string{"{,}", `\,`, ",", " ", "\u2009", "\u202f"},
	Minus:         []string{"\u2212"},
	Number:        `^([+-]?)([0-9]*)(?:(\.)([0-9]*))?(?:[eE]([+-]?[0-9]+))?$`,
	ZeroTolerance: 1e-9,
	RelativeSlack: 1e-12,
}

var numberRE = regexp.MustCompile(Precision.Number)

// Printed is a number as the paper prints it.
type Printed struct {
	Value    float64 // its value
	Decimals int     // digits after the decimal point of the mantissa
	Exp      int     // the decimal exponent (0 without one)
	HasExp   bool    // whether an exponent is written
	ExpText  string  // the exponent as written
	// Bare reports a bare zero: digits 0 only, without a decimal point or
	// an exponent ("0", "-0").
	Bare bool
}

// Parse reads a printed number: it trims white space and Strip, deletes
// the separators of Remove, reads Minus as "-", and matches the rest
// against Number. It returns an error wrapping ErrNotNumber for anything
// else (percentages, text, "NaN", "Inf", an empty cell).
func Parse(printed string) (Printed, error) {
	s := strings.Trim(strings.TrimSpace(printed), Precision.Strip)
	for _, sep := range Precision.Remove {
		s = strings.ReplaceAll(s, sep, "")
	}
	for _, m := range Precision.Minus {
		s = strings.ReplaceAll(s, m, "-")
	}
	g := numberRE.FindStringSubmatch(s)
	if g == nil || g[2]+g[4] == "" {
		return Printed{}, fmt.Errorf("%w: %q", ErrNotNumber, printed)
	}
	p := Printed{Decimals: len(g[4]), HasExp: g[5] != "", ExpText: g[5]}
	if p.HasExp {
		e, err := strconv.Atoi(g[5])
		if err != nil {
			return Printed{}, fmt.Errorf("%w: %q (exponent)", ErrNotNumber, printed)
		}
		p.Exp = e
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return Printed{}, fmt.Errorf("%w: %q", ErrNotNumber, printed)
	}
	p.Value = v
	p.Bare = g[3] == "" && !p.HasExp && strings.Trim(g[2], "0") == ""
	return p, nil
}

// Places returns the decimal place of the last printed digit: 2 for
// "0.25", 0 for "3", 4 for "1.2e-3", −2 for "4e2".
func (p Printed) Places() int { return p.Decimals - p.Exp }

// Half returns half a unit of the last printed digit, ½·10^(−Places).
func (p Printed) Half() float64 { return HalfUnit(p.Places()) }

// Tolerance returns the tolerance of the printed number: ZeroTolerance
// for a bare zero, else Half.
func (p Printed) Tolerance() float64 {
	if p.Bare {
		return Precision.ZeroTolerance
	}
	return p.Half()
}

// HalfUnit returns ½·10^(−places), read from the decimal text "5e(−places−1)"
// so that it is the correctly rounded double (Python's float() gives the
// same).
func HalfUnit(places int) float64 {
	h, err := strconv.ParseFloat("5e"+strconv.Itoa(-places-1), 64)
	if err != nil {
		panic(err) // unreachable: the text is a valid number
	}
	return h
}

// Within reports whether |ours − printed| ≤ tol + RelativeSlack·max(|printed|, tol).
// It is false when ours is NaN or infinite.
func Within(ours, printed, tol float64) bool {
	if math.IsNaN(ours) || math.IsInf(ours, 0) {
		return false
	}
	slack := Precision.RelativeSlack * math.Max(math.Abs(printed), tol)
	return math.Abs(ours-printed) <= tol+slack
}

// Agrees reports whether ours agrees with the printed number: within its
// Tolerance (half a unit of its last digit; ZeroTolerance for a bare 0). It
// is false when printed is not a number or ours is NaN or infinite.
func Agrees(ours float64, printed string) bool {
	p, err := Parse(printed)
	if err != nil {
		return false
	}
	return Within(ours, p.Value, p.Tolerance())
}

// AgreesText compares a cell of ours with a printed cell: when the printed
// cell is a number, ours must be one that Agrees with it; otherwise the two
// texts must be equal (white space around them ignored).
func AgreesText(ours, printed string) bool {
	p, err := Parse(printed)
	if err != nil {
		return strings.TrimSpace(ours) == strings.TrimSpace(printed)
	}
	o, err := Parse(ours)
	if err != nil {
		return false
	}
	return Within(o.Value, p.Value, p.Tolerance())
}

// Interval returns the rounding interval of a printed number, [v − tol,
// v + tol] with tol its Tolerance: the values it stands for.
func Interval(printed string) (lo, hi float64, err error) {
	p, err := Parse(printed)
	if err != nil {
		return 0, 0, err
	}
	t := p.Tolerance()
	return p.Value - t, p.Value + t, nil
}

// FormatLike writes ours with as many decimals (and the same exponent, if
// any) as printed; if printed is not a number, or ours is NaN or infinite,
// it writes ours in the shortest form.
func FormatLike(ours float64, printed string) string {
	p, err := Parse(printed)
	if err != nil || math.IsNaN(ours) || math.IsInf(ours, 0) {
		return strconv.FormatFloat(ours, 'g', -1, 64)
	}
	if !p.HasExp {
		return strconv.FormatFloat(ours, 'f', p.Decimals, 64)
	}
	return strconv.FormatFloat(ours/math.Pow(10, float64(p.Exp)), 'f', p.Decimals, 64) + "e" + p.ExpText
}
