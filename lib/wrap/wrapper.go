package wrap

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// ActionMap is an action remapping g: A' → Δ(A) (def:wrapper): the wrapped
// model's action a' plays the original action a with probability g(a | a').
type ActionMap struct {
	// P[a'][a] = g(a | a'); every row sums to 1.
	P [][]float64
	// Names are the new actions A'.
	Names []string
	det   []int // det[a'] = the action of a deterministic row, or nil
}

// NewActionMap returns the remapping with rows p (p[a'][a] = g(a|a')) and
// names for A'. It copies its arguments and returns an error naming the entry
// when a row has the wrong length, a negative or non-finite entry, or does not
// sum to 1 within pomdp.RowTol, or when a name is empty or repeated.
func NewActionMap(p [][]float64, names []string) (*ActionMap, error) {
	if len(p) == 0 || len(p) != len(names) {
		return nil, fmt.Errorf("wrap: action map has %d rows and %d names (need one row per new action)", len(p), len(names))
	}
	seen := map[string]bool{}
	g := &ActionMap{Names: append([]string(nil), names...), det: make([]int, len(p))}
	for i, row := range p {
		if names[i] == "" || seen[names[i]] {
			return nil, fmt.Errorf("wrap: action map name %d (%q) is empty or repeated", i, names[i])
		}
		seen[names[i]] = true
		if len(row) == 0 || (i > 0 && len(row) != len(p[0])) {
			return nil, fmt.Errorf("wrap: action map row g(·|%s) has %d entries, row 0 has %d", names[i], len(row), len(p[0]))
		}
		sum := 0.0
		g.det[i] = -1
		for a, v := range row {
			if !(v >= 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("wrap: action map entry g(%d|%s) = %v is not a probability", a, names[i], v)
			}
			sum += v
			if v == 1 {
				g.det[i] = a
			}
		}
		if !(math.Abs(sum-1) <= pomdp.RowTol) {
			return nil, fmt.Errorf("wrap: action map row g(·|%s) sums to %v, not 1", names[i], sum)
		}
		g.P = append(g.P, append([]float64(nil), row...))
	}
	for _, a := range g.det {
		if a < 0 {
			g.det = nil
			break
		}
	}
	return g, nil
}

// SelectActions returns the deterministic remapping a' ↦ actions[a'] of a
// model with nA actions, named names[a'] (nil: "a0", "a1", …). It returns an
// error for an index outside [0, nA).
func SelectActions(nA int, actions []int, names []string) (*ActionMap, error) {
	if names == nil {
		for i := range actions {
			names = append(names, fmt.Sprintf("a%d", i))
		}
	}
	p := make([][]float64, len(actions))
	for i, a := range actions {
		if a < 0 || a >= nA {
			return nil, fmt.Errorf("wrap: selected action %d outside [0, %d)", a, nA)
		}
		p[i] = make([]float64, nA)
		p[i][a] = 1
	}
	return NewActionMap(p, names)
}

// Deterministic returns, for a deterministic map, the original action of
// every new action.
func (g *ActionMap) Deterministic() ([]int, bool) { return g.det, g.det != nil }

// Wrapper is the pair (g, C) of def:wrapper. A nil field is the identity.
type Wrapper struct {
	Actions *ActionMap
	Obs     *Channel
}

// Lipschitz returns L_C of the observation channel from the input metric
// (1 for the identity channel; see Channel.Lipschitz).
func (w Wrapper) Lipschitz(from ot.Ground) (float64, error) {
	if w.Obs == nil {
		return 1, nil
	}
	L, _, _, err := w.Obs.Lipschitz(from)
	return L, err
}

// Ground returns d_{O'}: the channel's output metric, or from for the
// identity channel.
func (w Wrapper) Ground(from ot.Ground) ot.Ground {
	if w.Obs == nil {
		return from
	}
	return w.Obs.Ground
}

// Apply returns W(M). The action remapping gives, for each new action a',
//
//	T'(s, a', s') = Σ_a g(a|a') T(s, a, s'),   R'(s, a') = Σ_a g(a|a') R(s, a),
//
// and the observation kernel of the actions it mixes. When g mixes actions
// whose observation kernels differ, the observation depends on the action
// drawn, which a POMDP on S cannot express; Apply then augments the state
// with the action that led to it — states (s, a) named "s@a", with
// T'((s,·), a', (s',a)) = g(a|a') T(s,a,s'), Z'((s',a), ·, o) = Z(s',a,o),
// b0' = b0 on (s, action 0) — which reproduces the joint law of observations
// and rewards exactly. The channel is then applied (Channel.Apply). It
// returns an error when a map's size does not match m. Cost O(|A'|·Σ_a nnz(T_a))
// plus the channel's, and |S|·|A| states when augmented.
func (w Wrapper) Apply(m *pomdp.Model) (*pomdp.Model, error) {
	out := m
	if w.Actions != nil {
		var err error
		if out, err = w.Actions.apply(m); err != nil {
			return nil, err
		}
	}
	if w.Obs != nil {
		return w.Obs.Apply(out)
	}
	return out, nil
}

