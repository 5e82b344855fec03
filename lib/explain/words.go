package explain

import (
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/value"
)

// ProbeWords renders controller c of model m for horizon T in words:
// "always listen" for a constant one-node controller, "listen, then
// open-left" for an open-loop one, and per node its action and where each
// observation sends it for a deterministic controller with several nodes
// ("node 0: listen; hear-left → node 1, else stay | node 1: …").
// Stochastic controllers keep c.String().
func ProbeWords(m *pomdp.Model, c *fsc.FSC, T int) string {
	if !c.Deterministic() {
		return c.String()
	}
	act := func(tau, n int) string { return name(m.Actions, c.Action(tau, n)) }
	if c.Nodes == 1 {
		if !c.Clock() {
			return "always " + act(0, 0)
		}
		parts := make([]string, T)
		for tau := range parts {
			parts[tau] = act(tau, 0)
		}
		return strings.Join(parts, ", then ")
	}
	stages := 1
	if c.Clock() {
		stages = T
	}
	var out []string
	for tau := 0; tau < stages; tau++ {
		var nodes []string
		for n := 0; n < c.Nodes; n++ {
			s := fmt.Sprintf("node %d: %s", n, act(tau, n))
			if !c.Clock() || tau < T-1 {
				s += "; " + transitions(m, c, tau, n)
			}
			nodes = append(nodes, s)
		}
		line := strings.Join(nodes, " | ")
		if c.Clock() {
			line = fmt.Sprintf("stage %d: %s", tau+1, line)
		}
		out = append(out, line)
	}
	return strings.Join(out, " || ")
}

// transitions says where node n goes after each observation at stage tau,
// grouping the observations that keep it in place.
func transitions(m *pomdp.Model, c *fsc.FSC, tau, n int) string {
	var moves []string
	for o := 0; o < c.NumObs; o++ {
		if n2 := c.NextNode(tau, n, o); n2 != n {
			moves = append(moves, fmt.Sprintf("%s → node %d", name(m.Observations, o), n2))
		}
	}
	if len(moves) == 0 {
		return "stay"
	}
	if len(moves) == c.NumObs {
		return strings.Join(moves, ", ")
	}
	return strings.Join(moves, ", ") + ", else stay"
}

// ProbeShort renders c as `plan` prints policies ("L L OL" for an
// open-loop controller, c.String() otherwise).
func ProbeShort(m *pomdp.Model, c *fsc.FSC, T int) string { return value.Policy(m, c, T) }

// SeqWords returns the observation names of sequence x ∈ O^k (base-|O|
// index, o_1 most significant) separated by spaces; "(nothing)" for k = 0.
func SeqWords(m *pomdp.Model, x, k int) string {
	if k == 0 {
		return "(nothing)"
	}
	return strings.Join(obsNames(m, digits(x, m.NumObservations(), k)), " ")
}

// HistoryWords returns the observation names of h separated by spaces,
// "ε" for the empty history.
func HistoryWords(m *pomdp.Model, h []int) string {
	if len(h) == 0 {
		return "ε"
	}
	return strings.Join(obsNames(m, h), " ")
}

func obsNames(m *pomdp.Model, h []int) []string {
	out := make([]string, len(h))
	for i, o := range h {
		out[i] = name(m.Observations, o)
	}
	return out
}

func name(names []string, i int) string {
	if i >= 0 && i < len(names) && names[i] != "" {
		return names[i]
	}
	return fmt.Sprint(i)
}

func digits(x, base, k int) []int {
	d := make([]int, k)
	for i := k - 1; i >= 0; i-- {
		d[i] = x % base
		x /= base
	}
	return d
}

// ParseHistory reads a history written as observation names separated by
// spaces ("hear-left hear-left"; "ε" or the empty string for the empty
// history). Observation indices are accepted too. An unknown name is an
// error listing the valid ones.
func ParseHistory(m *pomdp.Model, s string) ([]int, error) {
	fields := strings.Fields(s)
	if len(fields) == 1 && (fields[0] == "ε" || fields[0] == "eps") {
		return nil, nil
	}
	h := make([]int, 0, len(fields))
	for k, f := range fields {
		o := -1
		for i, n := range m.Observations {
			if n == f {
				o = i
				break
			}
		}
		if o < 0 {
			var i int
			if _, err := fmt.Sscan(f, &i); err == nil && fmt.Sprint(i) == f && i >= 0 && i < m.NumObservations() {
				o = i
			}
		}
		if o < 0 && m.ActionIndex(f) >= 0 {
			return nil, fmt.Errorf("history %q, word %d: %q is an action of %s; histories are observation sequences (the probe chooses the actions); valid observations: %s",
				s, k+1, f, m.Name, strings.Join(m.Observations, ", "))
		}
		if o < 0 {
			return nil, fmt.Errorf("history %q, word %d: %q is not an observation of %s; valid: %s",
				s, k+1, f, m.Name, strings.Join(m.Observations, ", "))
		}
		h = append(h, o)
	}
	return h, nil
}
