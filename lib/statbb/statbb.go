package statbb

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// DefaultMaxNodes is the default bound on the branch-and-bound nodes the
// search of one history pair may visit (Options.MaxNodes).
const DefaultMaxNodes = 2e8

// MaxM is the largest memory bound the search accepts.
const MaxM = 3

// ErrTooLarge is returned (wrapped) when a search exceeds Options.MaxNodes
// or the memory budget.
var ErrTooLarge = errors.New("statbb: search too large")

var errNodes = errors.New("node limit")

// Options configure Compute. The zero value means: discrete ground metric,
// uniform stand-in, exact values, all cores, DefaultMaxNodes, the default
// memory budget.
type Options struct {
	Ground     ot.Ground      // nil: the discrete metric
	Convention law.Convention // impossible-history stand-in
	// Eps, when not empty, lists the ε values the caller will partition
	// at (decision mode): Partition(ε) is exact for the listed ε only,
	// and Lower holds values in the same ε-bracket as the true distances.
	// Empty: every distance is exact.
	Eps     []float64
	Workers int // 0: runtime.GOMAXPROCS(0)
	// MaxNodes bounds the branch-and-bound nodes of one pair's search
	// (0: DefaultMaxNodes, negative: none); past it Compute fails with
	// ErrTooLarge.
	MaxNodes float64
	// Progress, when set, is called with the history pairs done and their
	// total, from one goroutine at a time.
	Progress func(done, total int)
	// MemBudget bounds the estimated memory (matrices and the workers'
	// belief tables), in bytes (0: distance.DefaultMemBudget(), negative:
	// none); past it Compute fails with ErrTooLarge naming the largest
	// term.
	MemBudget int64
}

// Result holds the stationary m-node distances of one model and horizon.
type Result struct {
	Tree law.Tree
	M    int
	// Lower[t] is the matrix over the depth-t histories of the best probe
	// values found: the exact distance in exact mode, a value in the same
	// ε-bracket as the distance in decision mode. Upper[t] holds proven
	// upper bounds (+Inf where a pair exceeded the decision cap).
	Lower, Upper []partition.Matrix
	// Cap is +Inf in exact mode, else max(Eps) + partition.ZeroTol; Eps
	// lists the decided ε (nil in exact mode).
	Cap float64
	Eps []float64
	// FamilySize is the number of controllers of the family (not
	// enumerated), Nodes the branch-and-bound nodes visited, Beliefs the
	// beliefs the workers' tables held at the end.
	FamilySize *big.Int
	Nodes      int64
	Beliefs    int
	Seconds    float64
	Convention law.Convention
}

// Partition returns the greedy complete-linkage ε-partition (as
// lib/distance's). In decision mode only the listed ε are decided: it
// panics for any other.
func (r *Result) Partition(eps float64) *partition.Partition {
	if r.Eps != nil && !slices.Contains(r.Eps, eps) {
		panic(fmt.Sprintf("statbb: Partition(%g) of a run that decided only ε ∈ %v (Options.Eps)", eps, r.Eps))
	}
	return partition.Greedy(r.Lower, eps)
}

// MaxDistance returns the largest distance over all pairs and depths in
// exact mode. In decision mode (Options.Eps) a pair's value is known only
// up to its ε-bracket: which value inside it the search keeps depends on where
// the pruning stopped, not the exact maximum. MaxDistance then returns the lower end of
// the maximum's bracket (MaxBracket: the largest listed ε below it plus
// partition.ZeroTol, Cap above the largest ε, 0 below the smallest), the
// same in every run, and MaxDistanceExact is false.
func (r *Result) MaxDistance() float64 {
	if r.Eps == nil {
		return r.rawMax()
	}
	lo, hi := r.MaxBracket()
	if hi == r.Eps[0] {
		return 0
	}
	return lo + partition.ZeroTol
}

// MaxDistanceExact reports whether MaxDistance is the exact largest
// distance (exact mode) rather than a lower bound (decision mode).
func (r *Result) MaxDistanceExact() bool { return r.Eps == nil }

