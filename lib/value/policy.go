package value

import (
	"strings"
	"unicode"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Abbrev returns short action labels for policy strings: the first letter
// of every word of a name, words separated by '_', '-' or spaces,
// uppercased. This gives the paper's labels: Tiger listen → L,
// open_left → OL, open_right → OR; GridWorld up → U, down → D, left → L,
// right → R, stay → S; probe_3 → P3. Names whose abbreviation would
// collide with another name's, or that have no letters or digits, keep
// their full name. Cost O(total name length + |A|²).
func Abbrev(names []string) []string {
	out := make([]string, len(names))
	for i, name := range names {
		var b strings.Builder
		for _, w := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' || unicode.IsSpace(r) }) {
			for _, r := range w {
				b.WriteRune(unicode.ToUpper(r))
				break
			}
		}
		out[i] = b.String()
		if out[i] == "" {
			out[i] = name
		}
	}
	clash := make([]bool, len(names))
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[i] == out[j] {
				clash[i], clash[j] = true, true
			}
		}
	}
	for i := range out {
		if clash[i] {
			out[i] = names[i]
		}
	}
	return out
}

// Policy renders controller c for model m as the paper prints policies:
// for an open-loop (one-node, deterministic) controller, the abbreviated
// actions of stages 0 … T−1 separated by spaces ("L L OL"); for any other
// controller, c.String().
func Policy(m *pomdp.Model, c *fsc.FSC, T int) string {
	return c.ActionString(Abbrev(m.Actions), T)
}
