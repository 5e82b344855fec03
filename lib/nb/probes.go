package nb

import (
	"context"
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/certify"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// ProbeFamily is the deterministic stationary family of m with at most mem
// nodes; with mixed, one more probe follows them: the one-node controller
// playing every action with equal probability.
func ProbeFamily(m *pomdp.Model, mem int, mixed bool) (fsc.Family, error) {
	nA, nO := m.NumActions(), m.NumObservations()
	st, err := fsc.NewStationary(nA, nO, mem, fsc.Options{})
	if err != nil || !mixed {
		return st, err
	}
	l := &fsc.List{Name: st.String() + " + uniform mixed", K: fsc.KindStationary, Mem: mem}
	for i := 0; i < st.Len(); i++ {
		l.Ctrls = append(l.Ctrls, st.At(i))
	}
	p := make([]float64, nA)
	for a := range p {
		p[a] = 1 / float64(nA)
	}
	l.Ctrls = append(l.Ctrls, fsc.Mixed(nO, p))
	return l, nil
}

// HistoryName names an observation history by its observations' names:
// "ε" for the empty history, "LRL" when every name is one character,
// "NE·SW" otherwise.
func HistoryName(obsNames []string, hist []int) string {
	if len(hist) == 0 {
		return "ε"
	}
	var names []string
	sep := ""
	for _, o := range hist {
		names = append(names, obsNames[o])
		if len(obsNames[o]) > 1 {
			sep = "·"
		}
	}
	return strings.Join(names, sep)
}

// ProbeName describes controller c of model m with action names: "always
// listen", "2 nodes, α=(listen,open-left), β=[...]", or "stochastic 1-node,
// uniform actions" for a stochastic controller.
func ProbeName(m *pomdp.Model, c *fsc.FSC) string {
	switch {
	case !c.Deterministic():
		return "stochastic 1-node, uniform actions"
	case c.Nodes == 1:
		return "always " + m.Actions[c.Action(0, 0)]
	}
	var acts []string
	for n := 0; n < c.Nodes; n++ {
		acts = append(acts, m.Actions[c.Action(0, n)])
	}
	return fmt.Sprintf("%d nodes, α=(%s), β=%v", c.Nodes, strings.Join(acts, ","), c.Next[0])
}

// SplitTiger is Tiger with tiger_left split into two copies (weights 0.3
// and 0.7): other states, transitions and initial belief, but exactly
// Tiger's observation laws, so that its exact quotient is Tiger's.
func SplitTiger() (*pomdp.Model, error) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		return nil, err
	}
	m := b.Model
	orig, w := []int{0, 0, 1}, []float64{0.3, 0.7, 1}
	d := pomdp.Dense{Name: "tiger, left state split", States: []string{"left_a", "left_b", "right"},
		Actions: m.Actions, Observations: m.Observations, B0: []float64{0.15, 0.35, 0.5}}
	for a := range m.Actions {
		T, Z := make([][]float64, 3), make([][]float64, 3)
		for s := range T {
			T[s], Z[s] = make([]float64, 3), make([]float64, m.NumObservations())
			for s2 := range T[s] {
				T[s][s2] = m.TransitionProb(orig[s], a, orig[s2]) * w[s2]
			}
			for o := range Z[s] {
				Z[s][o] = m.ObsProb(orig[s], a, o)
			}
		}
		d.T, d.Z = append(d.T, T), append(d.Z, Z)
	}
	return pomdp.New(d)
}

// GreedyAgreement computes the distances of family fam on m at horizon T
// (default ground metric, with their tensor) and certify.Agreement's report
// at ε = eps for the greedy subsets of the sizes ks.
func GreedyAgreement(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, eps float64, ks []int) ([]certify.Row, error) {
	r, err := distance.Compute(ctx, m, fam, T, distance.Options{Tensor: true})
	if err != nil {
		return nil, err
	}
	t, err := certify.FromResult(r)
	if err != nil {
		return nil, err
	}
	return certify.Agreement(t, eps, ks), nil
}

// Probes returns the probes of fam at the indices idx; an index out of
// range is an error.
func Probes(fam fsc.Family, idx []int) ([]*fsc.FSC, error) {
	var out []*fsc.FSC
	for _, i := range idx {
		if i < 0 || i >= fam.Len() {
			return nil, fmt.Errorf("nb: Probes: index %d out of range [0, %d)", i, fam.Len())
		}
		out = append(out, fam.At(i))
	}
	return out, nil
}

// ClassLabel names class c of depth t of partition p by its members'
// labels (label(t, i) for history i), at most four shown then "…":
// "{LL, LR, RL, …}".
func ClassLabel(p *partition.Partition, t, c int, label func(t, i int) string) string {
	return "{" + strings.Join(memberNames(p, t, c, label, 4), ", ") + "}"
}

// memberNames returns the labels of the members of class c of depth t of
// p, the first limit of them and then "…" if there are more.
func memberNames(p *partition.Partition, t, c int, label func(t, i int) string, limit int) []string {
	var names []string
	for k, i := range p.Members(t, c) {
		if k == limit {
			names = append(names, "…")
			break
		}
		names = append(names, label(t, i))
	}
	return names
}
