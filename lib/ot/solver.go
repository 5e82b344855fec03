package ot

import (
	"fmt"
	"math"
)

// TotalTol bounds the mismatch accepted between the total masses of the two
// sides of a transport problem: both totals within TotalTol of 1, or
// |Σp − Σq| ≤ TotalTol·max(Σp, Σq). Otherwise a *TotalError is returned.
// Accepted totals that differ are reconciled by rescaling q to Σp.
const TotalTol = 1e-9

// DefaultTol is the relative reduced-cost tolerance used when Settings.Tol
// is zero: an arc enters the basis only if its reduced cost is below
// −DefaultTol·max(|cost|, |π_source|, |π_target|).
const DefaultTol = 1e-14

// Status reports how a solve ended.
type Status int

const (
	// NotSolved is the zero Status: no solve has produced a result.
	NotSolved Status = iota
	// Optimal means the value is the exact optimum (up to floating point).
	Optimal
	// IterationLimit means the simplex stopped at Settings.MaxPivots; the
	// Value is NaN and ErrIterationLimit is returned with the Result.
	IterationLimit
	// Below means the simplex of SeqW1Below stopped at a plan cheaper
	// than the requested bound: Value is that plan's cost, an upper bound
	// on W1 (not the optimum), and the solver has no plan or potentials
	// to report.
	Below
)

