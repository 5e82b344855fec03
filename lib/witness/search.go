package witness

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Defaults of Options.
const (
	DefaultMaxStates   = 5
	DefaultMaxObs      = 3
	DefaultMaxActions  = 2
	DefaultMaxT        = 4
	DefaultMaxModels   = 2_000_000
	DefaultClassModels = 300_000
)

// DefaultGrids are the probability grids searched by default:
// deterministic, deterministic dynamics with b0 on halves (the shape of
// the paper's witness), halves, quarters.
var DefaultGrids = []Grid{{1, 1}, {1, 2}, {2, 2}, {4, 4}}

// Options configure Search. The zero value means the defaults.
type Options struct {
	// Largest |S|, |O|, |A| and horizon T searched.
	MaxStates, MaxObs, MaxActions, MaxT int
	// Grids are searched one after the other, each from the smallest
	// class up.
	Grids []Grid
	// Criteria to search for (default all).
	Criteria []Criterion
	// MaxModels bounds the number of (model, horizon) pairs visited
	// (enumerated or sampled; with symmetry reduction only one model per
	// orbit of those is tested) in the whole search; the class that would
	// exceed it is cut there, and the search stops, reporting what it
	// covered.
	MaxModels int64
	// ClassModels: a class with at most this many models is enumerated
	// exhaustively; a larger one is sampled, ClassModels models drawn
	// from a PCG source seeded by Seed and the class.
	ClassModels int64
	Seed        uint64
	// Workers is the number of goroutines (0: GOMAXPROCS).
	Workers int
	// NoSymmetry tests every model instead of one per orbit under
	// relabelling states and actions.
	NoSymmetry bool
	// Progress, when set, is called about every 200 ms from the search's
	// goroutine.
	Progress func(Progress)
}

// Progress reports the class being searched.
type Progress struct {
	Grid        Grid
	Class       Class
	T           int
	Done, Total int64 // models of this class handed to workers / to visit
	Tested      int64 // (model, horizon) pairs tested before this class
	Found       int   // witnesses found so far
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxStates, DefaultMaxStates)
	def(&o.MaxObs, DefaultMaxObs)
	def(&o.MaxActions, DefaultMaxActions)
	def(&o.MaxT, DefaultMaxT)
	def(&o.Workers, runtime.GOMAXPROCS(0))
	if o.MaxModels <= 0 {
		o.MaxModels = DefaultMaxModels
	}
	if o.ClassModels <= 0 {
		o.ClassModels = DefaultClassModels
	}
	if len(o.Grids) == 0 {
		o.Grids = DefaultGrids
	}
	if len(o.Criteria) == 0 {
		o.Criteria = Criteria
	}
	return o
}

// Coverage describes what the search did with one class and horizon.
type Coverage struct {
	Grid  string `json:"grid"`
	Class Class  `json:"class"`
	T     int    `json:"T"`
	// Criteria still open when the class was reached; RuledOut maps the
	// ones settled without enumeration to the argument.
	Criteria []Criterion          `json:"criteria"`
	RuledOut map[Criterion]string `json:"ruled_out,omitempty"`
	// Size is the number of models of the class (codes); Mode is
	// "argument", "exhausted" (every model up to the last witness needed,
	// or all of them), "sampled", or "partial" (stopped by the budget or
	// the context).
	Size float64 `json:"size"`
	Mode string  `json:"mode"`
	// Visited models (codes), and Tested: those tested (one per orbit
	// under relabelling unless Options.NoSymmetry; every sample when
	// sampled).
	Visited int64       `json:"visited"`
	Tested  int64       `json:"tested"`
	Found   []Criterion `json:"found,omitempty"`
}

// Report is the result of Search.
type Report struct {
	Witnesses []*Witness `json:"witnesses"`
	// NotFound lists, per grid, the criteria without a witness in the
	// searched space.
	NotFound map[string][]Criterion `json:"not_found"`
	Coverage []Coverage             `json:"coverage"`
	// Visited and Tested count (model, horizon) pairs enumerated or
	// sampled, and tested; Stopped says why the search ended early (""
	// when it covered the space or found every witness), and Unreached
	// lists the grids it did not start.
	Visited   int64    `json:"visited"`
	Tested    int64    `json:"tested"`
	Unreached []string `json:"unreached,omitempty"`
	Stopped   string   `json:"stopped,omitempty"`
	Seconds   float64  `json:"seconds"`
	// The space searched.
	MaxStates   int      `json:"max_states"`
	MaxObs      int      `json:"max_obs"`
	MaxActions  int      `json:"max_actions"`
	MaxT        int      `json:"max_T"`
	Grids       []string `json:"grids"`
	Seed        uint64   `json:"seed"`
	ClassModels int64    `json:"class_models"`
	MaxModels   int64    `json:"max_models"`
	Symmetry    bool     `json:"symmetry"`
}

