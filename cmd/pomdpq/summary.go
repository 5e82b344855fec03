package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// summaryWidth is the widest line of a summary, in characters.
const summaryWidth = 100

// verboseHint ends a text output printed without --verbose.
const verboseHint = "(--verbose: the full report)"

// writeSummary writes a command's answer in words, first in its text
// output: each line wrapped at summaryWidth characters (continuations
// indented by two spaces). quotient, plan, evaluate and explain start
// with it.
func writeSummary(w io.Writer, lines ...string) {
	for _, l := range lines {
		for _, part := range wrap(l, summaryWidth) {
			fmt.Fprintln(w, part)
		}
	}
}

// wrap breaks s at spaces into lines of at most width characters; the
// lines after the first are indented by two spaces. A word longer than
// width stays whole.
func wrap(s string, width int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width:
			out = append(out, line)
			line = "  " + word
		default:
			line += " " + word
		}
	}
	return append(out, line)
}

// classSummary is the answer of one ε-quotient in words: its classes, and
// how many of the histories of the deepest depth at which an agent still
// acts (T − 1) share their class with another history, i.e. cannot be
// told apart by the agents of the family within ε.
type classSummary struct {
	Eps     float64
	Classes int
	// Depth is the depth summarised (T − 1, 0 when T ≤ 1); Histories
	// counts its histories and Merged those in a class of two or more.
	Depth, Histories, Merged int
	// Agent names the family's agents, e.g. "a one-node agent".
	Agent string
}

// newClassSummary summarises partition p of the ε-quotient of a
// horizon-(len(p.Labels) − 1) tree for the agents of family kind with
// at most m nodes.
func newClassSummary(eps float64, p *partition.Partition, kind fsc.Kind, m int) classSummary {
	s := classSummary{Eps: eps, Classes: p.Total(), Agent: agentWords(kind, m)}
	if len(p.Labels) >= 2 {
		s.Depth = len(p.Labels) - 2
	}
	labels := p.Labels[s.Depth]
	size := map[int]int{}
	for _, c := range labels {
		size[c]++
	}
	s.Histories = len(labels)
	for _, c := range labels {
		if size[c] > 1 {
			s.Merged++
		}
	}
	return s
}

// String says the answer in one sentence, e.g. "at ε = 0.1, 3,517
// classes: a one-node agent cannot tell apart 2,200 of the 5,120 depth-3
// histories (43%)".
func (s classSummary) String() string {
	head := fmt.Sprintf("at ε = %g, %s %s: ", s.Eps, thousands(s.Classes), plural(s.Classes, "class", "classes"))
	switch {
	case s.Histories == 1:
		return head + fmt.Sprintf("%s has one depth-%d history to act on", s.Agent, s.Depth)
	case s.Merged == 0:
		return head + fmt.Sprintf("%s tells all %s depth-%d histories apart", s.Agent, thousands(s.Histories), s.Depth)
	}
	if s.Merged == s.Histories {
		return head + fmt.Sprintf("%s cannot tell any of the %s depth-%d histories from another", s.Agent, thousands(s.Histories), s.Depth)
	}
	return head + fmt.Sprintf("%s cannot tell apart %s of the %s depth-%d histories (%s)",
		s.Agent, thousands(s.Merged), thousands(s.Histories), s.Depth, percent(s.Merged, s.Histories))
}

// agentWords names an agent of family kind with at most m nodes.
func agentWords(kind fsc.Kind, m int) string {
	adj := ""
	switch kind {
	case fsc.KindClock:
		adj = "clock-aware "
	case fsc.KindStochasticStationary, fsc.KindStochasticClock:
		adj = "sampled stochastic "
	}
	switch {
	case m == 1:
		return "a " + adj + "one-node agent"
	case adj == "":
		return fmt.Sprintf("an agent with up to %d nodes", m)
	}
	return fmt.Sprintf("a %sagent with up to %d nodes", adj, m)
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// percent writes part/whole as a whole percentage, "<1%" or ">99%"
// rather than rounding a non-zero share to 0% or a partial one to 100%.
func percent(part, whole int) string {
	p := 100 * float64(part) / float64(whole)
	switch {
	case p > 0 && p < 1:
		return "<1%"
	case p > 99 && p < 100:
		return ">99%"
	}
	return fmt.Sprintf("%.0f%%", p)
}

// plural returns one for n = 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
