package distance

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
)

// Cost is the pre-flight estimate of a Compute run: the terms of its peak
// memory, in bytes, and its work. Compute checks it twice against
// Options.MemBudget: before any law is computed (with the pair term
// counted only on the all-histories path, where it is known) and again
// once the exact classes are known, before any pair matrix is allocated.
type Cost struct {
	FamilySize int // controllers in the family
	Distinct   int // distinct behaviours (0 before grouping)
	Workers    int
	Histories  []int // histories per depth
	// Classes per depth: the exact classes once known (Known), otherwise
	// the histories (the worst case).
	Classes []int
	Known   bool
	// Pairs is Σ_t c_t(c_t − 1)/2 over depths t < T: the transport
	// problems one probe may need (pruning and equal laws skip many).
	Pairs int64

	// The memory terms.
	Base int64 // live heap before the run (the model among it)
	Laws int64 // per-worker law buffers: (T + 3)·|O|^T + Σ_t |O|^t floats each
	// Labels is the class labels of every history: on the refinement
	// path the labels the workers refine in place (shared, under a lock
	// per depth) and the partition's canonical copy, 8 bytes a history
	// each; on the class path (withDAGs) the partition's and the forward
	// pass's states.
	Labels int64
	Family int64 // grouping controllers by behaviour: per member and per distinct action tree
	// Matrix is the pair storage: float matrices, one per worker (merged
	// into the first), or in a compact run (Decisions > 0) one bit per
	// pair and listed ε, shared by the workers.
	Matrix int64
	// Decisions is the number of distinct listed ε a compact run
	// (Options.Compact) stores a bit per pair for; 0: float matrices.
	Decisions int
	Full      int64 // history-level matrices kept in Result.D (Options.FullLimit)
	// Index is the law index of the distances pass (lawIndex): an entry
	// per representative and distinct law met, at most
	// lawIndexLimit (256 MiB, a quarter of Options.MemBudget).
	Index int64
	// Transport is the solvers' scratch: a dense cost matrix of the
	// residual problem, at most (L/2)² entries for suffix laws of L =
	// |O|^{T−t} atoms, per worker, at the deepest suffixes with two
	// classes or more (an upper bound: residual supports are usually
	// smaller). Under a uniform ground a problem above ot.DenseArcs
	// entries goes to the product graph of O^{T−t} instead (ot.ProductW1,
	// 2·(T−t)·|O|^{T−t} arcs), as do the large window bounds
	// (transportBytes).
	Transport int64
	// Pivots is the pivot pass's coordinates (a compact W1 run, depths of
	// at least pivotMinClasses classes): a float per representative,
	// probe, suffix position and observation, and the sweep's sorted
	// copy.
	Pivots int64

	// DAGs is the classes phase on the class path (dagcost.go): every
	// probe's posterior DAG and node classes, the workers' build scratch
	// and the forward pass's joint states, live together with the
	// labels and the grouping; 0 off the class path. The phase ends
	// before the laws of the later phases are allocated, so Bytes takes
	// the larger of the two, not their sum.
	DAGs int64
	// DAGsAhead is DAGs as estimated before any DAG was built (from the
	// cheap first depths); DAGs is recomputed from the counted nodes once
	// the DAGs are built.
	DAGsAhead int64
	// DAGNodes is the DAG nodes per depth summed over the probes:
	// counted at depths below DAGCounted, extrapolated beyond.
	DAGNodes []int64
	// DAGCounted is the number of depths whose nodes were counted:
	// len(DAGNodes) once the DAGs are built, fewer in the estimate made
	// before (the cheap first depths of law.Engine.DAGGrowth).
	DAGCounted int
}

// gcFactor converts live heap into peak resident memory: the Go collector
// lets the heap grow past the live data before collecting (GOGC = 100);
// the transient garbage of a run is a fraction of it. Calibrated on the
// bench rows (`pomdpq bench`, column estimate_mib).
const gcFactor = 1.2

// runtimeBase is the resident memory of the Go runtime and the binary:
// `pomdpq quotient --model tiger --T 1` (no pair to speak of) peaks at
// 12.5–13 MiB resident. (It was 7 MiB while float matrices, over-counted
// per worker, hid the difference on the small bench rows.)
const runtimeBase = 12 << 20

// Bytes returns the estimated peak resident memory.
func (c Cost) Bytes() int64 {
	live := c.Laws + c.Labels + c.Family + c.Matrix + c.Full + c.Transport + c.Index + c.Pivots
	live = max(live, c.DAGs+c.Labels+c.Family)
	return runtimeBase + c.Base + int64(gcFactor*float64(live))
}