func (g *ActionMap) apply(m *pomdp.Model) (*pomdp.Model, error) {
	nA, nS := m.NumActions(), m.NumStates()
	if len(g.P[0]) != nA {
		return nil, fmt.Errorf("wrap: action map mixes %d actions, model %s has %d", len(g.P[0]), m.Name, nA)
	}
	nA2 := len(g.P)
	out := &pomdp.Model{Name: m.Name + "/actions", States: m.States, Actions: append([]string(nil), g.Names...),
		Observations: m.Observations, Discount: m.Discount, HasDiscount: m.HasDiscount,
		B0: append([]float64(nil), m.B0...)}
	out.R = make([][]float64, nS)
	for s := range out.R {
		out.R[s] = make([]float64, nA2)
		for a2, row := range g.P {
			for a, p := range row {
				out.R[s][a2] += p * m.R[s][a]
			}
		}
	}
	augment := false
	for a2, row := range g.P {
		z := -1
		for a, p := range row {
			if p == 0 {
				continue
			}
			if z < 0 {
				z = a
			} else if !sameSparse(m.Z[z], m.Z[a]) {
				augment = true
			}
		}
		if augment {
			break
		}
		out.Z = append(out.Z, m.Z[z])
		if g.det != nil {
			out.T = append(out.T, m.T[g.det[a2]])
			continue
		}
		t := pomdp.NewTriplets(nS, nS)
		for s := 0; s < nS; s++ {
			for a, p := range row {
				if p > 0 {
					m.T[a].Entries(s, func(j int, v float64) { t.Add(s, j, p*v) })
				}
			}
		}
		out.T = append(out.T, t.Sparse())
	}
	if augment {
		return g.augmented(m)
	}
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("wrap: action map applied to %s: %w", m.Name, err)
	}
	return out, nil
}

// augmented builds the state-augmented wrapped model (see Wrapper.Apply).
func (g *ActionMap) augmented(m *pomdp.Model) (*pomdp.Model, error) {
	nA, nS, nO := m.NumActions(), m.NumStates(), m.NumObservations()
	n := nS * nA
	id := func(s, a int) int { return s*nA + a }
	out := &pomdp.Model{Name: m.Name + "/actions", Actions: append([]string(nil), g.Names...),
		Observations: m.Observations, Discount: m.Discount, HasDiscount: m.HasDiscount}
	out.States = make([]string, n)
	out.B0 = make([]float64, n)
	out.R = make([][]float64, n)
	zt := pomdp.NewTriplets(n, nO)
	for s := 0; s < nS; s++ {
		out.B0[id(s, 0)] = m.B0[s]
		for a := 0; a < nA; a++ {
			out.States[id(s, a)] = m.States[s] + "@" + m.Actions[a]
			m.Z[a].Entries(s, func(o int, v float64) { zt.Set(id(s, a), o, v) })
			out.R[id(s, a)] = make([]float64, len(g.P))
			for a2, row := range g.P {
				for b, p := range row {
					out.R[id(s, a)][a2] += p * m.R[s][b]
				}
			}
		}
	}
	z := zt.Sparse()
	for _, row := range g.P {
		t := pomdp.NewTriplets(n, n)
		for s := 0; s < nS; s++ {
			for a, p := range row {
				if p == 0 {
					continue
				}
				m.T[a].Entries(s, func(s2 int, v float64) {
					for prev := 0; prev < nA; prev++ {
						t.Add(id(s, prev), id(s2, a), p*v)
					}
				})
			}
		}
		out.T = append(out.T, t.Sparse())
		out.Z = append(out.Z, z)
	}
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("wrap: action map applied to %s (state-augmented): %w", m.Name, err)
	}
	return out, nil
}

// sameSparse reports whether two sparse matrices are entry-wise equal.
func sameSparse(a, b *pomdp.Sparse) bool {
	if a == b {
		return true
	}
	if a.Rows != b.Rows || a.Cols != b.Cols || a.NNZ() != b.NNZ() {
		return false
	}
	for i := range a.Col {
		if a.Col[i] != b.Col[i] || a.Val[i] != b.Val[i] {
			return false
		}
	}
	for i := range a.RowPtr {
		if a.RowPtr[i] != b.RowPtr[i] {
			return false
		}
	}
	return true
}

