package nb

import (
	"fmt"
	"html"
	"sort"
	"strings"

	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// QuotientGraph returns the diagram of a quotient (like the paper's
// fig:tiger-quotient): one layer per depth, one node per class labelled by
// its members, and an arrow from class c to its successor under each
// observation z, arrows to the same class merged with their labels joined.
func QuotientGraph(q *quotient.Quotient, title string) *LayeredGraph {
	g := &LayeredGraph{Title: title}
	for t := 0; t <= q.T; t++ {
		var layer []string
		for c := 0; c < q.Partition.Classes(t); c++ {
			layer = append(layer, q.ClassLabel(t, c))
		}
		g.Layers = append(g.Layers, layer)
		g.LayerTitles = append(g.LayerTitles, fmt.Sprintf("t = %d", t))
	}
	obs := q.M.Observations
	for t := 0; t < q.T; t++ {
		for c, succ := range q.Next[t] {
			labels := map[int][]string{}
			for z, c2 := range succ {
				labels[c2] = append(labels[c2], obs[z])
			}
			var targets []int
			for c2 := range labels {
				targets = append(targets, c2)
			}
			sort.Ints(targets)
			for _, c2 := range targets {
				g.Edges = append(g.Edges, Edge{From: [2]int{t, c}, To: [2]int{t + 1, c2}, Label: strings.Join(labels[c2], ",")})
			}
		}
	}
	return g
}

// ShowQuotient draws the quotient's diagram and prints its class counts.
func ShowQuotient(q *quotient.Quotient, title string) error {
	if title == "" {
		title = fmt.Sprintf("quotient of %s: %d classes", q.M.Name, q.Classes())
	}
	return ShowGraph(QuotientGraph(q, title))
}

// PartitionText lists a partition's classes per depth with history labels.
func PartitionText(p *partition.Partition, label func(t, i int) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d classes (per depth %v)\n", p.Total(), p.Counts())
	for t := 0; t < p.Depths(); t++ {
		fmt.Fprintf(&b, "t=%d:", t)
		for c := 0; c < p.Classes(t); c++ {
			var names []string
			for k, i := range p.Members(t, c) {
				if k == 6 {
					names = append(names, "…")
					break
				}
				names = append(names, label(t, i))
			}
			fmt.Fprintf(&b, " {%s}", strings.Join(names, ","))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// ShowPartition displays a partition: its class count per depth and its
// classes (at most six members shown per class).
func ShowPartition(p *partition.Partition, label func(t, i int) string) {
	text := PartitionText(p, label)
	if !IsNotebook() {
		fmt.Fprint(output(), text)
		return
	}
	HTML("<pre>" + html.EscapeString(text) + "</pre>")
}