// Largest returns the name and size of the largest memory term of the
// computation (the heap in use before it, Base, is not one).
func (c Cost) Largest() (string, int64) {
	terms := []struct {
		name string
		v    int64
	}{
		{"pair matrices over classes", c.Matrix},
		{"suffix-law buffers", c.Laws},
		{"history labels", c.Labels},
		{"family grouping", c.Family},
		{"history-level matrices (Result.D)", c.Full},
		{"transport solver scratch (the largest residual problem, and product graphs of O^{T−t})", c.Transport},
		{"law index (distinct laws per class representative)", c.Index},
		{"pivot coordinates (per class, probe and one-step marginal)", c.Pivots},
		{c.dagTerm(), c.DAGs},
	}
	switch {
	case !c.Known:
		terms[0].name = "pair matrices over histories"
	case c.Decisions > 0:
		terms[0].name = fmt.Sprintf("pair decisions over classes (a bit per pair and listed ε, %d ε)", c.Decisions)
	}
	best := terms[0]
	for _, t := range terms[1:] {
		if t.v > best.v {
			best = t
		}
	}
	return best.name, best.v
}

// String summarises the estimate on a few lines.
func (c Cost) String() string {
	var b strings.Builder
	hist := 0
	for _, n := range c.Histories {
		hist += n
	}
	cls := 0
	for _, n := range c.Classes {
		cls += n
	}
	fmt.Fprintf(&b, "family %d controllers", c.FamilySize)
	if c.Distinct > 0 {
		fmt.Fprintf(&b, " (%d distinct behaviours)", c.Distinct)
	}
	fmt.Fprintf(&b, ", %d workers\n", c.Workers)
	fmt.Fprintf(&b, "histories %d (per depth %v)\n", hist, c.Histories)
	if c.Known {
		fmt.Fprintf(&b, "exact classes %d (per depth %v)\n", cls, c.Classes)
	} else {
		fmt.Fprintf(&b, "exact classes not yet known (at most the histories)\n")
	}
	fmt.Fprintf(&b, "pairs per probe %d\n", c.Pairs)
	pairs := "pair matrices"
	if c.Decisions > 0 {
		pairs = fmt.Sprintf("pair decisions (%d ε)", c.Decisions)
	}
	fmt.Fprintf(&b, "memory: laws %s, labels %s, grouping %s, %s %s, history matrices %s, transport scratch %s, law index %s, pivot coordinates %s, base %s\n",
		FormatBytes(c.Laws), FormatBytes(c.Labels), FormatBytes(c.Family), pairs, FormatBytes(c.Matrix), FormatBytes(c.Full), FormatBytes(c.Transport), FormatBytes(c.Index), FormatBytes(c.Pivots), FormatBytes(c.Base))
	if c.DAGs > 0 {
		fmt.Fprintf(&b, "classes phase: %s, %s, peak %s (estimated before any DAG was built: %s, peak %s; DAG nodes per depth %v)\n",
			c.dagTerm(), FormatBytes(c.DAGs), FormatBytes(c.ClassesPhaseBytes(false)), FormatBytes(c.DAGsAhead), FormatBytes(c.ClassesPhaseBytes(true)), c.DAGNodes)
	}
	name, v := c.Largest()
	fmt.Fprintf(&b, "estimated peak %s (largest term: %s, %s)", FormatBytes(c.Bytes()), name, FormatBytes(v))
	return b.String()
}

// BudgetError is returned by Compute when the estimated peak memory exceeds
// the budget. It names the largest term and what would help.
type BudgetError struct {
	Cost   Cost
	Budget int64
	Stage  string // "before the laws" or "after the exact classes"
}

// ErrBudget is matched by errors.Is for every *BudgetError.
var ErrBudget = errors.New("distance: over the memory budget")

func (e *BudgetError) Is(target error) bool { return target == ErrBudget }

func (e *BudgetError) Error() string {
	name, v := e.Cost.Largest()
	help := "lower T, use sampled probes (package sample), split the horizon into layers (package wrap), or raise the budget (--mem, Options.MemBudget)"
	switch {
	case strings.HasPrefix(name, "pair matrices"):
		help = "for the exact (ε = 0) classes alone, --dry-run (distance.Plan) computes them without any pair matrix; otherwise " + help
	case strings.HasPrefix(name, "pair decisions"):
		help = "list fewer ε values (a bit per pair of classes and ε), " + help
	case strings.HasPrefix(name, "transport"):
		help = "ask for smaller ε values (pairs above the largest are settled by bounds, without transport problems), use fewer workers (--workers), " + help
	case strings.HasPrefix(name, "posterior DAGs"):
		help = "use fewer workers (--workers: each builds a DAG at a time), " + help
	case name == "family grouping":
		help = "use a smaller probe family (lower m or T, or sampled probes), or raise the budget (--mem, Options.MemBudget)"
	}
	return fmt.Sprintf("distance: estimated peak memory %s (%s) exceeds the budget %s; largest term: %s, %s; %s",
		FormatBytes(e.Cost.Bytes()), e.Stage, FormatBytes(e.Budget), name, FormatBytes(v), help)
}

