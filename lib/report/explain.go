package report

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/pomdpq/pomdpq/lib/explain"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

// WhySplits is how many depths of the drawn quotient get their largest
// split explained in "Why these classes"; WhyCards how many class cards
// the section holds (each collapsed until opened).
// WhyMaxProbes is the largest family it explains with (every probe runs
// on every explained pair; a larger family gets a note pointing to
// `pomdpq explain`, which keeps the report's time near what it was).
const (
	WhySplits    = 4
	WhyCards     = 60
	WhyMaxProbes = 1000
)

// whySection writes "Why these classes" for the drawn quotient: per depth,
// the split between its two largest classes explained through their first
// members (the probe, the distance, the sentence), and a card per class
// (members, belief, where it comes from and goes to), collapsed so that a
// quotient of hundreds of classes stays readable. It writes nothing when
// there is no quotient or its family cannot be enumerated.
func (r *Report) whySection(b *strings.Builder) {
	q := r.Quotient
	if q == nil {
		return
	}
	m := r.Model
	fam, err := r.whyFamily()
	if err != nil {
		fmt.Fprintf(b, "<h3 id=\"why\">Why these classes</h3>\n<p class=\"refused\">Not explained: %s</p>\n", esc(err.Error()))
		return
	}
	if fam.Len() > WhyMaxProbes {
		fmt.Fprintf(b, "<h3 id=\"why\">Why these classes</h3>\n<p class=\"note\">Not explained here: the family has %d probes, above %d; <code>pomdpq explain</code> explains any pair, class or step of the curve (docs/reading.md).</p>\n", fam.Len(), WhyMaxProbes)
		return
	}
	s := &explain.Setup{Model: m, Ground: r.ground, Family: fam, T: r.T, Top: 3}
	part := q.Partition
	b.WriteString("<h3 id=\"why\">Why these classes</h3>\n<p>For each depth, the two largest classes and the probe that tells them apart best (through their first members; <code>pomdpq explain</code> explains any pair, class or step of the curve, docs/reading.md).</p>\n")
	var rows [][]string
	for t := 1; t < part.Depths() && len(rows) < WhySplits; t++ {
		if part.Classes(t) < 2 {
			continue
		}
		cs := make([]int, part.Classes(t))
		for c := range cs {
			cs[c] = c
		}
		slices.SortStableFunc(cs, func(x, y int) int { return len(part.Members(t, y)) - len(part.Members(t, x)) })
		h1, h2 := q.Tree.History(t, part.Members(t, cs[0])[0]), q.Tree.History(t, part.Members(t, cs[1])[0])
		p, err := explain.ExplainPair(context.Background(), s, h1, h2)
		if err != nil {
			rows = append(rows, []string{fmt.Sprintf("%d:%d / %d:%d", t, cs[0], t, cs[1]), "", "", esc(err.Error())})
			continue
		}
		rows = append(rows, []string{fmt.Sprintf("%d:%d / %d:%d", t, cs[0], t, cs[1]), num(p.Distance), esc(p.Best.Probe), esc(p.Sentence)})
	}
	r.table(b, "Largest splits", []string{"classes", "distance", "best probe", "why"}, rows)
	cards := 0
	for t := 0; t < part.Depths() && cards < WhyCards; t++ {
		for c := 0; c < part.Classes(t) && cards < WhyCards; c++ {
			card, err := explain.ExplainClass(s, part, t, c, -1)
			cards++
			if err != nil {
				// Still a card: the diagram links to the first WhyCards.
				fmt.Fprintf(b, "<details class=\"class-card\"><summary>class %d:%d</summary>\n<div id=\"class-%d-%d\"><p class=\"refused\">%s</p></div>\n</details>\n",
					t, c, t, c, esc(err.Error()))
				continue
			}
			// The anchor is inside the collapsed part: following a
			// link to it opens the card (browsers expand a closed
			// <details> holding a fragment's target).
			histories := "histories"
			if card.Members == 1 {
				histories = "history"
			}
			fmt.Fprintf(b, "<details class=\"class-card\"><summary>class %s: %d %s, first %s</summary>\n<div id=\"class-%d-%d\"><p>",
				card.ID, card.Members, histories, esc(strings.Join(card.First, " | ")), t, c)
			for k, st := range card.Belief {
				if k > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(b, "%s %s", esc(st.State), num(st.Prob))
			}
			fmt.Fprintf(b, " (entropy %s bits; %s)</p>\n", num(card.Entropy), esc(card.ProbeNote))
			for _, nb := range []struct {
				what string
				cs   []explain.ClassCount
			}{{"comes from", card.From}, {"goes to", card.To}} {
				if len(nb.cs) == 0 {
					continue
				}
				links := make([]string, len(nb.cs))
				for k, x := range nb.cs {
					links[k] = fmt.Sprintf("%s (%d)", x.Class, x.Histories)
				}
				fmt.Fprintf(b, "<p>%s: %s</p>\n", nb.what, strings.Join(links, ", "))
			}
			b.WriteString("</div></details>\n")
		}
	}
	if n := q.Classes(); n > cards {
		fmt.Fprintf(b, "<p class=\"note\">Cards for the first %d of %d classes; <code>pomdpq explain --class t:i</code> gives any other.</p>\n", cards, n)
	}
	r.mergeSteps(b, s)
}

