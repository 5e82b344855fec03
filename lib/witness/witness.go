package witness

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Atom is one outcome of a suffix law: the observation suffix (names
// separated by spaces, "ε" when empty) and its probability.
type Atom struct {
	Suffix string  `json:"suffix"`
	P      float64 `json:"p"`
}

// ProbeLaws gives the suffix laws of the certificate's two histories
// under one probe.
type ProbeLaws struct {
	Probe string `json:"probe"`
	Law1  []Atom `json:"law1"`
	Law2  []Atom `json:"law2"`
	// Distance is W1 (discrete metric) or TV between Law1 and Law2, as
	// the certificate field says.
	Distance float64 `json:"distance"`
}

// Witness is a model and horizon that separates the two families (or
// metrics) of a criterion, with a certificate re-derived by the oracle.
type Witness struct {
	Criterion Criterion `json:"criterion"`
	Class     Class     `json:"class"`
	T         int       `json:"T"`
	// Index is the model's number in its class (mixed radix over the
	// rows, see Search) when the class is enumerated, −1 when sampled;
	// Code lists the composition index of every row.
	Index int64        `json:"index"`
	Code  []int        `json:"code"`
	Model *pomdp.Model `json:"-"`
	// Depth is the separating depth; Small and Large the class counts per
	// depth of the two partitions (Clk: Q_op and Q_clk; Mem: m = 1 and
	// m ≤ 2; Metric: W1 and TV at Eps).
	Depth        int   `json:"depth"`
	SmallCounts  []int `json:"small_counts"`
	LargeCounts  []int `json:"large_counts"`
	SmallClasses int   `json:"small_classes"`
	LargeClasses int   `json:"large_classes"`
	// Eps is the ε at which the W1 and TV partitions differ (Metric).
	Eps float64 `json:"eps,omitempty"`
	// H1 and H2 are the certificate's histories at Depth.
	H1 string `json:"h1"`
	H2 string `json:"h2"`
	// Separating (Clk, Mem): the first probe of the larger family whose
	// laws after H1 and H2 differ; Same: the laws under every probe of
	// the smaller family, equal for H1 and H2.
	Separating *ProbeLaws  `json:"separating,omitempty"`
	Same       []ProbeLaws `json:"same,omitempty"`
	// W1 and TV (Metric): the maximising probe and the laws of H1 and H2
	// for each distance; Distance holds d^Π in that metric.
	W1 *ProbeLaws `json:"w1,omitempty"`
	TV *ProbeLaws `json:"tv,omitempty"`
	// Possible: both histories have positive probability under every
	// probe of both families (always true for a "-free" criterion).
	Possible bool `json:"possible"`
	// Verified is set when the oracle reproduced both partitions at every
	// depth and the certificate.
	Verified bool `json:"verified"`
	// SmallestClass (Search only) is set when every earlier class of the
	// search order (same grid) was exhausted or settled by an argument
	// for this criterion, so no smaller class holds a witness. It is
	// false when an earlier class was only sampled or cut by a budget:
	// the witness is then the smallest found, not the smallest.
	SmallestClass bool `json:"smallest_class"`

	small, large *partition.Partition
}

// atoms converts a law over O^k into its non-zero atoms.
func atoms(m *pomdp.Model, l []float64, k int) []Atom {
	var out []Atom
	for x, p := range l {
		if p == 0 {
			continue
		}
		out = append(out, Atom{Suffix: seqLabel(m, digits(x, m.NumObservations(), k)), P: p})
	}
	return out
}

func seqLabel(m *pomdp.Model, seq []int) string {
	if len(seq) == 0 {
		return "ε"
	}
	parts := make([]string, len(seq))
	for i, o := range seq {
		parts[i] = m.Observations[o]
	}
	return strings.Join(parts, " ")
}

func probeLabel(m *pomdp.Model, p oprobe) string {
	c := p.controller(m.NumActions(), m.NumObservations())
	if p.open != nil {
		return "open-loop " + c.ActionString(m.Actions, len(p.open))
	}
	if len(p.act) == 1 {
		return "constant " + m.Actions[p.act[0]]
	}
	var b strings.Builder
	for n := range p.act {
		if n > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "node %d: %s", n, m.Actions[p.act[n]])
		for o, n2 := range p.next[n] {
			fmt.Fprintf(&b, ", %s→%d", m.Observations[o], n2)
		}
	}
	return "2-node " + b.String()
}

