package fsc

import (
	"fmt"
	"math"
	"strings"
)

// FSC is a finite-state controller with Nodes nodes and initial node 0.
//
// Stages is 0 for a stationary controller (one stage of tables used at
// every time step) and T for a clock-aware one (tables per stage τ < T).
// A deterministic controller has Act[τ][n] and Next[τ][n][o]; a stochastic
// one has ActProb[τ][n][a] and NextProb[τ][n][o][n'] (Act and Next nil).
type FSC struct {
	Nodes      int
	Stages     int
	NumActions int
	NumObs     int
	Act        [][]int
	Next       [][][]int
	ActProb    [][][]float64
	NextProb   [][][][]float64
}

// Deterministic reports whether the controller is stored as integer tables.
func (c *FSC) Deterministic() bool { return c.ActProb == nil }

// Clock reports whether the controller is clock-aware (stage-indexed).
func (c *FSC) Clock() bool { return c.Stages > 0 }

func (c *FSC) stage(tau int) int {
	if c.Stages == 0 {
		return 0
	}
	if tau >= c.Stages {
		panic(fmt.Sprintf("fsc: stage %d beyond the controller's %d stages", tau, c.Stages))
	}
	return tau
}

// Action returns the action of a deterministic controller at stage τ in node n.
func (c *FSC) Action(tau, n int) int { return c.Act[c.stage(tau)][n] }

// NextNode returns the node of a deterministic controller after observing o
// at stage τ in node n.
func (c *FSC) NextNode(tau, n, o int) int {
	st := c.stage(tau)
	if st >= len(c.Next) { // last stage of a clock-aware controller: β unused
		return n
	}
	return c.Next[st][n][o]
}

// ActionProb returns α_τ(a | n) (0 or 1 for a deterministic controller).
func (c *FSC) ActionProb(tau, n, a int) float64 {
	if c.Deterministic() {
		if c.Action(tau, n) == a {
			return 1
		}
		return 0
	}
	return c.ActProb[c.stage(tau)][n][a]
}

// NextProbOf returns β_τ(n' | n, o).
func (c *FSC) NextProbOf(tau, n, o, n2 int) float64 {
	if c.Deterministic() {
		if c.NextNode(tau, n, o) == n2 {
			return 1
		}
		return 0
	}
	st := c.stage(tau)
	if st >= len(c.NextProb) {
		if n == n2 {
			return 1
		}
		return 0
	}
	return c.NextProb[st][n][o][n2]
}

// Validate checks table sizes and, for stochastic controllers, that every
// distribution is finite, non-negative and sums to 1 within 1e-9.
func (c *FSC) Validate() error {
	if c.Nodes < 1 || c.NumActions < 1 || c.NumObs < 1 {
		return fmt.Errorf("fsc: need at least one node, action and observation (have %d, %d, %d)", c.Nodes, c.NumActions, c.NumObs)
	}
	stages := 1
	if c.Stages > 0 {
		stages = c.Stages
	}
	checkDist := func(what string, p []float64, n int) error {
		if len(p) != n {
			return fmt.Errorf("fsc: %s has %d entries, want %d", what, len(p), n)
		}
		s := 0.0
		for i, v := range p {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return fmt.Errorf("fsc: %s[%d] = %v is not a probability", what, i, v)
			}
			s += v
		}
		if !(math.Abs(s-1) <= 1e-9) {
			return fmt.Errorf("fsc: %s sums to %v, want 1", what, s)
		}
		return nil
	}
	if c.Deterministic() {
		if len(c.Act) != stages {
			return fmt.Errorf("fsc: %d action tables, want %d", len(c.Act), stages)
		}
		for tau, row := range c.Act {
			if len(row) != c.Nodes {
				return fmt.Errorf("fsc: stage %d action table has %d nodes, want %d", tau, len(row), c.Nodes)
			}
			for n, a := range row {
				if a < 0 || a >= c.NumActions {
					return fmt.Errorf("fsc: stage %d node %d action %d out of range", tau, n, a)
				}
			}
		}
		for tau, tab := range c.Next {
			if len(tab) != c.Nodes {
				return fmt.Errorf("fsc: stage %d next table has %d nodes, want %d", tau, len(tab), c.Nodes)
			}
			for n, row := range tab {
				if len(row) != c.NumObs {
					return fmt.Errorf("fsc: stage %d node %d next row has %d entries, want %d", tau, n, len(row), c.NumObs)
				}
				for o, n2 := range row {
					if n2 < 0 || n2 >= c.Nodes {
						return fmt.Errorf("fsc: stage %d node %d observation %d next node %d out of range", tau, n, o, n2)
					}
				}
			}
		}
		if len(c.Next) < stages-1 {
			return fmt.Errorf("fsc: %d next tables, want at least %d", len(c.Next), stages-1)
		}
		return nil
	}
	if len(c.ActProb) != stages {
		return fmt.Errorf("fsc: %d action tables, want %d", len(c.ActProb), stages)
	}
	for tau, tab := range c.ActProb {
		if len(tab) != c.Nodes {
			return fmt.Errorf("fsc: stage %d action table has %d nodes, want %d", tau, len(tab), c.Nodes)
		}
		for n, p := range tab {
			if err := checkDist(fmt.Sprintf("α_%d(node %d)", tau, n), p, c.NumActions); err != nil {
				return err
			}
		}
	}
	for tau, tab := range c.NextProb {
		if len(tab) != c.Nodes {
			return fmt.Errorf("fsc: stage %d next table has %d nodes, want %d", tau, len(tab), c.Nodes)
		}
		for n, rows := range tab {
			if len(rows) != c.NumObs {
				return fmt.Errorf("fsc: stage %d node %d has %d observation rows, want %d", tau, n, len(rows), c.NumObs)
			}
			for o, p := range rows {
				if err := checkDist(fmt.Sprintf("β_%d(node %d, obs %d)", tau, n, o), p, c.Nodes); err != nil {
					return err
				}
			}
		}
	}
	if len(c.NextProb) < stages-1 {
		return fmt.Errorf("fsc: %d next tables, want at least %d", len(c.NextProb), stages-1)
	}
	return nil
}

