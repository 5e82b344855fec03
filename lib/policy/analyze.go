package policy

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// EpsQuotient returns the ε-quotient of model m's histories up to depth T
// for the probe family (kind, mem): distances by distance.Compute with opt
// (its Eps set to ε, Ground to g unless opt has one), the greedy
// ε-partition, and quotient.New. Errors are those of fsc.New (family too
// large), distance.Compute (memory budget, cancellation) and quotient.New.
func EpsQuotient(ctx context.Context, m *pomdp.Model, g ot.Ground, kind fsc.Kind, mem, T int, eps float64, opt distance.Options) (*quotient.Quotient, error) {
	fam, err := fsc.New(kind, m.NumActions(), m.NumObservations(), mem, T, fsc.Options{})
	if err != nil {
		return nil, err
	}
	if opt.Ground == nil {
		opt.Ground = g
	}
	opt.Eps = []float64{eps}
	res, err := distance.Compute(ctx, m, fam, T, opt)
	if err != nil {
		return nil, err
	}
	return quotient.New(m, T, res.Partition(eps))
}

// Split is a class of the quotient whose possible histories a controller
// tells apart: after them it is in nodes that act differently within the
// horizon.
type Split struct {
	Depth, Class int
	// Label is the class's label (quotient.ClassLabel).
	Label string
	// Groups lists the class's histories (observation names joined by
	// "·", "ε" for the empty history) grouped by the controller's
	// behaviour after them; only histories of positive probability under
	// the controller, and "-" groups histories where it has no successor.
	Groups [][]string
}

// String prints the split, e.g. "depth 2 class 1 {L·L,R·R}: [L·L] vs [R·R]".
func (s Split) String() string {
	parts := make([]string, len(s.Groups))
	for i, g := range s.Groups {
		parts[i] = "[" + strings.Join(g, " ") + "]"
	}
	return fmt.Sprintf("depth %d class %d %s: %s", s.Depth, s.Class, s.Label, strings.Join(parts, " vs "))
}

// Membership is the verdict on whether a controller belongs to a probe
// family up to the horizon.
type Membership int

// The verdicts: Member (some member of the family behaves exactly as the
// controller for T steps), NotMember (none does), Undecided (the lower
// bound fits but the smallest stationary equivalent found does not).
const (
	Undecided Membership = iota
	Member
	NotMember
)

// String returns "member", "not a member" or "undecided".
func (v Membership) String() string {
	switch v {
	case Member:
		return "member"
	case NotMember:
		return "not a member"
	}
	return "undecided"
}

// Analysis is a policy graph seen through a quotient (see Analyze).
type Analysis struct {
	// Start is the graph's start node and Probe the graph completed from
	// it (Complete): the controller whose quotient is analysed.
	Start int
	Probe *fsc.FSC
	// T is the quotient's horizon and Classes its class count.
	T, Classes int
	// ModelValue and QuotientValue are the probe's values at b0 over T
	// steps on the model and on the quotient it sees (ForProbe),
	// discounted by the model's γ (1 without one). For an exact quotient
	// and a probe of the family they are equal when the reward is a
	// function of the actions and observations (value.WithObsReward:
	// thm:myhill-nerode keeps the observation law, SoundnessMax = 0); the
	// model's latent reward R(s, a) becomes the reward of each class's
	// average belief (quotient.ClassBeliefs), and members of one exact
	// class may have different beliefs, so the two values may differ even
	// then (TestAnalyzeLatentReward: 0.064 on the 4×3 maze).
	ModelValue, QuotientValue float64
	// SoundnessMax and SoundnessTV are quotient.SoundnessGap of the probe.
	SoundnessMax, SoundnessTV float64
	// Minimal is Minimize(c, Start), the smallest stationary equivalent
	// for every horizon; UpTo is MinimizeUpTo(c, Start, T).
	Minimal *fsc.FSC
	UpTo    *Layered
	// Splits lists the quotient's classes whose possible histories the
	// graph tells apart (depths 1 … T−1; depth T has no action left), and
	// Histories[t] counts the possible histories at depth t.
	Splits    []Split
	Histories []int
	// Family describes the probe family, Verdict whether the graph
	// belongs to it up to T and Reason why.
	Family  string
	Verdict Membership
	Reason  string
}

