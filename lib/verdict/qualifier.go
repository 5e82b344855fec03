package verdict

import (
	"fmt"
	"strconv"
	"strings"
)

// Qualifier is how the paper qualifies a printed cell (datasets/paper/README.md).
type Qualifier string

// The qualifiers of printed cells.
const (
	Plain  Qualifier = ""       // a number printed as is
	Approx Qualifier = "approx" // printed with ∼ or ≈
	Less   Qualifier = "lt"     // printed as <x: a strict upper bound
	Star   Qualifier = "star"   // printed as ∗: no number
)

// ParseQualifiers parses a paper row's qualifiers cell ("col:kind;col:kind").
func ParseQualifiers(cell string) (map[string]Qualifier, error) {
	out := map[string]Qualifier{}
	for _, q := range strings.Split(cell, ";") {
		q = strings.TrimSpace(q)
		if q == "" {
			continue
		}
		col, kind, ok := strings.Cut(q, ":")
		k := Qualifier(kind)
		if !ok || (k != Approx && k != Less && k != Star) {
			return nil, fmt.Errorf("qualifier %q: want column:approx, column:lt or column:star", q)
		}
		out[col] = k
	}
	return out, nil
}

// ColumnPlaces returns the precision of a printed column: the largest
// Places of the numbers among cells (0 when none is a number). A cell
// printed ≈ is compared at its column's precision.
func ColumnPlaces(cells []string) int {
	places, any := 0, false
	for _, c := range cells {
		if p, err := Parse(c); err == nil {
			if !any || p.Places() > places {
				places = p.Places()
			}
			any = true
		}
	}
	return places
}

// Check compares a cell of ours with a printed cell under its qualifier.
// A plain cell is compared by AgreesText (half a unit of its last digit; a
// bare 0 as exactly zero); an ≈ cell within half a unit of the column's
// printed precision colPlaces (0.005 for "≈0" in a column printed at two
// decimals), never at the integer precision of its own digits; a < cell
// as a strict upper bound. For qualified cells how says which tolerance or
// bound was used.
func Check(ours, printed string, q Qualifier, colPlaces int) (ok bool, how string) {
	p := strings.TrimSpace(printed)
	switch q {
	case Approx:
		pn, err := Parse(p)
		if err != nil {
			return false, "≈" + p + " is not a number"
		}
		tol := HalfUnit(max(colPlaces, pn.Places()))
		o, err := Parse(ours)
		ok = err == nil && Within(o.Value, pn.Value, tol)
		return ok, fmt.Sprintf("≈%s compared within %s", p, strconv.FormatFloat(tol, 'g', -1, 64))
	case Less:
		pn, errP := Parse(p)
		o, errO := Parse(ours)
		return errP == nil && errO == nil && o.Value < pn.Value, "<" + p + " compared as a strict bound"
	}
	return AgreesText(ours, p), ""
}

// CheckValue is Check for a computed value of ours (a reading's value).
func CheckValue(v float64, printed string, q Qualifier, colPlaces int) bool {
	ok, _ := Check(strconv.FormatFloat(v, 'g', -1, 64), printed, q, colPlaces)
	return ok
}
