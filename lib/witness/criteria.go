package witness

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Criterion names a separation the search looks for.
type Criterion string

// The criteria. A "-free" criterion asks that the separation not depend
// on the impossible-history stand-in (docs/conventions.md#stand-ins): for Clk and Mem,
// some pair of histories merged by the smaller family and split by the
// larger is possible under every probe of both (so the pair is merged and
// split whatever the stand-in); for Metric, where greedy linkage couples
// all histories of a depth, every history of the separating depth is
// possible under every probe.
const (
	// Clk: the operational quotient Q_op (the |A| constant action strings)
	// differs from the clock-aware m = 1 quotient Q_clk (all of A^T),
	// computed exactly by package clock (point-mass stand-in).
	Clk Criterion = "clk"
	// ClkFree is Clk with no stand-in at the separating depth.
	ClkFree Criterion = "clk-free"
	// Mem: the exact (ε = 0) quotients of the deterministic stationary
	// families with m = 1 and m ≤ 2 nodes differ (package distance, the
	// operational pipeline's uniform stand-in).
	Mem Criterion = "m2"
	// MemFree is Mem with no stand-in at the separating depth.
	MemFree Criterion = "m2-free"
	// Metric: the greedy ε-partitions under W1 (discrete ground metric,
	// additive sequence cost) and under TV differ at some ε, for the m = 1
	// stationary family (package distance, uniform stand-in).
	Metric Criterion = "tv"
	// MetricFree is Metric with no stand-in at the separating depth.
	MetricFree Criterion = "tv-free"
)

// Criteria lists every criterion in the order the search reports them.
var Criteria = []Criterion{Clk, ClkFree, Mem, MemFree, Metric, MetricFree}