// MaxBracket returns the listed ε around the largest distance: in
// decision mode, max(d) ∈ (lo, hi] with lo, hi consecutive listed ε (lo =
// 0 when max(d) ≤ min(Eps), hi = +Inf when max(d) > max(Eps)), each ε
// with partition.ZeroTol; in exact mode lo = hi = max(d). The bracket is
// the same in every run (every value of Lower lies in its distance's).
func (r *Result) MaxBracket() (lo, hi float64) {
	m := r.rawMax()
	if r.Eps == nil {
		return m, m
	}
	for _, e := range r.Eps {
		if m <= e+partition.ZeroTol {
			return lo, e
		}
		lo = e
	}
	return lo, math.Inf(1)
}

func (r *Result) rawMax() float64 {
	m := 0.0
	for _, d := range r.Lower {
		m = max(m, d.Max())
	}
	return m
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
	// Beliefs bounds the workers' belief tables: per worker, the beliefs
	// of every (action sequence, observation sequence) of length < T from
	// the initial belief and from the uniform stand-in, |S| numbers each,
	// and a step of |S| + |O| numbers per belief and action.
	Beliefs int64
}

// gcFactor converts live memory into peak resident memory.
const gcFactor = 2

// Bytes returns the estimated peak memory, the collector's factor included.
func (c Cost) Bytes() int64 { return gcFactor * (c.Matrices + c.Beliefs) }

// Largest returns the name and bytes (collector's factor included) of the
// largest term.
func (c Cost) Largest() (string, int64) {
	if c.Beliefs > c.Matrices {
		return "belief tables (one per worker, every action and observation sequence of length < T)", gcFactor * c.Beliefs
	}
	return "distance matrices over all history pairs", gcFactor * c.Matrices
}

// EstimateCost returns the memory estimate of Compute for model m at
// horizon T with the given workers (0: runtime.GOMAXPROCS(0)). It
// allocates nothing.
func EstimateCost(m *pomdp.Model, T, workers int) Cost {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	nS, nA, nO := float64(m.NumStates()), float64(m.NumActions()), float64(m.NumObservations())
	sat := func(x float64) int64 { return int64(min(x, math.MaxInt64/4)) }
	var mat, bel float64
	for t := 0; t < T; t++ { // depth T needs no matrix
		n := math.Pow(nO, float64(t))
		mat += 2 * 8 * n * (n - 1) / 2
	}
	for k := 0; k < T; k++ {
		n := 2 * math.Pow(nA*nO, float64(k))
		bel += n * (bytesPerBelief + 8*nS + (bytesPerStep+8*nS+12*nO)*nA)
	}
	return Cost{Matrices: sat(mat), Beliefs: sat(float64(workers) * bel)}
}