// Certify re-derives the witness with the oracle (explicit probe lists,
// laws by summing over state sequences, own grouping and greedy
// linkage): both partitions must agree with the fast path's at every
// depth, differ at Depth, and, for a "-free" criterion, every history of
// Depth must be possible under every probe. It fills the certificate and
// sets Verified, or returns an error describing the disagreement. It
// refuses, before computing anything, a problem whose OracleWork exceeds
// MaxOracleWork.
func (w *Witness) Certify() error {
	m, T, cr := w.Model, w.T, w.Criterion
	nA, nO := m.NumActions(), m.NumObservations()
	if err := checkOracleWork(cr, m.NumStates(), nO, nA, T); err != nil {
		return err
	}
	small, large := oracleFamily(cr, nA, nO, T)
	pointMass := cr.base() == Clk
	lawsOf := func(ps []oprobe) (l [][][][]float64, poss [][][]bool) {
		for _, p := range ps {
			a, b := oracleLaws(m, p, T, pointMass)
			l = append(l, a)
			poss = append(poss, b)
		}
		return l, poss
	}
	tree, err := law.NewTree(nO, T)
	if err != nil {
		return err
	}
	label := func(t, i int) string { return tree.Label(m.Observations, t, i) }
	ls, _ := lawsOf(small)
	ll, possL := lawsOf(large)
	t0 := w.Depth
	// poss[i]: depth-t0 history i is possible under every probe of the
	// larger family (oracle).
	poss := make([]bool, tree.Count(t0))
	for i := range poss {
		poss[i] = true
		for k := range possL {
			poss[i] = poss[i] && possL[k][t0][i]
		}
	}
	if cr.Free() && cr.base() == Metric {
		for i, ok := range poss {
			if !ok {
				return fmt.Errorf("witness: oracle: history %s is impossible under some probe", label(t0, i))
			}
		}
	}
	var i1, i2 int
	switch cr.base() {
	case Clk, Mem:
		i1, i2, err = w.certifyPartitions(tree, small, large, ls, ll, poss)
	case Metric:
		i1, i2, err = w.certifyMetric(nO, large, ll)
	}
	if err != nil {
		return err
	}
	w.H1, w.H2 = label(t0, i1), label(t0, i2)
	w.Possible = poss[i1] && poss[i2]
	w.Verified = true
	return nil
}

// certifyPartitions is Certify for Clk and Mem: the oracle's classes
// from the laws ls (smaller family) and ll (larger family) must equal
// the fast path's at every depth, and a pair of histories at w.Depth
// merged by one family and split by the other is returned (possible
// under every probe when the criterion is free) with its laws recorded.
func (w *Witness) certifyPartitions(tree law.Tree, small, large []oprobe, ls, ll [][][][]float64, poss []bool) (i1, i2 int, err error) {
	T, t0, cr := w.T, w.Depth, w.Criterion
	for t := 0; t <= T; t++ {
		var s, l []int
		if t == T {
			s, l = make([]int, tree.Count(t)), make([]int, tree.Count(t))
		} else {
			s, l = oracleClasses(ls, t), oracleClasses(ll, t)
		}
		if !slices.Equal(s, w.small.Labels[t]) || !slices.Equal(l, w.large.Labels[t]) {
			return 0, 0, fmt.Errorf("witness: oracle and fast path disagree at depth %d: oracle %v / %v, fast path %v / %v",
				t, s, l, w.small.Labels[t], w.large.Labels[t])
		}
	}
	s, l := w.small.Labels[t0], w.large.Labels[t0]
	var pp []bool
	if cr.Free() {
		pp = poss
	}
	i1, i2, ok := oraclePair(s, l, pp)
	if !ok {
		return 0, 0, fmt.Errorf("witness: oracle: no pair at depth %d merged by the smaller family and split by the larger (possible under every probe: %v)", t0, cr.Free())
	}
	for k := range large {
		if !sameLaw(ll[k][t0][i1], ll[k][t0][i2]) {
			w.Separating = w.probeLaws(large[k], ll[k][t0][i1], ll[k][t0][i2], -1)
			break
		}
	}
	w.Same = nil
	for k := range small {
		w.Same = append(w.Same, *w.probeLaws(small[k], ls[k][t0][i1], ls[k][t0][i2], -1))
	}
	return i1, i2, nil
}

