package clock2

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/pomdpq/pomdpq/lib/bb"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// DefaultMaxNodes is the default bound on the branch-and-bound nodes one
// tail search may visit (Options.MaxNodes).
const DefaultMaxNodes = bb.DefaultMaxNodes

// ErrTooLarge is returned (wrapped) when a search exceeds Options.MaxNodes.
var ErrTooLarge = errors.New("clock2: search too large")

var errNodes = errors.New("node limit")

// Options configure Compute (see bb.Options and, for decision mode, the
// package comment). MaxNodes bounds the branch-and-bound nodes of one
// tail search; MemBudget bounds the estimated memory of the belief table,
// the realisable roots and the memo.
type Options = bb.Options

// Per-item byte costs of the memory estimate, an upper bound: every root
// listed is counted with a memo entry, though the memo holds only the
// distinct ones (GridWorld 3×3 at T = 4: 10.1 million roots listed, 0.57
// million distinct, estimate 0.8 GB, peak resident 0.26 GB).
const (
	bytesPerRoot   = 16 + 64 // a root in its pair's list, and a memo entry
	bytesPerStep   = 48      // a memoised belief successor
	bytesPerBelief = 96      // plus 16 bytes per state (vector and key)
)

// Cost is the memory Compute allocates before and besides its search
// tables, whatever the search meets: known from |S|, |A|, |O|, T and the
// workers alone, and checked against Options.MemBudget before any of it
// is allocated. The search tables (beliefs met along the histories,
// realisable roots, memo) grow with the model and are checked as they
// are listed, on top of it.
type Cost struct {
	// Transitions is the dense T[a][s][s'] used to build the bases
	// (|A|·|S|² numbers), Basis the orthonormal bases of the continuation
	// functionals (at most min(2|S|, |O|^r·(2|A|)^{2r}) vectors of 2|S|
	// numbers per remaining horizon r), Prefix the additive prefix costs.
	Transitions, Basis, Prefix int64
	// Scratch is the searchers' buffers: per worker, frontiers and
	// unmerged successors over |O|^k prefixes for k < T, and two laws of
	// |O|^T atoms.
	Scratch int64
	// Matrices is Result.Lower and Result.Upper over every pair of
	// histories of every depth.
	Matrices int64
}

// gcFactor converts live memory into peak resident memory (the collector
// lets the heap grow to twice the live data before it collects).
const gcFactor = 2

// Bytes returns the estimated peak memory of the fixed part, the
// collector's factor included.
func (c Cost) Bytes() int64 {
	return gcFactor * (c.Transitions + c.Basis + c.Prefix + c.Scratch + c.Matrices)
}

// Largest returns the name and bytes (collector's factor included) of the
// largest term.
func (c Cost) Largest() (string, int64) {
	terms := []struct {
		name string
		b    int64
	}{
		{"dense transition matrices for the continuation bases (|A|·|S|²)", c.Transitions},
		{"continuation bases ((2|S|)² per remaining horizon)", c.Basis},
		{"prefix cost tables", c.Prefix},
		{"search buffers per worker (|O|^k frontiers of 2|S| numbers)", c.Scratch},
		{"distance matrices over all history pairs", c.Matrices},
	}
	big := 0
	for k, t := range terms {
		if t.b > terms[big].b {
			big = k
		}
	}
	return terms[big].name, gcFactor * terms[big].b
}

