package distance

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// runner computes the laws of lists of family members on a pool of
// workers, each owning a law engine (and, for distances, a transport
// solver and a shard of the class matrices).
type runner struct {
	m       *pomdp.Model
	fam     fsc.Family
	T       int
	opt     Options
	g       ot.Ground
	tree    law.Tree
	workers int
	reps    [][]int            // class representatives per depth (distances phase)
	capped  float64            // decision threshold (+Inf: exact distances)
	lb      []partition.Matrix // lower bounds from the bounds pass (nil: none)
	solves  int64              // transport problems solved by distances
	// simplexPivots and cells: the distances pass's simplex pivots and residual
	// sources × sinks, summed over its solves (w1Solver).
	simplexPivots, cells int64
	nT                   int // size of the depth-T matrices
	// dec, when set (Options.Compact), receives the distances phase's
	// decisions: the matrices it returns then have no storage.
	dec *Decisions
	// pivoted marks the depths the pivot pass decided in bulk (nil:
	// none); pivotCandidates counts the pairs it left to the pair loop
	// (at a settled depth, the pairs it found within the largest
	// threshold) and visited the pairs the loop examined, over all
	// probes.
	pivoted []bool
	// settled marks the depths the pivot pass decided completely (nil:
	// none): the pair loop skips them.
	settled         []bool
	pivotCandidates int64
	pivotBytes      int64 // the pivot pass's coordinates and largest float32 copy
	pivotSweep      int64 // the largest float32 copy of one depth's sweep
	visited         int64
	compared        int64 // laws compared by refine (tests count them)
	// cls, on the class path (classdag.go), gives the laws of the class
	// representatives instead of the engine's laws over the tree; reps
	// then index its blocks.
	cls *classLaws
}

// pool runs do(worker, k, laws) for k = 0 … count−1 on the workers, each
// with its own engine and laws; it reports progress and stops at the
// first error or when ctx is cancelled.
//
// With pairs > 0 progress counts pairs (pairs per probe × probes) through
// the returned tick instead of probes.
func (r *runner) pool(ctx context.Context, idx []int, setup func(w int), do func(w, k int, laws *law.Laws) error) error {
	return r.poolTicks(ctx, idx, 0, setup, func(w int, _ func(int) error) {}, do)
}

// poolTicks is pool with progress in units of pairs: ticks(w, tick) hands
// worker w the function that reports pairs done.
func (r *runner) poolTicks(ctx context.Context, idx []int, pairs int64, setup func(w int), ticks func(w int, tick func(int) error), do func(w, k int, laws *law.Laws) error) error {
	workers := min(r.workers, len(idx))
	jobs := make(chan int)
	var mu sync.Mutex
	var firstErr error
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	done := 0
	var pairsDone int64
	total := int64(len(idx)) * pairs
	pending := make([]int64, workers) // pairs not yet reported, per worker
	flushed := make([]time.Time, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		if setup != nil {
			setup(w)
		}
		if pairs > 0 {
			ticks(w, func(n int) error {
				pending[w] += int64(n)
				if pending[w] >= 1<<14 || time.Since(flushed[w]) >= time.Second {
					flushed[w] = time.Now()
					mu.Lock()
					pairsDone += pending[w]
					if r.opt.Progress != nil {
						r.opt.Progress(int(min(pairsDone, total)), int(total))
					}
					mu.Unlock()
					pending[w] = 0
					return ctx.Err()
				}
				return nil
			})
		}
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			compute, laws, err := r.lawSource(ctx)
			if err != nil {
				fail(err)
				return
			}
			for k := range jobs {
				if ctx.Err() != nil {
					continue
				}
				if err := compute(idx[k]); err != nil {
					fail(err)
					continue
				}
				if err := do(w, k, laws); err != nil {
					fail(err)
					continue
				}
				mu.Lock()
				done++
				if r.opt.Progress != nil {
					if pairs > 0 {
						pairsDone += pending[w]
						r.opt.Progress(int(min(pairsDone, total)), int(total))
					} else {
						r.opt.Progress(done, len(idx))
					}
				}
				pending[w] = 0
				mu.Unlock()
			}
		}(w)
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
		return firstErr
	}
	return ctx.Err()
}