// certifyMetric is Certify for Metric: the oracle's greedy W1 and TV
// partitions of the larger family's laws ll must equal the fast path's
// at every depth below T, and a pair at w.Depth on which they disagree
// is returned with its laws and distances recorded.
func (w *Witness) certifyMetric(nO int, large []oprobe, ll [][][][]float64) (i1, i2 int, err error) {
	T, t0 := w.T, w.Depth
	for t := 0; t < T; t++ {
		dw, dt, aw, at, err := oracleDistances(nO, T, t, ll)
		if err != nil {
			return 0, 0, err
		}
		pw, pt := oracleGreedy(dw, w.Eps), oracleGreedy(dt, w.Eps)
		if !slices.Equal(pw, w.small.Labels[t]) || !slices.Equal(pt, w.large.Labels[t]) {
			return 0, 0, fmt.Errorf("witness: oracle and fast path disagree at depth %d, ε = %g: oracle W1 %v / TV %v, fast path %v / %v",
				t, w.Eps, pw, pt, w.small.Labels[t], w.large.Labels[t])
		}
		if t != t0 {
			continue
		}
		i1 = -1
		for i := 0; i < len(pw) && i1 < 0; i++ {
			for j := i + 1; j < len(pw); j++ {
				if (pw[i] == pw[j]) != (pt[i] == pt[j]) {
					i1, i2 = i, j
					break
				}
			}
		}
		if i1 < 0 {
			return 0, 0, fmt.Errorf("witness: oracle: W1 and TV partitions agree at depth %d, ε = %g", t0, w.Eps)
		}
		kw, kt := aw[i1][i2], at[i1][i2]
		w.W1 = w.probeLaws(large[kw], ll[kw][t0][i1], ll[kw][t0][i2], dw[i1][i2])
		w.TV = w.probeLaws(large[kt], ll[kt][t0][i1], ll[kt][t0][i2], dt[i1][i2])
	}
	return i1, i2, nil
}

// oraclePair is the oracle's own search for the first pair i < j merged
// by small and split by large, both possible when poss is not nil.
func oraclePair(small, large []int, poss []bool) (int, int, bool) {
	for i := 0; i < len(small); i++ {
		for j := i + 1; j < len(small); j++ {
			if small[i] != small[j] || large[i] == large[j] {
				continue
			}
			if poss == nil || poss[i] && poss[j] {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

func (w *Witness) probeLaws(p oprobe, l1, l2 []float64, d float64) *ProbeLaws {
	k := w.T - w.Depth
	pl := &ProbeLaws{Probe: probeLabel(w.Model, p), Law1: atoms(w.Model, l1, k), Law2: atoms(w.Model, l2, k), Distance: d}
	if d < 0 {
		tv := 0.0
		for x := range l1 {
			tv += abs(l1[x] - l2[x])
		}
		pl.Distance = tv / 2
	}
	return pl
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func lawString(l []Atom) string {
	parts := make([]string, len(l))
	for i, a := range l {
		parts[i] = fmt.Sprintf("%s: %.4g", a.Suffix, a.P)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// String describes the witness and its certificate on a few lines.
func (w *Witness) String() string {
	var b strings.Builder
	if w.Index >= 0 {
		fmt.Fprintf(&b, "%s: %s, T = %d (model %d of the class)\n", w.Criterion, w.Class, w.T, w.Index)
	} else if w.Class.Grid.Dyn > 0 {
		fmt.Fprintf(&b, "%s: %s, T = %d (sampled)\n", w.Criterion, w.Class, w.T)
	} else {
		fmt.Fprintf(&b, "%s: %s |S|=%d |O|=%d |A|=%d, T = %d\n", w.Criterion, w.Model.Name, w.Class.S, w.Class.O, w.Class.A, w.T)
	}
	names := map[Criterion][2]string{Clk: {"Q_op", "Q_clk"}, Mem: {"m = 1", "m ≤ 2"}, Metric: {"W1", "TV"}}[w.Criterion.base()]
	fmt.Fprintf(&b, "  classes %s = %d %v, %s = %d %v", names[0], w.SmallClasses, w.SmallCounts, names[1], w.LargeClasses, w.LargeCounts)
	if w.Criterion.base() == Metric {
		fmt.Fprintf(&b, " at ε = %.6g", w.Eps)
	}
	fmt.Fprintf(&b, "; separating depth %d: %s vs %s\n", w.Depth, w.H1, w.H2)
	switch w.Criterion.base() {
	case Clk, Mem:
		for _, s := range w.Same {
			fmt.Fprintf(&b, "  same under %s: %s\n", s.Probe, lawString(s.Law1))
		}
		if s := w.Separating; s != nil {
			fmt.Fprintf(&b, "  separated by %s: %s vs %s (TV %.4g)\n", s.Probe, lawString(s.Law1), lawString(s.Law2), s.Distance)
		}
	case Metric:
		for _, x := range []struct {
			name string
			p    *ProbeLaws
		}{{"W1", w.W1}, {"TV", w.TV}} {
			if x.p != nil {
				fmt.Fprintf(&b, "  %s = %.6g under %s: %s vs %s\n", x.name, x.p.Distance, x.p.Probe, lawString(x.p.Law1), lawString(x.p.Law2))
			}
		}
	}
	fmt.Fprintf(&b, "  both histories possible under every probe: %v; verified by brute force: %v", w.Possible, w.Verified)
	return b.String()
}

// Partitions returns the two partitions the fast path computed (Clk:
// Q_op and Q_clk; Mem: m = 1 and m ≤ 2; Metric: W1 and TV at Eps).
func (w *Witness) Partitions() (small, large *partition.Partition) { return w.small, w.large }