// String describes the controller compactly, e.g.
// "stationary m=2 α=[0 1] β=[[0 1] [1 1]]".
func (c *FSC) String() string {
	var b strings.Builder
	kind := "stationary"
	if c.Clock() {
		kind = fmt.Sprintf("clock T=%d", c.Stages)
	}
	if !c.Deterministic() {
		kind = "stochastic " + kind
	}
	fmt.Fprintf(&b, "%s m=%d", kind, c.Nodes)
	if c.Deterministic() {
		if c.Clock() {
			fmt.Fprintf(&b, " α=%v β=%v", c.Act, c.Next)
		} else {
			fmt.Fprintf(&b, " α=%v β=%v", c.Act[0], c.Next[0])
		}
	} else {
		fmt.Fprintf(&b, " α=%v", c.ActProb)
	}
	return b.String()
}

// ActionString returns the action names of an open-loop (one-node,
// deterministic) controller for stages 0 … T−1, e.g. "L L OL"; names[a]
// is used for action a. For other controllers it returns String().
func (c *FSC) ActionString(names []string, T int) string {
	if !c.Deterministic() || c.Nodes != 1 {
		return c.String()
	}
	parts := make([]string, T)
	for tau := 0; tau < T; tau++ {
		a := c.Action(tau, 0)
		if a < len(names) {
			parts[tau] = names[a]
		} else {
			parts[tau] = fmt.Sprint(a)
		}
	}
	return strings.Join(parts, " ")
}

// Constant returns the one-node stationary controller that always takes a.
func Constant(nA, nO, a int) *FSC {
	next := make([]int, nO)
	return &FSC{Nodes: 1, NumActions: nA, NumObs: nO, Act: [][]int{{a}}, Next: [][][]int{{next}}}
}

// OpenLoop returns the one-node clock-aware controller playing the action
// string actions (stage τ takes actions[τ]).
func OpenLoop(nA, nO int, actions []int) *FSC {
	T := len(actions)
	c := &FSC{Nodes: 1, Stages: T, NumActions: nA, NumObs: nO}
	for tau := 0; tau < T; tau++ {
		c.Act = append(c.Act, []int{actions[tau]})
		if tau < T-1 {
			c.Next = append(c.Next, [][]int{make([]int, nO)})
		}
	}
	return c
}

// Mixed returns the one-node stationary stochastic controller with action
// distribution p (prop:stationary-counterexample uses p = (½, ½)).
func Mixed(nO int, p []float64) *FSC {
	next := make([][]float64, nO)
	for o := range next {
		next[o] = []float64{1}
	}
	return &FSC{Nodes: 1, NumActions: len(p), NumObs: nO,
		ActProb: [][][]float64{{append([]float64(nil), p...)}}, NextProb: [][][][]float64{{next}}}
}