// EstimateCost returns the fixed memory of Compute for m at horizon T with
// the given workers (0: runtime.GOMAXPROCS(0)). It allocates nothing.
func EstimateCost(m *pomdp.Model, T, workers int) Cost {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	nS, nA, nO := float64(m.NumStates()), float64(m.NumActions()), float64(m.NumObservations())
	w := 2 * nS
	var c Cost
	sat := func(x float64) int64 { return int64(min(x, math.MaxInt64/4)) }
	c.Transitions = sat(8 * nA * nS * nS)
	var basis, prefix, scratch, matrices float64
	vecs := 1.0
	for r := 1; r <= T; r++ {
		vecs = min(w, vecs*nO*4*nA*nA)
		basis += 8 * vecs * w
		if vecs == w {
			break // full: later horizons share it
		}
	}
	for k := 0; k < T; k++ {
		n := math.Pow(nO, float64(k))
		if n*n <= 1<<24 {
			prefix += 8 * n * n
		}
		scratch += 2 * 8 * n * (w + 1 + 2*nO*nS + 2*nO)
	}
	scratch = float64(workers) * (scratch + 2*8*math.Pow(nO, float64(T)) + 8*(nS+3*w))
	for t := 0; t <= T; t++ {
		n := math.Pow(nO, float64(t))
		matrices += 2 * 8 * n * (n - 1) / 2
	}
	c.Basis, c.Prefix, c.Scratch, c.Matrices = sat(basis), sat(prefix), sat(scratch), sat(matrices)
	return c
}

// memCheck refuses a run whose tables are estimated above the budget: the
// fixed part c and the search tables listed so far.
func (p *problem) memCheck(budget int64, c Cost, depth int, roots, beliefs, steps int) error {
	if budget < 0 {
		return nil
	}
	fixed, fixedB := c.Largest()
	terms := []struct {
		name string
		b    int64
	}{
		{"realisable roots and their memo entries", int64(roots) * bytesPerRoot},
		{"belief successors", int64(steps) * bytesPerStep},
		{"beliefs", int64(beliefs) * (bytesPerBelief + 16*int64(p.nS))},
		{fixed, fixedB},
	}
	total, big := c.Bytes()-fixedB, 0
	for k, t := range terms {
		total += t.b
		if t.b > terms[big].b {
			big = k
		}
	}
	if total <= budget {
		return nil
	}
	return fmt.Errorf("%w: %s at T = %d: the search may need up to %s at depth %d (largest term: %s, %s), above the budget %s; lower T or raise the budget (--mem)",
		ErrTooLarge, p.m.Name, p.T, distance.FormatBytes(total), depth, terms[big].name, distance.FormatBytes(terms[big].b), distance.FormatBytes(budget))
}

// Result holds the two-node clock-aware distances of one model and horizon.
type Result struct {
	bb.Distances
	// FamilySize is the number of controllers of Π^clk_{2,T} (not
	// enumerated), RootPairs the distinct tail problems solved, Nodes the
	// branch-and-bound nodes visited.
	FamilySize *big.Int
	RootPairs  int
	Nodes      int64
	Seconds    float64
	Convention law.Convention
}

// Work returns the number of (history pair, tail controller) combinations
// an enumeration of the tails alone would visit: Σ_t C(|O|^t, 2)·
// (|A|²)^{T−t}·(2^{2|O|})^{T−t−1}, the worst case of the search.
func Work(nA, nO, T int) float64 {
	w := 0.0
	for t := 1; t < T; t++ {
		n := math.Pow(float64(nO), float64(t))
		L := float64(T - t)
		w += n * (n - 1) / 2 * math.Pow(float64(nA*nA), L) * math.Pow(math.Pow(2, float64(2*nO)), L-1)
	}
	return w
}

func newProblem(ctx context.Context, m *pomdp.Model, T int, opt Options) (*problem, error) {
	if err := bb.Check("clock2", m, T); err != nil {
		return nil, err
	}
	nS, nA, nO := m.NumStates(), m.NumActions(), m.NumObservations()
	if nO > maxObs {
		return nil, fmt.Errorf("clock2: model %s has %d observations, more than %d", m.Name, nO, maxObs)
	}
	g, err := bb.Ground("clock2", m, T, opt.Ground)
	if err != nil {
		return nil, err
	}
	p := &problem{m: m, nS: nS, nA: nA, nO: nO, T: T, w: 2 * nS, g: g, gmax: g.Max(),
		uniform: opt.Convention == law.UniformStandIn, Decision: bb.NewDecision(opt.Eps), maxNodes: bb.NodeLimit(opt.MaxNodes)}
	p.pow = make([]int, T+1)
	p.pow[0] = 1
	for k := 1; k <= T; k++ {
		p.pow[k] = p.pow[k-1] * nO
	}
	// Additive prefix costs, for the prefixes a bound meets (k < T).
	p.seqc = make([][]float64, T)
	for k := 0; k < T; k++ {
		n := p.pow[k]
		if n*n > 1<<24 {
			break // bounds at this depth are not needed for any feasible search
		}
		c := make([]float64, n*n)
		for x := 0; x < n; x++ {
			for y := 0; y < n; y++ {
				v, a, b := 0.0, x, y
				for range k {
					v += g[a%nO][b%nO]
					a /= nO
					b /= nO
				}
				c[x*n+y] = v
			}
		}
		p.seqc[k] = c
	}
	if err := p.buildBasis(ctx); err != nil {
		return nil, err
	}
	return p, nil
}

