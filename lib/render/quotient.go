package render

import (
	"fmt"
	"sort"
	"strings"

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