// Search looks, for every criterion and grid, for the smallest model and
// horizon that separate, in the order |S|, then T, then |O|, then |A|,
// and within a class the first model in enumeration order (rows drawn
// point masses first). Every witness is certified by the oracle
// (Witness.Certify); a disagreement between the fast path and the oracle
// is returned as an error. The result is deterministic for given Options
// (Workers and time do not change it) unless ctx ends the search early;
// then Report.Stopped says so and the witnesses and coverage so far are
// returned with a nil error.
//
// Options beyond the oracle's reach are refused before any work: the
// largest class must satisfy OracleWork ≤ MaxOracleWork for every
// criterion asked for.
func Search(ctx context.Context, opt Options) (*Report, error) {
	opt = opt.withDefaults()
	for _, cr := range opt.Criteria {
		if err := checkOracleWork(cr, opt.MaxStates, opt.MaxObs, opt.MaxActions, opt.MaxT); err != nil {
			return nil, fmt.Errorf("%w (Options.MaxStates, MaxObs, MaxActions, MaxT)", err)
		}
	}
	start := time.Now()
	rep := &Report{NotFound: map[string][]Criterion{}, MaxStates: opt.MaxStates, MaxObs: opt.MaxObs, MaxActions: opt.MaxActions,
		MaxT: opt.MaxT, Seed: opt.Seed, ClassModels: opt.ClassModels, MaxModels: opt.MaxModels, Symmetry: !opt.NoSymmetry}
	for _, g := range opt.Grids {
		rep.Grids = append(rep.Grids, g.String())
	}
	defer func() { rep.Seconds = time.Since(start).Seconds() }()
	for _, g := range opt.Grids {
		open := slices.Clone(opt.Criteria)
		// unsure[cr]: an earlier class of this grid was searched for cr
		// without being exhausted (sampled or cut), so a later witness
		// is not proven to lie in the smallest class.
		unsure := map[Criterion]bool{}
	classes:
		for S := 1; S <= opt.MaxStates && len(open) > 0; S++ {
			for T := 1; T <= opt.MaxT && len(open) > 0; T++ {
				for O := 1; O <= opt.MaxObs && len(open) > 0; O++ {
					for A := 1; A <= opt.MaxActions && len(open) > 0; A++ {
						c := Class{S: S, O: O, A: A, Grid: g}
						cov, found, err := searchClass(ctx, c, T, open, opt, rep)
						rep.Coverage = append(rep.Coverage, cov)
						for _, w := range found {
							w.SmallestClass = !unsure[w.Criterion]
							rep.Witnesses = append(rep.Witnesses, w)
							open = slices.DeleteFunc(open, func(c Criterion) bool { return c == w.Criterion })
						}
						if cov.Mode == "sampled" || cov.Mode == "partial" {
							for _, cr := range cov.Criteria {
								if _, ok := cov.RuledOut[cr]; !ok && !slices.Contains(cov.Found, cr) {
									unsure[cr] = true
								}
							}
						}
						if err != nil {
							if ctx.Err() != nil {
								rep.Stopped = ctxReason(ctx)
								break classes
							}
							return rep, err
						}
						if rep.Stopped != "" {
							break classes
						}
					}
				}
			}
		}
		if len(open) > 0 {
			rep.NotFound[g.String()] = open
		}
		if rep.Stopped != "" {
			for _, g2 := range opt.Grids[slices.Index(opt.Grids, g)+1:] {
				rep.Unreached = append(rep.Unreached, g2.String())
			}
			break
		}
	}
	return rep, nil
}

func ctxReason(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "time budget reached"
	}
	return "cancelled"
}

// chunk is the number of models a worker takes at a time.
const chunk = 64

// searchClass searches one class at horizon T for the open criteria.
func searchClass(ctx context.Context, c Class, T int, open []Criterion, opt Options, rep *Report) (Coverage, []*Witness, error) {
	sp := newSpace(c)
	cov := Coverage{Grid: c.Grid.String(), Class: c, T: T, Criteria: slices.Clone(open), Size: sp.size}
	var todo []Criterion
	for _, cr := range open {
		if why := ruledOut(cr, c, T); why != "" {
			if cov.RuledOut == nil {
				cov.RuledOut = map[Criterion]string{}
			}
			cov.RuledOut[cr] = why
		} else {
			todo = append(todo, cr)
		}
	}
	if len(todo) == 0 {
		cov.Mode = "argument"
		return cov, nil, nil
	}
	cs := newClassSearch(sp, c, T, todo, opt, rep, &cov)
	for range opt.Workers {
		cs.wg.Add(1)
		go cs.work(ctx)
	}
	if opt.Progress != nil {
		cs.report(rep)
	}
	cs.wg.Wait()
	if cs.firstErr != nil && ctx.Err() == nil {
		return cov, nil, cs.firstErr
	}
	cs.count(ctx, &cov, rep)
	found, err := cs.witnesses(ctx, &cov)
	if err != nil {
		return cov, found, err
	}
	if ctx.Err() != nil {
		return cov, found, ctx.Err()
	}
	return cov, found, nil
}

