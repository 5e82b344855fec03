package pbvi

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Defaults of Settings (the paper's PBVI settings, app:experiments "Solver
// settings": 50 points, γ = 1 for the finite horizon, seed 42).
const (
	DefaultPoints   = 50
	DefaultSeed     = 42
	DefaultMaxIter  = 1000
	DefaultTol      = 1e-9
	DefaultDiscount = 0.95 // infinite horizon, for a model without a discount
	DefaultDepth    = 20   // infinite horizon: length of the expansion walks
	// DupTol is the L1 distance below which two beliefs are the same point.
	DupTol = 1e-9
	// MaxPoints bounds Settings.Points.
	MaxPoints = 1 << 16
)

// Expansion selects how the belief points are chosen.
type Expansion int

const (
	// RandomWalk simulates trajectories from b0 with uniformly random
	// actions and sampled observations and keeps every new belief met
	// (the paper's "random forward simulation from b0").
	RandomWalk Expansion = iota
	// SSEA is Pineau et al.'s stochastic simulation with explorative
	// action: each round, every point b adds the one-step successor
	// b' = τ(b, a, o) (o sampled) that is farthest in L1 from the set,
	// over the actions a.
	SSEA
)

func (e Expansion) String() string {
	switch e {
	case RandomWalk:
		return "random walk"
	case SSEA:
		return "SSEA"
	}
	return fmt.Sprintf("Expansion(%d)", int(e))
}

// Settings configure Solve. The zero value means: discounted infinite
// horizon with the model's discount (DefaultDiscount if it has none),
// DefaultPoints points by RandomWalk from seed 0. Set Horizon for the
// paper's finite-horizon planner.
type Settings struct {
	// Horizon is the number of stages T ≥ 1 of a finite-horizon problem;
	// 0 means the discounted infinite horizon.
	Horizon int
	// Discount γ ∈ [0, 1]. 0 means 1 for a finite horizon, and the model's
	// discount (DefaultDiscount if it has none) for the infinite horizon,
	// which needs γ < 1. (A genuine γ = 0 is horizon 1.)
	Discount float64
	// Points is the number of belief points; 0 means DefaultPoints. Fewer
	// are used when fewer distinct beliefs are reachable (Result.Exhausted):
	// RandomWalk stops after 20·|B| + 100 consecutive walks that add no
	// point, SSEA after 10 rounds that add none.
	Points    int
	Expansion Expansion
	// Depth bounds the length of the expansion walks; 0 means T − 1 for a
	// finite horizon (the beliefs at which decisions are taken) and
	// DefaultDepth otherwise.
	Depth int
	// Seed seeds the PCG source of the expansion (the paper used 42;
	// DefaultSeed); Src, when not nil, is used instead.
	Seed uint64
	Src  rand.Source
	// MaxIter bounds the backup sweeps of the infinite horizon; 0 means
	// DefaultMaxIter. Tol is the largest change of the values at the
	// points at which it stops; 0 means DefaultTol.
	MaxIter int
	Tol     float64
	// Progress, when set, is called after every backup sweep with the
	// sweeps done and their total (T, or MaxIter).
	Progress func(done, total int)
}

// Status says how a solve ended.
type Status int

const (
	// Finite: the T backups of a finite horizon were done.
	Finite Status = iota
	// Converged: the values at the points changed by at most Tol.
	Converged
	// IterationLimit: MaxIter sweeps were done without convergence; the
	// α-vectors are still valid lower bounds.
	IterationLimit
)

func (s Status) String() string {
	switch s {
	case Finite:
		return "finite horizon"
	case Converged:
		return "converged"
	case IterationLimit:
		return "iteration limit"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Alpha is an α-vector over the model's states and the action of the
// conditional plan it values.
type Alpha struct {
	Vector []float64
	Action int
}

// Result is a solved PBVI problem.
type Result struct {
	Horizon  int
	Discount float64
	// Alphas[k] is the α-vector set with k stages to go, k = 0 … T, for a
	// finite horizon (Alphas[0] is the zero vector); for the infinite
	// horizon Alphas has one entry, the final set.
	Alphas [][]Alpha
	// Beliefs are the belief points (Beliefs[0] = b0).
	Beliefs [][]float64
	// Exhausted reports that fewer distinct beliefs than Settings.Points
	// were reachable by the expansion.
	Exhausted bool
	// Value is the value at the initial belief, max_α α·b0.
	Value  float64
	Status Status
	// Iterations is the number of backup sweeps, Backups the number of
	// point backups, Residual the last change of the values at the points
	// (infinite horizon).
	Iterations, Backups int
	Residual            float64
	Seconds             float64
}

// Errors returned by Solve and the evaluators.
var (
	ErrSettings = errors.New("pbvi: invalid settings")
	ErrTooLarge = errors.New("pbvi: enumeration too large")
)

// model is the compiled form the backups use.
type model struct {
	m          *pomdp.Model
	nS, nA, nO int
	// per action, T in CSR form
	ptr  [][]int
	col  [][]int
	val  [][]float64
	zcol [][][]float64 // [a][o][s'] = Z(s', a, o)
	r    [][]float64   // [a][s] = R(s, a)
}

func compile(m *pomdp.Model) *model {
	c := &model{m: m, nS: m.NumStates(), nA: m.NumActions(), nO: m.NumObservations()}
	c.ptr, c.col, c.val = make([][]int, c.nA), make([][]int, c.nA), make([][]float64, c.nA)
	c.zcol, c.r = make([][][]float64, c.nA), make([][]float64, c.nA)
	for a := 0; a < c.nA; a++ {
		ptr := make([]int, 1, c.nS+1)
		var col []int
		var val []float64
		for s := 0; s < c.nS; s++ {
			m.T[a].Entries(s, func(j int, p float64) {
				col = append(col, j)
				val = append(val, p)
			})
			ptr = append(ptr, len(col))
		}
		c.ptr[a], c.col[a], c.val[a] = ptr, col, val
		c.zcol[a] = make([][]float64, c.nO)
		for o := range c.zcol[a] {
			c.zcol[a][o] = make([]float64, c.nS)
		}
		for s2 := 0; s2 < c.nS; s2++ {
			m.Z[a].Entries(s2, func(o int, p float64) { c.zcol[a][o][s2] = p })
		}
		c.r[a] = make([]float64, c.nS)
		for s := 0; s < c.nS; s++ {
			c.r[a][s] = m.R[s][a]
		}
	}
	return c
}

// project sets dst(s) = Σ_{s'} T(s,a,s') Z(s',a,o) α(s').
func (c *model) project(dst, alpha []float64, a, o int) {
	z := c.zcol[a][o]
	ptr, col, val := c.ptr[a], c.col[a], c.val[a]
	for s := 0; s < c.nS; s++ {
		v := 0.0
		for k := ptr[s]; k < ptr[s+1]; k++ {
			j := col[k]
			v += val[k] * z[j] * alpha[j]
		}
		dst[s] = v
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

// Solve runs PBVI on m with settings s and returns the α-vectors and the
// value at b0.
//
// Cost per backup sweep: O(|A|·|O|·|Γ|·nnz(T)) to project the α-vectors,
// plus O(|B|·|A|·|O|·|Γ|·|S|) for the point backups, with |Γ| ≤ |B|
// vectors per set; T sweeps for a finite horizon, at most MaxIter for the
// infinite one. The expansion costs O(Points·Depth·(nnz(T) + nnz(Z))) for
// RandomWalk and O(Points·|A|·(nnz(T)+nnz(Z)+|B|·|S|)) per SSEA round.
//
// Errors: ErrSettings (wrapped, naming the field) for a negative horizon,
// a discount outside [0, 1], an infinite horizon with γ = 1, or Points
// above MaxPoints; ctx's error when cancelled.
func Solve(ctx context.Context, m *pomdp.Model, s Settings) (*Result, error) {
	start := time.Now()
	if m == nil {
		return nil, fmt.Errorf("%w: nil model", ErrSettings)
	}
	if s.Horizon < 0 {
		return nil, fmt.Errorf("%w: Horizon %d < 0", ErrSettings, s.Horizon)
	}
	gamma := s.Discount
	if gamma == 0 {
		switch {
		case s.Horizon > 0:
			gamma = 1
		case m.HasDiscount && m.Discount > 0 && m.Discount < 1:
			gamma = m.Discount
		default:
			gamma = DefaultDiscount
		}
	}
	if !(gamma > 0 && gamma <= 1) {
		return nil, fmt.Errorf("%w: Discount %v not in [0, 1]", ErrSettings, s.Discount)
	}
	if s.Horizon == 0 && gamma >= 1 {
		return nil, fmt.Errorf("%w: the infinite horizon needs a discount below 1 (set Settings.Discount or Settings.Horizon)", ErrSettings)
	}
	points := s.Points
	if points == 0 {
		points = DefaultPoints
	}
	if points < 1 || points > MaxPoints {
		return nil, fmt.Errorf("%w: Points %d not in [1, %d]", ErrSettings, points, MaxPoints)
	}
	depth := s.Depth
	if depth == 0 {
		depth = DefaultDepth
		if s.Horizon > 0 {
			depth = s.Horizon - 1
		}
	}
	src := s.Src
	if src == nil {
		src = rand.NewPCG(s.Seed, 0)
	}
	c := compile(m)
	B, exhausted := expand(c, points, depth, s.Expansion, rand.New(src))
	res := &Result{Horizon: s.Horizon, Discount: gamma, Beliefs: B, Exhausted: exhausted}
	bk := newBackup(c)
	var err error
	if s.Horizon > 0 {
		err = res.solveFinite(ctx, bk, c, B, m.B0, s)
	} else {
		err = res.solveDiscounted(ctx, bk, c, B, m.B0, s)
	}
	if err != nil {
		return nil, err
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// solveFinite backs up s.Horizon times from the zero vector at the
// beliefs B with res.Discount, keeping every stage's vectors.
func (res *Result) solveFinite(ctx context.Context, bk *backup, c *model, B [][]float64, b0 []float64, s Settings) error {
	gamma := res.Discount
	res.Status = Finite
	res.Alphas = make([][]Alpha, s.Horizon+1)
	res.Alphas[0] = []Alpha{{Vector: make([]float64, c.nS)}}
	for k := 1; k <= s.Horizon; k++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		res.Alphas[k], _ = bk.sweep(res.Alphas[k-1], B, gamma)
		res.Backups += len(B)
		res.Iterations++
		if s.Progress != nil {
			s.Progress(k, s.Horizon)
		}
	}
	res.Value = best(res.Alphas[s.Horizon], b0).v
	return nil
}

// solveDiscounted backs up from the lower bound min r / (1 − γ) at the
// beliefs B until the largest change of value at B is at most s.Tol or
// s.MaxIter sweeps are done.
func (res *Result) solveDiscounted(ctx context.Context, bk *backup, c *model, B [][]float64, b0 []float64, s Settings) error {
	gamma := res.Discount
	maxIter, tol := s.MaxIter, s.Tol
	if maxIter == 0 {
		maxIter = DefaultMaxIter
	}
	if tol == 0 {
		tol = DefaultTol
	}
	rmin := math.Inf(1)
	for a := range c.r {
		for _, v := range c.r[a] {
			rmin = min(rmin, v)
		}
	}
	init := make([]float64, c.nS)
	for i := range init {
		init[i] = rmin / (1 - gamma)
	}
	gam := []Alpha{{Vector: init}}
	old := make([]float64, len(B))
	for i, b := range B {
		old[i] = dot(init, b)
	}
	res.Status = IterationLimit
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		var vals []float64
		gam, vals = bk.sweep(gam, B, gamma)
		res.Backups += len(B)
		res.Iterations = it
		res.Residual = 0
		for i := range vals {
			res.Residual = max(res.Residual, math.Abs(vals[i]-old[i]))
		}
		copy(old, vals)
		if s.Progress != nil {
			s.Progress(it, maxIter)
		}
		if res.Residual <= tol {
			res.Status = Converged
			break
		}
	}
	res.Alphas = [][]Alpha{gam}
	res.Value = best(gam, b0).v
	return nil
}

type choice struct {
	i int
	v float64
}

// best returns the first α maximising α·b.
func best(set []Alpha, b []float64) choice {
	c := choice{-1, math.Inf(-1)}
	for i, a := range set {
		if v := dot(a.Vector, b); v > c.v+1e-12 || c.i < 0 {
			c = choice{i, v}
		}
	}
	return c
}

// backup owns the scratch memory of point backups.
type backup struct {
	c   *model
	buf []float64 // projected vectors g^α_{a,o}, flat [a][o][i][s]
	vec []float64
}

func newBackup(c *model) *backup {
	return &backup{c: c, vec: make([]float64, c.nS)}
}

// g returns the projection of α-vector i for (a, o) out of n vectors.
func (bk *backup) g(a, o, i, n int) []float64 {
	nS := bk.c.nS
	k := ((a*bk.c.nO+o)*n + i) * nS
	return bk.buf[k : k+nS]
}

// sweep backs up the set at every point and returns the new set (exact
// duplicates removed) and the new values at the points.
func (bk *backup) sweep(prev []Alpha, B [][]float64, gamma float64) ([]Alpha, []float64) {
	c := bk.c
	n := len(prev)
	if need := c.nA * c.nO * n * c.nS; cap(bk.buf) < need {
		bk.buf = make([]float64, need)
	} else {
		bk.buf = bk.buf[:need]
	}
	for a := 0; a < c.nA; a++ {
		for o := 0; o < c.nO; o++ {
			for i, al := range prev {
				c.project(bk.g(a, o, i, n), al.Vector, a, o)
			}
		}
	}
	var out []Alpha
	vals := make([]float64, len(B))
	for bi, b := range B {
		bestV, bestA := math.Inf(-1), -1
		var bestVec []float64
		for a := 0; a < c.nA; a++ {
			copy(bk.vec, c.r[a])
			for o := 0; o < c.nO; o++ {
				j, jv := 0, math.Inf(-1)
				for i := 0; i < n; i++ {
					if v := dot(bk.g(a, o, i, n), b); v > jv+1e-12 {
						j, jv = i, v
					}
				}
				for s, x := range bk.g(a, o, j, n) {
					bk.vec[s] += gamma * x
				}
			}
			if v := dot(bk.vec, b); v > bestV+1e-12 || bestA < 0 {
				bestV, bestA = v, a
				bestVec = append(bestVec[:0], bk.vec...)
			}
		}
		vals[bi] = bestV
		dup := false
		for _, al := range out {
			if al.Action == bestA && equal(al.Vector, bestVec) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, Alpha{Vector: bestVec, Action: bestA})
		}
	}
	return out, vals
}

func equal(a, b []float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12*(1+math.Abs(a[i])) {
			return false
		}
	}
	return true
}

// Action returns the action of the policy with k stages to go at belief b
// (k is ignored for the infinite horizon): the action of the first
// α-vector maximising α·b. It panics if k is out of range for a finite
// horizon or len(b) is not |S|.
func (r *Result) Action(k int, b []float64) int {
	set := r.set(k)
	return set[best(set, b).i].Action
}

// ValueAt returns max_α α·b with k stages to go (k ignored for the
// infinite horizon), a lower bound on the optimal value at b.
func (r *Result) ValueAt(k int, b []float64) float64 {
	return best(r.set(k), b).v
}

func (r *Result) set(k int) []Alpha {
	if r.Horizon == 0 {
		return r.Alphas[0]
	}
	if k < 1 || k > r.Horizon {
		panic(fmt.Sprintf("pbvi: %d stages to go, want 1 … %d", k, r.Horizon))
	}
	return r.Alphas[k]
}

// Vectors returns the number of α-vectors of the set with k stages to go
// (the final set for the infinite horizon).
func (r *Result) Vectors(k int) int { return len(r.set(k)) }

func (r *Result) String() string {
	return fmt.Sprintf("PBVI %s: V(b0) = %.6g, %d points, %d sweeps, %d point backups (%s)",
		r.horizonString(), r.Value, len(r.Beliefs), r.Iterations, r.Backups, r.Status)
}

func (r *Result) horizonString() string {
	if r.Horizon > 0 {
		return fmt.Sprintf("T = %d, γ = %g", r.Horizon, r.Discount)
	}
	return fmt.Sprintf("infinite horizon, γ = %g", r.Discount)
}