// estimate returns the cost of a run over tree with the given class counts
// (nil: unknown, the histories are used and Known is false).
//
// The transport term counts the depths whose suffixes are shorter than
// boundsMinSuffix; the longer ones are added after the bounds pass (which
// settles many of their pairs and measures their laws' supports) unless
// the pass does not apply (TV, tensors).
func estimate(tree law.Tree, nS, famSize, distinct, workers int, classes []int, opt Options, fullLimit int64) Cost {
	allPairs := opt.AllPairs || opt.Tensor
	T := tree.T
	c := Cost{FamilySize: famSize, Distinct: distinct, Workers: workers, Histories: make([]int, T+1)}
	for t := range c.Histories {
		c.Histories[t] = tree.Count(t)
	}
	c.Known = classes != nil
	if c.Known {
		c.Classes = classes
	} else {
		c.Classes = c.Histories
	}
	leaves := int64(tree.Count(T))
	n := int64(tree.Len())
	w := int64(workers)
	c.Laws = w * (8*(int64(T+3)*leaves+n+int64(2*(T+1)*nS)) + n)
	c.Labels = 16 * n
	// Grouping: column index and member list per controller, and the
	// action-tree key of each distinct behaviour (a byte per internal
	// history).
	keyLen := n - leaves
	c.Family = 40*int64(famSize) + int64(distinct)*(keyLen+48)
	for t := 0; t < T; t++ {
		k := int64(c.Classes[t])
		c.Pairs += k * (k - 1) / 2
	}
	switch {
	case compact(opt) && c.Known:
		c.Decisions = len(decisionEps(opt.Eps))
		c.Matrix = decisionBytes(c.Classes, c.Decisions)
		if opt.Metric == W1 && !noPivots {
			c.Pivots = pivotCoordBytes(c.Classes, T, tree.NumObs, distinct)
		}
	case allPairs || c.Known:
		c.Matrix = 8 * c.Pairs * w
	}
	var deferred func(t int) bool
	if opt.Metric == W1 && !opt.Tensor {
		deferred = func(t int) bool { return tree.SuffixLen(t) >= boundsMinSuffix }
	}
	c.Transport = transportBytes(tree, c.Classes, deferred, nil, w, uniformGround(opt))
	if !opt.Tensor && (allPairs || c.Known) {
		// Like the pair term: counted once the representatives are known.
		c.Index = lawIndexEntryBytes(distinct) * lawIndexEntries(c.Classes[:T], distinct, opt.MemBudget)
	}
	if opt.Tensor {
		// Every distinct probe keeps its own matrices over all pairs.
		c.Matrix += 8 * c.Pairs * int64(distinct)
	}
	if fb := fullBytes(tree); !allPairs && !compact(opt) && fullLimit >= 0 && fb <= fullLimit {
		c.Full = fb
	}
	return c
}

// uniformGround reports whether the run's ground metric is uniform (W1
// only): its large transport problems then go to the product graph.
func uniformGround(opt Options) bool {
	if opt.Metric != W1 {
		return false
	}
	if opt.Ground == nil {
		return true // the discrete metric
	}
	_, err := ot.NewProductW1(opt.Ground, 0)
	return err == nil
}

// lawIndexEntries is the largest number of entries of the distances
// pass's law index: one per representative (classes per depth) and
// distinct probe, at most lawIndexLimit under the budget.
func lawIndexEntries(classes []int, probes int, budget int64) int64 {
	var n int64
	for _, c := range classes {
		n += int64(c)
	}
	return min(n*int64(max(probes, 1)), lawIndexLimit(probes, budget))
}

