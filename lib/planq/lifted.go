package planq

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// Node is one node of a lifted policy: the action taken at depth Depth and
// the node reached after each observation. Class is the quotient class the
// node stands for (−1 when the node is a controller node, Ctrl ≥ 0); Obs
// the entering observation when the class alone does not fix the action
// (−1 otherwise). Depth-T nodes are absorbing: Next[z] is the node itself.
type Node struct {
	Depth  int   `json:"depth"`
	Class  int   `json:"class"`
	Obs    int   `json:"entering_observation"`
	Ctrl   int   `json:"controller_node"`
	Action int   `json:"action"`
	Next   []int `json:"next"`
}

// Lifted is a deterministic policy of horizon T on the original model,
// given as a layered policy graph: node 0 is the start, every node of
// depth t < T moves to depth t+1, depth-T nodes are absorbing (they never
// act within the horizon).
type Lifted struct {
	T          int
	NumActions int
	NumObs     int
	Nodes      []Node
	// Source says how the policy was lifted, e.g. "controller unrolled"
	// or "quotient classes".
	Source string
}

// FSC returns the lifted policy as a deterministic stationary controller
// (the policy graph), start node 0.
func (l *Lifted) FSC() *fsc.FSC {
	n := len(l.Nodes)
	c := &fsc.FSC{Nodes: n, NumActions: l.NumActions, NumObs: l.NumObs,
		Act: [][]int{make([]int, n)}, Next: [][][]int{make([][]int, n)}}
	for i, nd := range l.Nodes {
		c.Act[0][i] = nd.Action
		c.Next[0][i] = append([]int(nil), nd.Next...)
	}
	return c
}

// MaxWidth returns the largest number of nodes at one depth below T: the
// lifted policy is a clock-aware controller with that many nodes.
func (l *Lifted) MaxWidth() int {
	w := make([]int, l.T+1)
	for _, nd := range l.Nodes {
		w[nd.Depth]++
	}
	out := 0
	for t := 0; t < l.T; t++ {
		out = max(out, w[t])
	}
	return out
}

