package policy

import (
	"context"
	"fmt"
	"hash/maphash"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// byObs returns, for each value x of the fully observed part, the indices
// of the vectors with obsValue x.
func (p *VectorPolicy) byObs() [][]int {
	out := make([][]int, p.NumObsValue)
	for k, v := range p.Vectors {
		if v.ObsValue >= 0 && v.ObsValue < p.NumObsValue {
			out[v.ObsValue] = append(out[v.ObsValue], k)
		}
	}
	return out
}

// LowerBound returns the value of the vectors at belief b over the flat
// states of the model (numbered x·VectorLength + y, see VectorPolicy):
//
//	Σ_x max_{α : obsValue x} Σ_y α(y)·b(x·VectorLength + y),
//
// the sum over the values x of the fully observed part that carry mass
// under b. For a flat model (NumObsValue 1) it is max_α α·b, the lower
// bound SARSOP prints for b = b0 (with several x, SARSOP prints the same
// sum: P(x) times the bound at b0 given x, summed over x). best[x] is the
// maximising vector of x (the first in file order among equal values), −1
// for x without mass.
//
// It returns an error when b has the wrong length or some x with mass has
// no vector.
func (p *VectorPolicy) LowerBound(b []float64) (value float64, best []int, err error) {
	return p.lowerBound(b, p.byObs())
}

func (p *VectorPolicy) lowerBound(b []float64, byObs [][]int) (float64, []int, error) {
	n := p.VectorLength
	if len(b) != n*p.NumObsValue {
		return 0, nil, fmt.Errorf("policy: belief has %d entries, the policy vectorLength × numObsValue = %d × %d", len(b), n, p.NumObsValue)
	}
	best := make([]int, p.NumObsValue)
	total := 0.0
	for x := range best {
		best[x] = -1
		part := b[x*n : (x+1)*n]
		if !hasMass(part) {
			continue
		}
		if len(byObs[x]) == 0 {
			return 0, nil, fmt.Errorf("policy: the belief puts mass on obsValue %d, for which the policy has no vector", x)
		}
		v, k := math.Inf(-1), -1
		for _, i := range byObs[x] {
			if d := p.Vectors[i].Dot(part); d > v || k < 0 {
				v, k = d, i
			}
		}
		best[x] = k
		total += v
	}
	return total, best, nil
}

func hasMass(b []float64) bool {
	for _, v := range b {
		if v != 0 {
			return true
		}
	}
	return false
}

// Defaults of GreedyOptions.
const (
	// DefaultMaxBeliefs bounds the distinct beliefs of one step of
	// EvaluateGreedy.
	DefaultMaxBeliefs = 1 << 20
	// DefaultMaxBeliefEntries bounds the beliefs of one step times |S|
	// (8 bytes each: 256 MiB).
	DefaultMaxBeliefEntries = 1 << 25
	// DefaultMaxVisits bounds the (step, belief) pairs of a whole
	// evaluation (each costs a greedy choice over the vectors and a move
	// by every observation: about 10–100 µs for models of tens of states
	// and hundreds of vectors).
	DefaultMaxVisits = 1 << 19
)

// GreedyOptions configure EvaluateGreedy. The zero value means the
// defaults.
type GreedyOptions struct {
	// MaxBeliefs bounds the distinct beliefs of one step (0: DefaultMaxBeliefs).
	MaxBeliefs int
	// MaxEntries bounds the beliefs of one step times |S| (0:
	// DefaultMaxBeliefEntries).
	MaxEntries int64
	// MaxVisits bounds the (step, belief) pairs of the whole evaluation
	// (0: DefaultMaxVisits).
	MaxVisits int
	// Progress, when set, is called after every step with the steps done
	// and the horizon.
	Progress func(done, total int)
}

// Greedy is the value of the policy that acts greedily on a VectorPolicy:
// at each belief it takes the action of the vector that attains the lower
// bound there (LowerBound's best vector).
type Greedy struct {
	// Requested is the horizon asked for; Horizon the horizon computed
	// (smaller when the distinct beliefs of a step exceeded the budget:
	// Stopped says so).
	Requested, Horizon int
	Stopped            string
	// Value is Σ_{t<Horizon} γ^t E[r_t] from b0.
	Value float64
	// Discount is γ (1 for a model without a discount).
	Discount float64
	// MaxAbsReward is max_{s,a} |R(s, a)|.
	MaxAbsReward float64
	// Tail bounds the rewards after Horizon: |V − V_T| ≤ Tail =
	// γ^T · MaxAbsReward / (1 − γ) (T = Horizon) for the discounted
	// infinite-horizon value V of the greedy policy; +Inf when γ = 1.
	Tail float64
	// Merged counts the beliefs merged into an equal one up to MergeCell,
	// and MergeError bounds what the merges moved Value: the sum over
	// merges at step t of the probability moved × γ^t × the largest
	// |coefficient| a value over the remaining steps can have
	// (MaxAbsReward·Σ_{j<T−t} γ^j) × the ℓ1 distance of the two beliefs.
	// (Merged beliefs take the same action; the bound holds when their
	// later actions agree too, which is all but certain at distances of
	// 1e-10: a difference would mean a tie of two vectors within rounding.)
	Merged     int
	MergeError float64
	// Low and High are Value ∓ (Tail + MergeError), a bracket of V.
	Low, High float64
	// Beliefs is the number of distinct (step, belief) pairs visited and
	// Widest the most distinct beliefs of one step.
	Beliefs, Widest int
	// Split is true when b0 spreads over several values of the fully
	// observed part and was split by them, as SARSOP does (its agent sees
	// the fully observed part from the start).
	Split bool
}

// EvaluateGreedy computes the value over horizon T of the policy that acts
// greedily on the vectors of p, from the model's b0: step by step, it keeps
// the distinct beliefs reached with their probabilities, adds their
// expected rewards, and moves each by its action and every observation of
// positive probability. Beliefs equal up to rounding are merged (those
// whose entries fall in the same cells of width MergeCell and that take
// the same action; Greedy.MergeError bounds the effect), so a step holds
// about as many beliefs as the policy distinguishes (2t+1 for Tiger). The
// work per step is its beliefs times O(nnz(T_a) + nnz(Z_a) + |S|·vectors).
// When a step would hold more than MaxBeliefs beliefs or MaxEntries belief
// entries, or the steps done have visited MaxVisits beliefs, it stops and
// returns the value over the steps done, with Stopped saying why (a valid
// result for that horizon, with its bracket).
//
// The flat model must number states as p does (|S| = NumObsValue ×
// VectorLength): with NumObsValue > 1, every belief after the first step
// must lie on one value of the fully observed part (the model observes
// it), or an error names the step; b0 may spread over several values and
// is then split by them (Split).
func EvaluateGreedy(ctx context.Context, m *pomdp.Model, p *VectorPolicy, T int, opt GreedyOptions) (*Greedy, error) {
	g, err := newGreedy(m, p, T, &opt)
	if err != nil {
		return nil, err
	}
	nS := m.NumStates()
	e := &greedyEval{m: m, p: p, byObs: p.byObs(), seed: maphash.MakeSeed()}
	level, err := e.start(g)
	if err != nil {
		return nil, err
	}
	pred := make([]float64, nS)
	post := make([]float64, nS)
	disc := 1.0
	for t := 0; t < T; t++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g.Beliefs += len(level.b)
		g.Widest = max(g.Widest, len(level.b))
		stepValue := 0.0
		for i, b := range level.b {
			a := level.act[i]
			r := 0.0
			for s, x := range b {
				if x != 0 {
					r += x * m.R[s][a]
				}
			}
			stepValue += level.w[i] * r
		}
		g.Value += disc * stepValue
		g.Horizon = t + 1
		if opt.Progress != nil {
			opt.Progress(t+1, T)
		}
		if t+1 == T {
			break
		}
		if g.Beliefs >= opt.MaxVisits {
			g.Stopped = fmt.Sprintf("the %d steps visited %d (step, belief) pairs, the budget (MaxVisits %d)", t+1, g.Beliefs, opt.MaxVisits)
			break
		}
		// The largest |coefficient| of a value over the T−t−1 steps after
		// this one, times the discount of step t+1.
		coef := disc * g.Discount * g.MaxAbsReward * remaining(g.Discount, T-t-1)
		next := e.newLevel(t + 1)
		for i, b := range level.b {
			a := level.act[i]
			m.Predict(pred, b, a)
			for o := 0; o < m.NumObservations(); o++ {
				po := m.Observe(post, pred, a, o)
				if !(po > 0) {
					continue
				}
				fits := len(next.b)+1 <= opt.MaxBeliefs && int64(len(next.b)+1)*int64(nS) <= opt.MaxEntries
				w := level.w[i] * po
				dist, isNew, err := next.add(post, po, w, fits)
				if err != nil {
					return nil, err
				}
				if isNew && !fits {
					g.Stopped = fmt.Sprintf("step %d reaches more than %d distinct beliefs of %d states (budget: %d beliefs, %d entries)", t+1, len(next.b), nS, opt.MaxBeliefs, opt.MaxEntries)
					e.finish(g)
					return g, nil
				}
				if !isNew {
					g.Merged++
					g.MergeError += w * coef * dist
				}
			}
		}
		level = next
		disc *= g.Discount
	}
	e.finish(g)
	return g, nil
}

