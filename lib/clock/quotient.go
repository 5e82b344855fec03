package clock

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Default limits (see Options).
const (
	// DefaultMaxWork bounds the work estimate Σ_{t=0..T} |O|^t·|A|^t, the
	// number of (history, action prefix) pairs a naive computation would
	// visit (Tiger T = 10: 7.3·10^7).
	DefaultMaxWork = 1e8
	// DefaultMaxNodes bounds the number of interned beliefs and the number
	// of interned prefix-tree nodes (each separately).
	DefaultMaxNodes = 1 << 24
)

// ErrTooLarge is returned (wrapped) when a computation would exceed, or
// has exceeded, a limit of Options.
var ErrTooLarge = errors.New("clock: problem too large")

// Options set limits and the transport of Distances. The zero value (and
// a nil *Options) means the defaults.
type Options struct {
	// MaxWork bounds Σ_{t=0..T} |O|^t·|A|^t; larger problems are refused
	// before any work. If MaxWork is 0 it defaults to DefaultMaxWork.
	// Distances also bounds the number of nested transport values and
	// law atoms it computes by MaxWork.
	MaxWork float64
	// MaxNodes bounds the number of interned beliefs and of interned
	// prefix-tree nodes; the computation stops with ErrTooLarge when one
	// is exceeded. If MaxNodes is 0 it defaults to DefaultMaxNodes.
	MaxNodes int
	// Transport selects the distance between suffix laws used by
	// Distances (default TransportW1).
	Transport Transport
	// MaxBytes bounds the estimated peak resident memory of the whole
	// computation, in bytes (0: distance.DefaultMemBudget(), half of the
	// physical memory or of the cgroup limit; negative: none). What can be
	// sized beforehand is checked before it is allocated (the history
	// vectors; NewDistances' class-level stage, EstimateCost, once the
	// quotients are known); the tables that grow with what the run meets
	// (beliefs, prefix-tree nodes, belief pairs) are metered as they grow
	// and stopped past the budget. Either way the error is a *BudgetError
	// (wrapping ErrTooLarge) naming the phase and the largest term.
	MaxBytes float64
	// Convention selects how Quotients labels histories that are
	// impossible under some prefix, and histories of depth T (default
	// PointMass, the reading of def:equiv).
	Convention Convention
	// Progress, if non-nil, is called by NewDistances, on its goroutine,
	// after each row of class pairs with the number of class pairs done
	// and their total (EstimateCost's ClkPairs + OpPairs); the last call
	// has done = total. Cancelling the context from Progress stops the
	// computation.
	Progress func(done, total int)
}

func (o *Options) get() Options {
	var v Options
	if o != nil {
		v = *o
	}
	if v.MaxWork == 0 {
		v.MaxWork = DefaultMaxWork
	}
	if v.MaxNodes == 0 {
		v.MaxNodes = DefaultMaxNodes
	}
	if v.MaxBytes == 0 {
		v.MaxBytes = float64(distance.DefaultMemBudget())
	}
	return v
}

// Work returns the work estimate Σ_{t=0..T} |O|^t·|A|^t that Options.MaxWork
// bounds: the number of (history, action prefix) pairs of the clock-aware
// m = 1 family.
func Work(nA, nO, T int) float64 {
	w := 0.0
	for t := 0; t <= T; t++ {
		w += math.Pow(float64(nA*nO), float64(t))
	}
	return w
}

// Convention selects how Quotients labels impossible (history, prefix)
// pairs and the histories of depth T. The zero value is PointMass.
type Convention int

const (
	// PointMass is the reading of def:equiv: a history of probability 0
	// under a prefix gets the point-mass law on the all-first-observation
	// suffix (law.PointMassStandIn), histories are equivalent when every
	// probe gives them equal laws, and the op family compares beliefs
	// under the constant continuation only (~_{t,a}). Depth T is one class.
	PointMass Convention = iota
	// PossibilityPattern is the reading of the authors' exact pipeline
	// (docs/conventions.md#possibility-pattern; the printed stationary-witness row of
	// tab:probe-family-comparison). Every observation string of each depth,
	// impossible ones included, is labelled by its possibility pattern:
	// for each prefix of the family (all of A^t for clk, the constant ones
	// a^t for op), whether the string has positive probability and, if so,
	// the class of the belief it reaches. The belief class is the
	// all-strings relation ~_t for both families (the pipeline interns
	// beliefs once and compares their classes), so op differs from
	// PointMass also where ~_t is finer than ~_{t,a}. Strings impossible
	// under every prefix form a class of their own, and at depth T the
	// strings are split by the pattern alone (possible or not under each
	// full string). For models where every string is possible under every
	// prefix it changes only op's belief relation (nothing on Tiger or
	// GridWorld, checked in the tests); on the stationary witness at T = 3
	// it gives |Q_op| = 9 = 1+3+3+2, |Q_clk| = 10 = 1+3+3+3, ARI 0.957.
	PossibilityPattern
)

