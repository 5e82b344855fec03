package distance

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/pomdpq/pomdpq/internal/memsample"
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
	// cost Σ_t d_O(o_t, o'_t) (docs/conventions.md#distances).
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
// metric, uniform stand-in, all cores, no progress, de-duplication on,
// distances over exact classes, half of the usable memory (physical or cgroup limit) as the budget, no
// tensor.
type Options struct {
	Metric     Metric
	Ground     ot.Ground      // nil: the discrete metric on observations
	Convention law.Convention // impossible-history stand-in
	Workers    int            // 0: runtime.GOMAXPROCS(0)
	// Progress, when set, is called with the work units done in the
	// current phase and their total, from one goroutine at a time: probes
	// in the phases probes, classes and bounds, pairs of representatives
	// times probes in the phase distances.
	Progress func(done, total int)
	// Phase, when set, is called as each phase starts: "probes" (grouping
	// by behaviour), "classes" (exact classes by refinement), "bounds"
	// (long suffixes only), "pivots" (decision mode, depths of many
	// classes: pairs far apart decided in bulk), "distances" (transport
	// problems between class representatives) and "expand" (the
	// history-level matrices D).
	Phase func(name string)
	// NoDedup computes every controller even when two share an action tree.
	NoDedup bool
	// Tensor keeps every distinct probe's distances over all history pairs
	// (needed by certify); it implies AllPairs and disables the
	// upper-bound pruning.
	Tensor bool
	// AllPairs computes the distance of every pair of histories instead of
	// one pair per pair of exact classes: the reference path, quadratic in
	// the histories. The partitions are the same (see Compute).
	AllPairs bool
	// MemBudget is the largest estimated peak memory, in bytes, Compute
	// accepts before refusing with a *BudgetError: 0 means
	// DefaultMemBudget() (half of the physical memory or of the cgroup limit), a negative value no
	// limit.
	MemBudget int64
	// Eps, when not empty, lists the ε values the caller will partition
	// at (decision mode, W1 only; docs/algorithms.md#decision-mode). Distances up
	// to max(Eps) + partition.ZeroTol are exact; a pair known to exceed
	// it (a probe's value, or a cheap lower bound from the one-step
	// marginals) is settled without further transport problems and holds
	// a lower bound above the threshold. Partition(ε) is then exact for
	// every ε ≤ max(Eps), and MaxDistance stops at the threshold
	// (Result.Cap, MaxDistanceExact). Ignored with Tensor and AllPairs.
	Eps []float64
	// Compact, with Eps, stores per pair of classes only which listed ε
	// it is within (Result.Decisions: a bit per pair and ε, shared by the
	// workers) instead of its distance (ClassD, eight bytes per pair and
	// worker): Partition then accepts exactly the listed ε, with the
	// partitions of the distance matrices label for label, MaxDistance is
	// as without Compact, and there is no ClassD, D, At or Full. Ignored
	// without Eps, with Tensor and with AllPairs.
	Compact bool
	// FullLimit bounds the bytes of the history-level matrices Result.D:
	// they are filled when they need at most FullLimit bytes (0: 64 MiB,
	// negative: never). Class-level results do not depend on it.
	FullLimit int64
}

// DefaultFullLimit is the default Options.FullLimit.
const DefaultFullLimit = 64 << 20