// classSearch is the shared state of the workers searching one class at
// one horizon for the criteria todo.
type classSearch struct {
	sp      *space
	c       Class
	T       int
	todo    []Criterion
	opt     Options
	n       int64   // models to visit
	exhaust bool    // models are numbered 0..n-1 of the class; else samples
	samples [][]int // the sampled codes when !exhaust
	// best[k] is the smallest model number found so far for todo[k].
	best     []atomic.Int64
	hits     []*hit
	mu       sync.Mutex
	firstErr error
	next     atomic.Int64
	wg       sync.WaitGroup
}

// newClassSearch chooses the mode of cov (exhausted, sampled, or partial
// when the model budget left in rep is short) and draws the samples.
func newClassSearch(sp *space, c Class, T int, todo []Criterion, opt Options, rep *Report, cov *Coverage) *classSearch {
	cs := &classSearch{sp: sp, c: c, T: T, todo: todo, opt: opt}
	cs.exhaust = sp.exact() && sp.size <= float64(opt.ClassModels)
	if cs.exhaust {
		cs.n = int64(sp.size)
		cov.Mode = "exhausted"
	} else {
		cs.n = opt.ClassModels
		cov.Mode = "sampled"
	}
	if left := opt.MaxModels - rep.Visited; cs.n > left {
		cs.n = max(left, 0)
		cov.Mode = "partial"
		rep.Stopped = fmt.Sprintf("model budget of %d visited (model, horizon) pairs reached", opt.MaxModels)
	}
	if !cs.exhaust {
		h := fnv.New64a()
		fmt.Fprint(h, c, T)
		rng := rand.New(rand.NewPCG(opt.Seed, h.Sum64()))
		cs.samples = make([][]int, cs.n)
		for i := range cs.samples {
			code := make([]int, len(sp.radix))
			for k, r := range sp.radix {
				code[k] = rng.IntN(r)
			}
			cs.samples[i] = code
		}
	}
	cs.best = make([]atomic.Int64, len(todo))
	cs.hits = make([]*hit, len(todo))
	for k := range cs.best {
		cs.best[k].Store(math.MaxInt64)
	}
	return cs
}

// done reports whether every criterion has a witness.
func (cs *classSearch) done() bool {
	for k := range cs.best {
		if cs.best[k].Load() == math.MaxInt64 {
			return false
		}
	}
	return true
}

// work takes chunks of models until none is left, the context ends or a
// test fails; it is one of the search's goroutines.
func (cs *classSearch) work(ctx context.Context) {
	defer cs.wg.Done()
	code := make([]int, len(cs.sp.radix))
	for {
		lo := cs.next.Add(chunk) - chunk
		if lo >= cs.n || ctx.Err() != nil {
			return
		}
		// Skip a chunk beyond every criterion's witness.
		skip := true
		for k := range cs.best {
			if lo < cs.best[k].Load() {
				skip = false
			}
		}
		if skip {
			continue
		}
		for i := lo; i < min(lo+chunk, cs.n); i++ {
			if !cs.testModel(ctx, code, i) {
				return
			}
		}
	}
}

// testModel tests model i against the criteria still open below i,
// recording hits; it returns false after recording an error.
func (cs *classSearch) testModel(ctx context.Context, code []int, i int64) bool {
	if cs.exhaust {
		cs.sp.decode(code, uint64(i))
		if !cs.opt.NoSymmetry && !cs.sp.canonical(code) {
			return true
		}
	} else {
		copy(code, cs.samples[i])
	}
	m := cs.sp.model(code, "")
	for k, cr := range cs.todo {
		if i >= cs.best[k].Load() {
			continue
		}
		h, err := test(ctx, cr, m, cs.T)
		if err != nil {
			cs.mu.Lock()
			if cs.firstErr == nil {
				cs.firstErr = fmt.Errorf("witness: %s, T = %d, model %d: %w", cs.c, cs.T, i, err)
			}
			cs.mu.Unlock()
			return false
		}
		if h == nil {
			continue
		}
		cs.mu.Lock()
		if i < cs.best[k].Load() {
			cs.best[k].Store(i)
			cs.hits[k] = h
		}
		cs.mu.Unlock()
	}
	return true
}