// basisTol is the residual norm below which buildBasis drops a
// generator as already in the span. It is absolute and far below the
// enumeration's resolution: a generator u is a continuation functional
// (entries in [0, 1]), so dropping its residual e = u − Pu misses at most
// |⟨e, Δ⟩| ≤ |e|₂·|Δ|₂ ≤ √2·basisTol ≈ 1.4e-14 of a law entry, under
// lib/distance's LawTol (1e-13), below which the enumerating pipeline
// itself identifies laws. Roundoff residuals of dependent generators are
// about 1e-16·|u|₂ (Gram–Schmidt twice), so they are still dropped; a
// genuine direction of norm p, as an observation of probability p
// creates, is kept for p down to about 1e-14. (The old 1e-9 dropped
// directions that separate histories by up to 1e-9 in total variation,
// so ε = 0 partitions merged histories the enumeration separates:
// TestTinyObservation.) Keeping a spurious direction only weakens
// pruning; it cannot make the bound unsound.
const basisTol = 1e-14

// buildBasis computes orthonormal bases of the continuation functionals
// J ↦ P^R(y | J) for every remaining horizon r = 0 … T (see the package
// comment). It returns ctx.Err() when ctx is cancelled.
func (p *problem) buildBasis(ctx context.Context) error {
	nS, w := p.nS, p.w
	dense := make([][][]float64, p.nA) // dense[a][s][s']
	e, pred := make([]float64, nS), make([]float64, nS)
	for a := 0; a < p.nA; a++ {
		dense[a] = make([][]float64, nS)
		for s := 0; s < nS; s++ {
			clear(e)
			e[s] = 1
			dense[a][s] = make([]float64, nS)
			p.m.Predict(dense[a][s], e, a)
		}
	}
	_ = pred
	p.basis = make([][][]float64, p.T+1)
	p.full = make([]bool, p.T+1)
	p.gram = make([]float64, p.T+1)
	p.gram[0] = 1
	one := make([]float64, w)
	for i := range one {
		one[i] = 1 / math.Sqrt(float64(w))
	}
	p.basis[0] = [][]float64{one}
	p.full[0] = w == 1
	obsOf := make([]float64, nS)
	for r := 1; r <= p.T; r++ {
		var bs [][]float64
		if p.full[r-1] {
			p.full[r] = true
			p.basis[r], p.gram[r] = p.basis[r-1], p.gram[r-1]
			continue
		}
		// Per-node blocks f_{a,b,o,g}(s) = Σ_s' T(s,a,s') Z(s',a,o) g(b, s');
		// a functional concatenates a block for node 0 and one for node 1
		// with the same g and o.
		zero := make([]float64, nS)
		add := func(v []float64) {
			u := slices.Clone(v)
			for range 2 { // re-orthogonalise once for stability
				for _, q := range bs {
					d := dot(q, u)
					for i := range u {
						u[i] -= d * q[i]
					}
				}
			}
			n := math.Sqrt(dot(u, u))
			if n > basisTol {
				for i := range u {
					u[i] /= n
				}
				bs = append(bs, u)
			}
		}
	outer:
		for _, gv := range p.basis[r-1] {
			if err := ctx.Err(); err != nil {
				return err
			}
			for o := 0; o < p.nO; o++ {
				blocks := make([][]float64, 0, 2*p.nA)
				for a := 0; a < p.nA; a++ {
					states, probs := p.m.ObsColumn(a, o)
					for b := 0; b < 2; b++ {
						clear(obsOf)
						for k, s2 := range states {
							obsOf[s2] = probs[k] * gv[b*nS+s2]
						}
						f := make([]float64, nS)
						for s := 0; s < nS; s++ {
							v := 0.0
							for s2, t := range dense[a][s] {
								v += t * obsOf[s2]
							}
							f[s] = v
						}
						blocks = append(blocks, f)
					}
				}
				for _, f0 := range blocks {
					for _, f1 := range blocks {
						add(slices.Concat(f0, f1))
						if len(bs) == w {
							break outer
						}
					}
				}
			}
		}
		_ = zero
		p.basis[r] = bs
		p.full[r] = len(bs) == w
		p.gram[r] = gramScale(bs)
	}
	return nil
}

