package nb

import (
	"context"
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/explain"
)

// ExplainHistories explains why histories h1 and h2 (observation names
// separated by spaces, as the model names them) are apart under the
// setup's family (explain.ExplainPair), shows the explanation
// (ExplainPair) and returns it.
func ExplainHistories(s *explain.Setup, h1, h2 string) (*explain.Pair, error) {
	var hs [2][]int
	for k, h := range []string{h1, h2} {
		x, err := explain.ParseHistory(s.Model, h)
		if err != nil {
			return nil, err
		}
		hs[k] = x
	}
	p, err := explain.ExplainPair(context.Background(), s, hs[0], hs[1])
	if err != nil {
		return nil, err
	}
	ExplainPair(p)
	return p, nil
}

// ExplainPair shows an explained pair: the sentence, the probes ranked by
// distance, the two suffix laws under the best probe and the largest moves
// of the optimal transport plan, as Markdown tables (their source outside
// a notebook).
func ExplainPair(p *explain.Pair) {
	var b strings.Builder
	fmt.Fprintf(&b, "**“%s” vs “%s”** (depth %d): distance **%.6g**, by probe #%d, *%s*.\n\n%s\n\n",
		p.History1, p.History2, p.Depth, p.Distance, p.Best.Index, p.Best.Probe, p.Sentence)
	fmt.Fprintf(&b, "| probe | distance |\n|---|---:|\n")
	for _, q := range p.Probes {
		fmt.Fprintf(&b, "| #%d %s | %s |\n", q.Index, explainCell(q.Probe), distanceCell(q))
	}
	fmt.Fprintf(&b, "\nNext %d observations under probe #%d (shown: %.4g and %.4g of the mass):\n\n| sequence | after “%s” | after “%s” |\n|---|---:|---:|\n",
		p.Suffix, p.Best.Index, p.Shown1, p.Shown2, p.History1, p.History2)
	for _, x := range p.Laws {
		fmt.Fprintf(&b, "| %s | %.6g | %.6g |\n", x.Words, x.P1, x.P2)
	}
	fmt.Fprintf(&b, "\nOptimal transport plan, largest moves (the whole plan costs %.6g, the distance):\n\n| mass | from | to | cost |\n|---:|---|---|---:|\n", p.MovesTotal)
	for _, mv := range p.Moves {
		fmt.Fprintf(&b, "| %.6g | %s | %s | %.4g |\n", mv.Mass, mv.From, mv.To, mv.Cost)
	}
	Markdown(b.String())
}

// ExplainClass shows a class card (explain.ExplainClass): members, class
// belief and its entropy, the probe it depends on, the neighbouring
// classes and the expected immediate rewards.
func ExplainClass(c *explain.Class) {
	var b strings.Builder
	fmt.Fprintf(&b, "**Class %s**: %d histories of depth %d, first %s.\n\n", c.ID, c.Members, c.Depth, strings.Join(quoteAll(c.First), ", "))
	fmt.Fprintf(&b, "Belief (entropy %.4g bits; %s):\n\n| state | probability |\n|---|---:|\n", c.Entropy, c.ProbeNote)
	for _, s := range c.Belief {
		fmt.Fprintf(&b, "| %s | %.4g |\n", s.State, s.Prob)
	}
	for _, nb := range []struct {
		what string
		cs   []explain.ClassCount
	}{{"Comes from", c.From}, {"Goes to", c.To}} {
		if len(nb.cs) == 0 {
			continue
		}
		parts := make([]string, len(nb.cs))
		for k, x := range nb.cs {
			parts[k] = fmt.Sprintf("%s (%d)", x.Class, x.Histories)
		}
		fmt.Fprintf(&b, "\n%s: %s.\n", nb.what, strings.Join(parts, ", "))
	}
	if len(c.Rewards) > 0 {
		parts := make([]string, len(c.Rewards))
		for k, r := range c.Rewards {
			parts[k] = fmt.Sprintf("%s %.4g", r.Action, r.Reward)
		}
		fmt.Fprintf(&b, "\nExpected immediate reward: %s.\n", strings.Join(parts, ", "))
	}
	Markdown(b.String())
}

// ExplainMerges shows what a step of the class-count curve merged
// (explain.ExplainMerges): each merged class, the classes it joins, its
// realized diameter and the probe that comes closest to separating it.
func ExplainMerges(m *explain.Merges) {
	var b strings.Builder
	fmt.Fprintf(&b, "**ε = %g → %g**: %d → %d classes, %d merged classes", m.EpsFrom, m.EpsTo, m.ClassesFrom, m.ClassesTo, m.Count)
	if len(m.Merges) < m.Count {
		fmt.Fprintf(&b, " (first %d shown)", len(m.Merges))
	}
	fmt.Fprintf(&b, ".\n\n| merged | joins | histories | diameter | between | nearest probe |\n|---|---|---:|---:|---|---|\n")
	for _, mg := range m.Merges {
		bound := ""
		if !mg.Exact {
			bound = "≥ "
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s%.4g | “%s”, “%s” | #%d %s |\n",
			mg.Class, strings.Join(mg.Joined, " + "), mg.Members, bound, mg.Diameter, mg.History1, mg.History2, mg.Nearest.Index, explainCell(mg.Nearest.Probe))
	}
	Markdown(b.String())
}

// distanceCell writes a probe's distance: exact, or, for a probe whose
// transport problem was only bounded (explain.ProbeDistance.Bounded), its
// lower and upper bounds as the CLI writes them.
func distanceCell(q explain.ProbeDistance) string {
	if q.Bounded {
		return fmt.Sprintf("≥ %.6g (≤ %.6g)", q.Distance, q.Upper)
	}
	return fmt.Sprintf("%.6g", q.Distance)
}

// explainCell escapes the pipes of a Markdown table cell (probes with several
// nodes are written with them).
func explainCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = "“" + x + "”"
	}
	return out
}