// lawSource returns a worker's laws and the function that fills them
// with family member i's: the engine's laws over the tree, or on the
// class path the representatives' laws from the DAGs.
func (r *runner) lawSource(ctx context.Context) (func(i int) error, *law.Laws, error) {
	if r.cls != nil {
		laws := law.NewBlocks(r.tree, r.cls.counts)
		return func(i int) error {
			k, ok := r.cls.column[i]
			if !ok {
				return fmt.Errorf("distance: controller %d has no class DAG", i)
			}
			r.cls.fill(laws, k)
			return nil
		}, laws, nil
	}
	e, err := law.NewEngine(r.m, r.T, r.opt.Convention)
	if err != nil {
		return nil, nil, err
	}
	laws := e.NewLaws()
	return func(i int) error { return e.ComputeIntoContext(ctx, laws, r.fam.At(i)) }, laws, nil
}

// refine computes the laws of the family members idx, returns their
// stand-in counts and, when labels is not nil, refines labels (per depth,
// over all histories) so that two histories share a label only if every
// one of these probes gives them equal laws. The workers refine the one
// shared copy, a depth at a time under that depth's lock, so that each
// probe splits classes already split by the probes before it: a worker
// refining a copy of its own from the partition by depth compared every
// history with every class its first probe met, once per worker (hallway
// T = 5: 16.0 s with two workers against 3.1 s with one). The
// comparisons of laws are counted in r.compared.
func (r *runner) refine(ctx context.Context, idx []int, labels [][]int) ([]int, error) {
	standIns := make([]int, len(idx))
	locks := make([]sync.Mutex, len(labels))
	var compared atomic.Int64
	err := r.pool(ctx, idx, nil, func(w, k int, laws *law.Laws) error {
		standIns[k] = laws.StandIns
		if labels != nil {
			for t := 0; t < r.T; t++ {
				locks[t].Lock()
				c := refine(labels[t], laws.Depth(t), r.tree.SuffixLen(t), sumTolerance(r.opt.Metric, r.g, r.T-t))
				locks[t].Unlock()
				compared.Add(c)
			}
		}
		return nil
	})
	r.compared += compared.Load()
	if err != nil {
		return nil, err
	}
	return standIns, nil
}

// boundsMinSuffix is the smallest suffix support at which the bounds
// pass pays: below it transport problems are cheap.
var boundsMinSuffix = 512 // a variable so that tests can apply the pass everywhere

// boundDepths returns, per depth, an empty matrix over the classes where
// the bounds pass applies (suffixes of at least boundsMinSuffix atoms, two
// classes or more) and a matrix without storage elsewhere; nil when no
// depth qualifies.
func (r *runner) boundDepths() []partition.Matrix {
	var d []partition.Matrix
	for t := 0; t < r.T; t++ {
		if len(r.reps[t]) >= 2 && r.tree.SuffixLen(t) >= boundsMinSuffix {
			if d == nil {
				d = make([]partition.Matrix, r.T+1)
				for u := range d {
					d[u] = partition.Matrix{N: len(r.reps[u])}
				}
			}
			d[t] = partition.NewMatrix(len(r.reps[t]))
		}
	}
	return d
}