// String returns "point-mass" or "possibility-pattern".
func (c Convention) String() string {
	switch c {
	case PointMass:
		return "point-mass"
	case PossibilityPattern:
		return "possibility-pattern"
	}
	return fmt.Sprintf("Convention(%d)", int(c))
}

// ParseConvention accepts "point-mass" and "possibility-pattern".
func ParseConvention(s string) (Convention, error) {
	switch s {
	case "point-mass", "pointmass", "":
		return PointMass, nil
	case "possibility-pattern", "pattern":
		return PossibilityPattern, nil
	}
	return 0, fmt.Errorf("clock: unknown convention %q (want point-mass or possibility-pattern)", s)
}

// Result holds the exact m = 1 clock-aware and operational quotients of a
// model at horizon T.
type Result struct {
	T int
	// Convention is the labelling used (Options.Convention).
	Convention Convention
	// Clk and Op label every history (t, i) by its class under the
	// open-loop strings A^T (Π^clk_{1,T}) and under the |A| constant strings
	// (Π^op, m = 1), numbered per depth in order of first appearance in
	// lexicographic history order. Depth T is one class.
	Clk, Op *partition.Partition
	// ARI is the adjusted Rand index of Op and Clk on the labels of all
	// depths concatenated (docs/conventions.md#ari).
	ARI float64
	// Beliefs is the number of distinct beliefs met (rounded to 12
	// decimals; the stand-in not counted), Nodes the number of interned
	// prefix-tree nodes.
	Beliefs, Nodes int
	// StandIns and OpStandIns count the (history, probe) pairs whose law
	// is the point-mass stand-in, summed over the |A|^T open-loop probes
	// and over the |A| constant probes (depth-T histories included), as
	// the sum of law.Laws.StandIns over the family would.
	StandIns, OpStandIns int64
	// Work is the estimate Σ_t |O|^t·|A|^t checked against Options.MaxWork.
	Work float64
}

// String summarises the result on one line.
func (r *Result) String() string {
	f := func(p *partition.Partition) string {
		c := p.Counts()
		s := make([]string, len(c))
		for i, v := range c {
			s[i] = fmt.Sprint(v)
		}
		return fmt.Sprintf("%d (%s)", p.Total(), strings.Join(s, "+"))
	}
	return fmt.Sprintf("T=%d %v |Q_op|=%s |Q_clk|=%s ARI=%.3f beliefs=%d stand-ins=%d/%d",
		r.T, r.Convention, f(r.Op), f(r.Clk), r.ARI, r.Beliefs, r.StandIns, r.OpStandIns)
}

// engine holds the interned beliefs, classes and prefix trees of one
// model and horizon.
type engine struct {
	m    *pomdp.Model
	T    int
	opts Options
	bs   *beliefs
	cls  *classes
	px   *prefixes
	// vec[t][i] is the prefix tree of history (t, i).
	vec [][]ref
	g   *guard
}

func checkArgs(m *pomdp.Model, T int, opts Options) (float64, error) {
	if m == nil {
		return 0, errors.New("clock: nil model")
	}
	if T < 0 {
		return 0, fmt.Errorf("clock: horizon T = %d is negative", T)
	}
	w := Work(m.NumActions(), m.NumObservations(), T)
	if w > opts.MaxWork {
		return w, fmt.Errorf("%w: %s at T = %d needs about %.3g (history, prefix) pairs, above MaxWork = %.3g; lower T or raise Options.MaxWork",
			ErrTooLarge, m, T, w, opts.MaxWork)
	}
	return w, nil
}