// WritePG writes the lifted policy as a pomdp-solve policy graph, with a
// leading comment naming the start node and the horizon, which
// `pomdpq evaluate` honours (pomdp-solve readers skip '#' lines).
func (l *Lifted) WritePG(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# pomdpq lifted policy: start node 0, horizon %d (%s); nodes are %s, depth-%d nodes absorbing\n", l.T, l.Source, l.nodeKind(), l.T)
	for i, nd := range l.Nodes {
		fmt.Fprintf(&b, "%d %d  ", i, nd.Action)
		for _, n2 := range nd.Next {
			fmt.Fprintf(&b, "%d ", n2)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// nodeKind says what the nodes stand for: (depth, controller node) for an
// unrolled controller, (depth, class) for a policy lifted through classes.
func (l *Lifted) nodeKind() string {
	for _, nd := range l.Nodes {
		if nd.Ctrl >= 0 {
			return "(depth, controller node)"
		}
	}
	return "(depth, class)"
}

// liftedJSON is the JSON form of a lifted policy.
type liftedJSON struct {
	Start   int      `json:"start"`
	Horizon int      `json:"horizon"`
	Source  string   `json:"source"`
	Actions []string `json:"actions"`
	Obs     []string `json:"observations"`
	Nodes   []Node   `json:"nodes"`
}

// WriteJSON writes the lifted policy as JSON with m's action and
// observation names.
func (l *Lifted) WriteJSON(w io.Writer, m *pomdp.Model) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(liftedJSON{Start: 0, Horizon: l.T, Source: l.Source, Actions: m.Actions, Obs: m.Observations, Nodes: l.Nodes})
}

// Unroll returns deterministic controller c, started in node start, as a
// lifted policy of horizon T: nodes (depth, controller node) reachable
// from (0, start), depth-T nodes absorbing. Clock-aware controllers use
// their stage-t rules at depth t. It returns an error for a stochastic
// controller or one with fewer than T stages.
func Unroll(c *fsc.FSC, start, T int) (*Lifted, error) {
	if !c.Deterministic() {
		return nil, fmt.Errorf("planq: cannot unroll a stochastic controller")
	}
	if c.Clock() && c.Stages < T {
		return nil, fmt.Errorf("planq: controller has %d stages, horizon %d", c.Stages, T)
	}
	l := &Lifted{T: T, NumActions: c.NumActions, NumObs: c.NumObs, Source: "controller unrolled to (depth, node)"}
	ids := map[[2]int]int{}
	var add func(t, n int) int
	add = func(t, n int) int {
		if id, ok := ids[[2]int{t, n}]; ok {
			return id
		}
		id := len(l.Nodes)
		ids[[2]int{t, n}] = id
		l.Nodes = append(l.Nodes, Node{Depth: t, Class: -1, Obs: -1, Ctrl: n, Next: make([]int, c.NumObs)})
		return id
	}
	add(0, start)
	for k := 0; k < len(l.Nodes); k++ {
		nd := l.Nodes[k]
		if nd.Depth == T {
			for z := range nd.Next {
				l.Nodes[k].Next[z] = k
			}
			continue
		}
		l.Nodes[k].Action = c.Action(nd.Depth, nd.Ctrl)
		for z := 0; z < c.NumObs; z++ {
			next := add(nd.Depth+1, c.NextNode(nd.Depth, nd.Ctrl, z))
			l.Nodes[k].Next[z] = next
		}
	}
	return l, nil
}

// QState is a state of a quotient model (quotient.Quotient.Export,
// ForProbe): class C at depth T entered by observation Z (−1 at the root).
type QState struct{ T, C, Z int }

// QStates returns the states of q's quotient models in their order (the
// order of quotient.Export and ForProbe: the root, then successors
// breadth first) and the index of each.
func QStates(q *quotient.Quotient) ([]QState, map[QState]int) {
	ids := map[QState]int{}
	var states []QState
	add := func(s QState) {
		if _, ok := ids[s]; !ok {
			ids[s] = len(states)
			states = append(states, s)
		}
	}
	add(QState{0, 0, -1})
	nO := q.M.NumObservations()
	for k := 0; k < len(states); k++ {
		s := states[k]
		if s.T == q.T {
			continue
		}
		for z := 0; z < nO; z++ {
			add(QState{s.T + 1, q.Next[s.T][s.C][z], z})
		}
	}
	return states, ids
}

// LiftStates lifts a policy of quotient states to the original: act(k)
// is the action at quotient state k (QStates order, depth < T). The
// nodes are (depth, class), split by entering observation only where the
// policy's action differs between the states of one class.
func LiftStates(q *quotient.Quotient, act func(k int) int) *Lifted {
	states, ids := QStates(q)
	nO := q.M.NumObservations()
	type key struct{ t, c, z int }
	// One node per (depth, class) unless the actions disagree.
	split := map[[2]int]bool{}
	first := map[[2]int]int{}
	for k, s := range states {
		if s.T == q.T {
			continue
		}
		tc := [2]int{s.T, s.C}
		a := act(k)
		if a0, ok := first[tc]; !ok {
			first[tc] = a
		} else if a0 != a {
			split[tc] = true
		}
	}
	l := &Lifted{T: q.T, NumActions: q.M.NumActions(), NumObs: nO, Source: "quotient classes followed along the history"}
	nodeOf := map[key]int{}
	nodeFor := func(k int) int {
		s := states[k]
		kk := key{s.T, s.C, -1}
		if split[[2]int{s.T, s.C}] {
			kk.z = s.Z
		}
		if id, ok := nodeOf[kk]; ok {
			return id
		}
		id := len(l.Nodes)
		nodeOf[kk] = id
		l.Nodes = append(l.Nodes, Node{Depth: s.T, Class: s.C, Obs: kk.z, Ctrl: -1, Next: make([]int, nO)})
		if s.T < q.T {
			l.Nodes[id].Action = act(k)
		}
		return id
	}
	nodeFor(0)
	for i := 0; i < len(l.Nodes); i++ {
		nd := l.Nodes[i]
		if nd.Depth == q.T {
			for z := range nd.Next {
				l.Nodes[i].Next[z] = i
			}
			continue
		}
		for z := 0; z < nO; z++ {
			succ := ids[QState{nd.Depth + 1, q.Next[nd.Depth][nd.Class][z], z}]
			l.Nodes[i].Next[z] = nodeFor(succ)
		}
	}
	return l
}