// Analyze looks at policy graph c, started in node start, through
// quotient q, built for the probe family (kind, mem) of horizon q.T: its
// values on the model and on the quotient it sees, the soundness gap, the
// quotient's classes whose histories it tells apart (histories of positive
// probability under it, after which it acts differently within the
// horizon), its minimisations, and whether it belongs to the family:
//
//   - stationary(m): a member when the minimal stationary equivalent has at
//     most m nodes; not a member when even the clock-aware minimum up to T
//     needs more than m; undecided in between.
//   - clock(m, T): a member exactly when the clock-aware minimum up to T
//     has at most m nodes.
//
// It returns an error if c is not a policy graph of q's model, start is
// not one of its nodes, or a "-" successor is reached with positive
// probability within the horizon.
func Analyze(q *quotient.Quotient, c *fsc.FSC, start int, kind fsc.Kind, mem int) (*Analysis, error) {
	m, T := q.M, q.T
	if T < 1 {
		return nil, fmt.Errorf("policy: Analyze needs a quotient of horizon T ≥ 1")
	}
	if c == nil {
		return nil, errors.New("policy: Analyze of a nil controller")
	}
	if start < 0 || start >= c.Nodes {
		return nil, fmt.Errorf("policy: start node %d is not a node of the graph (nodes 0 … %d)", start, c.Nodes-1)
	}
	if c.NumActions != m.NumActions() || c.NumObs != m.NumObservations() {
		return nil, fmt.Errorf("policy: controller has %d actions and %d observations, the model %d and %d", c.NumActions, c.NumObs, m.NumActions(), m.NumObservations())
	}
	if me := findMissing(m, c, T, start); me != nil {
		return nil, me
	}
	// The split search keeps a state vector per history of two depths.
	if need := 8 * float64(m.NumStates()) * float64(q.Tree.Count(max(T-1, 0))) * (1 + 1/float64(m.NumObservations())); need > DefaultMaxBytes {
		return nil, fmt.Errorf("policy: looking for split classes needs about %s for the state vectors of the %d histories of depth %d (%d states each), above %s; use a smaller T",
			fmtBytes(need), q.Tree.Count(T-1), T-1, m.NumStates(), fmtBytes(DefaultMaxBytes))
	}
	pi, err := Complete(c, start)
	if err != nil {
		return nil, err
	}
	a := &Analysis{Start: start, Probe: pi, T: T, Classes: q.Classes()}
	if a.Minimal, _, err = Minimize(c, start); err != nil {
		return nil, err
	}
	if a.UpTo, err = MinimizeUpTo(c, start, T); err != nil {
		return nil, err
	}
	ev, err := Evaluate(m, pi, T)
	if err != nil {
		return nil, err
	}
	a.ModelValue = ev.Start[0]
	qm, err := q.ForProbe(pi)
	if err != nil {
		return nil, err
	}
	qev, err := Evaluate(qm, pi, T)
	if err != nil {
		return nil, err
	}
	a.QuotientValue = qev.Start[0]
	if a.SoundnessMax, a.SoundnessTV, err = q.SoundnessGap(pi); err != nil {
		return nil, err
	}
	a.splits(q, c, start)
	switch kind {
	case fsc.KindClock:
		a.Family = fmt.Sprintf("clock-aware m = %d, T = %d", mem, T)
		if w := a.UpTo.Nodes(); w <= mem {
			a.Verdict, a.Reason = Member, fmt.Sprintf("behaves for %d steps as a clock-aware controller with %d ≤ %d nodes", T, w, mem)
		} else {
			a.Verdict, a.Reason = NotMember, fmt.Sprintf("behaving as it for %d steps takes %d > %d nodes (at a stage with %d distinct behaviours)", T, w, mem, w)
		}
	default:
		a.Family = fmt.Sprintf("stationary m ≤ %d", mem)
		switch w, k := a.UpTo.Nodes(), a.Minimal.Nodes; {
		case k <= mem:
			a.Verdict, a.Reason = Member, fmt.Sprintf("its minimal stationary form has %d ≤ %d nodes", k, mem)
		case w > mem:
			a.Verdict, a.Reason = NotMember, fmt.Sprintf("even for %d steps it needs %d > %d nodes", T, w, mem)
		default:
			a.Verdict, a.Reason = Undecided, fmt.Sprintf("for %d steps it needs at least %d ≤ %d nodes, its minimal stationary form (all horizons) has %d > %d", T, w, mem, k, mem)
		}
	}
	return a, nil
}

