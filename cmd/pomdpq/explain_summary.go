package main

import (
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/explain"
)

// summary is the text output's answer in words (writeSummary wraps it at
// 100 columns): a sentence per explained pair, a few lines for a class,
// a sentence per step of the ε grid. The numbers are the JSON's.
func (a *explainArgs) summary(out *explainJSON) []string {
	var lines []string
	agent := agentWords(a.kind, a.m)
	for _, p := range out.Pairs {
		lines = append(lines, pairSummary(p, agent)...)
	}
	if out.Class != nil {
		lines = append(lines, classCardSummary(out.Class, out.Eps[0])...)
	}
	for _, st := range out.Steps {
		lines = append(lines, mergesSummary(st))
	}
	return lines
}

// pairSummary says why the two histories of p are apart, e.g. "“L L” and
// “L R” are 0.4983 apart: a one-node agent playing “always listen” sees
// “L” next with probability 0.5256 after the first and 0.1829 after the
// second", then how the runner-up compares.
func pairSummary(p pairJSON, agent string) []string {
	subject := fmt.Sprintf("“%s” and “%s”", p.History1, p.History2)
	if p.Class1 != "" {
		subject = fmt.Sprintf("classes %s and %s (first members “%s” and “%s”)", p.Class1, p.Class2, p.History1, p.History2)
	}
	inexact := p.Search != nil && !p.Search.Exact
	if p.Distance == 0 {
		if inexact {
			return []string{fmt.Sprintf("%s: the search of the %s controllers reached its node limit without finding a probe that tells them apart; %s",
				subject, p.Search.Size, searchNote(p.Search))}
		}
		if p.Search != nil {
			return []string{fmt.Sprintf("%s are not apart: the search of the %s controllers found no probe that gives them different laws of the next %d observations",
				subject, p.Search.Size, p.Suffix)}
		}
		return []string{fmt.Sprintf("%s are not apart: every probe of the %d gives them the same law of the next %d observations",
			subject, p.NumProbes, p.Suffix)}
	}
	mdiff := p.MostDifferent
	apart := "are"
	if inexact {
		apart = "are at least"
	}
	lines := []string{fmt.Sprintf("%s %s %.4g apart: %s playing “%s” sees “%s” next with probability %.4g after the first and %.4g after the second",
		subject, apart, p.Distance, agent, p.Best.Probe, mdiff.Words, mdiff.P1, mdiff.P2)}
	if p.Search != nil {
		lines = append(lines, searchNote(p.Search))
	} else if len(p.Probes) > 1 {
		next := p.Probes[1]
		apart := fmt.Sprintf("%.4g apart", next.Distance)
		if next.Bounded {
			apart = fmt.Sprintf("between %.4g and %.4g apart", next.Distance, next.Upper)
		}
		lines = append(lines, fmt.Sprintf("%d probes compared; the runner-up, “%s”, sees them %s", p.NumProbes, next.Probe, apart))
	}
	return lines
}

// classCardSummary says what class c is: its size and first member, the
// states it most likely means, and the rewards of the actions there.
func classCardSummary(c *explain.Class, eps float64) []string {
	first := ""
	if len(c.First) > 0 {
		first = fmt.Sprintf(", e.g. “%s”", c.First[0])
	}
	lines := []string{fmt.Sprintf("class %s of the ε = %g quotient: %d depth-%d %s%s",
		c.ID, eps, c.Members, c.Depth, plural(c.Members, "history", "histories"), first)}
	var states []string
	for _, b := range c.Belief[:min(len(c.Belief), 3)] {
		states = append(states, fmt.Sprintf("%s %.2g", b.State, b.Prob))
	}
	if len(states) > 0 {
		lines = append(lines, fmt.Sprintf("an agent playing “%s” is then most likely in %s (entropy %.2g bits)",
			c.Probe.Probe, strings.Join(states, ", "), c.Entropy))
	}
	if len(c.Rewards) > 0 {
		parts := make([]string, len(c.Rewards))
		for k, r := range c.Rewards {
			parts[k] = fmt.Sprintf("%s %.4g", r.Action, r.Reward)
		}
		lines = append(lines, "expected immediate reward: "+strings.Join(parts, ", "))
	}
	return lines
}

// mergesSummary says what one step of the ε grid merged and which merged
// class came closest to staying apart.
func mergesSummary(st *explain.Merges) string {
	head := fmt.Sprintf("ε = %g → %g: %s → %s classes", st.EpsFrom, st.EpsTo, thousands(st.ClassesFrom), thousands(st.ClassesTo))
	if st.Count == 0 || len(st.Merges) == 0 {
		return head + ", no class merged"
	}
	widest := st.Merges[0]
	for _, mg := range st.Merges[1:] {
		if mg.Diameter > widest.Diameter {
			widest = mg
		}
	}
	bound := ""
	if !widest.Exact {
		bound = "≥ "
	}
	return fmt.Sprintf("%s, %s merged %s; the widest shown, %s, has members %s%.4g apart under “%s”",
		head, thousands(st.Count), plural(st.Count, "class", "classes"), strings.Join(widest.Joined, " + "), bound, widest.Diameter, widest.Nearest.Probe)
}