// gramScale returns the factor by which Σ_b ⟨b, Δ⟩² may under-estimate
// |PΔ|₂ for the projection P on the span of bs, whose vectors are
// orthonormal only to roundoff: with Gram matrix G = I + E,
// |PΔ|₂² = cᵀG⁻¹c ≤ |c|₂²/(1 − ‖E‖₂) for c = Bᵀ Δ, and ‖E‖₂ ≤ ‖E‖_F. It
// returns 1/√(1 − ‖E‖_F), or +Inf when ‖E‖_F ≥ ½ (the basis is then not
// used). A direction kept with a residual near basisTol is normalised by
// a tiny norm, so its orthogonality is much worse than machine precision.
func gramScale(bs [][]float64) float64 {
	e2 := 0.0
	for i, a := range bs {
		for j, b := range bs[:i+1] {
			d := dot(a, b)
			if i == j {
				d--
				e2 += d * d
			} else {
				e2 += 2 * d * d
			}
		}
	}
	e := math.Sqrt(e2)
	if e >= 0.5 {
		return math.Inf(1)
	}
	return 1 / math.Sqrt(1-e)
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// Compute returns the two-node clock-aware distances of model m at
// horizon T (see the package comment). It is cancelled with ctx.
func Compute(ctx context.Context, m *pomdp.Model, T int, opt Options) (*Result, error) {
	start := time.Now()
	budget := bb.Budget(opt.MemBudget)
	if m == nil {
		return nil, errors.New("clock2: nil model")
	}
	cost := EstimateCost(m, T, opt.Workers)
	if budget >= 0 && cost.Bytes() > budget {
		name, v := cost.Largest()
		return nil, fmt.Errorf("%w: %s at T = %d: the search's fixed buffers need %s before any search (largest term: %s, %s), above the budget %s; lower T, use fewer workers (--workers) or raise the budget (--mem)",
			ErrTooLarge, m.Name, T, distance.FormatBytes(cost.Bytes()), name, distance.FormatBytes(v), distance.FormatBytes(budget))
	}
	p, err := newProblem(ctx, m, T, opt)
	if err != nil {
		return nil, err
	}
	tree, _ := law.NewTree(p.nO, T)
	size, _ := fsc.Size(fsc.KindClock, p.nA, p.nO, 2, T)
	res := &Result{Distances: bb.NewDistances("clock2", tree, p.Decision), FamilySize: size, Convention: opt.Convention}
	total := 0
	for t := 0; t < T; t++ {
		n := tree.Count(t)
		total += n * (n - 1) / 2
	}
	run := bb.NewRun(ctx, total, opt.Progress)
	defer run.Stop()
	c := &pool{p: p, res: res, run: run, workers: bb.Workers(opt.Workers), budget: budget, cost: cost,
		memo: make(map[memoKey]memoEntry), bs: newBeliefs(p), seen: make(map[[3]int32]bool)}
	for t := 0; t <= T; t++ {
		n := tree.Count(t)
		res.Lower[t] = partition.NewMatrix(n)
		res.Upper[t] = partition.NewMatrix(n)
		if t == T || n < 2 {
			continue
		}
		// The realisable roots of every pair, before the searches (the
		// belief table is read-only while they run).
		all, err := c.list(ctx, t)
		if err != nil {
			return nil, err
		}
		if err := c.depth(t, all); err != nil {
			return nil, err
		}
	}
	res.RootPairs = len(c.memo)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// pool is what Compute's workers share.
type pool struct {
	p       *problem
	res     *Result
	run     *bb.Run
	workers int
	budget  int64
	cost    Cost
	mu      sync.Mutex // guards memo and res.Nodes
	memo    map[memoKey]memoEntry
	listed  int // roots listed so far (every one may get a memo entry)
	bs      *beliefs
	seen    map[[3]int32]bool // roots' scratch
}

// job is a history pair (i, j) of one depth with its realisable roots.
type job struct {
	i, j int
	rks  []rootKey
}

// list returns the history pairs of depth t with their realisable roots,
// refusing past the memory budget. It is cancelled with ctx.
func (c *pool) list(ctx context.Context, t int) ([]job, error) {
	tree, bs := c.res.Tree, c.bs
	n := tree.Count(t)
	var all []job
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := c.p.memCheck(c.budget, c.cost, t, c.listed, len(bs.vecs), len(bs.next)); err != nil {
			return nil, err
		}
		hi := tree.History(t, i)
		for j := i + 1; j < n; j++ {
			rks := bs.roots(nil, hi, tree.History(t, j), c.seen)
			c.listed += len(rks)
			all = append(all, job{i, j, rks})
		}
	}
	if err := c.p.memCheck(c.budget, c.cost, t, c.listed, len(bs.vecs), len(bs.next)); err != nil {
		return nil, err
	}
	return all, nil
}

// depth searches the history pairs all of depth t with the workers.
func (c *pool) depth(t int, all []job) error {
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range c.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.work(t, jobs)
		}()
	}
	for _, jb := range all {
		if !bb.Send(c.run, jobs, jb) {
			break
		}
	}
	close(jobs)
	wg.Wait()
	return c.run.Err()
}