// Result holds the distances of one model, family and horizon, over the
// exact classes of the histories.
type Result struct {
	Tree law.Tree
	// Classes is the exact (ε = 0) partition: two histories share a class
	// when every probe of the family gives them the same suffix law (to
	// LawTol). On the AllPairs path every history is its own class.
	Classes *partition.Partition
	// Reps[t][c] is the first depth-t history (in history order) of class
	// c; classes are numbered in order of their first member.
	Reps [][]int
	// ClassD[t] is the matrix over the classes of depth t: entry (a, b) is
	// d^Π between the representatives of classes a and b. Depth T (empty
	// suffixes: one class, or every history on the AllPairs path) has no
	// storage. Nil in a compact run (Options.Compact).
	ClassD []partition.Matrix
	// Decisions, in a compact run (Options.Compact), hold per pair of
	// classes which listed ε it is within, in place of ClassD.
	Decisions *Decisions
	// D[t] is the matrix over all depth-t histories, d(h, h') =
	// ClassD[t](class(h), class(h')), when it fits Options.FullLimit (nil
	// otherwise; use At or Full). Depth T is all zero, with storage when
	// it too fits the limit.
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
	// Solves counts the transport problems solved (the pairs and probes
	// that no bound, closed form or repeat settled).
	Solves int64
	// Seconds is the wall time of Compute; Phases the time of each phase.
	Seconds float64
	Phases  []PhaseTime
	// Cap is +Inf when every distance is exact; in decision mode
	// (Options.Eps) it is max(Eps) + partition.ZeroTol, and entries above
	// it are lower bounds.
	Cap float64
	// Cost is the pre-flight estimate the run was checked against (with
	// the exact class counts).
	Cost Cost
	// Tensor, when requested: Tensor[k][t] is probe column k's matrix at
	// depth t (depth T has no storage: its entries are all 0); Column[i] is
	// the column of family member i.
	Tensor [][]partition.Matrix
	Column []int
	// visited counts the pairs the pair loop examined over all probes;
	// candidates the pairs the pivot pass left to it (tests read them).
	visited, candidates int64
	// simplexPivots and cells: the transport solves' simplex pivots and
	// residual sources × sinks, summed (tests compare the work done).
	simplexPivots, cells int64
	pivotBytes           int64 // the pivot pass's coordinates, allocated
}

// PhaseTime is the wall time of one phase of a computation.
type PhaseTime struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
}

// At returns d^Π between the depth-t histories i and j. It panics in a
// compact run (Options.Compact), which keeps no distances.
func (r *Result) At(t, i, j int) float64 {
	r.needDistances("At")
	l := r.Classes.Labels[t]
	return r.ClassD[t].At(l[i], l[j])
}

// Full returns the history-level matrices: D when it was kept, otherwise
// an expansion of ClassD (Σ_t |O|^{2t}/2 entries: mind the size).
func (r *Result) Full() []partition.Matrix {
	if r.D != nil {
		return r.D
	}
	r.needDistances("Full")
	return expand(r.Tree, r.Classes, r.ClassD)
}

func expand(tree law.Tree, classes *partition.Partition, cd []partition.Matrix) []partition.Matrix {
	d := make([]partition.Matrix, tree.T+1)
	for t := range d {
		n := tree.Count(t)
		if t == tree.T {
			d[t] = partition.Matrix{N: n}
			continue
		}
		m := partition.NewMatrix(n)
		l, c := classes.Labels[t], cd[t]
		idx := 0
		for i := 0; i < n; i++ {
			li := l[i]
			for j := i + 1; j < n; j++ {
				m.Data[idx] = c.At(li, l[j])
				idx++
			}
		}
		d[t] = m
	}
	return d
}

// needDistances panics, naming the method, when r is a compact run.
func (r *Result) needDistances(method string) {
	if r.Decisions != nil {
		panic(fmt.Sprintf("distance: %s of a compact run (Options.Compact keeps which listed ε each pair is within, not its distance)", method))
	}
}

// MaxDistance returns the largest distance over all pairs and depths. When
// that exceeds the decided range (a decision-mode run, Options.Eps), it
// returns the range's end, Cap, a lower bound (MaxDistanceExact is then
// false): a pair above the range is settled by whichever probe first shows
// it there, and parallel workers vary that order from run to run, so no
// larger value would be the same twice.
func (r *Result) MaxDistance() float64 {
	return min(r.rawMax(), r.Cap)
}

// MaxDistanceExact reports whether MaxDistance is the exact largest
// distance rather than a lower bound at the end of the decided range.
func (r *Result) MaxDistanceExact() bool { return r.rawMax() <= r.Cap }

func (r *Result) rawMax() float64 {
	if r.Decisions != nil {
		return r.Decisions.Max
	}
	m := 0.0
	for _, d := range r.ClassD {
		m = math.Max(m, d.Max())
	}
	return m
}