func (s Status) String() string {
	switch s {
	case NotSolved:
		return "NotSolved"
	case Optimal:
		return "Optimal"
	case IterationLimit:
		return "IterationLimit"
	case Below:
		return "Below"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Method reports which exact computation produced a Result.
type Method int

const (
	// MethodNone is the zero Method (no solve).
	MethodNone Method = iota
	// MethodSimplex: the network simplex on the remaining supports.
	MethodSimplex
	// MethodIdentical: nothing to move (identical laws, or equal up to
	// mass shared in place, or both empty); the value is 0.
	MethodIdentical
	// MethodPointMass: one side is a single atom x0, so the only coupling
	// sends everything to (or from) x0 and W1 = Σ_i p_i c(i, x0).
	MethodPointMass
	// MethodTV: one position (k = 1) under a uniform ground metric δ·[o≠o'],
	// so W1 = δ·TV(p, q).
	MethodTV
	// MethodLine: one position (k = 1) under a metric on a line in index
	// order, so W1 = Σ_l (x_{l+1} − x_l)·|F_p(l) − F_q(l)| with F the CDF.
	MethodLine
)

func (m Method) String() string {
	switch m {
	case MethodNone:
		return "None"
	case MethodSimplex:
		return "Simplex"
	case MethodIdentical:
		return "Identical"
	case MethodPointMass:
		return "PointMass"
	case MethodTV:
		return "TV"
	case MethodLine:
		return "Line"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Settings tune the network simplex. The zero value means the defaults.
type Settings struct {
	// MaxPivots bounds the number of simplex pivots of one solve. If
	// MaxPivots is 0 it defaults to 100000 + 100·(n+k) for n sources and
	// k sinks left after dropping zero masses.
	MaxPivots int
	// Tol is the relative tolerance on reduced costs; 0 means DefaultTol.
	Tol float64
}

// Result is the outcome of one transport solve.
type Result struct {
	Status Status
	Method Method
	// Value is the optimal transport cost W1 (NaN unless Status is Optimal).
	Value float64
	// Pivots is the number of simplex pivots (0 for closed forms).
	Pivots int
	// Sources and Sinks are the support sizes handed to the final
	// computation, after dropping zero masses (and, for SeqW1, the mass
	// shared in place).
	Sources, Sinks int
}

func (r Result) String() string {
	return fmt.Sprintf("%v %.12g (%v, %d pivots, %d×%d)", r.Status, r.Value, r.Method, r.Pivots, r.Sources, r.Sinks)
}

// Flow is one entry of a transport plan: Mass moved from source I to sink J.
type Flow struct {
	I, J int
	Mass float64
}

type costKind int

const (
	costFlat costKind = iota + 1
	costFunc
	costSeq
)

// Solver computes exact optimal transport values and owns all scratch
// memory, so that repeated solves of similar sizes do not allocate. The
// zero value is ready to use. A Solver is not safe for concurrent use; use
// one per goroutine.
//
// After a successful solve, Plan, Flows and Potentials return the optimal
// plan and dual potentials of that solve.
type Solver struct {
	Settings Settings

	nw network

	// Last solve.
	ok     bool
	np, nq int
	kind   costKind
	flat   []float64
	fn     func(i, j int) float64
	seq    seqCost
	flows  []Flow
	actI   []int     // sources whose dual value is known from the solve
	actU   []float64 // their dual values u_i

	// Scratch.
	srcIdx, snkIdx   []int
	srcMass, snkMass []float64
	chS, chT         []int
	marg             []float64
	digits           []int
	gflat            []float64
	inner            *Solver
	stop             float64     // SeqW1Below's bound (0: none)
	winP, winQ       []float64   // WindowLowerBound's window laws
	tc               treeCoupler // TreeCoupling's state
	prod             *ProductW1  // WindowLowerBound's large window problems
	prodG            Ground      // the ground prod was built for
}

// W1 returns the optimal transport cost between the masses p (n sources)
// and q (k sinks) under the cost matrix cost, stored row-major with
// cost[i·k+j] = c(i, j):
//
//	W1 = min_{π ≥ 0, π1 = p, πᵀ1 = q} Σ_ij π_ij c(i, j).
//
// The costs need not form a metric. Zero masses are dropped first; if one
// side is then a single atom the closed form Σ p_i c(i, j0) is used
// (MethodPointMass), otherwise the network simplex (MethodSimplex). If the
// totals differ (within TotalTol) q is rescaled to p's total.
//
// W1 panics if len(cost) != len(p)·len(q). It returns a *MassError for a
// negative or non-finite mass, a *TotalError for mismatched totals, a
// *CostError for a negative or non-finite cost, ErrOverflow when the value
// would overflow, and ErrIterationLimit when Settings.MaxPivots is reached.
//
// Complexity: O(nk) to build the arcs and the row-minimum starting plan,
// then pivots (in practice about n+k to 4(n+k) for dense random laws), each
// scanning at least max(√(nk), 10) arcs and updating the tree in
// O(n+k). Two dense laws on 256 points each: about 2 ms.
func (s *Solver) W1(p, q, cost []float64) (Result, error) {
	n, k := len(p), len(q)
	if len(cost) != n*k {
		panic(fmt.Sprintf("ot: cost has length %d, want %d·%d", len(cost), n, k))
	}
	s.ok = false
	tp, tq, err := checkMasses(p, q)
	if err != nil {
		return Result{}, err
	}
	for e, c := range cost {
		if !validCost(c) {
			return Result{}, &CostError{I: e / k, J: e % k, Value: c}
		}
	}
	s.kind, s.flat, s.fn = costFlat, cost, nil
	return s.general(p, q, tp, tq)
}

// W1Func is W1 with the cost given by a callback, evaluated only on pairs
// of the supports (i with p_i > 0, j with q_j > 0). Errors and complexity
// are those of W1; Potentials later evaluates cost on every pair.
func (s *Solver) W1Func(p, q []float64, cost func(i, j int) float64) (Result, error) {
	s.ok = false
	tp, tq, err := checkMasses(p, q)
	if err != nil {
		return Result{}, err
	}
	s.kind, s.flat, s.fn = costFunc, nil, cost
	return s.general(p, q, tp, tq)
}

// W1 returns the optimal transport cost between p and q under the
// row-major cost matrix cost, using a fresh Solver (see Solver.W1).
func W1(p, q, cost []float64) (float64, error) {
	var s Solver
	r, err := s.W1(p, q, cost)
	return r.Value, err
}

func validCost(c float64) bool { return c >= 0 && c <= math.MaxFloat64 }

// checkMasses validates both mass vectors and their totals.
func checkMasses(p, q []float64) (tp, tq float64, err error) {
	for i, v := range p {
		if !(v >= 0 && v <= math.MaxFloat64) {
			return 0, 0, &MassError{Side: "p", Index: i, Value: v}
		}
		tp += v
	}
	for j, v := range q {
		if !(v >= 0 && v <= math.MaxFloat64) {
			return 0, 0, &MassError{Side: "q", Index: j, Value: v}
		}
		tq += v
	}
	normal := math.Abs(tp-1) <= TotalTol && math.Abs(tq-1) <= TotalTol
	if !(tp <= math.MaxFloat64 && tq <= math.MaxFloat64 && (normal || math.Abs(tp-tq) <= TotalTol*max(tp, tq))) {
		return 0, 0, &TotalError{P: tp, Q: tq}
	}
	return tp, tq, nil
}

// cost returns c(i, j) under the cost of the last solve.
func (s *Solver) cost(i, j int) float64 {
	switch s.kind {
	case costFlat:
		return s.flat[i*s.nq+j]
	case costFunc:
		return s.fn(i, j)
	case costSeq:
		return s.seq.eval(i, j)
	}
	panic("ot: no cost")
}

// begin resets the record of the last solve.
func (s *Solver) begin(np, nq int) {
	s.np, s.nq = np, nq
	s.flows = s.flows[:0]
	s.actI = s.actI[:0]
	s.actU = s.actU[:0]
}

// general solves a transport problem with an arbitrary cost.
func (s *Solver) general(p, q []float64, tp, tq float64) (Result, error) {
	s.begin(len(p), len(q))
	if tp == 0 {
		s.ok = true
		return Result{Status: Optimal, Method: MethodIdentical}, nil
	}
	scale := 1.0
	if tq != tp {
		scale = tp / tq
	}
	s.srcIdx, s.srcMass = s.srcIdx[:0], s.srcMass[:0]
	s.snkIdx, s.snkMass = s.snkIdx[:0], s.snkMass[:0]
	for i, v := range p {
		if v > 0 {
			s.srcIdx = append(s.srcIdx, i)
			s.srcMass = append(s.srcMass, v)
		}
	}
	for j, v := range q {
		if v > 0 {
			s.snkIdx = append(s.snkIdx, j)
			s.snkMass = append(s.snkMass, v*scale)
		}
	}
	if len(s.srcIdx) == 1 || len(s.snkIdx) == 1 {
		return s.pointMass()
	}
	n, k := len(s.srcIdx), len(s.snkIdx)
	s.nw.resize(n, k)
	cost := s.nw.cost
	if s.kind == costFlat {
		for a, i := range s.srcIdx {
			row := s.flat[i*s.nq:]
			dst := cost[a*k : (a+1)*k]
			for b, j := range s.snkIdx {
				dst[b] = row[j]
			}
		}
	} else {
		for a, i := range s.srcIdx {
			dst := cost[a*k : (a+1)*k]
			for b, j := range s.snkIdx {
				c := s.fn(i, j)
				if !validCost(c) {
					return Result{}, &CostError{I: i, J: j, Value: c}
				}
				dst[b] = c
			}
		}
	}
	return s.simplex()
}

// pointMass handles supports where one side (after dropping zeros, and
// common mass for SeqW1) is a single atom: the only coupling moves every
// atom of the other side to it.
func (s *Solver) pointMass() (Result, error) {
	r := Result{Status: Optimal, Method: MethodPointMass, Sources: len(s.srcIdx), Sinks: len(s.snkIdx)}
	v := 0.0
	if len(s.snkIdx) == 1 {
		j0 := s.snkIdx[0]
		for a, i := range s.srcIdx {
			c := s.cost(i, j0)
			if !validCost(c) {
				return Result{}, &CostError{I: i, J: j0, Value: c}
			}
			v += s.srcMass[a] * c
			s.flows = append(s.flows, Flow{I: i, J: j0, Mass: s.srcMass[a]})
			// Dual: u_i = c(i, j0), v_{j0} = 0 makes every used arc tight.
			s.actI = append(s.actI, i)
			s.actU = append(s.actU, c)
		}
	} else {
		i0 := s.srcIdx[0]
		for b, j := range s.snkIdx {
			c := s.cost(i0, j)
			if !validCost(c) {
				return Result{}, &CostError{I: i0, J: j, Value: c}
			}
			v += s.snkMass[b] * c
			s.flows = append(s.flows, Flow{I: i0, J: j, Mass: s.snkMass[b]})
		}
		s.actI = append(s.actI, i0)
		s.actU = append(s.actU, 0)
	}
	r.Value = v
	s.ok = true
	return s.finite(r)
}

// simplex runs the network simplex on srcMass/snkMass with nw.cost filled.
func (s *Solver) simplex() (Result, error) {
	nw := &s.nw
	n, k := len(s.srcIdx), len(s.snkIdx)
	for a, v := range s.srcMass {
		nw.supply[a] = v
	}
	for b, v := range s.snkMass {
		nw.supply[n+b] = -v
	}
	// Potentials are alternating sums of at most n+k costs: keep them finite.
	limit := math.MaxFloat64 / float64(n+k+1)
	for _, c := range nw.cost[:n*k] {
		if c > limit {
			return Result{Status: NotSolved, Value: math.NaN()}, ErrOverflow
		}
	}
	tol := s.Settings.Tol
	if tol == 0 {
		tol = DefaultTol
	}
	nw.init(tol)
	maxPivots := s.Settings.MaxPivots
	if maxPivots <= 0 {
		maxPivots = 100000 + 100*(n+k)
	}
	r := Result{Method: MethodSimplex, Sources: n, Sinks: k}
	nw.stop = s.stop
	optimal := nw.solve(maxPivots)
	r.Pivots = nw.pivots
	if nw.below {
		r.Status, r.Value = Below, nw.value()
		return r, nil
	}
	if !optimal {
		r.Value = math.NaN()
		if nw.pivots >= maxPivots {
			r.Status = IterationLimit
			return r, ErrIterationLimit
		}
		return r, errNoOptimum
	}
	v := nw.value()
	for u := 0; u < n+k; u++ {
		if e := nw.pred[u]; e < nw.m && nw.predFlow[u] > 0 {
			s.flows = append(s.flows, Flow{I: s.srcIdx[e/k], J: s.snkIdx[e%k], Mass: nw.predFlow[u]})
		}
	}
	for a, i := range s.srcIdx {
		s.actI = append(s.actI, i)
		s.actU = append(s.actU, -nw.pi[a])
	}
	r.Status = Optimal
	r.Value = v
	s.ok = true
	return s.finite(r)
}

// finite rejects a result whose value overflowed.
func (s *Solver) finite(r Result) (Result, error) {
	if math.IsInf(r.Value, 0) {
		s.ok = false
		r.Status = NotSolved
		r.Value = math.NaN()
		return r, ErrOverflow
	}
	return r, nil
}

// mustOK panics unless the last solve produced an optimum.
func (s *Solver) mustOK() {
	if !s.ok {
		panic("ot: no optimal solution from the last solve")
	}
}

// Flows appends to dst[:0] the non-zero entries of the optimal plan of the
// last solve, in original indices (sequence indices for SeqW1), and returns
// it. A plan has at most n+k−1 entries from the simplex plus, for SeqW1,
// one diagonal entry per sequence charged by both laws. It panics if the
// last solve did not end with Status Optimal.
func (s *Solver) Flows(dst []Flow) []Flow {
	s.mustOK()
	return append(dst[:0], s.flows...)
}

// Plan writes the optimal plan of the last solve as a dense row-major
// len(p)×len(q) matrix into dst (allocated if nil) and returns it. It
// panics if dst is non-nil with the wrong length, or if the last solve did
// not end with Status Optimal.
func (s *Solver) Plan(dst []float64) []float64 {
	s.mustOK()
	dst = useDst(dst, s.np*s.nq, "plan")
	clear(dst)
	for _, f := range s.flows {
		dst[f.I*s.nq+f.J] += f.Mass
	}
	return dst
}

// Potentials writes optimal dual potentials of the last solve into u
// (length len(p)) and v (length len(q)), allocating nil arguments, and
// returns them. They satisfy u_i + v_j ≤ c(i, j) for every pair and
//
//	Σ_i p_i u_i + Σ_j q_j v_j = W1,
//
// with min_j v_j = 0. They are the double c-transform of the duals found by
// the solve, v_j = min_{i active} c(i,j) − u_i then u_i = min_j c(i,j) − v_j,
// which keeps optimality and makes every pair feasible, including points
// of zero mass. It costs O(len(p)·len(q)) cost evaluations; the cost (slice,
// callback or ground) of the last solve must not have changed. It panics on
// wrong lengths or if the last solve did not end with Status Optimal.
func (s *Solver) Potentials(u, v []float64) ([]float64, []float64) {
	s.mustOK()
	u = useDst(u, s.np, "u")
	v = useDst(v, s.nq, "v")
	if len(s.actI) == 0 {
		// Nothing moved: any feasible pair with the right objective 0.
		clear(u)
		for j := range v {
			m := math.Inf(1)
			for i := range u {
				m = min(m, s.cost(i, j))
			}
			if s.np == 0 {
				m = 0
			}
			v[j] = m
		}
	} else {
		top := math.Inf(-1)
		for _, x := range s.actU {
			top = max(top, x)
		}
		for j := range v {
			m := math.Inf(1)
			for a, i := range s.actI {
				m = min(m, s.cost(i, j)-(s.actU[a]-top))
			}
			v[j] = m
		}
		for i := range u {
			m := math.Inf(1)
			for j, vj := range v {
				m = min(m, s.cost(i, j)-vj)
			}
			u[i] = m
		}
	}
	if len(v) > 0 {
		lo := math.Inf(1)
		for _, x := range v {
			lo = min(lo, x)
		}
		for j := range v {
			v[j] -= lo
		}
		for i := range u {
			u[i] += lo
		}
	}
	return u, v
}

func useDst(dst []float64, n int, name string) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("ot: %s has length %d, want %d", name, len(dst), n))
	}
	return dst
}
