package value

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Default tolerances of EstimateLipschitz.
const (
	// DefaultDistTol: suffix laws at W1 distance ≤ 1e-12 count as equal
	// (the exact-partition threshold of docs/conventions.md#tolerances).
	DefaultDistTol = 1e-12
	// DefaultRewardTol: expected rewards within 1e-9 count as equal.
	DefaultRewardTol = 1e-9
)

// LipschitzOptions configure EstimateLipschitz. The zero value means the
// defaults documented on each field.
type LipschitzOptions struct {
	// Ground is the observation metric d_O; nil means the discrete metric.
	Ground ot.Ground
	// DistTol: distances ≤ DistTol count as zero; 0 means DefaultDistTol.
	DistTol float64
	// RewardTol: |R̄(h) − R̄(h')| ≤ RewardTol counts as zero; 0 means
	// DefaultRewardTol.
	RewardTol float64
	// Limit bounds the family size; 0 means fsc.DefaultLimit.
	Limit int64
	// Workers is the number of goroutines; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Progress, when set, is called with the number of probes done and
	// the family size, from one goroutine at a time.
	Progress func(done, total int)
}

// PairRef names a pair of equal-length histories (Depth, I) and (Depth, J),
// I < J, indexed as in law.Tree, under probe Probe of the family.
type PairRef struct {
	Probe, Depth, I, J int
}

func (p PairRef) less(q PairRef) bool {
	if p.Probe != q.Probe {
		return p.Probe < q.Probe
	}
	if p.Depth != q.Depth {
		return p.Depth < q.Depth
	}
	if p.I != q.I {
		return p.I < q.I
	}
	return p.J < q.J
}

// Lipschitz is the outcome of EstimateLipschitz.
type Lipschitz struct {
	// LR is the empirical observation-Lipschitz constant: Finite when
	// Violations is 0, +Inf otherwise (no finite L_R exists for this
	// family and horizon).
	LR float64
	// Finite is the largest ratio |ΔR̄| / W1 over pairs at positive
	// distance; Argmax names the first pair attaining it (Probe = −1 when
	// no pair has positive distance and differing rewards), with DeltaR
	// and W1 its two terms.
	Finite     float64
	Argmax     PairRef
	DeltaR, W1 float64
	// Violations counts pairs whose laws are equal (W1 ≤ DistTol) while
	// their expected rewards differ (by more than RewardTol); First is the
	// first of them in (probe, depth, i, j) order and FirstDeltaR its
	// reward difference.
	Violations  int
	First       PairRef
	FirstDeltaR float64
	// Pairs counts the (probe, pair) combinations compared, both histories
	// of positive probability; Skipped those left out because a history
	// was impossible under the probe (R̄ undefined).
	Pairs, Skipped int
	// RewardRange is R_max − R_min, the a-priori bound of
	// rem:lipschitz-small under the discrete metric.
	RewardRange float64
	FamilySize  int
	Seconds     float64
}

// String summarises the estimate on one line.
func (l Lipschitz) String() string {
	return fmt.Sprintf("L_R ≈ %.6g (finite part %.6g; %d zero-distance violations; %d pairs, %d skipped; reward range %.6g)",
		l.LR, l.Finite, l.Violations, l.Pairs, l.Skipped, l.RewardRange)
}