// work searches the depth-t pairs of jobs until jobs is closed.
func (c *pool) work(t int, jobs <-chan job) {
	p := c.p
	L := p.T - t
	s := newSearcher(p, c.run.Context())
	for jb := range jobs {
		lo, hi, err := p.pair(s, c.bs, c.memo, &c.mu, L, jb.rks)
		if errors.Is(err, errNodes) {
			err = fmt.Errorf("%w: %s at T = %d: a tail search at depth %d (%d steps left) visited more than %d nodes; "+
				"the worst case is %.3g (history pair, tail) combinations in all; %s",
				ErrTooLarge, p.m.Name, p.T, t, L, p.maxNodes, Work(p.nA, p.nO, p.T), p.NodeAdvice())
		}
		if err != nil {
			c.run.Fail(err)
			continue
		}
		k := c.res.Lower[t].Index(jb.i, jb.j)
		c.res.Lower[t].Data[k], c.res.Upper[t].Data[k] = lo, hi
		c.run.Done()
	}
	c.mu.Lock()
	c.res.Nodes += s.nodes
	c.mu.Unlock()
}

type memoEntry struct{ own, ub float64 }

// probeBudget is the node budget per root of the probing pass.
const probeBudget = 64

type memoKey struct {
	L int
	r rootKey
}

