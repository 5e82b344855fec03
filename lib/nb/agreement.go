package nb

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/pomdpq/pomdpq/lib/render"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

// Kind says how a number of ours is compared with the paper's.
type Kind string

// The kinds of comparison in an agreement table.
const (
	// KindExact: a deterministic number that must equal the printed one to the
	// printed precision (see AgreeDigits).
	KindExact Kind = "exact"
	// KindStatistical: a sampled or estimated number that must fall within a
	// stated tolerance of the paper's.
	KindStatistical Kind = "statistical"
	// KindPattern: a qualitative claim (an ordering, a trend, a sign) that must
	// hold; Ours and Paper describe it in words.
	KindPattern Kind = "pattern"
)

// Row is one line of an agreement table: a quantity computed by us next to the
// value the paper prints.
type Row struct {
	Key      string // where the paper prints it, e.g. "tab:tiger/row 3"
	Quantity string // what it is, e.g. "V(q)" or "classes at ε=0.1"
	Ours     string // our value, formatted for display
	Paper    string // the paper's value as printed
	OK       bool   // whether they agree
	Kind     Kind   // how they were compared
	Note     string // tolerance used, reason for a disagreement, ...
}

// CountAgreement returns how many rows agree and how many there are.
func CountAgreement(rows []Row) (agree, total int) {
	for _, r := range rows {
		if r.OK {
			agree++
		}
	}
	return agree, len(rows)
}

// DigitsRow returns the row comparing ours with a number printed in the
// paper, of kind [KindExact]: Ours is ours rounded like printed
// (see [FormatLike]) and OK is [AgreeDigits](ours, printed).
func DigitsRow(key, quantity string, ours float64, printed string) Row {
	r := Row{Key: key, Quantity: quantity, Ours: FormatLike(ours, printed),
		Paper: printed, OK: AgreeDigits(ours, printed), Kind: KindExact}
	if _, _, err := ParsePrinted(printed); err != nil {
		r.Note = err.Error()
	}
	return r
}

// WithinRow returns the row comparing ours with the paper's value within an
// absolute tolerance tol, of kind [KindStatistical]: OK when
// |ours − paper| ≤ tol (false if either is NaN).
func WithinRow(key, quantity string, ours, paper, tol float64) Row {
	return Row{Key: key, Quantity: quantity,
		Ours: FormatNumber(ours, 0), Paper: FormatNumber(paper, 0),
		OK:   math.Abs(ours-paper) <= tol,
		Kind: KindStatistical, Note: "±" + FormatNumber(tol, 0)}
}

// ErrNotNumber is returned by [ParsePrinted] for text that is not a number
// (it is verdict.ErrNotNumber).
var ErrNotNumber = verdict.ErrNotNumber

// ParsePrinted reads a number as printed in a paper and returns its value and
// its tolerance: half a unit in the last printed place, so that "0.25" gives
// (0.25, 0.005) and "1.2e-3" gives (0.0012, 5e-5), and 1e-9 for a bare "0"
// (a claim of zero). It accepts a sign (also the Unicode minus "−"), digits
// with an optional decimal point and exponent, and ignores surrounding space,
// "$" and the thousands separators ",", "{,}" and "\,". It returns an error
// wrapping [ErrNotNumber] for anything else (percentages included: convert
// them first). The rule is package verdict's, the one rule of the project.
func ParsePrinted(printed string) (value, half float64, err error) {
	p, err := verdict.Parse(printed)
	if err != nil {
		return 0, 0, err
	}
	return p.Value, p.Tolerance(), nil
}

// AgreeDigits reports whether ours rounds to the number printed, that is
// whether ours lies in the printed number's rounding interval
//
//	|ours − printed| ≤ ½·10^(−decimals)   (times 10^exponent, if printed has one)
//
// with both ends included, so that either tie-breaking rule is accepted; a
// bare printed "0" is a claim of zero, compared within 1e-9. It is false
// when printed is not a number (see [ParsePrinted]) or ours is NaN or
// infinite. It is verdict.Agrees.
func AgreeDigits(ours float64, printed string) bool { return verdict.Agrees(ours, printed) }

// FormatLike returns ours written with as many decimals (and the same
// exponent, if any) as printed. If printed is not a number, or ours is NaN or
// infinite, it returns [FormatNumber](ours, 0).
func FormatLike(ours float64, printed string) string {
	if _, err := verdict.Parse(printed); err != nil || math.IsNaN(ours) || math.IsInf(ours, 0) {
		return FormatNumber(ours, 0)
	}
	return verdict.FormatLike(ours, printed)
}

// AgreementHTML returns rows as an HTML table headed by title and a summary
// ("12 of 14 agree"), each row marked ✓ or ✗.
func AgreementHTML(title string, rows []Row) string {
	agree, total := CountAgreement(rows)
	color := "#1a7f37"
	if agree < total {
		color = "#cf222e"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="pomdpq-agreement"><div style="font-weight:bold">%s: <span style="color:%s">%d of %d agree</span></div>`+"\n",
		html.EscapeString(title), color, agree, total)
	b.WriteString(`<table style="` + render.TableStyle + `"><thead><tr>`)
	for _, h := range []string{"", "key", "quantity", "ours", "paper", "kind", "note"} {
		b.WriteString(`<th style="text-align:left;padding:2px 8px;border-bottom:1px solid #888">` + h + `</th>`)
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range rows {
		mark, c := "✓", "#1a7f37"
		if !r.OK {
			mark, c = "✗", "#cf222e"
		}
		fmt.Fprintf(&b, `<tr><td style="color:%s;font-weight:bold;padding:2px 8px">%s</td>`, c, mark)
		for _, cell := range []string{r.Key, r.Quantity, r.Ours, r.Paper, string(r.Kind), r.Note} {
			b.WriteString(`<td style="padding:2px 8px">` + html.EscapeString(cell) + `</td>`)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table></div>")
	return b.String()
}

// AgreementText returns rows as an aligned plain-text table headed by title
// and the same summary as [AgreementHTML].
func AgreementText(title string, rows []Row) string {
	agree, total := CountAgreement(rows)
	table := [][]string{{"", "key", "quantity", "ours", "paper", "kind", "note"}}
	for _, r := range rows {
		mark := "✓"
		if !r.OK {
			mark = "✗"
		}
		table = append(table, []string{mark, r.Key, r.Quantity, r.Ours, r.Paper, string(r.Kind), r.Note})
	}
	return fmt.Sprintf("%s: %d of %d agree\n", title, agree, total) +
		render.AlignColumns(table, []bool{false, false, false, true, true}, 1)
}

// ShowAgreement displays rows as an agreement table (see [AgreementHTML]);
// outside a notebook it writes [AgreementText] to [Output].
func ShowAgreement(title string, rows []Row) {
	show("", bundle{html: AgreementHTML(title, rows), text: AgreementText(title, rows)})
}
