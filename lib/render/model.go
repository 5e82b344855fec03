package render

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// TimeExpandedGraph draws the reachable part of model m over T steps: layer
// t holds the states of positive probability at time t. A state that always
// emits the same observation on arrival shows it as "name [o]"; an edge
// s → s' is labelled by the actions that lead there (none when every action
// does), followed by "/o" for emissions that are not shown on the node.
// States are ordered by the mean position of their predecessors. It returns
// an error if T is negative.
func TimeExpandedGraph(m *pomdp.Model, T int, title string) (*LayeredGraph, error) {
	if T < 0 {
		return nil, fmt.Errorf("render: time-expanded graph of %s: horizon %d, want T ≥ 0", m.Name, T)
	}
	emits := sureEmissions(m)
	g := &LayeredGraph{Title: title}
	var layer []int
	for s, p := range m.B0 {
		if p > 0 {
			layer = append(layer, s)
		}
	}
	for t := 0; ; t++ {
		names := make([]string, len(layer))
		for i, s := range layer {
			names[i] = m.States[s]
			if t > 0 && emits[s] >= 0 {
				names[i] += " [" + m.Observations[emits[s]] + "]"
			}
		}
		g.Layers = append(g.Layers, names)
		g.LayerTitles = append(g.LayerTitles, fmt.Sprintf("t = %d", t))
		if t == T {
			return g, nil
		}
		layer = expandLayer(g, m, t, layer, emits)
	}
}

// sureEmissions returns, for every state, the observation it emits on
// arrival under every action with probability 1, or −1.
func sureEmissions(m *pomdp.Model) []int {
	nA, nO := m.NumActions(), m.NumObservations()
	emits := make([]int, m.NumStates())
	for s := range emits {
		emits[s] = -1
		for o := 0; o < nO; o++ {
			sure := true
			for a := 0; a < nA; a++ {
				sure = sure && m.ObsProb(s, a, o) == 1
			}
			if sure {
				emits[s] = o
			}
		}
	}
	return emits
}

// stepEdge is a transition of a time-expanded graph: from the index of a
// state in its layer to a state, with the observation shown on the edge
// (−1: none, the successor shows it).
type stepEdge struct{ from, to, obs int }

// expandLayer adds to g the edges from layer (the states at time t) to the
// states reachable in one step, and returns those states ordered by the
// mean position of their predecessors (ties by index).
func expandLayer(g *LayeredGraph, m *pomdp.Model, t int, layer []int, emits []int) []int {
	nA, nO := m.NumActions(), m.NumObservations()
	acts := map[stepEdge][]string{}
	var edges []stepEdge
	pos := map[int][]float64{} // successor → positions of its predecessors
	for i, s := range layer {
		for a := 0; a < nA; a++ {
			for s2 := 0; s2 < m.NumStates(); s2++ {
				if m.TransitionProb(s, a, s2) == 0 {
					continue
				}
				pos[s2] = append(pos[s2], float64(i))
				for o := 0; o < nO; o++ {
					if m.ObsProb(s2, a, o) == 0 {
						continue
					}
					if emits[s2] >= 0 {
						o = -1 // shown on the node
					}
					e := stepEdge{i, s2, o}
					if acts[e] == nil {
						edges = append(edges, e)
					}
					acts[e] = append(acts[e], m.Actions[a])
					if o < 0 {
						break
					}
				}
			}
		}
	}
	next := orderByPredecessors(pos)
	idx := map[int]int{}
	for j, s2 := range next {
		idx[s2] = j
	}
	for _, e := range edges {
		label := strings.Join(acts[e], ",")
		if len(acts[e]) == nA {
			label = ""
		}
		if e.obs >= 0 {
			label += "/" + m.Observations[e.obs]
		}
		g.Edges = append(g.Edges, Edge{From: [2]int{t, e.from}, To: [2]int{t + 1, idx[e.to]}, Label: label})
	}
	return next
}

// orderByPredecessors returns the keys of pos (states) ordered by the mean
// of their predecessors' positions, ties by state index.
func orderByPredecessors(pos map[int][]float64) []int {
	var next []int
	for s2 := range pos {
		next = append(next, s2)
	}
	mean := func(s2 int) float64 {
		sum := 0.0
		for _, x := range pos[s2] {
			sum += x
		}
		return sum / float64(len(pos[s2]))
	}
	sort.Slice(next, func(i, j int) bool {
		if mi, mj := mean(next[i]), mean(next[j]); mi != mj {
			return mi < mj
		}
		return next[i] < next[j]
	})
	return next
}
