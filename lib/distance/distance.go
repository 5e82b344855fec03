package distance

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Metric selects the distance between two suffix laws.
type Metric int

const (
	// W1 is the exact 1-Wasserstein distance under the additive sequence
	// cost Σ_t d_O(o_t, o'_t) (CONVENTIONS.md "Distances").
	W1 Metric = iota
	// TV is total variation ½ Σ |p − q|.
	TV
)

func (m Metric) String() string {
	if m == TV {
		return "tv"
	}
	return "w1"
}

// ParseMetric accepts "w1" and "tv".
func ParseMetric(s string) (Metric, error) {
	switch s {
	case "w1", "W1", "":
		return W1, nil
	case "tv", "TV":
		return TV, nil
	}
	return 0, fmt.Errorf("distance: unknown metric %q (want w1 or tv)", s)
}

// Options configure Compute. The zero value means: W1, discrete ground
// metric, uniform stand-in, all cores, no progress, de-duplication on, no
// tensor.
type Options struct {
	Metric     Metric
	Ground     ot.Ground      // nil: the discrete metric on observations
	Convention law.Convention // impossible-history stand-in
	Workers    int            // 0: runtime.GOMAXPROCS(0)
	// Progress, when set, is called with the number of distinct probes
	// done and their total, from one goroutine at a time.
	Progress func(done, total int)
	// NoDedup computes every controller even when two share an action tree.
	NoDedup bool
	// Tensor keeps every distinct probe's distances (needed by certify);
	// it disables the upper-bound pruning.
	Tensor bool
}

// Result holds the per-depth distance matrices of one model, family and
// horizon.
type Result struct {
	Tree law.Tree
	// D[t] is the matrix over the depth-t histories; D[T] is all zero.
	D []partition.Matrix
	// FamilySize is the number of controllers of the family (duplicates
	// included); Distinct the number whose laws were computed.
	FamilySize, Distinct int
	// StandIns counts (history, controller) pairs that used the
	// impossible-history stand-in, over the whole family.
	StandIns int
	// Metric and Convention used.
	Metric     Metric
	Convention law.Convention
	Seconds    float64
	// Tensor, when requested: Tensor[k][t] is probe column k's matrix at
	// depth t (depth T has no storage: its entries are all 0); Column[i] is
	// the column of family member i.
	Tensor [][]partition.Matrix
	Column []int
}

// MaxDistance returns the largest distance over all pairs and depths.
func (r *Result) MaxDistance() float64 {
	m := 0.0
	for _, d := range r.D {
		m = math.Max(m, d.Max())
	}
	return m
}

// Partition returns the greedy complete-linkage ε-partition.
func (r *Result) Partition(eps float64) *partition.Partition { return partition.Greedy(r.D, eps) }