// newGreedy checks EvaluateGreedy's arguments, fills the defaults of opt
// and returns the result to fill: discount and largest |reward|.
func newGreedy(m *pomdp.Model, p *VectorPolicy, T int, opt *GreedyOptions) (*Greedy, error) {
	nS := m.NumStates()
	if nS != p.VectorLength*p.NumObsValue {
		return nil, fmt.Errorf("policy: the policy's vectorLength × numObsValue = %d × %d does not match the model's %d states", p.VectorLength, p.NumObsValue, nS)
	}
	for k, v := range p.Vectors {
		if v.Action < 0 || v.Action >= m.NumActions() {
			return nil, fmt.Errorf("policy: vector %d: action %d is not an action of the model (%d actions)", k, v.Action, m.NumActions())
		}
	}
	if T < 1 {
		return nil, fmt.Errorf("policy: horizon %d: want T ≥ 1", T)
	}
	if opt.MaxBeliefs <= 0 {
		opt.MaxBeliefs = DefaultMaxBeliefs
	}
	if opt.MaxEntries <= 0 {
		opt.MaxEntries = DefaultMaxBeliefEntries
	}
	if opt.MaxVisits <= 0 {
		opt.MaxVisits = DefaultMaxVisits
	}
	g := &Greedy{Requested: T, Discount: 1}
	if m.HasDiscount {
		g.Discount = m.Discount
	}
	for _, row := range m.R {
		for _, r := range row {
			g.MaxAbsReward = math.Max(g.MaxAbsReward, math.Abs(r))
		}
	}
	return g, nil
}