// bounds computes, for the depths of boundDepths, the maximum over the
// family members idx of a cheap lower bound on each pair of
// representatives' W1 (one law pass per probe, no transport problem). The
// distances pass then skips a probe whose upper bound is below it and, in
// decision mode, settles a pair whose bound exceeds the threshold: on long
// horizons the few pairs of short histories have huge suffix supports.
//
// It also returns, per depth, the largest support of a representative's
// law under any probe: residual transport problems are at most that large
// on each side.
func (r *runner) bounds(ctx context.Context, idx []int) ([]partition.Matrix, []int, error) {
	proto := r.boundDepths()
	if proto == nil || r.opt.Metric != W1 || r.opt.Tensor {
		return nil, nil, nil
	}
	local := make([][]partition.Matrix, r.workers)
	supps := make([][]int, r.workers)
	pws := make([]*pairWorker, r.workers)
	err := r.pool(ctx, idx, func(w int) {
		local[w] = r.boundDepths()
		supps[w] = make([]int, r.T+1)
		pws[w] = newPairWorker(r.g, r.tree, r.opt.Metric)
	}, func(w, k int, laws *law.Laws) error {
		pws[w].bounds(local[w], laws, r.reps, supps[w])
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	supp := make([]int, r.T+1)
	for _, s := range supps {
		for t, v := range s {
			supp[t] = max(supp[t], v)
		}
	}
	for _, l := range local {
		if l == nil {
			continue
		}
		for t := range proto {
			if proto[t].Data != nil {
				proto[t].MaxInto(l[t])
			}
		}
	}
	return proto, supp, nil
}

// noLawIndex turns off the skipping of repeated law pairs (tests compare
// both ways).
var noLawIndex = false

// distances computes the laws of the family members idx and, per depth,
// the distance between every pair of class representatives r.reps,
// merged by maximum over the probes. With Options.Tensor it also returns
// every probe's own matrices.
func (r *runner) distances(ctx context.Context, idx []int) ([]partition.Matrix, [][]partition.Matrix, []int, error) {
	standIns := make([]int, len(idx))
	shards := make([][]partition.Matrix, r.workers)
	pws := make([]*pairWorker, r.workers)
	var tensor [][]partition.Matrix
	if r.opt.Tensor {
		tensor = make([][]partition.Matrix, len(idx))
	}
	var pairs int64
	for t := 0; t < r.T; t++ {
		c := int64(len(r.reps[t]))
		pairs += c * (c - 1) / 2
	}
	var top *sharedMax
	if r.dec != nil {
		top = newSharedMax(r.dec.Max) // the pivot pass's bound, if any
	}
	var index *lawIndex
	if !r.opt.Tensor && !noLawIndex {
		index = newLawIndex(r.T, len(idx), lawIndexLimit(len(idx), r.opt.MemBudget))
	}
	err := r.poolTicks(ctx, idx, max(pairs, 1), func(w int) {
		if r.dec != nil {
			// One shared set of decisions, marked atomically.
			shards[w] = classShapes(r.reps, r.T, r.nT)
		} else {
			shards[w] = newClassMatrices(r.reps, r.T, r.nT)
		}
		pws[w] = newPairWorker(r.g, r.tree, r.opt.Metric)
		pws[w].capped = r.capped
		pws[w].lb = r.lb
		pws[w].dec = r.dec
		pws[w].top = top
		pws[w].index = index
		pws[w].pivoted = r.pivoted
		pws[w].settled = r.settled
	}, func(w int, tick func(int) error) {
		pws[w].tick = tick
	}, func(w, k int, laws *law.Laws) error {
		standIns[k] = laws.StandIns
		pws[w].probe = k
		target := shards[w]
		if r.opt.Tensor {
			target = newClassMatrices(r.reps, r.T, r.nT)
		}
		if err := pws[w].accumulate(target, laws, r.reps, !r.opt.Tensor); err != nil {
			return err
		}
		if r.opt.Tensor {
			for t := range target {
				shards[w][t].MaxInto(target[t])
			}
			tensor[k] = target
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	for _, pw := range pws {
		if pw != nil {
			r.solves += pw.w1.solves
			r.simplexPivots += pw.w1.pivots
			r.cells += pw.w1.cells
			r.visited += pw.visited
		}
	}
	if r.dec != nil {
		r.dec.Max = max(r.dec.Max, top.load())
		return classShapes(r.reps, r.T, r.nT), nil, standIns, nil
	}
	// Merge into the first shard, releasing each other shard once merged.
	var d []partition.Matrix
	for w, s := range shards {
		if s == nil {
			continue
		}
		if d == nil {
			d = s
			continue
		}
		for t := range d {
			d[t].MaxInto(s[t])
		}
		shards[w] = nil
	}
	if d == nil {
		d = newClassMatrices(r.reps, r.T, r.nT)
	}
	return d, tensor, standIns, nil
}

// newClassMatrices returns zero matrices over the representatives of each
// depth; depth T (empty suffixes) has no storage.
//
// nT is the size of depth T: one class, or every history on the AllPairs
// path (whose matrices are over histories).
func newClassMatrices(reps [][]int, T, nT int) []partition.Matrix {
	d := make([]partition.Matrix, T+1)
	for t := range d {
		if t == T {
			d[t] = partition.Matrix{N: nT}
			continue
		}
		d[t] = partition.NewMatrix(len(reps[t]))
	}
	return d
}

// classShapes returns matrices over the representatives of each depth
// without storage: the pair loop's shape when decisions replace them.
func classShapes(reps [][]int, T, nT int) []partition.Matrix {
	d := make([]partition.Matrix, T+1)
	for t := range d {
		d[t] = partition.Matrix{N: len(reps[t])}
	}
	d[T].N = nT
	return d
}
