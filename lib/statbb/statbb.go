package statbb

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pomdpq/pomdpq/lib/bb"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// DefaultMaxNodes is the default bound on the branch-and-bound nodes the
// search of one history pair may visit (Options.MaxNodes).
const DefaultMaxNodes = bb.DefaultMaxNodes

// MaxM is the largest memory bound the search accepts.
const MaxM = 3

// ErrTooLarge is returned (wrapped) when a search exceeds Options.MaxNodes
// or the memory budget.
var ErrTooLarge = errors.New("statbb: search too large")

var errNodes = errors.New("node limit")

// Options configure Compute (see bb.Options). MaxNodes bounds the
// branch-and-bound nodes of one history pair's search; MemBudget bounds
// the estimated memory of the matrices and the workers' belief tables.
type Options = bb.Options

// Result holds the stationary m-node distances of one model and horizon.
type Result struct {
	bb.Distances
	M int
	// FamilySize is the number of controllers of the family (not
	// enumerated), Nodes the branch-and-bound nodes visited.
	FamilySize *big.Int
	Nodes      int64
	// Beliefs and Steps count the belief vectors and belief steps
	// computed into the shared table (each once per generation, whatever
	// the number of workers); TablePeak is the most bytes the table held
	// (estimate), TableResets the generations started past its limit.
	Beliefs, Steps         int64
	TablePeak, TableResets int64
	Seconds                float64
	Convention             law.Convention
	// shortcuts counts the leaves decided by bounds and the pairs a
	// probe decided (leafBounds, probe), for the tests.
	shortcuts shortcutCounts
}

// nodeCounts returns the node counts k whose k-node families the search
// runs for Π_op with ≤ m nodes (see the package comment).
func nodeCounts(m int, conv law.Convention) []int {
	if m <= 2 || conv == law.PointMassStandIn {
		return []int{m}
	}
	var ks []int
	for k := 2; k <= m; k++ {
		ks = append(ks, k)
	}
	return ks
}

// Work returns the worst case of the search: Σ over history pairs of the
// controllers restricted to the entries the pair's two laws can read,
// |A|^k·k^e with e ≤ min(k|O|, 2(t + Σ_{j=1}^{L−1} |O|^j)) next-node
// entries, summed over the node counts searched.
func Work(nA, nO, m, T int) float64 {
	w := 0.0
	for _, k := range nodeCounts(m, law.UniformStandIn) {
		for t := 1; t < T; t++ {
			n := math.Pow(float64(nO), float64(t))
			e := float64(t)
			for j := 1; j < T-t; j++ {
				e += math.Pow(float64(nO), float64(j))
			}
			e = math.Min(2*e, float64(k*nO))
			w += n * (n - 1) / 2 * math.Pow(float64(nA), float64(k)) * math.Pow(float64(k), e)
		}
	}
	return w
}

// Cost is the memory estimate of Compute.
type Cost struct {
	// Matrices is Result.Lower and Result.Upper over every pair of
	// histories of every depth below T.
	Matrices int64
	// Beliefs bounds the belief table, one for all the workers: the
	// beliefs of every (action sequence, observation sequence) of length
	// < T from the initial belief and from the uniform stand-in, |S|
	// numbers each, and a step of |S| + 2|O| numbers per belief and
	// action; or the table's limit when that is smaller (past it the
	// table starts again and recomputes, see Limit).
	Beliefs int64
	// Limit is the bytes past which the belief table starts a new
	// generation at the next history pair: the larger of Matrices and
	// MinTableLimit, lowered by Compute to fit a tight budget.
	Limit int64
	// Scratch is the workers' own buffers: two laws over |O|^T sequences
	// each.
	Scratch int64
}

// MinTableLimit is the smallest limit of the belief table: below it the
// recomputation would cost more than the memory saved, and a budget that
// leaves less is refused.
const MinTableLimit = 8 << 20

// gcFactor converts live memory into peak resident memory.
const gcFactor = 2

// Bytes returns the estimated peak memory, the collector's factor included.
func (c Cost) Bytes() int64 { return gcFactor * (c.Matrices + c.Beliefs + c.Scratch) }

// Largest returns the name and bytes (collector's factor included) of the
// largest term.
func (c Cost) Largest() (string, int64) {
	switch {
	case c.Beliefs > c.Matrices && c.Beliefs >= c.Scratch:
		return "belief table (shared by the workers, every action and observation sequence of length < T, up to its limit)", gcFactor * c.Beliefs
	case c.Scratch > c.Matrices:
		return "the workers' scratch laws (two over |O|^T sequences per worker)", gcFactor * c.Scratch
	}
	return "distance matrices over all history pairs", gcFactor * c.Matrices
}