// ParseCriteria parses a comma-separated list of criteria ("all" for
// every one).
func ParseCriteria(s string) ([]Criterion, error) {
	if s == "" || s == "all" {
		return slices.Clone(Criteria), nil
	}
	var out []Criterion
	for _, f := range strings.Split(s, ",") {
		c := Criterion(strings.TrimSpace(f))
		if !slices.Contains(Criteria, c) {
			return nil, fmt.Errorf("witness: unknown criterion %q (want clk, clk-free, m2, m2-free, tv, tv-free or all)", f)
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// Free reports whether c asks for a stand-in-free separation.
func (c Criterion) Free() bool { return strings.HasSuffix(string(c), "-free") }

// base returns the criterion without "-free".
func (c Criterion) base() Criterion { return Criterion(strings.TrimSuffix(string(c), "-free")) }

// Describe returns a one-line description.
func (c Criterion) Describe() string {
	var d string
	switch c.base() {
	case Clk:
		d = "Q_op ≠ Q_clk (m = 1: constant strings vs all action strings)"
	case Mem:
		d = "stationary m = 1 and m ≤ 2 exact quotients differ"
	case Metric:
		d = "W1 and TV ε-partitions differ at some ε (m = 1 stationary, discrete metric)"
	}
	if c.Free() {
		if c.base() == Metric {
			d += ", every history of the separating depth possible under every probe"
		} else {
			d += ", for a pair of histories possible under every probe"
		}
	}
	return d
}

// ruledOut returns a reason why no model of class c separates at horizon
// T under criterion cr, or "" when the class has to be searched.
func ruledOut(cr Criterion, c Class, T int) string {
	switch {
	case T <= 1:
		return "T ≤ 1: depth 0 has one history and depth T is one class"
	case c.O == 1:
		return "|O| = 1: one history per depth"
	case cr.base() != Metric && c.A == 1:
		return "|A| = 1: both families have the same single behaviour"
	case cr.base() == Metric && T <= 2:
		return "T ≤ 2: suffixes of length ≤ 1, where W1 under the discrete metric is TV"
	case cr.Free() && c.Grid.Dyn == 1 && c.Grid.Init == 1:
		return "fully deterministic: one possible history per probe and depth, so no two histories are possible together"
	case cr.Free() && c.S == 1 && cr.base() == Clk:
		return "|S| = 1 and no stand-in: every possible history has the same law under an open-loop string"
	}
	return ""
}

// hit is what the fast path found on one model: the partitions of the two
// families (or metrics), the separating depth and, for Metric, the ε.
type hit struct {
	Small, Large *partition.Partition // Clk/Mem: m = 1 / larger family; Metric: W1 / TV
	Depth        int
	Eps          float64
}

// families returns the probes of the two families of a criterion as
// controllers (the larger family last; for Metric both are the m = 1
// stationary family).
func families(cr Criterion, nA, nO, T int) (small, large fsc.Family, err error) {
	switch cr.base() {
	case Clk:
		var s, l []*fsc.FSC
		for a := 0; a < nA; a++ {
			s = append(s, fsc.OpenLoop(nA, nO, slices.Repeat([]int{a}, T)))
		}
		f, err := fsc.NewClock(nA, nO, 1, T, fsc.Options{})
		if err != nil {
			return nil, nil, err
		}
		for i := 0; i < f.Len(); i++ {
			l = append(l, f.At(i))
		}
		return &fsc.List{Ctrls: s, K: fsc.KindClock, Mem: 1, Hor: T}, &fsc.List{Ctrls: l, K: fsc.KindClock, Mem: 1, Hor: T}, nil
	case Mem:
		s, err := fsc.NewStationary(nA, nO, 1, fsc.Options{})
		if err != nil {
			return nil, nil, err
		}
		l, err := fsc.NewStationary(nA, nO, 2, fsc.Options{})
		return s, l, err
	default:
		s, err := fsc.NewStationary(nA, nO, 1, fsc.Options{})
		return s, s, err
	}
}

// test runs the fast path of criterion cr on model m at horizon T.
func test(ctx context.Context, cr Criterion, m *pomdp.Model, T int) (*hit, error) {
	var h *hit
	var err error
	switch cr.base() {
	case Clk:
		h, err = testClk(ctx, m, T)
	case Mem:
		h, err = testMem(ctx, m, T)
	case Metric:
		h, err = testMetric(ctx, m, T, cr.Free())
	}
	if err != nil || h == nil {
		return nil, err
	}
	if !cr.Free() {
		h.Depth = firstDiff(h.Small, h.Large, nil)
		return h, nil
	}
	if cr.base() == Metric {
		return h, nil // testMetric already chose a free depth
	}
	_, large, err := families(cr, m.NumActions(), m.NumObservations(), T)
	if err != nil {
		return nil, err
	}
	h.Depth = -1
	for t := range h.Small.Labels {
		if slices.Equal(h.Small.Labels[t], h.Large.Labels[t]) {
			continue
		}
		if _, _, ok := freePair(h.Small.Labels[t], h.Large.Labels[t], possibleAll(m, large, t)); ok {
			h.Depth = t
			return h, nil
		}
	}
	return nil, nil
}

// freePair returns the first pair i < j merged by small and split by
// large with both histories possible (poss nil: any pair).
func freePair(small, large []int, poss []bool) (int, int, bool) {
	for i := range small {
		if poss != nil && !poss[i] {
			continue
		}
		for j := i + 1; j < len(small); j++ {
			if small[i] == small[j] && large[i] != large[j] && (poss == nil || poss[j]) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

// firstDiff returns the first depth where p and q differ and ok(t) holds
// (ok nil: any), or −1.
func firstDiff(p, q *partition.Partition, ok func(t int) bool) int {
	for t := range p.Labels {
		if !slices.Equal(p.Labels[t], q.Labels[t]) && (ok == nil || ok(t)) {
			return t
		}
	}
	return -1
}

func testClk(ctx context.Context, m *pomdp.Model, T int) (*hit, error) {
	h, err := partitionsClk(ctx, m, T)
	if err != nil || h.Small.Equal(h.Large) {
		return nil, err
	}
	return h, nil
}

// partitionsClk returns Q_op and Q_clk (package clock).
func partitionsClk(ctx context.Context, m *pomdp.Model, T int) (*hit, error) {
	r, err := clock.Quotients(ctx, m, T, nil)
	if err != nil {
		return nil, err
	}
	return &hit{Small: r.Op, Large: r.Clk}, nil
}

func testMem(ctx context.Context, m *pomdp.Model, T int) (*hit, error) {
	h, err := partitionsMem(ctx, m, T)
	if err != nil || h.Small.Equal(h.Large) {
		return nil, err
	}
	return h, nil
}

// partitionsMem returns the exact m = 1 and m ≤ 2 stationary partitions
// (package distance, uniform stand-in).
func partitionsMem(ctx context.Context, m *pomdp.Model, T int) (*hit, error) {
	s, l, err := families(Mem, m.NumActions(), m.NumObservations(), T)
	if err != nil {
		return nil, err
	}
	opt := distance.Options{Convention: law.UniformStandIn, Workers: 1}
	rs, err := distance.Exact(ctx, m, s, T, opt)
	if err != nil {
		return nil, err
	}
	rl, err := distance.Exact(ctx, m, l, T, opt)
	if err != nil {
		return nil, err
	}
	return &hit{Small: rs.Partition, Large: rl.Partition}, nil
}

// testMetric compares the greedy partitions under W1 and TV at every ε
// where either can change: the distinct distance values of both (the
// partition at ε depends only on which distances are ≤ ε, so these values
// cover every ε ≥ 0).
func testMetric(ctx context.Context, m *pomdp.Model, T int, free bool) (*hit, error) {
	s, _, err := families(Metric, m.NumActions(), m.NumObservations(), T)
	if err != nil {
		return nil, err
	}
	opt := distance.Options{Convention: law.UniformStandIn, Workers: 1, FullLimit: -1, MemBudget: -1}
	opt.Metric = distance.W1
	rw, err := distance.Compute(ctx, m, s, T, opt)
	if err != nil {
		return nil, err
	}
	opt.Metric = distance.TV
	rt, err := distance.Compute(ctx, m, s, T, opt)
	if err != nil {
		return nil, err
	}
	var eps []float64
	for _, r := range []*distance.Result{rw, rt} {
		for _, d := range r.ClassD {
			eps = append(eps, d.Data...)
		}
	}
	slices.Sort(eps)
	eps = slices.Compact(eps)
	var ok func(t int) bool
	if free {
		ok = func(t int) bool { return !slices.Contains(possibleAll(m, s, t), false) }
	}
	for _, e := range eps {
		if e < partition.ZeroTol {
			continue // the exact partitions agree (equal laws are at distance 0 in both)
		}
		pw, pt := rw.Partition(e), rt.Partition(e)
		if t := firstDiff(pw, pt, ok); t >= 0 {
			return &hit{Small: pw, Large: pt, Depth: t, Eps: e}, nil
		}
	}
	return nil, nil
}

// possibleAll reports, for every depth-t history, whether it has positive
// probability under every controller of fam (a support computation: no
// probabilities are multiplied).
func possibleAll(m *pomdp.Model, fam fsc.Family, t int) []bool {
	nS, nO := m.NumStates(), m.NumObservations()
	n := int(math.Pow(float64(nO), float64(t)))
	all := make([]bool, n)
	for i := range all {
		all[i] = true
	}
	seen := make([]bool, n)
	for i := 0; i < fam.Len(); i++ {
		c := fam.At(i)
		clear(seen)
		var dfs func(k, node, idx int, sup []bool)
		dfs = func(k, node, idx int, sup []bool) {
			if k == t {
				seen[idx] = true
				return
			}
			a := c.Action(k, node)
			for o := 0; o < nO; o++ {
				next := make([]bool, nS)
				any := false
				for s := 0; s < nS; s++ {
					if !sup[s] {
						continue
					}
					for s2 := 0; s2 < nS; s2++ {
						if m.TransitionProb(s, a, s2) > 0 && m.ObsProb(s2, a, o) > 0 {
							next[s2], any = true, true
						}
					}
				}
				if any {
					dfs(k+1, c.NextNode(k, node, o), idx*nO+o, next)
				}
			}
		}
		sup := make([]bool, nS)
		for s, p := range m.B0 {
			sup[s] = p > 0
		}
		dfs(0, 0, 0, sup)
		for k := range all {
			all[k] = all[k] && seen[k]
		}
	}
	return all
}