// newEngine returns the engine of m at horizon T, metered by a new guard
// (Options.MaxBytes, ctx). It refuses, before allocating them, history
// vectors and labels that alone exceed the budget.
func newEngine(ctx context.Context, m *pomdp.Model, T int, opts Options) (*engine, error) {
	g := newGuard(ctx, m.String(), T, opts.MaxBytes)
	// The prefix-tree reference of every history (int32) and, in
	// quotients, two labels per history (int), their partitions and the
	// flat copies of the adjusted Rand index.
	h := 0.0
	for t := 0; t <= T; t++ {
		h += math.Pow(float64(m.NumObservations()), float64(t))
	}
	if err := g.check(termHistories, h*(4+6*8)); err != nil {
		return nil, err
	}
	g.add(termHistories, 4*h)
	g.phase = "prefix trees"
	bs := newBeliefs(m, opts.MaxNodes, g)
	e := &engine{m: m, T: T, opts: opts, bs: bs, cls: newClasses(bs, T), px: newPrefixes(bs, opts.MaxNodes, g), g: g}
	return e, g.halted()
}

func (e *engine) overflow() error {
	if err := e.g.halted(); err != nil {
		return err
	}
	if e.bs.over || e.px.d.over {
		return fmt.Errorf("%w: more than MaxNodes = %d interned beliefs or prefix-tree nodes (%d, %d); raise Options.MaxNodes",
			ErrTooLarge, e.opts.MaxNodes, e.bs.len()-1, e.px.d.len())
	}
	return nil
}

// build computes the prefix tree of every history, depth by depth.
func (e *engine) build(ctx context.Context) error {
	nO := e.m.NumObservations()
	e.vec = make([][]ref, e.T+1)
	e.vec[0] = []ref{leaf(e.bs.internDense(e.m.B0))}
	for t := 0; t < e.T; t++ {
		cur := e.vec[t]
		next := make([]ref, len(cur)*nO)
		for i, r := range cur {
			// One expansion may intern many nodes and beliefs; the guard
			// stops them past the budget or on cancellation.
			if err := e.g.err; err != nil {
				return err
			}
			if i&1023 == 0 {
				if err := e.overflow(); err != nil {
					return err
				}
			}
			for o := 0; o < nO; o++ {
				next[i*nO+o] = e.px.expand(r, t, o)
			}
		}
		e.vec[t+1] = next
	}
	return e.overflow()
}

// Quotients returns the exact clock-aware and operational m = 1 quotients
// of m at horizon T (paper def:equiv with Π^clk_{1,T} and Π^op;
// tab:probe-family-comparison columns |Q^op|, |Q^clk| and ARI).
//
// A depth-t history's clk class is the tree p ↦ [b(h, p)]_t of its belief
// classes over all prefixes p ∈ A^t, and its op class the tuple
// a ↦ [b(h, a^t)]_{t,a} over constant prefixes (see the package comment),
// so no probe and no pair of histories is enumerated. Impossible
// (history, prefix) pairs take the point-mass stand-in (law.PointMassStandIn).
//
// The work is O(H·|O| + N·(|A|+|O|) + B·|A|·(|O| + nnz)) map operations for
// H = Σ_t |O|^t histories, N interned tree nodes and B distinct beliefs,
// never more than the estimate Work(|A|, |O|, T) and usually far less
// (Tiger T = 10: 2,047 histories, 7.3·10^7 (history, prefix) pairs, a few
// thousand nodes). It returns an error wrapping ErrTooLarge when the
// estimate exceeds opts.MaxWork or the interned objects exceed
// opts.MaxNodes, and ctx.Err() when ctx is cancelled.
func Quotients(ctx context.Context, m *pomdp.Model, T int, opts *Options) (*Result, error) {
	o := opts.get()
	w, err := checkArgs(m, T, o)
	if err != nil {
		return nil, err
	}
	e, err := newEngine(ctx, m, T, o)
	if err != nil {
		return nil, err
	}
	if err := e.build(ctx); err != nil {
		return nil, err
	}
	res, err := e.quotients(ctx)
	if err != nil {
		return nil, err
	}
	res.Work = w
	return res, nil
}

