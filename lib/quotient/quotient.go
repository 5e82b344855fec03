package quotient

import (
	"fmt"
	"math"
	"strings"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Quotient is the quotient structure of a partition of model M's history
// tree of depth T.
type Quotient struct {
	M         *pomdp.Model
	T         int
	Tree      law.Tree
	Partition *partition.Partition
	// Rep[t][c] is the representative (smallest member index) of class c
	// at depth t; Next[t][c][z] is the class at depth t+1 of Rep[t][c]·z.
	Rep  [][]int
	Next [][][]int
}

// New returns the quotient of partition p of m's history tree of depth T.
func New(m *pomdp.Model, T int, p *partition.Partition) (*Quotient, error) {
	tree, err := law.NewTree(m.NumObservations(), T)
	if err != nil {
		return nil, err
	}
	if p.Depths() != T+1 {
		return nil, fmt.Errorf("quotient: partition has %d depths, horizon T = %d needs %d", p.Depths(), T, T+1)
	}
	for t := 0; t <= T; t++ {
		if len(p.Labels[t]) != tree.Count(t) {
			return nil, fmt.Errorf("quotient: partition labels %d histories at depth %d, the tree has %d", len(p.Labels[t]), t, tree.Count(t))
		}
	}
	q := &Quotient{M: m, T: T, Tree: tree, Partition: p, Rep: make([][]int, T+1), Next: make([][][]int, T+1)}
	nO := m.NumObservations()
	for t := 0; t <= T; t++ {
		k := p.Classes(t)
		q.Rep[t] = make([]int, k)
		for c := range q.Rep[t] {
			q.Rep[t][c] = -1
		}
		for i, c := range p.Labels[t] {
			if q.Rep[t][c] < 0 {
				q.Rep[t][c] = i
			}
		}
		if t == T {
			continue
		}
		q.Next[t] = make([][]int, k)
		for c := range q.Next[t] {
			q.Next[t][c] = make([]int, nO)
			for z := 0; z < nO; z++ {
				q.Next[t][c][z] = p.Labels[t+1][q.Rep[t][c]*nO+z]
			}
		}
	}
	return q, nil
}

// ClassLabel returns a readable name of class c at depth t: its members'
// labels, e.g. "{L,R}" (at most four shown).
func (q *Quotient) ClassLabel(t, c int) string {
	var parts []string
	members := q.Partition.Members(t, c)
	for k, i := range members {
		if k == 4 {
			parts = append(parts, fmt.Sprintf("… %d more", len(members)-4))
			break
		}
		parts = append(parts, q.Tree.Label(q.M.Observations, t, i))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// Classes returns the total number of classes over depths 0 … T.
func (q *Quotient) Classes() int { return q.Partition.Total() }

// RightInvariant reports whether every member h of every class has h·z in
// the class Next[c][z] (always true for exact partitions; ε-partitions
// built by greedy linkage need not be).
func (q *Quotient) RightInvariant() bool {
	nO := q.Tree.NumObs
	for t := 0; t < q.T; t++ {
		for i, c := range q.Partition.Labels[t] {
			for z := 0; z < nO; z++ {
				if q.Partition.Labels[t+1][i*nO+z] != q.Next[t][c][z] {
					return false
				}
			}
		}
	}
	return true
}

// ClassBeliefs returns b̄_c for every class (indexed [t][c]) under probe π:
// the uniform average of the beliefs of the class's members that are
// possible under π (P^π(h) > 0), Proposition C.1 restricted to the members
// whose conditional law exists (docs/conventions.md#class-beliefs). An
// impossible member has no belief and carries no weight. A class all of
// whose members are impossible under π keeps the uniform stand-in belief
// (the average of its members' stand-ins): no history of M reaches it
// under π, so it enters no value or law of M under π.
func (q *Quotient) ClassBeliefs(pi *fsc.FSC) ([][][]float64, error) {
	cb, _, err := q.classBeliefs(pi)
	return cb, err
}

// StandInClasses returns, per depth, which classes have no member possible
// under probe π (their belief is the uniform stand-in of ClassBeliefs).
func (q *Quotient) StandInClasses(pi *fsc.FSC) ([][]bool, error) {
	_, si, err := q.classBeliefs(pi)
	return si, err
}

func (q *Quotient) classBeliefs(pi *fsc.FSC) ([][][]float64, [][]bool, error) {
	e, err := law.NewEngine(q.M, q.T, law.UniformStandIn)
	if err != nil {
		return nil, nil, err
	}
	beliefs, impossible, err := e.Beliefs(pi)
	if err != nil {
		return nil, nil, err
	}
	nS := q.M.NumStates()
	out := make([][][]float64, q.T+1)
	standIn := make([][]bool, q.T+1)
	for t := 0; t <= q.T; t++ {
		off := q.Tree.Offset(t)
		flat, si := q.AggregateDepth(t, nS, func(i int) []float64 { return beliefs[off+i] }, func(i int) bool { return impossible[off+i] })
		out[t] = make([][]float64, len(si))
		for c := range out[t] {
			out[t][c] = flat[c*nS : (c+1)*nS : (c+1)*nS]
		}
		standIn[t] = si
	}
	return out, standIn, nil
}

// AggregateDepth applies the rule of ClassBeliefs to the depth-t histories
// i = 0 … Count(t)−1 with beliefs bel(i) over nS states and impossibility
// imp(i): it returns the class beliefs (flat, class c at [c·nS, (c+1)·nS))
// and which classes have no possible member. A possible member of class c
// has weight 1/n_c, n_c the number of possible members of c; an impossible
// one has weight 0, unless all members of c are impossible, when each has
// weight 1/|c| (the average of the stand-ins bel(i) gives).
func (q *Quotient) AggregateDepth(t, nS int, bel func(i int) []float64, imp func(i int) bool) (cb []float64, standIn []bool) {
	k := q.Partition.Classes(t)
	cb = make([]float64, k*nS)
	possible := make([]int, k)
	for i, c := range q.Partition.Labels[t] {
		if imp(i) {
			continue
		}
		possible[c]++
		addTo(cb[c*nS:(c+1)*nS], bel(i))
	}
	standIn = make([]bool, k)
	size := make([]int, k)
	for i, c := range q.Partition.Labels[t] {
		if possible[c] == 0 {
			standIn[c] = true
			size[c]++
			addTo(cb[c*nS:(c+1)*nS], bel(i))
		}
	}
	for c := 0; c < k; c++ {
		n := possible[c]
		if standIn[c] {
			n = size[c]
		}
		for s := c * nS; s < (c+1)*nS; s++ {
			cb[s] /= float64(n)
		}
	}
	return cb, standIn
}

func addTo(dst, src []float64) {
	for s, v := range src {
		dst[s] += v
	}
}

// state of the quotient model: class c at depth t entered by observation z
// (z = -1 for the root). Its name is "d{t}_c{c}_{z}" ("root" for the root),
// which every model format accepts; ClassLabel gives the readable class.
type qstate struct{ t, c, z int }

// ForProbe returns the quotient POMDP seen by probe π: states (class,
// entering observation), transitions P̄(c, a, c') = Σ_{s'} Z(s',a,z) Σ_s
// T(s,a,s') b̄^π_c(s) into the state (Next[c][z], z), the observation of a
// state deterministic, rewards R̄(c, a) = Σ_s b̄^π_c(s) R(s,a), depth-T
// states absorbing.
//
// The kernel is defined for every action, but only the actions π takes
// along a class's members are pinned down by the probe laws: for an action
// π never takes there, members of one exact class may predict different
// observations (the members' beliefs come from π's actions), and the
// quotient uses their average. Laws and values of π itself are unaffected.
func (q *Quotient) ForProbe(pi *fsc.FSC) (*pomdp.Model, error) {
	s, err := q.See(pi)
	if err != nil {
		return nil, err
	}
	return s.Model()
}

// Seen is the quotient as one probe π sees it: the class beliefs
// (ClassBeliefs) and stand-in classes (StandInClasses) of π, computed in
// one pass over the histories, for a caller that needs several of
// ForProbe, StandInReach and the class beliefs of the same probe.
type Seen struct {
	// Q is the quotient and Probe the probe π.
	Q     *Quotient
	Probe *fsc.FSC
	// Beliefs[t][c] is b̄_c under π; StandIn[t][c] reports that class c
	// of depth t has no member possible under π.
	Beliefs [][][]float64
	StandIn [][]bool
}

// See returns the quotient as probe π sees it.
func (q *Quotient) See(pi *fsc.FSC) (*Seen, error) {
	cb, si, err := q.classBeliefs(pi)
	if err != nil {
		return nil, err
	}
	return &Seen{Q: q, Probe: pi, Beliefs: cb, StandIn: si}, nil
}

// Model returns the quotient seen by the probe as a standalone model
// (ForProbe).
func (s *Seen) Model() (*pomdp.Model, error) {
	q := s.Q
	return q.build(s.Beliefs, fmt.Sprintf("quotient of %s (%d classes) seen by %v", q.M.Name, q.Classes(), s.Probe))
}

// Export returns the quotient aggregated under the reference probe ref as a
// standalone model (see the package documentation for when it is exact for
// every probe).
func (q *Quotient) Export(ref *fsc.FSC) (*pomdp.Model, error) {
	cb, err := q.ClassBeliefs(ref)
	if err != nil {
		return nil, err
	}
	return q.build(cb, fmt.Sprintf("%s-quotient", q.M.Name))
}

func (q *Quotient) build(cb [][][]float64, name string) (*pomdp.Model, error) {
	m := q.M
	nA, nO, nS := m.NumActions(), m.NumObservations(), m.NumStates()
	ids := map[qstate]int{}
	var states []qstate
	add := func(s qstate) int {
		if id, ok := ids[s]; ok {
			return id
		}
		ids[s] = len(states)
		states = append(states, s)
		return len(states) - 1
	}
	add(qstate{0, 0, -1})
	for k := 0; k < len(states); k++ {
		s := states[k]
		if s.t == q.T {
			continue
		}
		for z := 0; z < nO; z++ {
			add(qstate{s.t + 1, q.Next[s.t][s.c][z], z})
		}
	}
	n := len(states)
	names := make([]string, n)
	for k, s := range states {
		if s.z < 0 {
			names[k] = "root"
		} else {
			names[k] = fmt.Sprintf("d%d_c%d_%s", s.t, s.c, m.Observations[s.z])
		}
	}
	out := &pomdp.Model{Name: name, States: names, Actions: m.Actions, Observations: m.Observations,
		Discount: m.Discount, HasDiscount: m.HasDiscount}
	pred := make([]float64, nS)
	probs := make([]float64, nO)
	R := make([][]float64, n)
	for a := 0; a < nA; a++ {
		tt := pomdp.NewTriplets(n, n)
		zt := pomdp.NewTriplets(n, nO)
		for k, s := range states {
			if R[k] == nil {
				R[k] = make([]float64, nA)
			}
			b := cb[s.t][s.c]
			for x, p := range b {
				R[k][a] += p * m.R[x][a]
			}
			if s.z >= 0 {
				zt.Set(k, s.z, 1)
			} else {
				zt.Set(k, 0, 1) // the root is never entered; any valid row
			}
			if s.t == q.T {
				tt.Set(k, k, 1)
				continue
			}
			m.Predict(pred, b, a)
			m.ObsProbs(probs, pred, a)
			tot := 0.0
			for _, p := range probs {
				tot += p
			}
			for z, p := range probs {
				if p > 0 {
					tt.Add(k, ids[qstate{s.t + 1, q.Next[s.t][s.c][z], z}], p/tot)
				}
			}
		}
		out.T = append(out.T, tt.Sparse())
		out.Z = append(out.Z, zt.Sparse())
	}
	out.R = R
	out.B0 = make([]float64, n)
	out.B0[0] = 1
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("quotient: built an invalid model: %w", err)
	}
	return out, nil
}

// SoundnessGap returns max_x |P_M^π(x) − P_Q^π(x)| over full observation
// sequences x, and the total variation between the two trajectory laws,
// for probe π and the quotient seen by π (thm:myhill-nerode (ii): both are
// 0 for exact partitions).
func (q *Quotient) SoundnessGap(pi *fsc.FSC) (maxAbs, tv float64, err error) {
	qm, err := q.ForProbe(pi)
	if err != nil {
		return 0, 0, err
	}
	lm, err := law.Compute(q.M, pi, q.T, law.UniformStandIn)
	if err != nil {
		return 0, 0, err
	}
	lq, err := law.Compute(qm, pi, q.T, law.UniformStandIn)
	if err != nil {
		return 0, 0, err
	}
	for x, p := range lm.Trajectory() {
		d := math.Abs(p - lq.Trajectory()[x])
		maxAbs = math.Max(maxAbs, d)
		tv += d / 2
	}
	return maxAbs, tv, nil
}

// StandInReach returns the probability that the quotient seen by probe π
// (ForProbe) ever enters a class with no member possible under π (a
// stand-in class of ClassBeliefs), running π on the quotient. When it is 0
// the stand-in beliefs enter no law or value of π on the quotient, and
// every class belief π meets is a convex combination of possible members'
// beliefs, as thm:value-bound requires.
//
// It is 0 for exact partitions, and for right-invariant partitions under a
// probe whose action depends only on the depth (m = 1): a class π reaches
// on the quotient then holds a possible member h with the same action, and
// an observation z the quotient predicts with positive probability is
// possible after one such h, so the class of h·z has a possible member.
// Otherwise (greedy ε-classes whose members π treats differently) it is
// measured, not assumed.
func (q *Quotient) StandInReach(pi *fsc.FSC) (float64, error) {
	s, err := q.See(pi)
	if err != nil {
		return 0, err
	}
	return s.StandInReach(), nil
}

// StandInReach is Quotient.StandInReach for the probe of s.
func (s *Seen) StandInReach() float64 {
	q, pi, cb, si := s.Q, s.Probe, s.Beliefs, s.StandIn
	m := q.M
	nS, nO, nA, nodes := m.NumStates(), m.NumObservations(), m.NumActions(), pi.Nodes
	pred, probs := make([]float64, nS), make([]float64, nO)
	cur := make([]float64, nodes) // mass of (class, node) at depth t, class-major
	cur[0] = 1
	reach := 0.0
	for t := 0; t < q.T; t++ {
		next := make([]float64, q.Partition.Classes(t+1)*nodes)
		for k, p := range cur {
			if p == 0 {
				continue
			}
			c, n := k/nodes, k%nodes
			for a := 0; a < nA; a++ {
				pa := pi.ActionProb(t, n, a)
				if pa == 0 {
					continue
				}
				m.Predict(pred, cb[t][c], a)
				m.ObsProbs(probs, pred, a)
				tot := 0.0
				for _, x := range probs {
					tot += x
				}
				for z, pz := range probs {
					if pz == 0 {
						continue
					}
					c2 := q.Next[t][c][z]
					for n2 := 0; n2 < nodes; n2++ {
						if pn := pi.NextProbOf(t, n, z, n2); pn != 0 {
							next[c2*nodes+n2] += p * pa * pz / tot * pn
						}
					}
				}
			}
		}
		for c2, stand := range si[t+1] {
			if !stand {
				continue
			}
			for n2 := 0; n2 < nodes; n2++ {
				reach += next[c2*nodes+n2]
				next[c2*nodes+n2] = 0
			}
		}
		cur = next
	}
	return reach
}