// Partition returns the greedy complete-linkage ε-partition of the
// histories, computed on the classes (see Compute for why that is the
// same partition).
//
// It panics when eps exceeds the decided range of a decision-mode run
// (Options.Eps): the distances above it are only known to be large; and,
// in a compact run (Options.Compact), when eps is not one of the listed ε.
func (r *Result) Partition(eps float64) *partition.Partition {
	if eps+partition.ZeroTol > r.Cap {
		panic(fmt.Sprintf("distance: Partition(%g) of a run decided only up to ε = %g (Options.Eps); add %g to Options.Eps", eps, r.Cap-partition.ZeroTol, eps))
	}
	var pc *partition.Partition
	if r.Decisions != nil {
		pc = r.Decisions.partition(eps)
	} else {
		pc = partition.Greedy(r.ClassD, eps)
	}
	p := &partition.Partition{Labels: make([][]int, len(pc.Labels))}
	for t, cl := range pc.Labels {
		l := r.Classes.Labels[t]
		out := make([]int, len(l))
		for i, c := range l {
			out[i] = cl[c]
		}
		p.Labels[t] = out
	}
	return p
}

// Compute returns d^Π for model m, family fam (controllers for m's action
// and observation counts) and horizon T. It is cancelled with ctx.
//
// It works in two phases. Phase "classes" computes every distinct probe's
// laws once and refines the partition by depth until two histories share
// a class exactly when every probe gives them equal suffix laws (as Exact;
// no transport problem). Phase "distances" computes every probe's laws
// again and solves one transport problem per pair of class
// representatives (the first member of each class), per depth. Memory
// grows with Σ_t c_t² for c_t classes at depth t, not with the histories
// squared; Options.AllPairs gives the reference path over every pair.
//
// Why the ε-partitions are the same. d^Π is a pseudometric, so for h ≡ h'
// (distance 0) and any x, d(h, x) = d(h', x): the members of a class are
// interchangeable. Greedy complete linkage (partition.Greedy) scans
// clusters in history order and merges the first mergeable singleton j
// into the cluster i being scanned. Let h < h' be in one class. If h
// joins an earlier cluster K, h' is mergeable with K when it is scanned
// (its distances to K's members equal h's, and every member added since
// is within ε of h), and it cannot join a cluster scanned before K, which
// rejected h at the same distances; if h starts its own cluster, h' joins
// it for the same reason. So classes are never split, merging h' changes
// no linkage value, and the run is the same as the run on the
// representatives alone, which are in history order: same partition,
// same class order, ties broken the same way. The tests check this
// against AllPairs on random models.
//
// Before any law is computed, and again once the classes are known, the
// run's peak memory is estimated (Cost) and a run over Options.MemBudget
// is refused with a *BudgetError naming the largest term.
//
// Cost: for each distinct controller, two law passes (see law.Engine),
// the refinement (O(n·c·|O|^{T−t}) per depth) and one transport problem
// per pair of representatives per depth that pruning cannot settle, on
// supports of size |O|^{T−t}.
func Compute(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, opt Options) (*Result, error) {
	start := time.Now()
	pr, err := prepare(ctx, m, fam, T, opt, false, given{})
	if err != nil {
		return nil, err
	}
	return pr.finish(ctx, start)
}