// splits fills a.Splits and a.Histories.
func (a *Analysis) splits(q *quotient.Quotient, c *fsc.FSC, start int) {
	m, T := q.M, q.T
	nS, nO := m.NumStates(), m.NumObservations()
	// Level by level: the graph's node after each history (None where it
	// has no successor) and the history's unnormalised state mass under
	// the probe.
	node := []int{start}
	mass := [][]float64{append([]float64(nil), m.B0...)}
	pred := make([]float64, nS)
	a.Histories = make([]int, T+1)
	a.Histories[0] = 1
	for t := 1; t < T; t++ {
		count := q.Tree.Count(t)
		nextNode := make([]int, count)
		nextMass := make([][]float64, count)
		for i := range node {
			for z := 0; z < nO; z++ {
				j := i*nO + z
				nextNode[j] = None
				if mass[i] == nil {
					continue
				}
				n := node[i]
				if n != None {
					nextNode[j] = c.Next[0][n][z]
				}
				act := a.Probe.Action(t-1, probeNode(n, start))
				m.Predict(pred, mass[i], act)
				post := make([]float64, nS)
				if m.Observe(post, pred, act, z) > 0 {
					nextMass[j] = post
				}
			}
		}
		node, mass = nextNode, nextMass
		groups := map[[2]int]map[string][]int{}
		for i, n := range node {
			if mass[i] == nil {
				continue
			}
			a.Histories[t]++
			cls := q.Partition.Labels[t][i]
			key := "-"
			if n != None {
				key = fmt.Sprint(a.UpTo.NodeClass[t][n])
			}
			k := [2]int{t, cls}
			if groups[k] == nil {
				groups[k] = map[string][]int{}
			}
			groups[k][key] = append(groups[k][key], i)
		}
		for cls := 0; cls < q.Partition.Classes(t); cls++ {
			g := groups[[2]int{t, cls}]
			if len(g) < 2 {
				continue
			}
			s := Split{Depth: t, Class: cls, Label: q.ClassLabel(t, cls)}
			var idx [][]int
			for _, members := range g {
				idx = append(idx, members)
			}
			slices.SortFunc(idx, func(x, y []int) int { return x[0] - y[0] }) // tree order
			for _, members := range idx {
				labels := make([]string, len(members))
				for k, i := range members {
					labels[k] = historyLabel(q, t, i)
				}
				s.Groups = append(s.Groups, labels)
			}
			a.Splits = append(a.Splits, s)
		}
	}
	// Histories at depth T: possible continuations (no action follows).
	if T >= 1 {
		cnt := 0
		for i := range node {
			if mass[i] == nil {
				continue
			}
			n := node[i]
			m.Predict(pred, mass[i], a.Probe.Action(T-1, probeNode(n, start)))
			post := make([]float64, nS)
			for z := 0; z < nO; z++ {
				if m.Observe(post, pred, a.Probe.Action(T-1, probeNode(n, start)), z) > 0 {
					cnt++
				}
			}
		}
		a.Histories[T] = cnt
	}
}

// probeNode maps node n of the graph to its node in Complete(c, start)
// (start became node 0, the nodes before it moved up by one). A None
// node (after a "-") maps to 0: such histories have probability 0 by the
// check in Analyze.
func probeNode(n, start int) int {
	switch {
	case n == None || n == start:
		return 0
	case n < start:
		return n + 1
	}
	return n
}

func historyLabel(q *quotient.Quotient, t, i int) string {
	if t == 0 {
		return "ε"
	}
	h := q.Tree.History(t, i)
	parts := make([]string, len(h))
	for k, o := range h {
		parts[k] = q.M.Observations[o]
	}
	return strings.Join(parts, "·")
}