// Compute returns the distances of the stationary family with at most M
// nodes (1 ≤ M ≤ MaxM) of model m at horizon T, searched, not enumerated
// (see the package comment). It is cancelled with ctx.
func Compute(ctx context.Context, m *pomdp.Model, M, T int, opt Options) (*Result, error) {
	start := time.Now()
	p, err := newProblem(m, M, T, opt)
	if err != nil {
		return nil, err
	}
	budget := opt.MemBudget
	if budget == 0 {
		budget = distance.DefaultMemBudget()
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	cost := EstimateCost(m, T, workers)
	if budget >= 0 && gcFactor*cost.Matrices > budget {
		return nil, fmt.Errorf("%w: %s at T = %d: the distance matrices over all history pairs need %s, above the budget %s; lower T or raise the budget (--mem)",
			ErrTooLarge, m.Name, T, distance.FormatBytes(gcFactor*cost.Matrices), distance.FormatBytes(budget))
	}
	tree, err := law.NewTree(p.nO, T)
	if err != nil {
		return nil, err
	}
	size, _ := fsc.Size(fsc.KindStationary, p.nA, p.nO, M, 0)
	res := &Result{Tree: tree, M: M, Cap: p.capV, Eps: p.eps, FamilySize: size, Convention: opt.Convention,
		Lower: make([]partition.Matrix, T+1), Upper: make([]partition.Matrix, T+1)}
	type job struct{ t, i, j int }
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
	ks := nodeCounts(M, opt.Convention)
	var (
		mu       sync.Mutex // guards firstErr, done and Progress
		firstErr error
		done     int
		held     atomic.Int64 // bytes of the belief tables
		nodes    atomic.Int64
		nbel     atomic.Int64
	)
	fixed := gcFactor * cost.Matrices
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	jobs := make(chan job, 256)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bs := newBeliefs(m)
			s := newSearcher(p, cctx, bs)
			last := bs.bytes
			held.Add(last)
			defer func() {
				nodes.Add(s.nodes)
				nbel.Add(int64(len(bs.vecs)))
			}()
			for jb := range jobs {
				if cctx.Err() != nil {
					continue // drain: the run is being cancelled
				}
				L := T - jb.t
				hi, hj := tree.History(jb.t, jb.i), tree.History(jb.t, jb.j)
				lo, up := 0.0, 0.0
				for _, k := range ks {
					own, ub, err := s.run(hi, hj, k, L, lo)
					if err != nil {
						if errors.Is(err, errNodes) {
							advice := "lower T or raise the node limit (--max-nodes)"
							if p.eps == nil {
								advice += ", or decide only the listed ε (Options.Eps; drop --exact-distances)"
							}
							err = fmt.Errorf("%w: %s at T = %d, m ≤ %d: the search of a depth-%d history pair visited more than %d nodes; the worst case is %.3g (history pair, controller) combinations in all; %s",
								ErrTooLarge, m.Name, T, M, jb.t, p.maxNodes, Work(p.nA, p.nO, M, T), advice)
						}
						fail(err)
						return
					}
					lo, up = max(lo, own), max(up, ub)
					if lo > p.capV {
						up = math.Inf(1)
						break
					}
				}
				mat := res.Lower[jb.t]
				x := mat.Index(jb.i, jb.j)
				mat.Data[x], res.Upper[jb.t].Data[x] = lo, up
				if d := bs.bytes - last; d != 0 {
					last = bs.bytes
					if tot := held.Add(d); budget >= 0 && fixed+gcFactor*tot > budget {
						fail(fmt.Errorf("%w: %s at T = %d, m ≤ %d: the workers' belief tables hold %s (with the matrices' %s, above the budget %s; largest term: belief tables); lower T, use fewer workers (--workers) or raise the budget (--mem)",
							ErrTooLarge, m.Name, T, M, distance.FormatBytes(gcFactor*tot), distance.FormatBytes(fixed), distance.FormatBytes(budget)))
						return
					}
				}
				mu.Lock()
				done++
				if opt.Progress != nil {
					opt.Progress(done, total)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for t := 1; t < T; t++ {
		n := tree.Count(t)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				select {
				case jobs <- job{t, i, j}:
				case <-cctx.Done():
					break feed
				}
			}
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.Nodes, res.Beliefs = nodes.Load(), int(nbel.Load())
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

func newProblem(m *pomdp.Model, M, T int, opt Options) (*problem, error) {
	if m == nil {
		return nil, errors.New("statbb: nil model")
	}
	if T < 1 {
		return nil, fmt.Errorf("statbb: horizon T = %d, want T ≥ 1", T)
	}
	if M < 1 || M > MaxM {
		return nil, fmt.Errorf("statbb: memory bound m = %d, want 1 ≤ m ≤ %d", M, MaxM)
	}
	nS, nA, nO := m.NumStates(), m.NumActions(), m.NumObservations()
	g, err := ot.ForObservations(opt.Ground, nO)
	if err != nil {
		return nil, fmt.Errorf("statbb: model %s: %w", m.Name, err)
	}
	if _, err := law.NewTree(nO, T); err != nil {
		return nil, err
	}
	p := &problem{m: m, nS: nS, nA: nA, nO: nO, T: T, g: g, gmax: g.Max(), discrete: g.IsDiscrete(),
		uniform: opt.Convention == law.UniformStandIn, capV: math.Inf(1)}
	p.maxNodes = int64(opt.MaxNodes)
	if opt.MaxNodes == 0 {
		p.maxNodes = DefaultMaxNodes
	}
	if len(opt.Eps) > 0 {
		p.eps = slices.Clone(opt.Eps)
		slices.Sort(p.eps)
		p.capV = p.eps[len(p.eps)-1] + partition.ZeroTol
	}
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