// fullTable returns the bytes of the whole belief table of m at horizon
// T (every sequence of length < T from both roots), saturated.
func fullTable(m *pomdp.Model, T int) float64 {
	nS, nA, nO := m.NumStates(), m.NumActions(), m.NumObservations()
	per := float64(beliefBytes(nS, nA)) + float64(nA)*float64(stepBytes(nS, nO))
	bel := 0.0
	for k := 0; k < T; k++ {
		bel += 2 * math.Pow(float64(nA*nO), float64(k)) * per
	}
	return bel
}

// EstimateCost returns the memory estimate of Compute for model m at
// horizon T with the given workers (0: runtime.GOMAXPROCS(0)) under no
// tighter budget than the estimate itself. It allocates nothing.
func EstimateCost(m *pomdp.Model, T, workers int) Cost {
	workers = bb.Workers(workers)
	nO := float64(m.NumObservations())
	sat := func(x float64) int64 { return int64(min(x, math.MaxInt64/8)) }
	var mat float64
	for t := 0; t < T; t++ { // depth T needs no matrix
		n := math.Pow(nO, float64(t))
		mat += 2 * 8 * n * (n - 1) / 2
	}
	c := Cost{Matrices: sat(mat), Scratch: sat(float64(workers) * 2 * 8 * math.Pow(nO, float64(T)))}
	c.Limit = max(c.Matrices, MinTableLimit)
	c.Beliefs = min(sat(fullTable(m, T)), c.Limit)
	return c
}

// fit lowers the table's limit of c so that the estimate fits budget
// (negative: none), not below MinTableLimit; ok is false when even that
// does not fit.
func (c Cost) fit(budget int64) (Cost, bool) {
	if budget < 0 || c.Bytes() <= budget {
		return c, true
	}
	room := budget/gcFactor - c.Matrices - c.Scratch
	if room < c.Beliefs && room >= MinTableLimit {
		c.Limit, c.Beliefs = room, room
	}
	return c, c.Bytes() <= budget
}

// Compute returns the distances of the stationary family with at most M
// nodes (1 ≤ M ≤ MaxM) of model m at horizon T, searched, not enumerated
// (see the package comment). It is cancelled with ctx.
func Compute(ctx context.Context, m *pomdp.Model, M, T int, opt Options) (*Result, error) {
	return compute(ctx, m, M, T, opt, 0)
}

// compute is Compute with the belief table's limit forced to limit bytes
// when positive (the tests' recomputation check).
func compute(ctx context.Context, m *pomdp.Model, M, T int, opt Options, limit int64) (*Result, error) {
	start := time.Now()
	p, err := newProblem(m, M, T, opt)
	if err != nil {
		return nil, err
	}
	budget, workers := bb.Budget(opt.MemBudget), bb.Workers(opt.Workers)
	cost, ok := EstimateCost(m, T, workers).fit(budget)
	if !ok {
		name, v := cost.Largest()
		return nil, fmt.Errorf("%w: %s at T = %d, m ≤ %d: estimated memory %s above the budget %s (largest term: %s, %s); lower T or raise the budget (--mem)",
			ErrTooLarge, m.Name, T, M, distance.FormatBytes(cost.Bytes()), distance.FormatBytes(budget), name, distance.FormatBytes(v))
	}
	if limit > 0 {
		cost.Limit = limit
	}
	tree, err := law.NewTree(p.nO, T)
	if err != nil {
		return nil, err
	}
	size, _ := fsc.Size(fsc.KindStationary, p.nA, p.nO, M, 0)
	res := &Result{Distances: bb.NewDistances("statbb", tree, p.Decision), M: M, FamilySize: size, Convention: opt.Convention}
	total := 0
	for t := 0; t <= T; t++ {
		n := tree.Count(t)
		if t == T {
			// Every depth-T history has the empty suffix law: one class,
			// and no matrix (partition.Greedy's nil matrix).
			res.Lower[t], res.Upper[t] = partition.Matrix{N: n}, partition.Matrix{N: n}
			continue
		}
		res.Lower[t] = partition.NewMatrix(n)
		res.Upper[t] = partition.NewMatrix(n)
		total += n * (n - 1) / 2
	}
	run := bb.NewRun(ctx, total, opt.Progress)
	defer run.Stop()
	w := &pool{p: p, res: res, run: run, M: M, ks: nodeCounts(M, opt.Convention), budget: budget,
		fixed: gcFactor * (cost.Matrices + cost.Scratch), tab: newTable(m, cost.Limit)}
	jobs := make(chan job, 256)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.work(jobs)
		}()
	}
feed:
	for t := 1; t < T; t++ {
		n := tree.Count(t)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if !bb.Send(run, jobs, job{t, i, j}) {
					break feed
				}
			}
		}
	}
	close(jobs)
	wg.Wait()
	if err := run.Err(); err != nil {
		return nil, err
	}
	res.Nodes = w.nodes.Load()
	res.shortcuts = shortcutCounts{w.bounded.Load(), w.probed.Load()}
	res.Beliefs, res.Steps = w.tab.beliefs.Load(), w.tab.steps.Load()
	res.TablePeak, res.TableResets = w.tab.peak.Load(), w.tab.resets.Load()
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// job is one history pair (i, j) of depth t.
type job struct{ t, i, j int }