// leafClass returns the label of belief b at depth t as a leaf ref of the
// class tree: ^clkClass(t, b) under PointMass (the stand-in takes the class
// of its point-mass law). Under PossibilityPattern the stand-in is ^0, a
// label no possible belief has, and a possible belief is ^(1 + its ~_t
// class), which at depth t = T is ^1 for every belief: the pattern alone.
func (e *engine) leafClass(t int, b int32) ref {
	if e.opts.Convention != PossibilityPattern {
		return ^e.cls.clkClass(t, b)
	}
	if b == standIn {
		return ^0
	}
	return ^(1 + e.cls.clkClass(t, b))
}

// standCounter counts, with a memo, the action strings below a node of
// the prefix DAG that end in the stand-in belief.
type standCounter struct {
	e    *engine
	memo map[ref]int64
}

// count returns the number of leaves below r that are the stand-in.
func (sc standCounter) count(r ref) int64 {
	if r < 0 {
		if ^r == standIn {
			return 1
		}
		return 0
	}
	if v, ok := sc.memo[r]; ok {
		return v
	}
	sc.e.g.add(termNodes, mapEntry(4, 8))
	s := int64(0)
	for a := 0; a < sc.e.m.NumActions(); a++ {
		s += sc.count(sc.e.px.d.child(r, a))
	}
	sc.memo[r] = s
	return s
}

// intPow returns b^k for k ≥ 0.
func intPow(b int64, k int) int64 {
	p := int64(1)
	for range k {
		p *= b
	}
	return p
}

// quotients labels every history of every depth with its clock-aware and
// open-loop class.
func (e *engine) quotients(ctx context.Context) (*Result, error) {
	nA := e.m.NumActions()
	T := e.T
	e.g.phase = "quotients"
	h := 0
	for _, v := range e.vec {
		h += len(v)
	}
	if !e.g.add(termHistories, float64(6*8*h)) {
		return nil, e.g.err
	}
	clk := make([][]int, T+1)
	op := make([][]int, T+1)
	var standIns, opStandIns int64
	sc := standCounter{e: e, memo: make(map[ref]int64)}
	cd := newDAG(nA, math.MaxInt32, e.g)
	opKey := make([]byte, 0, 4*nA)
	for t := 0; t <= T; t++ {
		if err := e.g.halted(); err != nil {
			return nil, err
		}
		vec := e.vec[t]
		clk[t] = make([]int, len(vec))
		op[t] = make([]int, len(vec))
		classMemo := make(map[ref]ref)
		var classOf func(r ref, level int) ref
		classOf = func(r ref, level int) ref {
			if r < 0 {
				return e.leafClass(t, ^r)
			}
			if v, ok := classMemo[r]; ok {
				return v
			}
			e.g.add(termNodes, mapEntry(4, 4)+float64(4*nA))
			k := make([]ref, nA)
			for a := range k {
				k[a] = classOf(e.px.d.child(r, a), level-1)
			}
			v := cd.node(k)
			classMemo[r] = v
			return v
		}
		opIdx := make(map[string]int)
		tail := intPow(int64(nA), T-t)
		for i, r := range vec {
			if err := e.g.err; err != nil {
				return nil, err
			}
			standIns += sc.count(r) * tail
			opKey = opKey[:0]
			for a := 0; a < nA; a++ {
				b := e.px.at(r, t, a)
				if b == standIn {
					opStandIns++
				}
				var c int32
				if e.opts.Convention == PossibilityPattern {
					c = ^e.leafClass(t, b)
				} else {
					c = e.cls.opClass(t, a, b)
				}
				opKey = append(opKey, byte(c), byte(c>>8), byte(c>>16), byte(c>>24))
			}
			if t == T && e.opts.Convention != PossibilityPattern {
				continue // one class at depth T (labels stay 0)
			}
			clk[t][i] = int(classOf(r, t))
			id, ok := opIdx[string(opKey)]
			if !ok {
				e.g.add(termClasses, mapEntry(16+len(opKey), 8))
				id = len(opIdx)
				opIdx[string(opKey)] = id
			}
			op[t][i] = id
		}
	}
	if err := e.overflow(); err != nil {
		return nil, err
	}
	res := &Result{T: T, Convention: e.opts.Convention, Clk: partition.FromLabels(clk), Op: partition.FromLabels(op),
		Beliefs: e.bs.len() - 1, Nodes: e.px.d.len(), StandIns: standIns, OpStandIns: opStandIns}
	res.ARI = partition.ARIPartitions(res.Op, res.Clk)
	return res, nil
}
