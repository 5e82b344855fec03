package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/render"
)

// Diagram returns the quotient's diagram, readable at any size: the layers
// (depths) are columns from left to right, so that a deep or wide quotient
// grows downwards instead of sideways; a depth with more than perDepth
// classes shows its perDepth − 1 largest classes and one node "+ k more
// classes (n histories)" standing for the rest; arrows between the same
// two nodes are merged, labelled by their observations (or by their count
// when there are more than three). It reports whether a depth was
// collapsed (ClassTable then lists every class).
func Diagram(q *quotient.Quotient, title string, perDepth int) (*render.LayeredGraph, bool) {
	g, collapsed, _ := diagram(q, title, perDepth)
	return g, collapsed
}

// diagram is Diagram; it also returns, per layer, the class of each node
// (−1 for the node standing for the rest).
func diagram(q *quotient.Quotient, title string, perDepth int) (*render.LayeredGraph, bool, [][]int) {
	g := &render.LayeredGraph{Title: title, LeftToRight: true}
	classes := make([][]int, q.T+1)
	p := q.Partition
	collapsed := false
	for t := 0; t <= q.T; t++ {
		collapsed = collapsed || p.Classes(t) > perDepth
	}
	// node[t][c] is the node of class c at depth t.
	node := make([][]int, q.T+1)
	for t := 0; t <= q.T; t++ {
		n := p.Classes(t)
		node[t] = make([]int, n)
		order := make([]int, n)
		for c := range order {
			order[c] = c
		}
		keep := n
		if n > perDepth {
			keep = perDepth - 1
			// The largest classes first (ties: in class order).
			slices.SortStableFunc(order, func(a, b int) int { return len(p.Members(t, b)) - len(p.Members(t, a)) })
		}
		var layer []string
		rest, restHist := 0, 0
		for k, c := range order {
			if k < keep {
				node[t][c] = len(layer)
				label := q.ClassLabel(t, c)
				if collapsed {
					label = shortLabel(q, t, c)
				}
				layer = append(layer, label)
				classes[t] = append(classes[t], c)
				continue
			}
			node[t][c] = keep
			rest++
			restHist += len(p.Members(t, c))
		}
		if rest > 0 {
			layer = append(layer, fmt.Sprintf("+ %d more classes (%d histories)", rest, restHist))
			classes[t] = append(classes[t], -1)
		}
		g.Layers = append(g.Layers, layer)
		g.LayerTitles = append(g.LayerTitles, fmt.Sprintf("t = %d (%d)", t, n))
	}
	obs := q.M.Observations
	for t := 0; t < q.T; t++ {
		type arrow struct{ from, to int }
		labels := map[arrow][]string{}
		var order []arrow
		for c, succ := range q.Next[t] {
			for z, c2 := range succ {
				a := arrow{node[t][c], node[t+1][c2]}
				if _, ok := labels[a]; !ok {
					order = append(order, a)
				}
				if !slices.Contains(labels[a], obs[z]) {
					labels[a] = append(labels[a], obs[z])
				}
			}
		}
		slices.SortFunc(order, func(a, b arrow) int {
			if a.from != b.from {
				return a.from - b.from
			}
			return a.to - b.to
		})
		for _, a := range order {
			l := labels[a]
			label := strings.Join(l, ",")
			if len(l) > 3 {
				label = fmt.Sprintf("%d obs.", len(l))
			}
			g.Edges = append(g.Edges, render.Edge{From: [2]int{t, a.from}, To: [2]int{t + 1, a.to}, Label: label})
		}
	}
	return g, collapsed, classes
}

// ClassTable lists the quotient's classes, depth by depth, up to limit
// rows: the class, its number of histories, up to three members, and its
// successor class per observation (shown when at most eight observations,
// otherwise the number of distinct successor classes, or "all → c" when
// every observation leads to class c).
func ClassTable(q *quotient.Quotient, limit int) (header []string, rows [][]string, more int) {
	p := q.Partition
	header = []string{"depth", "class", "histories", "members", "successors"}
	for t := 0; t <= q.T; t++ {
		for c := 0; c < p.Classes(t); c++ {
			if len(rows) == limit {
				more++
				continue
			}
			mem := p.Members(t, c)
			var names []string
			for k, i := range mem {
				if k == 3 {
					names = append(names, "…")
					break
				}
				names = append(names, q.Tree.Label(q.M.Observations, t, i))
			}
			succ := "—"
			if t < q.T {
				next := q.Next[t][c]
				if len(next) <= 8 {
					var s []string
					for z, c2 := range next {
						s = append(s, fmt.Sprintf("%s→%d", q.M.Observations[z], c2))
					}
					succ = strings.Join(s, " ")
				} else {
					distinct := map[int]bool{}
					last := 0
					for _, c2 := range next {
						distinct[c2], last = true, c2
					}
					succ = fmt.Sprintf("%d classes", len(distinct))
					if len(distinct) == 1 {
						succ = fmt.Sprintf("all → %d", last)
					}
				}
			}
			rows = append(rows, []string{itoa(t), itoa(c), itoa(len(mem)), strings.Join(names, ", "), succ})
		}
	}
	return header, rows, more
}

// shortLabel names class c of depth t by its index, its first member and
// its size, e.g. "3: {L,R} +4": the labels of a large diagram stay short.
func shortLabel(q *quotient.Quotient, t, c int) string {
	mem := q.Partition.Members(t, c)
	s := fmt.Sprintf("%d: {%s}", c, q.Tree.Label(q.M.Observations, t, mem[0]))
	if len(mem) > 1 {
		s += fmt.Sprintf(" +%d", len(mem)-1)
	}
	return s
}