// remaining returns Σ_{j<n} γ^j.
func remaining(gamma float64, n int) float64 {
	if gamma == 1 {
		return float64(n)
	}
	return (1 - math.Pow(gamma, float64(n))) / (1 - gamma)
}

type greedyEval struct {
	m     *pomdp.Model
	p     *VectorPolicy
	byObs [][]int
	seed  maphash.Seed
}

// start returns the first step: b0, split by the fully observed part when
// it spreads over several values.
func (e *greedyEval) start(g *Greedy) (*beliefSet, error) {
	lv := e.newLevel(0)
	n := e.p.VectorLength
	b0 := e.m.B0
	var xs []int
	for x := 0; x < e.p.NumObsValue; x++ {
		if hasMass(b0[x*n : (x+1)*n]) {
			xs = append(xs, x)
		}
	}
	if len(xs) <= 1 {
		_, _, err := lv.add(b0, 1, 1, true)
		return lv, err
	}
	g.Split = true
	part := make([]float64, len(b0))
	for _, x := range xs {
		clear(part)
		mass := 0.0
		for y := 0; y < n; y++ {
			part[x*n+y] = b0[x*n+y]
			mass += b0[x*n+y]
		}
		if _, _, err := lv.add(part, mass, mass, true); err != nil {
			return nil, err
		}
	}
	return lv, nil
}