// whyFamily is the probe family "Why these classes" explains with.
func (r *Report) whyFamily() (fsc.Family, error) {
	m := r.Model
	return fsc.New(r.Kind, m.NumActions(), m.NumObservations(), r.QuotientM, r.T, fsc.Options{})
}

// cardLinks returns the diagram's links: per layer t, for each node that
// is class classes[t][j], the anchor of its card in "Why these classes"
// when the section writes one (the first WhyCards classes, in depth
// order, when the family is explained), else "".
func (r *Report) cardLinks(classes [][]int) [][]string {
	q := r.Quotient
	fam, err := r.whyFamily()
	if q == nil || err != nil || fam.Len() > WhyMaxProbes {
		return nil
	}
	links := make([][]string, len(classes))
	before := 0
	for t, cs := range classes {
		for _, c := range cs {
			link := ""
			if c >= 0 && before+c < WhyCards {
				link = fmt.Sprintf("#class-%d-%d", t, c)
			}
			links[t] = append(links[t], link)
		}
		before += q.Partition.Classes(t)
	}
	return links
}

// WhySteps is how many steps of the class-count curve (those that merge
// classes) "Why these classes" explains.
const WhySteps = 5

// mergeSteps writes what the first WhySteps steps of the drawn family's
// curve merged: per step its first merged classes, their realized
// diameter and the probe that comes closest to separating them.
func (r *Report) mergeSteps(b *strings.Builder, s *explain.Setup) {
	var f *Family
	for i := range r.Families {
		if r.Families[i].M == r.QuotientM && r.Families[i].res != nil {
			f = &r.Families[i]
		}
	}
	if f == nil || len(f.Curve) != len(r.Grid) {
		return
	}
	var rows [][]string
	steps := 0
	for k := 1; k < len(r.Grid) && steps < WhySteps; k++ {
		if f.Curve[k] == f.Curve[k-1] {
			continue
		}
		steps++
		res := f.res
		st, err := explain.ExplainMerges(context.Background(), s, res.Classes, res.Partition(r.Grid[k-1]), res.Partition(r.Grid[k]), r.Grid[k-1], r.Grid[k])
		if err != nil {
			rows = append(rows, []string{num(r.Grid[k-1]) + " → " + num(r.Grid[k]), "", "", "", esc(err.Error())})
			continue
		}
		for _, mg := range st.Merges {
			rows = append(rows, []string{num(st.EpsFrom) + " → " + num(st.EpsTo), esc(strings.Join(mg.Joined, " + ") + " → " + mg.Class),
				num(mg.Diameter), esc(mg.Nearest.Probe), esc("“" + mg.History1 + "”, “" + mg.History2 + "”")})
		}
	}
	if len(rows) > 0 {
		r.table(b, fmt.Sprintf("What the curve's steps merged (m ≤ %d; the first %d merges of each of the first %d steps)", f.M, s.Top, WhySteps),
			[]string{"ε step", "classes merged", "diameter", "nearest probe", "between"}, rows)
	}
}