// pair returns the bracket [lo, hi] of d(h, h') for two depth-t histories
// with realisable roots rks. In decision mode a probing pass first gives
// every root a small node budget: one value above the cap decides the
// pair without proofs.
func (p *problem) pair(s *searcher, bs *beliefs, memo map[memoKey]memoEntry, mu *sync.Mutex, L int, rks []rootKey) (lo, hi float64, err error) {
	lookup := func(key memoKey) (memoEntry, bool) {
		mu.Lock()
		defer mu.Unlock()
		e, ok := memo[key]
		return e, ok
	}
	store := func(key memoKey, own, ub float64) {
		mu.Lock()
		defer mu.Unlock()
		if old, ok := memo[key]; ok {
			own, ub = max(own, old.own), min(ub, old.ub)
		}
		memo[key] = memoEntry{own: own, ub: ub}
	}
	search := func(rk rootKey, lo float64, budget int64) (float64, float64, error) {
		n2 := 1
		if rk.same {
			n2 = 0
		}
		r1 := p.rootOf(bs, rk.b1, 0, s.root1)
		r2 := p.rootOf(bs, rk.b2, n2, s.root2)
		return s.run(r1, r2, L, lo, budget)
	}
	if !math.IsInf(p.Cap, 1) {
		for _, rk := range rks {
			key := memoKey{L, rk}
			if e, ok := lookup(key); ok {
				lo = max(lo, e.own)
			} else {
				own, ub, err := search(rk, lo, probeBudget)
				if err != nil {
					return 0, 0, err
				}
				store(key, own, ub)
				lo = max(lo, own)
			}
			if lo > p.Cap {
				return lo, math.Inf(1), nil
			}
		}
	}
	for _, rk := range rks {
		key := memoKey{L, rk}
		e, ok := lookup(key)
		if ok && (e.own > p.Cap || e.ub <= p.Theta(max(lo, e.own))) {
			lo, hi = max(lo, e.own), max(hi, e.ub)
		} else {
			own, ub, err := search(rk, lo, 0)
			if err != nil {
				return 0, 0, err
			}
			store(key, own, ub)
			lo, hi = max(lo, own), max(hi, ub)
		}
		if lo > p.Cap {
			return lo, math.Inf(1), nil
		}
	}
	return lo, hi, nil
}

// standInID is the belief ID of an impossible path (the stand-in root).
const standInID = -1

// beliefs interns the beliefs met along history paths (rounded to a
// relative 2^-44, see internBits) and memoises their successors. It is filled by one goroutine
// per depth, before the searches, and read-only during them.
type beliefs struct {
	p     *problem
	index map[string]int32
	vecs  [][]float64
	next  map[[3]int32]int32 // (belief, action, observation) → belief or standInID
	pred  []float64
	tmp   []float64
	key   []byte
}

func newBeliefs(p *problem) *beliefs {
	bs := &beliefs{p: p, index: make(map[string]int32), next: make(map[[3]int32]int32),
		pred: make([]float64, p.nS), tmp: make([]float64, p.nS)}
	bs.intern(p.m.B0)
	return bs
}

// internBits is the number of low mantissa bits intern rounds away: beliefs
// share an ID when every entry agrees to a relative 2^-44 ≈ 5.7e-14.
//
// The rounding is relative, not absolute: a Bayes update multiplies the
// entries by likelihoods and renormalises, which preserves relative
// errors (to a factor 2 per step) but can turn an absolute difference of
// 1e-13 into one of 0.3 (TestCollidingBeliefs; rounding to 12 decimals
// identified such beliefs). Entries are non-negative sums of products, so
// equal beliefs reached along different paths differ by a few ulps and
// share a key unless they straddle a rounding boundary, which costs a
// duplicate root but no accuracy.
const internBits = 8

func (bs *beliefs) intern(v []float64) int32 {
	bs.key = bs.key[:0]
	for _, x := range v {
		var k uint64
		if x != 0 { // +0 and −0 alike
			k = (math.Float64bits(x) + 1<<(internBits-1)) >> internBits
		}
		bs.key = binary.LittleEndian.AppendUint64(bs.key, k)
	}
	if id, ok := bs.index[string(bs.key)]; ok {
		return id
	}
	id := int32(len(bs.vecs))
	bs.index[string(bs.key)] = id
	bs.vecs = append(bs.vecs, slices.Clone(v))
	return id
}

// step returns the belief after action a and observation o from belief
// b, or standInID when o has probability 0 (the path becomes impossible).
func (bs *beliefs) step(b int32, a, o int) int32 {
	if b == standInID {
		return standInID
	}
	k := [3]int32{b, int32(a), int32(o)}
	if id, ok := bs.next[k]; ok {
		return id
	}
	m := bs.p.m
	m.Predict(bs.pred, bs.vecs[b], a)
	mass := m.Observe(bs.tmp, bs.pred, a, o)
	id := int32(standInID)
	if mass > 0 {
		for i := range bs.tmp {
			bs.tmp[i] /= mass
		}
		id = bs.intern(bs.tmp)
	}
	bs.next[k] = id
	return id
}