// transportBytes is Cost.Transport: (L/2)² entries per worker for the
// longest suffixes L at a depth with a pair that may need a transport
// problem: two classes or more, and, when settled is given, settled(t)
// false. With supp (the largest law support per depth, 0: unknown) the
// side of a residual problem is at most min(L/2, supp); the largest
// depth term counts.
//
// Under a uniform ground (uniform) a residual problem of more than
// denseArcs arcs is solved on the product graph of O^k, and so are the
// large window problems of the suffix-law bounds (over O^{k−1}): such a
// depth costs a dense problem of denseArcs entries, and the product
// graphs of its suffix length and the one below, kept per worker; they
// add up over the depths that need them.
func transportBytes(tree law.Tree, classes []int, settled func(t int) bool, supp []int, workers int64, uniform bool) int64 {
	var best, graphs int64
	for t := 0; t < tree.T; t++ {
		if classes[t] >= 2 && (settled == nil || !settled(t)) {
			side := int64(tree.SuffixLen(t)) / 2
			if supp != nil && supp[t] > 0 {
				side = min(side, int64(supp[t]))
			}
			if uniform && denseArcs >= 0 && side*side > denseArcs {
				k := tree.T - t
				graphs += ot.ProductBytes(tree.NumObs, k) + ot.ProductBytes(tree.NumObs, k-1)
				best = max(best, 8*denseArcs*workers)
				continue
			}
			best = max(best, 8*side*side*workers)
			if supp == nil && !uniform {
				break // later suffixes are shorter
			}
		}
	}
	return best + graphs*workers
}

// DefaultMemBudget returns the memory budget used when Options.MemBudget
// is 0: half of the memory this process may use, that is, of the smaller
// of the physical memory (MemTotal of /proc/meminfo) and the memory limit
// of its control group (cgroup v2 memory.max along the process's cgroup
// path, or cgroup v1 memory.limit_in_bytes), as set by containers, Slurm
// jobs or Kubernetes pods; 4 GiB where neither can be read.
func DefaultMemBudget() int64 {
	return defaultMemBudget("/")
}

// defaultMemBudget is DefaultMemBudget with the file system rooted at root
// (tests give a folder holding proc/ and sys/).
func defaultMemBudget(root string) int64 {
	total := memTotal(filepath.Join(root, "proc", "meminfo"))
	if lim := cgroupLimit(root); lim > 0 && (total <= 0 || lim < total) {
		total = lim
	}
	if total <= 0 {
		return 4 << 30
	}
	return total / 2
}

// memTotal reads MemTotal from a meminfo file, 0 when it cannot.
func memTotal(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			if kb, err := strconv.ParseInt(fields[1], 10, 64); err == nil && kb > 0 {
				return kb * 1024
			}
		}
	}
	return 0
}

// cgroupLimit returns the smallest memory limit of the process's control
// group and its ancestors, 0 when there is none or it cannot be read: for
// every folder from the process's cgroup (/proc/self/cgroup) up to the
// root, cgroup v2's memory.max ("max" means none) or cgroup v1's
// memory.limit_in_bytes of the memory controller (values near 2⁶³ mean
// none); then the files at the root of /sys/fs/cgroup (a container's own
// view).
func cgroupLimit(root string) int64 {
	var best int64
	take := func(path string) {
		data, err := os.ReadFile(path)
		if err != nil {
			return
		}
		v := strings.TrimSpace(string(data))
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 || n >= 1<<62 {
			return // "max", garbage or unlimited
		}
		if best == 0 || n < best {
			best = n
		}
	}
	base := filepath.Join(root, "sys", "fs", "cgroup")
	if data, err := os.ReadFile(filepath.Join(root, "proc", "self", "cgroup")); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			parts := strings.SplitN(line, ":", 3)
			if len(parts) != 3 {
				continue
			}
			sub, file := "", "memory.max" // v2: "0::/path"
			if parts[0] != "0" {
				if !slices.Contains(strings.Split(parts[1], ","), "memory") {
					continue
				}
				sub, file = "memory", "memory.limit_in_bytes" // v1: "N:memory:/path"
			}
			for dir := filepath.Clean("/" + parts[2]); ; dir = filepath.Dir(dir) {
				take(filepath.Join(base, sub, dir, file))
				if dir == "/" {
					break
				}
			}
		}
	}
	take(filepath.Join(base, "memory.max"))
	take(filepath.Join(base, "memory", "memory.limit_in_bytes"))
	return best
}

// ParseBytes reads a memory size such as "8G", "512MiB", "1.5GB" or a
// plain number of bytes. Units are powers of 1024.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "IB"), "B")
	mult := 1.0
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || !(v > 0) {
		return 0, fmt.Errorf("distance: %q is not a memory size (e.g. 8G, 512M, 1.5GiB)", s)
	}
	return int64(v * mult), nil
}

// FormatBytes prints a byte count with a binary unit (e.g. "1.5 GiB").
func FormatBytes(b int64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	div, exp := int64(unit), 0
	for n := b / unit; n >= unit && exp < 4; n /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), "KMGTP"[exp])
}