// Pullback returns the controller π on the original spaces (A, O) that a
// controller π' on the wrapped spaces (A', O') induces (proof of
// thm:data-processing): it plays a' ~ α'(n) then a ~ g(·|a'), and feeds the
// observation o to its memory through the channel, o' ~ C(o), n' ~ β'(n, o'):
//
//	α(a | n) = Σ_{a'} α'(a' | n) g(a | a'),   β(n' | n, o) = Σ_{o'} C(o'|o) β'(n' | n, o').
//
// When C is deterministic or π' has one node, the observation laws satisfy
// P_{W(M)}^{π'} = C^{⊗T}# P_M^π, the identity the paper's proof uses. With a
// stochastic channel and a controller with memory they need not: π reacts
// to its own draw õ ~ C(o), while the pushforward draws the reported
// observation independently (the law of W(M) is the law of the draws π
// reacted to). The result is deterministic when π' and g are and C is
// deterministic or π' has one node; it keeps the nodes and stages of π'.
// It returns an error when π' does not
// have |A'| actions and |O'| observations.
func (w Wrapper) Pullback(pi *fsc.FSC) (*fsc.FSC, error) {
	nA2, nO2 := pi.NumActions, pi.NumObs
	nA, nO := nA2, nO2
	if w.Actions != nil {
		if nA2 != len(w.Actions.P) {
			return nil, fmt.Errorf("wrap: controller has %d actions, the wrapper's action map %d", nA2, len(w.Actions.P))
		}
		nA = len(w.Actions.P[0])
	}
	if w.Obs != nil {
		if nO2 != w.Obs.Outputs() {
			return nil, fmt.Errorf("wrap: controller has %d observations, the wrapper's channel %d outputs", nO2, w.Obs.Outputs())
		}
		nO = w.Obs.Inputs()
	}
	gdet := w.Actions == nil || w.Actions.det != nil
	var cgroups [][]int
	cdet := w.Obs == nil
	if w.Obs != nil {
		cgroups, cdet = w.Obs.Groups()
	}
	out := &fsc.FSC{Nodes: pi.Nodes, Stages: pi.Stages, NumActions: nA, NumObs: nO}
	if pi.Deterministic() && gdet && (cdet || pi.Nodes == 1) {
		w.pullbackDet(pi, out, cgroups)
		return out, out.Validate()
	}
	w.pullbackStoch(pi, out)
	return out, out.Validate()
}

// pullbackDet fills out.Act and out.Next for a deterministic controller
// pi when the wrapper's action map is deterministic and its channel
// groups the inputs into the outputs cgroups (or pi has one node).
func (w Wrapper) pullbackDet(pi, out *fsc.FSC, cgroups [][]int) {
	nO := out.NumObs
	// With one node the channel never reaches the controller's state.
	qmap := make([]int, nO) // input o ↦ output o' (any output for one node)
	for o := range qmap {
		if cgroups == nil && w.Obs != nil {
			qmap[o] = 0
		} else {
			qmap[o] = o
		}
	}
	for j, grp := range cgroups {
		for _, o := range grp {
			qmap[o] = j
		}
	}
	for _, acts := range pi.Act {
		row := make([]int, len(acts))
		for n, a2 := range acts {
			row[n] = a2
			if w.Actions != nil {
				row[n] = w.Actions.det[a2]
			}
		}
		out.Act = append(out.Act, row)
	}
	for _, st := range pi.Next {
		tab := make([][]int, len(st))
		for n, next := range st {
			tab[n] = make([]int, nO)
			for o := range tab[n] {
				tab[n][o] = next[qmap[o]]
			}
		}
		out.Next = append(out.Next, tab)
	}
}

// pullbackStoch fills out.ActProb and out.NextProb: the controller's
// action laws pushed through the action map and its node updates mixed
// over the channel's outputs.
func (w Wrapper) pullbackStoch(pi, out *fsc.FSC) {
	nA, nO := out.NumActions, out.NumObs
	nA2, nO2 := pi.NumActions, pi.NumObs
	stagesA, stagesB := len(pi.ActProb), len(pi.NextProb)
	if pi.Deterministic() {
		stagesA, stagesB = len(pi.Act), len(pi.Next)
	}
	for tau := range stagesA {
		tab := make([][]float64, pi.Nodes)
		for n := range tab {
			tab[n] = make([]float64, nA)
			for a2 := 0; a2 < nA2; a2++ {
				p := pi.ActionProb(tau, n, a2)
				if p == 0 {
					continue
				}
				if w.Actions == nil {
					tab[n][a2] += p
					continue
				}
				for a, g := range w.Actions.P[a2] {
					tab[n][a] += p * g
				}
			}
		}
		out.ActProb = append(out.ActProb, tab)
	}
	for tau := range stagesB {
		tab := make([][][]float64, pi.Nodes)
		for n := range tab {
			tab[n] = make([][]float64, nO)
			for o := range tab[n] {
				tab[n][o] = make([]float64, pi.Nodes)
				for o2 := 0; o2 < nO2; o2++ {
					c := 0.0
					switch {
					case w.Obs == nil && o == o2:
						c = 1
					case w.Obs != nil:
						c = w.Obs.P[o][o2]
					}
					if c == 0 {
						continue
					}
					for n2 := 0; n2 < pi.Nodes; n2++ {
						tab[n][o][n2] += c * pi.NextProbOf(tau, n, o2, n2)
					}
				}
			}
		}
		out.NextProb = append(out.NextProb, tab)
	}
}

// Of returns the wrapped counterpart of a probe-dependent model: probe π'
// runs on W(src(π)), where π is the pullback of π' (the quotient a wrapped
// agent sees is the wrapper applied to the quotient its pullback sees).
func (w Wrapper) Of(src Model) Model {
	return func(pi *fsc.FSC) (*pomdp.Model, error) {
		pb, err := w.Pullback(pi)
		if err != nil {
			return nil, err
		}
		m, err := src(pb)
		if err != nil {
			return nil, err
		}
		return w.Apply(m)
	}
}