// action returns the greedy action at belief b of step t.
func (e *greedyEval) action(b []float64, t int) (int, error) {
	n := e.p.VectorLength
	x := -1
	for k := 0; k < e.p.NumObsValue; k++ {
		if hasMass(b[k*n : (k+1)*n]) {
			if x >= 0 {
				return 0, fmt.Errorf("policy: at step %d a belief spreads over the obsValues %d and %d: the model does not reveal the fully observed part the policy's vectors are indexed by", t, x, k)
			}
			x = k
		}
	}
	if x < 0 || len(e.byObs[x]) == 0 {
		return 0, fmt.Errorf("policy: at step %d the belief lies on obsValue %d, for which the policy has no vector", t, x)
	}
	part := b[x*n : (x+1)*n]
	v, best := math.Inf(-1), -1
	for _, i := range e.byObs[x] {
		if d := e.p.Vectors[i].Dot(part); d > v || best < 0 {
			v, best = d, i
		}
	}
	return e.p.Vectors[best].Action, nil
}

func (e *greedyEval) finish(g *Greedy) {
	g.Tail = math.Inf(1)
	if g.Discount < 1 {
		g.Tail = math.Pow(g.Discount, float64(g.Horizon)) * g.MaxAbsReward / (1 - g.Discount)
	}
	g.Low, g.High = g.Value-g.Tail-g.MergeError, g.Value+g.Tail+g.MergeError
}

// MergeCell is the cell size within which EvaluateGreedy merges beliefs:
// two beliefs are merged when every entry falls into the same cell of
// width MergeCell and the greedy action is the same (see Greedy.Merged).
const MergeCell = 1e-10

// beliefSet is the distinct beliefs of one step with their probabilities
// and greedy actions.
type beliefSet struct {
	e     *greedyEval
	step  int
	b     [][]float64
	w     []float64
	act   []int
	index map[uint64][]int
}

func (e *greedyEval) newLevel(step int) *beliefSet {
	return &beliefSet{e: e, step: step, index: map[uint64][]int{}}
}

// cellHash hashes the cells of width MergeCell that the entries of b fall
// into.
func (l *beliefSet) cellHash(b []float64) uint64 {
	var h maphash.Hash
	h.SetSeed(l.e.seed)
	var buf [8]byte
	for _, x := range b {
		u := uint64(int64(math.Floor(x / MergeCell)))
		for k := range buf {
			buf[k] = byte(u >> (8 * k))
		}
		h.Write(buf[:])
	}
	return h.Sum64()
}

func sameCells(a, b []float64) bool {
	for i := range a {
		if math.Floor(a[i]/MergeCell) != math.Floor(b[i]/MergeCell) {
			return false
		}
	}
	return true
}

func l1(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d += math.Abs(a[i] - b[i])
	}
	return d
}

// add adds probability w to the belief mass/z: to a belief of the set in
// the same cells with the same greedy action, or as a new belief. It
// returns the ℓ1 distance to the belief it was merged into (0 for a new
// belief), and whether the belief is new; with budget false it does not add
// a new belief (and reports it as new).
func (l *beliefSet) add(mass []float64, z, w float64, budget bool) (dist float64, isNew bool, err error) {
	b := slices.Clone(mass)
	if z != 1 {
		for i := range b {
			b[i] /= z
		}
	}
	h := l.cellHash(b)
	a := -1
	for _, i := range l.index[h] {
		if !sameCells(l.b[i], b) {
			continue
		}
		if a < 0 {
			if a, err = l.e.action(b, l.step); err != nil {
				return 0, false, err
			}
		}
		if l.act[i] == a {
			l.w[i] += w
			return l1(l.b[i], b), false, nil
		}
	}
	if !budget {
		return 0, true, nil
	}
	if a < 0 {
		if a, err = l.e.action(b, l.step); err != nil {
			return 0, false, err
		}
	}
	l.index[h] = append(l.index[h], len(l.b))
	l.b = append(l.b, b)
	l.w = append(l.w, w)
	l.act = append(l.act, a)
	return 0, true, nil
}

// BracketHorizon returns the smallest horizon T ≥ 1 with γ^T/(1−γ) ≤ rel,
// so that EvaluateGreedy's bracket has half-width at most rel·max|R|; at
// most limit. It returns limit for γ ≥ 1.
func BracketHorizon(gamma, rel float64, limit int) int {
	if !(gamma < 1) || !(rel > 0) {
		return limit
	}
	if gamma <= 0 {
		return 1
	}
	t := int(math.Ceil(math.Log(rel*(1-gamma)) / math.Log(gamma)))
	return min(max(t, 1), limit)
}