// Compute returns d^Π for model m, family fam (controllers for m's action
// and observation counts) and horizon T. It is cancelled with ctx.
//
// Cost: for each distinct controller, one law pass (see law.Engine) plus one
// transport problem per pair of histories per depth that pruning cannot
// settle, on supports of size |O|^{T−t}.
func Compute(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, opt Options) (*Result, error) {
	start := time.Now()
	g, err := ot.ForObservations(opt.Ground, m.NumObservations())
	if err != nil {
		return nil, fmt.Errorf("distance: model %s: %w", m.Name, err)
	}
	if fam.Len() == 0 {
		return nil, fmt.Errorf("distance: empty probe family")
	}
	proto, err := law.NewEngine(m, T, opt.Convention)
	if err != nil {
		return nil, err
	}
	tree := proto.Tree()
	// Check every controller once and group by action tree.
	n := fam.Len()
	column := make([]int, n)
	var reps []int      // family index of each column's representative
	var members [][]int // family indices per column
	keys := make(map[string]int)
	var key []byte
	for i := 0; i < n; i++ {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		c := fam.At(i)
		if err := proto.Check(c); err != nil {
			return nil, fmt.Errorf("distance: controller %d of %v: %w", i, fam, err)
		}
		if !opt.NoDedup && c.Deterministic() {
			key = law.ActionTree(key[:0], c, tree)
			if k, ok := keys[string(key)]; ok {
				column[i] = k
				members[k] = append(members[k], i)
				continue
			}
			keys[string(key)] = len(reps)
		}
		column[i] = len(reps)
		reps = append(reps, i)
		members = append(members, []int{i})
	}
	res := &Result{Tree: tree, FamilySize: n, Metric: opt.Metric, Convention: opt.Convention, Column: column}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	r := &runner{m: m, fam: fam, T: T, opt: opt, g: g, tree: tree, shards: make([][]partition.Matrix, workers)}
	// Phase 1: one representative per action tree.
	standIns, err := r.run(ctx, reps, len(reps))
	if err != nil {
		return nil, err
	}
	tensor := r.tensor
	// Phase 2: a group whose representative needed a stand-in is expanded,
	// since stand-ins depend on more than the action tree.
	var expand []int
	for k, s := range standIns {
		res.StandIns += s
		if s > 0 {
			expand = append(expand, members[k][1:]...)
		}
	}
	if len(expand) > 0 {
		s2, err := r.run(ctx, expand, len(reps)+len(expand))
		if err != nil {
			return nil, err
		}
		for k, i := range expand {
			res.StandIns += s2[k]
			column[i] = len(reps) + k
		}
		tensor = append(tensor, r.tensor...)
	}
	res.Distinct = len(reps) + len(expand)
	res.Tensor = tensor
	res.D = newMatrices(tree)
	for _, s := range r.shards {
		if s == nil {
			continue
		}
		for t := range res.D {
			res.D[t].MaxInto(s[t])
		}
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// runner computes the laws and pair distances of lists of controllers on
// a pool of workers, each owning a law engine, a transport solver and a
// shard of the distance matrices (kept across runs).
type runner struct {
	m      *pomdp.Model
	fam    fsc.Family
	T      int
	opt    Options
	g      ot.Ground
	tree   law.Tree
	shards [][]partition.Matrix
	tensor [][]partition.Matrix
	done   int
}

// run processes the family members idx and returns their stand-in counts.
// total is the number of distinct probes reported to Progress.
func (r *runner) run(ctx context.Context, idx []int, total int) ([]int, error) {
	standIns := make([]int, len(idx))
	r.tensor = nil
	if r.opt.Tensor {
		r.tensor = make([][]partition.Matrix, len(idx))
	}
	workers := min(len(r.shards), len(idx))
	jobs := make(chan int)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		if r.shards[w] == nil {
			r.shards[w] = newMatrices(r.tree)
		}
		local := r.shards[w]
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, err := law.NewEngine(r.m, r.T, r.opt.Convention)
			if err != nil {
				mu.Lock()
				firstErr = err
				mu.Unlock()
				return
			}
			laws := e.NewLaws()
			pw := newPairWorker(r.g, r.tree, r.opt.Metric)
			for k := range jobs {
				if ctx.Err() != nil {
					continue
				}
				if err := e.ComputeInto(laws, r.fam.At(idx[k])); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					continue
				}
				target := local
				if r.opt.Tensor {
					target = newTensorMatrices(r.tree)
				}
				if err := pw.accumulate(target, laws, !r.opt.Tensor); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					continue
				}
				if r.opt.Tensor {
					for t := range local {
						local[t].MaxInto(target[t])
					}
				}
				mu.Lock()
				standIns[k] = laws.StandIns
				if r.opt.Tensor {
					r.tensor[k] = target
				}
				r.done++
				if r.opt.Progress != nil {
					r.opt.Progress(r.done, total)
				}
				mu.Unlock()
			}
		}()
	}
loop:
	for k := range idx {
		select {
		case jobs <- k:
		case <-ctx.Done():
			break loop
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
	return standIns, nil
}

// newTensorMatrices is newMatrices without storage for depth T, whose
// histories have empty suffixes and are all at distance 0: a probe's
// tensor column would otherwise be dominated by |O|^T·(|O|^T − 1)/2 zeros.
func newTensorMatrices(tree law.Tree) []partition.Matrix {
	d := make([]partition.Matrix, tree.T+1)
	for t := 0; t < tree.T; t++ {
		d[t] = partition.NewMatrix(tree.Count(t))
	}
	d[tree.T] = partition.Matrix{N: tree.Count(tree.T)}
	return d
}

func newMatrices(tree law.Tree) []partition.Matrix {
	d := make([]partition.Matrix, tree.T+1)
	for t := range d {
		d[t] = partition.NewMatrix(tree.Count(t))
	}
	return d
}