// finish runs the phases bounds, distances and expand of a prepared run.
func (pr *prepared) finish(ctx context.Context, start time.Time) (*Result, error) {
	res, opt, tree := pr.res, pr.opt, pr.res.Tree
	T := tree.T
	if err := pr.boundsPhase(ctx); err != nil {
		return nil, err
	}
	// Phase "distances": one transport problem per pair of
	// representatives.
	if compact(opt) {
		pr.r.dec = newDecisions(opt.Eps, res.Reps, T, pr.r.nT)
	}
	if pr.r.pivotDepths() != nil {
		// Phase "pivots": most pairs of the large depths decided in bulk.
		pr.phase("pivots")
		var err error
		if pr.r.pivoted, err = pr.r.pivots(ctx, pr.probes); err != nil {
			return nil, err
		}
	}
	pr.phase("distances")
	cd, tensor, standIns, err := pr.r.distances(ctx, pr.probes)
	if err != nil {
		return nil, err
	}
	for _, s := range standIns {
		res.StandIns += s
	}
	res.ClassD = cd
	res.visited, res.candidates, res.pivotBytes = pr.r.visited, pr.r.pivotCandidates, pr.r.pivotBytes
	if pr.r.dec != nil {
		res.ClassD, res.Decisions = nil, pr.r.dec
	}
	res.Solves = pr.r.solves
	res.simplexPivots, res.cells = pr.r.simplexPivots, pr.r.cells
	if opt.Tensor {
		res.Tensor = tensor
	}
	for k, i := range pr.probes[len(pr.reps):] {
		res.Column[i] = len(pr.reps) + k
	}
	if opt.AllPairs {
		res.D = slices.Clone(cd)
	} else if res.Decisions == nil && pr.fullLimit >= 0 && fullBytes(tree) <= pr.fullLimit {
		pr.phase("expand")
		res.D = expand(tree, res.Classes, cd)
		if opt.Progress != nil {
			opt.Progress(1, 1) // every phase a display shows ends at 100 %
		}
	}
	// Depth T (empty suffixes, all zero) gets storage in D when all of D
	// still fits the limit, as callers that walk D[t].Data expect.
	if res.D != nil {
		nT := int64(tree.Count(T))
		if pr.fullLimit >= 0 && fullBytes(tree)+8*(nT*(nT-1)/2) <= pr.fullLimit {
			res.D[T] = partition.NewMatrix(int(nT))
		} else {
			res.D[T] = partition.Matrix{N: int(nT)}
		}
	}
	pr.phase("")
	res.Phases = pr.phases[:len(pr.phases)-1]
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// Plan runs Compute's cheap phases (grouping the family by behaviour, the
// exact classes and, on long suffixes, the bounds: no transport problem)
// and returns the estimate of the whole run, without refusing it: what
// `pomdpq quotient --dry-run` prints. The exact classes are a lower bound
// on the class count at every ε. The laws' own buffers are still checked
// against the budget before they are allocated, and so is the classes
// phase of the class path (Cost.DAGs): when it would not fit, Plan
// returns its pre-flight estimate and a nil partition. The bounds pass
// (which can only lower the transport term) is skipped when the run
// would not fit the budget without any transport scratch.
func Plan(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, opt Options) (Cost, *partition.Partition, error) {
	pr, err := prepare(ctx, m, fam, T, opt, true, given{})
	if err != nil {
		return Cost{}, nil, err
	}
	if pr.stopped {
		return pr.res.Cost, nil, nil
	}
	pr.planOnly = true
	noTransport := pr.res.Cost
	noTransport.Transport, noTransport.DAGs = 0, 0
	if pr.check(noTransport, "") != nil {
		// Over the budget whatever the bounds settle: they lower the
		// transport term only, and their pass holds every worker's laws.
		pr.phase("")
		return pr.res.Cost, pr.res.Classes, nil
	}
	if err := pr.boundsPhase(ctx); err != nil {
		return Cost{}, nil, err
	}
	pr.phase("")
	return pr.res.Cost, pr.res.Classes, nil
}

// boundsPhase sets the decision threshold, runs the bounds pass where it
// applies, refines the estimate's transport term with what it learnt and
// checks the budget a last time before the transport problems.
func (pr *prepared) boundsPhase(ctx context.Context) error {
	res, opt, tree := pr.res, pr.opt, pr.res.Tree
	T := tree.T
	pr.r.reps = res.Reps
	if pr.r.cls != nil {
		// The laws are the representatives' blocks, in class order.
		pr.r.reps = identityReps(pr.r.cls.counts)
	}
	pr.r.nT = len(res.Reps[T])
	if opt.AllPairs {
		pr.r.nT = tree.Count(T)
	}
	res.Cap = math.Inf(1)
	if len(opt.Eps) > 0 && opt.Metric == W1 && !opt.AllPairs {
		res.Cap = slices.Max(opt.Eps) + partition.ZeroTol
	}
	pr.r.capped = res.Cap
	if !pr.boundsApply() {
		return nil
	}
	// Phase "bounds" (long suffixes only): lower bounds over the family.
	pr.phase("bounds")
	lb, supp, err := pr.r.bounds(ctx, pr.probes)
	if err != nil {
		return err
	}
	pr.r.lb = lb
	// Depths whose every pair is settled by the bounds need no transport
	// problem, and a problem is no larger than the laws' supports.
	decided := !math.IsInf(res.Cap, 1)
	res.Cost.Transport = transportBytes(tree, res.Cost.Classes, func(t int) bool {
		if lb[t].Data == nil || !decided {
			return false
		}
		for _, v := range lb[t].Data {
			if !(v > res.Cap) {
				return false
			}
		}
		return true
	}, supp, int64(pr.r.workers), uniformGround(opt))
	if pr.planOnly {
		return nil
	}
	return pr.check(res.Cost, "after the bounds")
}

// compact reports whether a run with these options stores decisions
// (Options.Compact).
func compact(opt Options) bool {
	return opt.Compact && len(opt.Eps) > 0 && !opt.AllPairs && !opt.Tensor
}

// boundsApply reports whether the bounds pass runs: W1, not a tensor, and
// a depth with long suffixes and two classes or more.
func (pr *prepared) boundsApply() bool {
	return pr.opt.Metric == W1 && !pr.opt.Tensor && pr.r.boundDepths() != nil
}

// prepared is the state of a run after the cheap phases.
type prepared struct {
	res       *Result
	opt       Options
	r         *runner
	reps      []int // one family index per behaviour
	probes    []int // family indices whose laws are computed
	fullLimit int64
	phases    []PhaseTime
	phaseAt   time.Time
	planOnly  bool                             // Plan: estimate, do not refuse after the laws
	mode      classMode                        // exact classes from classes (classdag.go)
	dags      *dagPlan                         // the class path's DAGs, counted once built
	stopped   bool                             // Plan: the classes phase does not fit; res.Cost is its estimate
	check     func(c Cost, stage string) error // the budget check
}

func (pr *prepared) phase(name string) {
	now := time.Now()
	if len(pr.phases) > 0 {
		pr.phases[len(pr.phases)-1].Seconds = now.Sub(pr.phaseAt).Seconds()
	}
	pr.phases = append(pr.phases, PhaseTime{Name: name})
	pr.phaseAt = now
	if name != "" && pr.opt.Phase != nil {
		pr.opt.Phase(name)
	}
}

// prepare checks the family, estimates the run, groups controllers by
// behaviour and computes the exact classes; it refuses a run over the
// budget before the laws and again once the classes are known.
//
// With plan (Plan), only the laws' buffers are checked against the budget.
// A given probe list replaces the grouping by behaviour, and a given
// partition the refinement (sharded runs, ComputePlanned).
func prepare(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, opt Options, plan bool, gv given) (*prepared, error) {
	g, err := ot.ForObservations(opt.Ground, m.NumObservations())
	if err != nil {
		return nil, fmt.Errorf("distance: model %s: %w", m.Name, err)
	}
	if fam.Len() == 0 {
		return nil, fmt.Errorf("distance: empty probe family")
	}
	if opt.Tensor {
		opt.AllPairs = true
	}
	proto, mode, err := protoEngine(m, T, opt, gv)
	if err != nil {
		return nil, err
	}
	tree := proto.Tree()
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	budget := opt.MemBudget
	if budget == 0 {
		budget = DefaultMemBudget()
	}
	fullLimit := opt.FullLimit
	if fullLimit == 0 {
		fullLimit = DefaultFullLimit
	}
	base := memsample.LiveHeap()
	check := func(c Cost, stage string) error {
		c.Base = base
		if budget > 0 && c.Bytes() > budget {
			return &BudgetError{Cost: c, Budget: budget, Stage: stage}
		}
		return nil
	}
	n := fam.Len()
	if err := check(classPathCost(estimate(tree, m.NumStates(), n, n, workers, nil, opt, fullLimit), mode, nil), "before the laws"); err != nil {
		return nil, err
	}
	pr := &prepared{opt: opt, fullLimit: fullLimit, phaseAt: time.Now(), check: check, mode: mode}
	pr.phase("probes")
	// Check every controller once and group by action tree.
	var column []int
	var reps []int      // family index of each column's representative
	var members [][]int // family indices per column
	if gv.probes != nil {
		n = 0 // the probes were grouped by the run that listed them
		if column, reps, members, err = givenProbes(fam, proto, gv.probes); err != nil {
			return nil, err
		}
	} else {
		column, reps, members, err = groupFamily(ctx, fam, proto, tree, opt, workers)
		if err != nil {
			return nil, err
		}
	}
	res := &Result{Tree: tree, FamilySize: fam.Len(), Metric: opt.Metric, Convention: opt.Convention, Column: column, Cap: math.Inf(1)}
	r := &runner{m: m, fam: fam, T: T, opt: opt, g: g, tree: tree, workers: workers}
	pr.res, pr.r, pr.reps = res, r, reps

	ahead, err := pr.classesPreflight(ctx, gv, n, plan, base)
	if err != nil {
		return nil, err
	}
	if pr.stopped {
		return pr, nil // a dry run over the budget before the classes
	}
	probes, err := pr.classesPhase(ctx, gv, members)
	if err != nil {
		return nil, err
	}
	pr.probes = probes
	res.Distinct = len(probes)
	res.Reps = representatives(res.Classes)
	res.Cost = withDAGs(classPathCost(estimate(tree, m.NumStates(), n, len(probes), workers, res.Classes.Counts(), opt, fullLimit), mode, r.cls), mode, pr.dags, tree, false)
	res.Cost.Base, res.Cost.DAGsAhead = base, ahead
	if plan {
		return pr, nil
	}
	// The classes phase is over: its DAGs no longer count against the
	// budget (those the later phases read are in Laws).
	later := res.Cost
	later.DAGs = 0
	if err := check(later, "after the exact classes"); err != nil {
		return nil, err
	}
	return pr, nil
}

// givenProbes checks the probes a first round listed (ShardRange's
// second round) and returns them as prepare's grouping: each its own
// column.
func givenProbes(fam fsc.Family, proto *law.Engine, probes []int) (column, reps []int, members [][]int, err error) {
	for _, i := range probes {
		if i < 0 || i >= fam.Len() {
			return nil, nil, nil, fmt.Errorf("distance: probe %d outside %v", i, fam)
		}
		if err := proto.Check(fam.At(i)); err != nil {
			return nil, nil, nil, fmt.Errorf("distance: controller %d of %v: %w", i, fam, err)
		}
		column = append(column, len(reps))
		reps = append(reps, i)
		members = append(members, []int{i})
	}
	return column, reps, members, nil
}

// classesPhase sets the exact partition (given, singletons on the
// AllPairs path, or refined from the laws of the representatives pr.reps)
// and returns the family members whose laws the later phases compute:
// the representatives and the members of the groups whose stand-in
// counts make them differ.
func (pr *prepared) classesPhase(ctx context.Context, gv given, members [][]int) ([]int, error) {
	res, r, reps, tree, T := pr.res, pr.r, pr.reps, pr.res.Tree, pr.res.Tree.T
	// Phase "classes": the exact partition, and the stand-in counts that
	// decide which groups must be expanded.
	var probes []int
	if gv.classes != nil {
		if err := checkShape(gv.classes, tree); err != nil {
			return nil, err
		}
		res.Classes = gv.classes
		probes = reps
		if gv.probes == nil {
			// Only the stand-in counts are needed: they decide which
			// groups are expanded.
			pr.phase("classes")
			standIns, err := r.refine(ctx, reps, nil)
			if err != nil {
				return nil, err
			}
			probes = expandGroups(reps, members, standIns)
		}
	} else if pr.opt.AllPairs {
		res.Classes = singletons(tree)
		standIns, err := r.refine(ctx, reps, nil)
		if err != nil {
			return nil, err
		}
		probes = expandGroups(reps, members, standIns)
	} else if pr.mode.dag {
		pr.phase("classes")
		p, all, cl, err := r.exactFromDAGs(ctx, reps, members)
		if err != nil {
			return nil, err
		}
		pr.dags = countedDAGs(cl.pcs, r.dagWidth(all))
		res.Classes, probes = p, all
		if pr.mode.repLaws {
			r.cls = cl
		}
	} else {
		pr.phase("classes")
		labels := make([][]int, T+1)
		for t := range labels {
			labels[t] = make([]int, tree.Count(t))
		}
		standIns, err := r.refine(ctx, reps, labels)
		if err != nil {
			return nil, err
		}
		probes = expandGroups(reps, members, standIns)
		if extra := probes[len(reps):]; len(extra) > 0 {
			if _, err := r.refine(ctx, extra, labels); err != nil {
				return nil, err
			}
		}
		res.Classes = partition.FromLabels(labels)
	}
	return probes, nil
}

// groupFamily checks every controller of fam and groups the deterministic
// ones by action tree (unless opt.NoDedup): column[i] is member i's group,
// reps the first member of each group and members each group's members,
// all in family order. The family is split into contiguous chunks grouped
// on the workers; merging the chunks in order gives the sequential
// grouping exactly (groups numbered by their first member).
func groupFamily(ctx context.Context, fam fsc.Family, proto *law.Engine, tree law.Tree, opt Options, workers int) (column, reps []int, members [][]int, err error) {
	n := fam.Len()
	// A chunk's groups, in order of their first member; key "" marks a
	// group of its own (stochastic controllers, NoDedup).
	type chunk struct {
		keys    []string
		members [][]int
		err     error
	}
	const step = 4096
	workers = max(1, min(workers, (n+step-1)/step))
	chunks := make([]chunk, workers)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for w := range chunks {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			lo, hi := n*w/workers, n*(w+1)/workers
			ch := &chunks[w]
			index := make(map[string]int)
			var key []byte
			for i := lo; i < hi; i++ {
				if (i-lo)%step == step-1 {
					if ctx.Err() != nil {
						ch.err = ctx.Err()
						return
					}
					mu.Lock()
					done += step
					if opt.Progress != nil {
						opt.Progress(done, n)
					}
					mu.Unlock()
				}
				c := fam.At(i)
				if err := proto.Check(c); err != nil {
					ch.err = fmt.Errorf("distance: controller %d of %v: %w", i, fam, err)
					return
				}
				if !opt.NoDedup && c.Deterministic() {
					key = law.ActionTree(key[:0], c, tree)
					if k, ok := index[string(key)]; ok {
						ch.members[k] = append(ch.members[k], i)
						continue
					}
					index[string(key)] = len(ch.keys)
					ch.keys = append(ch.keys, string(key))
				} else {
					ch.keys = append(ch.keys, "")
				}
				ch.members = append(ch.members, []int{i})
			}
		}(w)
	}
	wg.Wait()
	for _, ch := range chunks {
		if ch.err != nil {
			return nil, nil, nil, ch.err
		}
	}
	column = make([]int, n)
	keys := make(map[string]int)
	for w := range chunks {
		ch := &chunks[w]
		for g, key := range ch.keys {
			ms := ch.members[g]
			k, ok := keys[key]
			if !ok || key == "" {
				k = len(reps)
				if key != "" {
					keys[key] = k
				}
				reps = append(reps, ms[0])
				members = append(members, ms)
			} else {
				members[k] = append(members[k], ms...)
			}
			for _, i := range ms {
				column[i] = k
			}
		}
		*ch = chunk{} // release the chunk's groups
	}
	if opt.Progress != nil {
		opt.Progress(n, n)
	}
	return column, reps, members, nil
}