// pool is what Compute's workers share.
type pool struct {
	p      *problem
	res    *Result
	run    *bb.Run
	M      int
	ks     []int // the node counts searched (nodeCounts)
	budget int64
	fixed  int64  // the matrices' and scratch bytes (collector's factor included)
	tab    *table // the belief table, shared
	nodes  atomic.Int64
	// bounded and probed add up the searchers' shortcutCounts.
	bounded, probed atomic.Int64
}

// work searches the pairs of jobs, each with one generation of the shared
// belief table, until jobs is closed; after a failure it drains jobs.
func (w *pool) work(jobs <-chan job) {
	s := newSearcher(w.p, w.run.Context(), w.tab)
	defer func() {
		w.nodes.Add(s.nodes)
		w.bounded.Add(s.counts.bounded)
		w.probed.Add(s.counts.probed)
	}()
	for jb := range jobs {
		if w.run.Context().Err() != nil {
			continue // drain: the run is being cancelled
		}
		s.g = w.tab.acquire()
		lo, up, err := w.pair(s, jb)
		w.tab.release(s.g)
		s.g = nil
		if err != nil {
			w.run.Fail(err)
			return
		}
		mat := w.res.Lower[jb.t]
		x := mat.Index(jb.i, jb.j)
		mat.Data[x], w.res.Upper[jb.t].Data[x] = lo, up
		if err := w.memCheck(w.tab.live.Load()); err != nil {
			w.run.Fail(err)
			return
		}
		w.run.Done()
	}
}

// pair returns the bracket [lo, up] of one history pair's distance: the
// maximum over the node counts searched.
func (w *pool) pair(s *searcher, jb job) (lo, up float64, err error) {
	p := w.p
	hi, hj := w.res.Tree.History(jb.t, jb.i), w.res.Tree.History(jb.t, jb.j)
	for _, k := range w.ks {
		own, ub, err := s.run(hi, hj, k, p.T-jb.t, lo)
		if errors.Is(err, errNodes) {
			return 0, 0, fmt.Errorf("%w: %s at T = %d, m ≤ %d: the search of a depth-%d history pair visited more than %d nodes; the worst case is %.3g (history pair, controller) combinations in all; %s",
				ErrTooLarge, p.m.Name, p.T, w.M, jb.t, p.maxNodes, Work(p.nA, p.nO, w.M, p.T), p.NodeAdvice())
		}
		if err != nil {
			return 0, 0, err
		}
		lo, up = max(lo, own), max(up, ub)
		if lo > p.Cap {
			return lo, math.Inf(1), nil
		}
	}
	return lo, up, nil
}

// memCheck refuses a run whose belief table, tot bytes held, takes it
// above the budget (one history pair's search read more than the table's
// limit leaves room for).
func (w *pool) memCheck(tot int64) error {
	if w.budget < 0 || w.fixed+gcFactor*tot <= w.budget {
		return nil
	}
	p := w.p
	return fmt.Errorf("%w: %s at T = %d, m ≤ %d: the belief table holds %s (with the matrices' and scratch %s, above the budget %s; largest term: belief table); lower T or raise the budget (--mem)",
		ErrTooLarge, p.m.Name, p.T, w.M, distance.FormatBytes(gcFactor*tot), distance.FormatBytes(w.fixed), distance.FormatBytes(w.budget))
}

func newProblem(m *pomdp.Model, M, T int, opt Options) (*problem, error) {
	if err := bb.Check("statbb", m, T); err != nil {
		return nil, err
	}
	if M < 1 || M > MaxM {
		return nil, fmt.Errorf("statbb: memory bound m = %d, want 1 ≤ m ≤ %d", M, MaxM)
	}
	g, err := bb.Ground("statbb", m, T, opt.Ground)
	if err != nil {
		return nil, err
	}
	nS, nA, nO := m.NumStates(), m.NumActions(), m.NumObservations()
	p := &problem{m: m, nS: nS, nA: nA, nO: nO, T: T, g: g, gmax: g.Max(), discrete: g.IsDiscrete(),
		uniform: opt.Convention == law.UniformStandIn, Decision: bb.NewDecision(opt.Eps), maxNodes: bb.NodeLimit(opt.MaxNodes)}
	p.pow = make([]int, T+1)
	p.pow[0] = 1
	for k := 1; k <= T; k++ {
		p.pow[k] = p.pow[k-1] * nO
	}
	for _, row := range g {
		p.gflat = append(p.gflat, row...)
	}
	return p, nil
}
