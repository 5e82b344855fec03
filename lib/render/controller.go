package render

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pomdpq/pomdpq/lib/fsc"
)

// ControllerGraph returns the diagram of deterministic controller c
// started in node start, unrolled over stages 0 … T−1: one layer per stage
// with the nodes reachable there (breadth first), each labelled "node:
// action", and an arrow per successor labelled by the observations that
// lead to it. Successors a policy graph leaves undefined (negative next
// nodes, "-" in a .pg file) are not drawn. actions and observations name
// the indices (nil: the indices themselves). It returns an error if c is
// stochastic or start is not a node.
func ControllerGraph(c *fsc.FSC, start, T int, actions, observations []string, title string) (*LayeredGraph, error) {
	if !c.Deterministic() {
		return nil, fmt.Errorf("render: controller graph %q: the controller is stochastic; only a deterministic one unrolls into a graph", title)
	}
	if start < 0 || start >= c.Nodes {
		return nil, fmt.Errorf("render: controller graph %q: start node %d out of range (%d nodes)", title, start, c.Nodes)
	}
	name := func(list []string, i int) string {
		if i < len(list) {
			return list[i]
		}
		return fmt.Sprint(i)
	}
	g := &LayeredGraph{Title: title}
	level := []int{start}
	for tau := 0; tau < T && len(level) > 0; tau++ {
		var labels []string
		for _, n := range level {
			labels = append(labels, fmt.Sprintf("%d: %s", n, name(actions, c.Action(tau, n))))
		}
		g.Layers = append(g.Layers, labels)
		g.LayerTitles = append(g.LayerTitles, fmt.Sprintf("τ = %d", tau))
		if tau == T-1 {
			break
		}
		pos := map[int]int{}
		var next []int
		for i, n := range level {
			byTarget := map[int][]string{}
			for o := 0; o < c.NumObs; o++ {
				n2 := c.NextNode(tau, n, o)
				if n2 < 0 {
					continue
				}
				if _, ok := pos[n2]; !ok {
					pos[n2] = len(next)
					next = append(next, n2)
				}
				byTarget[pos[n2]] = append(byTarget[pos[n2]], name(observations, o))
			}
			var targets []int
			for j := range byTarget {
				targets = append(targets, j)
			}
			sort.Ints(targets)
			for _, j := range targets {
				g.Edges = append(g.Edges, Edge{From: [2]int{tau, i}, To: [2]int{tau + 1, j}, Label: strings.Join(byTarget[j], ",")})
			}
		}
		level = next
	}
	return g, nil
}
