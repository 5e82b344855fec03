package verdict

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// RulesFile is where RulesJSON is committed, relative to the repository
// root; scripts/nbcheck.py reads it.
const RulesFile = "scripts/precision-rules.json"

// Case is a printed number and a value of ours, with what the rule says
// about them: the cases on which the four former implementations (lib/repro
// twice, lib/nb and scripts/nbcheck.py) disagreed, and their neighbours.
type Case struct {
	Printed string `json:"printed"`
	Ours    string `json:"ours"` // a float as Go's ParseFloat and Python's float() read it
	// Want is the hand-derived verdict (tests check Agrees against it).
	Want bool   `json:"-"`
	Why  string `json:"why"`
}

// Cases are the conformance cases written with the rules.
var Cases = []Case{
	{"0", "0.3", false, "a bare 0 is a claim of zero (the integer rule gave ½)"},
	{"0", "0.0001", false, "a bare 0 is a claim of zero"},
	{"0", "0", true, "zero"},
	{"0", "1e-10", true, "within the zero tolerance 1e-9"},
	{"-0", "0", true, "a signed bare zero"},
	{"+0", "0.1", false, "a signed bare zero is still a claim of zero"},
	{"00", "0.2", false, "zero digits only, no point: a bare zero"},
	{"0.", "0.3", true, "a decimal point: not bare, half a unit of the integer digit"},
	{"0e0", "0.3", true, "an exponent: not bare"},
	{"0.00", "0.004", true, "two decimals: ½·10⁻²"},
	{"0.00", "0.006", false, "two decimals: ½·10⁻²"},
	{"2", "2.4", true, "an integer other than 0: ½"},
	{"2", "2.6", false, "an integer other than 0: ½"},
	{"1e-3", "0.0004", false, "the exponent sets the last digit: ½·10⁻³ (lib/repro read 0 decimals: ½)"},
	{"1e-3", "0.0012", true, "the exponent sets the last digit"},
	{"1.2e-3", "0.00123", true, "mantissa decimals and exponent: ½·10⁻⁴"},
	{"1.2e-3", "0.00126", false, "mantissa decimals and exponent: ½·10⁻⁴"},
	{"4E2", "420", true, "a capital E; the last digit is the hundreds"},
	{"4E2", "451", false, "a capital E; the last digit is the hundreds"},
	{"1,234", "1234.4", true, "a thousands separator (lib/repro compared it as text)"},
	{"1{,}234", "1234.4", true, "a LaTeX thousands separator"},
	{"−1.23", "-1.234", true, "a Unicode minus (lib/repro compared it as text)"},
	{"−1.23", "1.234", false, "a Unicode minus"},
	{"$12.3$", "12.34", true, "math delimiters"},
	{" +12.3 ", "12.34", true, "a plus sign and spaces"},
	{".5", "0.54", true, "no integer digits"},
	{"1.", "1.4", true, "no decimal digits"},
	{"0.13", "0.125", true, "a tie at the decimal bound (binary representation absorbed by the relative slack)"},
	{"0.12", "0.125", true, "a tie at the other bound"},
	{"0.13", "0.1351", false, "just outside"},
	{"0.5", "0.5500000005", false, "5e-10 past the bound (lib/repro's absolute 1e-9 slack accepted it)"},
	{"0.5", "NaN", false, "NaN agrees with nothing"},
	{"1", "Inf", false, "an infinity agrees with nothing"},
	{"NaN", "NaN", false, "NaN is not a printed number (lib/repro parsed it)"},
	{"Inf", "1e308", false, "Inf is not a printed number"},
	{"1e400", "1", false, "out of range: not a number"},
	{"1e-400", "0", true, "underflows to 0, with a tolerance that underflows to 0"},
	{"5e-3", "0.0054", true, "an exponent without decimals: ½·10⁻³"},
	{"5e-3", "0.0056", false, "an exponent without decimals: ½·10⁻³"},
	{"50%", "0.5", false, "a percentage is not a number: convert it first"},
	{"", "0", false, "an empty cell"},
	{"abc", "0", false, "text"},
	{"1-2", "1", false, "a range"},
	{"0.5.1", "0.5", false, "two points"},
	{"-", "0", false, "a sign alone"},
	{"0x10", "16", false, "hexadecimal is not printed"},
	{"1_000", "1000", false, "Go's digit separators are not printed"},
}

// rulesDoc is the file written by RulesJSON.
type rulesDoc struct {
	Comment string `json:"_comment"`
	Rules
	Cases []caseDoc `json:"cases"`
}

// caseDoc is a Case with what Go computes for it.
type caseDoc struct {
	Case
	Number    bool    `json:"number"`
	Value     float64 `json:"value"`
	Tolerance float64 `json:"tolerance"`
	Agrees    bool    `json:"agrees"`
}

// RulesJSON returns the precision rules and the conformance cases, with
// what Go computes for each case, as the JSON committed at RulesFile.
func RulesJSON() ([]byte, error) {
	doc := rulesDoc{
		Comment: "Written by lib/verdict (go test ./lib/verdict -run TestRulesFile -update); do not edit. " +
			"scripts/nbcheck.py reads the rule for printed precision from here, and scripts/test_nbcheck.py checks it gives Go's verdict on every case.",
		Rules: Precision,
	}
	for _, c := range Cases {
		cd := caseDoc{Case: c}
		if p, err := Parse(c.Printed); err == nil {
			cd.Number, cd.Value, cd.Tolerance = true, p.Value, p.Tolerance()
		}
		o, err := strconv.ParseFloat(c.Ours, 64)
		if err != nil {
			return nil, err
		}
		cd.Agrees = Agrees(o, c.Printed)
		doc.Cases = append(doc.Cases, cd)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