// given holds what a sharded run takes from elsewhere: the probes (family
// indices, already grouped and expanded) and the exact partition.
type given struct {
	probes  []int
	classes *partition.Partition
}

// checkShape reports whether p is a partition of tree's histories.
func checkShape(p *partition.Partition, tree law.Tree) error {
	if len(p.Labels) != tree.T+1 {
		return fmt.Errorf("distance: the given partition has %d depths, the tree %d", len(p.Labels), tree.T+1)
	}
	for t, l := range p.Labels {
		if len(l) != tree.Count(t) {
			return fmt.Errorf("distance: the given partition has %d histories at depth %d, the tree %d", len(l), t, tree.Count(t))
		}
	}
	return nil
}

// expandGroups returns the family indices whose laws are computed: the
// representatives, then the other members of every group whose
// representative needed a stand-in (stand-ins depend on more than the
// action tree).
func expandGroups(reps []int, members [][]int, standIns []int) []int {
	probes := slices.Clone(reps)
	for k, s := range standIns {
		if s > 0 {
			probes = append(probes, members[k][1:]...)
		}
	}
	return probes
}

// fullBytes returns the bytes of the history-level matrices (depths < T).
func fullBytes(tree law.Tree) int64 {
	var b int64
	for t := 0; t < tree.T; t++ {
		k := int64(tree.Count(t))
		b += 8 * (k * (k - 1) / 2)
	}
	return b
}

// singletons returns the partition with every history in its own class
// but depth T, which is one class.
func singletons(tree law.Tree) *partition.Partition {
	p := &partition.Partition{Labels: make([][]int, tree.T+1)}
	for t := range p.Labels {
		l := make([]int, tree.Count(t))
		if t < tree.T {
			for i := range l {
				l[i] = i
			}
		}
		p.Labels[t] = l
	}
	return p
}

// representatives returns the first member of every class, per depth.
func representatives(p *partition.Partition) [][]int {
	reps := make([][]int, len(p.Labels))
	for t, l := range p.Labels {
		r := make([]int, 0, 16)
		for i, c := range l {
			if c == len(r) {
				r = append(r, i)
			}
		}
		reps[t] = r
	}
	return reps
}