// report calls opt.Progress every 200 ms until the workers finish.
func (cs *classSearch) report(rep *Report) {
	stop := make(chan struct{})
	go func() { cs.wg.Wait(); close(stop) }()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			found := len(rep.Witnesses)
			if cs.done() {
				found += len(cs.todo)
			}
			cs.opt.Progress(Progress{Grid: cs.c.Grid, Class: cs.c, T: cs.T, Done: min(cs.next.Load(), cs.n), Total: cs.n, Tested: rep.Tested, Found: found})
		}
	}
}

// count sets cov.Visited and cov.Tested and adds them to rep, counted
// deterministically: every model below the last witness needed (all of
// them if a criterion stays open).
func (cs *classSearch) count(ctx context.Context, cov *Coverage, rep *Report) {
	limit := cs.n
	if cs.done() {
		limit = 0
		for k := range cs.best {
			limit = max(limit, cs.best[k].Load()+1)
		}
	}
	if ctx.Err() != nil {
		cov.Mode = "partial"
		limit = min(limit, cs.next.Load())
	}
	cov.Visited = limit
	rep.Visited += limit
	if cs.exhaust && !cs.opt.NoSymmetry {
		code := make([]int, len(cs.sp.radix))
		for i := int64(0); i < limit; i++ {
			cs.sp.decode(code, uint64(i))
			if cs.sp.canonical(code) {
				cov.Tested++
			}
		}
	} else {
		cov.Tested = limit
	}
	rep.Tested += cov.Tested
}

// witnesses builds and certifies the witness of each criterion found,
// adding the criterion to cov.Found.
func (cs *classSearch) witnesses(ctx context.Context, cov *Coverage) ([]*Witness, error) {
	c, T, sp := cs.c, cs.T, cs.sp
	var found []*Witness
	for k, cr := range cs.todo {
		i := cs.best[k].Load()
		if i == math.MaxInt64 || ctx.Err() != nil {
			continue // a stopped class may have untested models below i
		}
		code := make([]int, len(sp.radix))
		idx := int64(-1)
		if cs.exhaust {
			sp.decode(code, uint64(i))
			idx = i
		} else {
			copy(code, cs.samples[i])
		}
		h := cs.hits[k]
		w := &Witness{Criterion: cr, Class: c, T: T, Index: idx, Code: code, Depth: h.Depth, Eps: h.Eps, small: h.Small, large: h.Large,
			SmallCounts: h.Small.Counts(), LargeCounts: h.Large.Counts(), SmallClasses: h.Small.Total(), LargeClasses: h.Large.Total()}
		w.Model = sp.model(code, witnessName(cr, c, T))
		if err := w.Certify(); err != nil {
			return found, fmt.Errorf("%w (criterion %s, %s, T = %d, model %d)", err, cr, c, T, i)
		}
		cov.Found = append(cov.Found, cr)
		found = append(found, w)
	}
	return found, nil
}

// witnessName names a found model, e.g. "sep-clk-free-s2-o2-a2-g4-T2".
func witnessName(cr Criterion, c Class, T int) string {
	g := c.Grid.String()
	for i := range len(g) {
		if g[i] == ':' {
			g = g[:i] + "b" + g[i+1:]
		}
	}
	return fmt.Sprintf("sep-%s-s%d-o%d-a%d-g%s-T%d", cr, c.S, c.O, c.A, g, T)
}

// Check runs criterion cr on any model m at horizon T (the paper's
// witness, a model file) and, when the fast path separates, returns the
// witness certified by the oracle; it returns nil, nil when the two
// partitions agree. The oracle sums over all |S|^{T+1} state sequences
// per observation sequence and probe, so keep |S|, |O| and T small: it
// returns an error when OracleWork exceeds MaxOracleWork.
func Check(ctx context.Context, cr Criterion, m *pomdp.Model, T int) (*Witness, error) {
	if err := checkOracleWork(cr, m.NumStates(), m.NumObservations(), m.NumActions(), T); err != nil {
		return nil, err
	}
	h, err := test(ctx, cr, m, T)
	if err != nil || h == nil {
		return nil, err
	}
	c := Class{S: m.NumStates(), O: m.NumObservations(), A: m.NumActions()}
	w := &Witness{Criterion: cr, Class: c, T: T, Index: -1, Model: m, Depth: h.Depth, Eps: h.Eps, small: h.Small, large: h.Large,
		SmallCounts: h.Small.Counts(), LargeCounts: h.Large.Counts(), SmallClasses: h.Small.Total(), LargeClasses: h.Large.Total()}
	if err := w.Certify(); err != nil {
		return nil, err
	}
	return w, nil
}