// EstimateLipschitz returns the empirical observation-Lipschitz constant
// of m's reward for family fam and horizon T (def:obs-lipschitz):
//
//	L̂_R = max_{π ∈ fam} max_{t < T} max_{|h| = |h'| = t, h ≠ h'}
//	       |R̄(h,π) − R̄(h',π)| / W1(P^π(O_{t+1:T} | h), P^π(O_{t+1:T} | h'))
//
// over pairs with W1 > DistTol, where W1 is the exact transport distance
// under the sequence cost Σ d_O (docs/conventions.md#distances) computed with
// ot.Solver.SeqW1, and
//
//	R̄(h,π) = E^π[R(S_t, A_t) | h] = Σ_{s,n} P^π(s, n | h) Σ_a α_t(a | n) R(s, a)
//
// from the joint posterior over (state, node). For deterministic
// controllers (and one-node stochastic ones) this is the paper's
// Σ_s b_h(s) Σ_a π(a | h) R(s, a); in general it is the stagewise expected
// reward the proof of thm:value-bound compares. Histories of depth T take
// no action and are not compared; impossible histories (P^π(h) = 0) have
// no R̄ and their pairs are skipped and counted.
//
// A pair at zero distance with different rewards admits no finite L_R:
// such pairs are counted as Violations and make LR = +Inf (Tiger's reward
// under open-loop probes is an example: after listening, the laws that
// follow an "open" are identical while the expected reward of opening is
// not). Finite keeps the largest finite ratio.
//
// The family is split across Workers goroutines; maxima merge with a
// first-pair tie-break, so the result does not depend on scheduling.
// Errors: an empty or too large family, T < 1, a ground metric of the
// wrong size or not a pseudometric, a controller that does not fit, a
// transport failure, or ctx's error. Cost per probe: one law pass
// (law.Engine) and one R̄ pass over the history tree, plus one transport
// problem on supports of size |O|^{T−t} per pair of possible depth-t
// histories whose rewards differ, unless ot's cheap lower bound on W1
// already shows the pair's ratio below the running maximum.
func EstimateLipschitz(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, opt LipschitzOptions) (Lipschitz, error) {
	start := time.Now()
	n := fam.Len()
	if n == 0 {
		return Lipschitz{}, errors.New("value: empty controller family")
	}
	if T < 1 {
		return Lipschitz{}, fmt.Errorf("value: EstimateLipschitz needs T ≥ 1, have %d", T)
	}
	limit := opt.Limit
	if limit == 0 {
		limit = fsc.DefaultLimit
	}
	if int64(n) > limit {
		return Lipschitz{}, fmt.Errorf("%w: family %s has %d controllers, above the limit %d (LipschitzOptions.Limit)", ErrTooLarge, fam, n, limit)
	}
	g := opt.Ground
	if g == nil {
		g = ot.Discrete(m.NumObservations())
	}
	if g.Size() != m.NumObservations() {
		return Lipschitz{}, fmt.Errorf("value: ground metric has %d points, model %s has %d observations", g.Size(), m.Name, m.NumObservations())
	}
	if _, err := ot.NewGround(g); err != nil {
		return Lipschitz{}, err
	}
	if opt.DistTol == 0 {
		opt.DistTol = DefaultDistTol
	}
	if opt.RewardTol == 0 {
		opt.RewardTol = DefaultRewardTol
	}
	parts, err := probeAll(ctx, m, fam, T, g, opt)
	if err != nil {
		return Lipschitz{}, err
	}
	res := mergeLipschitz(parts)
	res.RewardRange, res.FamilySize = RewardRange(m), n
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// probeAll probes every controller of fam on opt.Workers goroutines,
// each with its own lipWorker, and returns the workers; the error is the
// one of the lowest-numbered controller that failed, or the context's.
func probeAll(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, g ot.Ground, opt LipschitzOptions) ([]lipWorker, error) {
	n := fam.Len()
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)

	parts := make([]lipWorker, workers)
	for w := range parts {
		if err := parts[w].init(m, T, g, opt); err != nil {
			return nil, err
		}
	}
	forChunks(ctx, n, 1, workers, func(w, i, _ int) bool {
		lw := &parts[w]
		if lw.err == nil {
			if err := lw.probe(i, fam.At(i)); err != nil {
				lw.err = fmt.Errorf("value: controller %d of %s: %w", i, fam, err)
				lw.errAt = i
				return false
			}
		}
		return true
	}, opt.Progress)
	var firstErr error
	errAt := n
	for w := range parts {
		if parts[w].err != nil && parts[w].errAt < errAt {
			firstErr, errAt = parts[w].err, parts[w].errAt
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return parts, nil
}

// mergeLipschitz merges the workers' accumulators: counts add up, the
// largest finite ratio wins (ties to the smallest pair) and the first
// violation is the smallest pair.
func mergeLipschitz(parts []lipWorker) Lipschitz {
	res := Lipschitz{Argmax: PairRef{-1, -1, -1, -1}, First: PairRef{-1, -1, -1, -1}}
	for w := range parts {
		p := &parts[w].acc
		res.Pairs += p.Pairs
		res.Skipped += p.Skipped
		res.Violations += p.Violations
		if p.Argmax.Probe >= 0 && (res.Argmax.Probe < 0 || p.Finite > res.Finite || p.Finite == res.Finite && p.Argmax.less(res.Argmax)) {
			res.Finite, res.Argmax, res.DeltaR, res.W1 = p.Finite, p.Argmax, p.DeltaR, p.W1
		}
		if p.First.Probe >= 0 && (res.First.Probe < 0 || p.First.less(res.First)) {
			res.First, res.FirstDeltaR = p.First, p.FirstDeltaR
		}
	}
	res.LR = res.Finite
	if res.Violations > 0 {
		res.LR = math.Inf(1)
	}
	return res
}

// lipWorker evaluates probes for EstimateLipschitz and keeps a partial
// result. It owns a law engine, a transport solver and the R̄ pass scratch.
type lipWorker struct {
	m    *pomdp.Model
	T    int
	g    ot.Ground
	opt  LipschitzOptions
	eng  *law.Engine
	laws *law.Laws
	ot   ot.Solver
	rb   rbarPass
	acc  Lipschitz

	err   error
	errAt int
}

func (lw *lipWorker) init(m *pomdp.Model, T int, g ot.Ground, opt LipschitzOptions) error {
	eng, err := law.NewEngine(m, T, law.PointMassStandIn)
	if err != nil {
		return err
	}
	*lw = lipWorker{m: m, T: T, g: g, opt: opt, eng: eng, laws: eng.NewLaws(),
		rb:  rbarPass{m: m, tree: eng.Tree(), nS: m.NumStates()},
		acc: Lipschitz{Argmax: PairRef{-1, -1, -1, -1}, First: PairRef{-1, -1, -1, -1}}}
	lw.rb.rbar = make([]float64, eng.Tree().Len())
	lw.rb.mass = make([]float64, eng.Tree().Len())
	return nil
}

// probe folds controller c (family index idx) into the partial result.
func (lw *lipWorker) probe(idx int, c *fsc.FSC) error {
	if err := lw.eng.ComputeInto(lw.laws, c); err != nil {
		return err
	}
	lw.rb.run(c)
	tr := lw.eng.Tree()
	acc := &lw.acc
	for t := 1; t < lw.T; t++ {
		off, cnt, L, k := tr.Offset(t), tr.Count(t), tr.SuffixLen(t), lw.T-t
		data := lw.laws.Depth(t)
		for i := 0; i < cnt; i++ {
			possI := lw.laws.Mass[off+i] > 0 && lw.rb.mass[off+i] > 0
			for j := i + 1; j < cnt; j++ {
				if !possI || !(lw.laws.Mass[off+j] > 0 && lw.rb.mass[off+j] > 0) {
					acc.Skipped++
					continue
				}
				acc.Pairs++
				dr := math.Abs(lw.rb.rbar[off+i] - lw.rb.rbar[off+j])
				if dr <= lw.opt.RewardTol {
					continue
				}
				p, q := data[i*L:(i+1)*L], data[j*L:(j+1)*L]
				if acc.Argmax.Probe >= 0 {
					// W1 ≥ lb > DistTol: not a violation, and the ratio
					// cannot reach the running maximum (the margin keeps
					// the result independent of the order of probes).
					if lb := lw.ot.LowerBound(lw.g, k, p, q); lb > lw.opt.DistTol && dr/lb < acc.Finite*(1-1e-9) {
						continue
					}
				}
				r, err := lw.ot.SeqW1(lw.g, k, p, q)
				if err != nil {
					return err
				}
				ref := PairRef{idx, t, i, j}
				if r.Value <= lw.opt.DistTol {
					acc.Violations++
					if acc.First.Probe < 0 || ref.less(acc.First) {
						acc.First, acc.FirstDeltaR = ref, dr
					}
					continue
				}
				ratio := dr / r.Value
				if acc.Argmax.Probe < 0 || ratio > acc.Finite || ratio == acc.Finite && ref.less(acc.Argmax) {
					acc.Finite, acc.Argmax, acc.DeltaR, acc.W1 = ratio, ref, dr, r.Value
				}
			}
		}
	}
	return nil
}

// rbarPass computes P^π(h) and R̄(h, π) for every history of depth < T by
// one depth-first pass carrying the joint law of (node, state).
type rbarPass struct {
	m     *pomdp.Model
	tree  law.Tree
	nS    int
	nodes int
	joint [][]float64 // per depth, nodes·nS
	pred  []float64
	rbar  []float64 // by global history ID (depth < T)
	mass  []float64
}

func (p *rbarPass) run(c *fsc.FSC) {
	if c.Nodes > p.nodes || p.joint == nil {
		p.nodes = max(p.nodes, c.Nodes)
		p.joint = make([][]float64, p.tree.T+1)
		for t := range p.joint {
			p.joint[t] = make([]float64, p.nodes*p.nS)
		}
		p.pred = make([]float64, p.nS)
	}
	clear(p.rbar)
	clear(p.mass)
	root := p.joint[0][:c.Nodes*p.nS]
	clear(root)
	copy(root, p.m.B0)
	p.dfs(c, 0, 0, root)
}

// dfs records history (t, i) with unnormalised joint law joint and
// descends into its children of positive probability.
func (p *rbarPass) dfs(c *fsc.FSC, t, i int, joint []float64) {
	nS, m, tr := p.nS, c.Nodes, p.tree
	id := tr.Offset(t) + i
	mass := sum(joint)
	p.mass[id] = mass
	if t == tr.T {
		return
	}
	r := 0.0
	for n := 0; n < m; n++ {
		seg := joint[n*nS : (n+1)*nS]
		for a := 0; a < c.NumActions; a++ {
			pa := c.ActionProb(t, n, a)
			if pa == 0 {
				continue
			}
			for s, x := range seg {
				r += pa * x * p.m.R[s][a]
			}
		}
	}
	p.rbar[id] = r / mass
	if t+1 == tr.T {
		return // depth-T histories take no action: only their masses matter, which law gives
	}
	child := p.joint[t+1][:m*nS]
	for o := 0; o < tr.NumObs; o++ {
		clear(child)
		for n := 0; n < m; n++ {
			seg := joint[n*nS : (n+1)*nS]
			if sum(seg) == 0 {
				continue
			}
			for a := 0; a < c.NumActions; a++ {
				pa := c.ActionProb(t, n, a)
				if pa == 0 {
					continue
				}
				p.m.Predict(p.pred, seg, a)
				states, probs := p.m.ObsColumn(a, o)
				for n2 := 0; n2 < m; n2++ {
					q := pa * c.NextProbOf(t, n, o, n2)
					if q == 0 {
						continue
					}
					dst := child[n2*nS : (n2+1)*nS]
					for k, s := range states {
						dst[s] += q * p.pred[s] * probs[k]
					}
				}
			}
		}
		if sum(child) == 0 {
			continue
		}
		p.dfs(c, t+1, i*tr.NumObs+o, child)
	}
}