// rootKey is a realisable pair of tail roots up to the order of the sides
// and the relabelling of the nodes (both leave the maximum unchanged):
// beliefs b1 ≤ b2 (standInID for a stand-in), on the same node or not.
type rootKey struct {
	b1, b2 int32
	same   bool
}

// roots appends to dst the distinct realisable root pairs of histories h
// and h2: the paths share their node (and so their action) until they
// part, stay together after equal observations while they share it, and
// are otherwise free.
func (bs *beliefs) roots(dst []rootKey, h, h2 []int, seen map[[3]int32]bool) []rootKey {
	for _, s := range bs.walk(h, h2, seen, false) {
		dst = append(dst, s.key)
	}
	return dst
}

// pathState is one realisable state of the two paths after some steps:
// their beliefs and whether they share their node; with tracing, the
// prefix choices that reach it.
type pathState struct {
	b1, b2 int32
	same   bool
	tr     *prefixStep
}

// prefixStep is one step of a traced prefix: the actions of the two paths
// and whether they share their node after it; prev is the step before.
type prefixStep struct {
	a1, a2 int
	same   bool
	prev   *prefixStep
}

// rootState is a distinct realisable root pair (walk): its key, whether
// the key's first belief is the second history's (the key orders its
// beliefs), and the traced prefix of its first realisation.
type rootState struct {
	key     rootKey
	swapped bool
	tr      *prefixStep
}

// walk returns the distinct realisable root pairs of histories h and h2
// (see roots), each with the prefix that first realises it when trace is
// set.
func (bs *beliefs) walk(h, h2 []int, seen map[[3]int32]bool, trace bool) []rootState {
	p := bs.p
	cur := []pathState{{0, 0, true, nil}}
	var next []pathState
	for k := range h {
		o1, o2 := h[k], h2[k]
		clear(seen)
		next = next[:0]
		push := func(s pathState) {
			if s.b1 == standInID || s.b2 == standInID {
				s.same = false // the node of an impossible path does not matter
			}
			sk := [3]int32{s.b1, s.b2, 0}
			if s.same {
				sk[2] = 1
			}
			if !seen[sk] {
				seen[sk] = true
				next = append(next, s)
			}
		}
		for _, s := range cur {
			for a := 0; a < p.nA; a++ {
				for a2 := 0; a2 < p.nA; a2++ {
					if s.same && a2 != a {
						continue
					}
					v1, v2 := bs.step(s.b1, a, o1), bs.step(s.b2, a2, o2)
					var tr, trApart *prefixStep
					if trace {
						tr = &prefixStep{a1: a, a2: a2, same: true, prev: s.tr}
						trApart = &prefixStep{a1: a, a2: a2, prev: s.tr}
					}
					push(pathState{v1, v2, true, tr})
					if !(s.same && o1 == o2) {
						push(pathState{v1, v2, false, trApart})
					}
				}
			}
		}
		cur, next = next, cur
	}
	clear(seen)
	var out []rootState
	for _, s := range cur {
		b1, b2, swapped := s.b1, s.b2, false
		if b2 < b1 {
			b1, b2, swapped = b2, b1, true
		}
		sk := [3]int32{b1, b2, 0}
		if s.same {
			sk[2] = 1
		}
		if seen[sk] {
			continue
		}
		seen[sk] = true
		out = append(out, rootState{rootKey{b1, b2, s.same}, swapped, s.tr})
	}
	return out
}

// rootOf places belief b on node n, or returns the stand-in root.
func (p *problem) rootOf(bs *beliefs, b int32, n int, dst []float64) root {
	if b == standInID {
		if !p.uniform {
			return root{pm: true}
		}
		for i := range dst {
			dst[i] = 1 / float64(p.w)
		}
		return root{j: dst}
	}
	clear(dst)
	copy(dst[n*p.nS:], bs.vecs[b])
	return root{j: dst}
}
