package distance

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/pomdpq/pomdpq/internal/randmodel"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// twinActionModel returns a random model with nA actions whose actions
// 1 … nA−1 are copies of action 0: every controller of a stationary
// m = 1 family gives every history the same law.
func twinActionModel(seed uint64, nS, nA, nO int) *pomdp.Model {
	rng := rand.New(rand.NewPCG(seed, 5))
	d := randmodel.Dense(fmt.Sprint("twins-", seed), nS, 1, nO, randmodel.Sparse(rng, 0.3))
	for a := 1; a < nA; a++ {
		d.Actions = append(d.Actions, fmt.Sprint("a", a))
		d.T = append(d.T, d.T[0])
		d.Z = append(d.Z, d.Z[0])
	}
	d.B0 = randmodel.Sparse(rng, 0.3)(nS)
	return pomdp.Must(pomdp.New(d))
}

// A probe that meets two laws an earlier probe already compared solves no
// transport problem: with three copies of one action, the family's three
// controllers solve exactly what the first alone solves.
func TestRepeatedLawsSolvedOnce(t *testing.T) {
	const T = 4
	for seed := uint64(1); seed <= 4; seed++ {
		one := twinActionModel(seed, 4, 1, 3)
		three := twinActionModel(seed, 4, 3, 3)
		solves := func(m *pomdp.Model) int64 {
			fam, err := fsc.New(fsc.KindStationary, m.NumActions(), m.NumObservations(), 1, T, fsc.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := Compute(context.Background(), m, fam, T, Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			return r.Solves
		}
		want := solves(one)
		if want == 0 {
			t.Fatalf("seed %d: no transport problem at all: the test needs some", seed)
		}
		if got := solves(three); got != want {
			t.Errorf("seed %d: three identical probes solved %d transport problems, one alone %d", seed, got, want)
		}
	}
}

// sameDecisions compares two results of one run: the same partitions at
// every ε of eps and of a grid through every distance value up to the
// decided range, and the same distances (to rounding) up to it.
func sameDecisions(t *testing.T, name string, got, want *Result, eps []float64) {
	t.Helper()
	capped := math.Min(got.Cap, want.Cap)
	grid := slices.Clone(eps)
	for tt, d := range want.ClassD {
		g := got.ClassD[tt]
		if len(g.Data) != len(d.Data) {
			t.Fatalf("%s: depth %d: %d pairs, want %d", name, tt, len(g.Data), len(d.Data))
		}
		for i, w := range d.Data {
			v := g.Data[i]
			switch {
			case w > capped || v > capped:
				if !(w > capped && v > capped) {
					t.Fatalf("%s: depth %d pair %d: %v, want %v (decided range %v)", name, tt, i, v, w, capped)
				}
			case math.Abs(v-w) > 1e-12*math.Max(1, w):
				t.Fatalf("%s: depth %d pair %d: %v, want %v", name, tt, i, v, w)
			default:
				grid = append(grid, w, math.Nextafter(w+partition.ZeroTol, math.Inf(1)))
			}
		}
	}
	for _, e := range grid {
		if e+partition.ZeroTol > capped {
			continue
		}
		pg, pw := got.Partition(e), want.Partition(e)
		for tt := range pw.Labels {
			if !slices.Equal(pg.Labels[tt], pw.Labels[tt]) {
				t.Fatalf("%s: ε = %v, depth %d: labels %v, want %v", name, e, tt, pg.Labels[tt], pw.Labels[tt])
			}
		}
	}
}

// The exact W1 solve is the oracle of every shortcut of the distances
// phase: on random models (many equal laws and tied distances) and
// built-ins, in exact and decision mode (compact: a bit per pair and ε),
// Compute with the shortcuts gives the distances, partitions and decision
// bits of Compute with each shortcut turned off.
func TestShortcutsKeepDecisions(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 13))
	type run struct {
		name string
		m    *pomdp.Model
		fam  fsc.Family
		T    int
		opt  Options
	}
	var runs []run
	for trial := 0; trial < 120; trial++ {
		nS, nA, nO := 2+rng.IntN(4), 1+rng.IntN(3), 2+rng.IntN(3)
		T := 2 + rng.IntN(3)
		m := gridModel(uint64(100+trial), nS, nA, nO)
		kind, mem := fsc.KindStationary, 1+rng.IntN(2)
		if trial%5 == 4 {
			kind, mem = fsc.KindClock, 1
		}
		fam, err := fsc.New(kind, nA, nO, mem, T, fsc.Options{Limit: 3000})
		if err != nil {
			continue
		}
		opt := Options{Workers: 1 + trial%3, Convention: law.Convention(trial / 2 % 2)}
		if trial%3 == 0 || trial%4 == 1 {
			opt.Eps = []float64{0, 0.1 * float64(trial%4), 0.5}
			// Every other run with ε in decision mode, where the pivot
			// pass applies.
			opt.Compact = trial%2 == 0
		}
		if trial%6 == 5 {
			opt.Metric = TV
		}
		if trial%7 == 0 {
			opt.Ground = ot.Ordered(nO)
		}
		runs = append(runs, run{fmt.Sprintf("trial %d (%s, %v, T=%d)", trial, m.Name, fam, T), m, fam, T, opt})
	}
	for _, b := range []struct {
		name string
		m, T int
		eps  []float64
	}{{"tiger", 2, 6, []float64{0, 0.3, 0.5}}, {"tiger", 1, 8, nil}, {"gridworld:3", 1, 3, []float64{0, 0.1, 0.3}}, {"witness", 2, 3, nil}} {
		bm := lookup(t, b.name)
		fam, err := fsc.New(fsc.KindStationary, bm.Model.NumActions(), bm.Model.NumObservations(), b.m, b.T, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, run{fmt.Sprintf("%s m=%d T=%d", b.name, b.m, b.T), bm.Model, fam, b.T, Options{Ground: bm.Ground, Eps: b.eps}})
	}
	defer func(v int) { pivotMinClasses = v }(pivotMinClasses)
	pivotMinClasses = 2 // the pivot pass on every depth of two classes or more
	defer func(v int) { pivotMinClasses = v }(pivotMinClasses)
	pivotMinClasses = 2 // the pivot pass on every depth of two classes or more
	for _, r := range runs {
		got, err := Compute(context.Background(), r.m, r.fam, r.T, r.opt)
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		// With listed ε, the compact layout too (brackets apply there
		// only).
		var comp *Result
		if len(r.opt.Eps) > 0 {
			copt := r.opt
			copt.Compact = true
			if comp, err = Compute(context.Background(), r.m, r.fam, r.T, copt); err != nil {
				t.Fatalf("%s: compact: %v", r.name, err)
			}
			sameCompact(t, r.name+", compact", comp, got, r.opt.Eps)
		}
		for _, off := range []struct {
			name string
			flag *bool
		}{{"repeats skipped", &noLawIndex}, {"probe sets", &noProbeSets}, {"tree upper bounds", &noTreeUpper}, {"early stops", &noEarlyStop},
			{"two-and-many closed form", &noTwoMany}, {"brackets", &noBrackets}, {"pivot pass", &noPivots}, {"suffix-law bounds", &noSeqBounds}} {
			*off.flag = true
			want, err := Compute(context.Background(), r.m, r.fam, r.T, r.opt)
			*off.flag = false
			if err != nil {
				t.Fatalf("%s: without %s: %v", r.name, off.name, err)
			}
			sameDecisions(t, r.name+", "+off.name, got, want, r.opt.Eps)
			if comp != nil {
				samePartitions(t, r.name+", compact, "+off.name, comp, want, r.opt.Eps)
				// The compact run without the shortcut (the pivot pass
				// and the brackets apply there only): the same bits.
				copt := r.opt
				copt.Compact = true
				*off.flag = true
				wantC, err := Compute(context.Background(), r.m, r.fam, r.T, copt)
				*off.flag = false
				if err != nil {
					t.Fatalf("%s: compact without %s: %v", r.name, off.name, err)
				}
				sameBits(t, r.name+", compact, "+off.name, comp.Decisions, wantC.Decisions)
			}
		}
	}
}

// samePartitions compares the partitions of two runs at the listed ε,
// label for label.
func samePartitions(t *testing.T, name string, got, want *Result, eps []float64) {
	t.Helper()
	for _, e := range eps {
		p, q := got.Partition(e), want.Partition(e)
		for d := range q.Labels {
			if !slices.Equal(p.Labels[d], q.Labels[d]) {
				t.Fatalf("%s: ε = %v, depth %d: labels %v, want %v", name, e, d, p.Labels[d], q.Labels[d])
			}
		}
	}
}

// treeUpper is an upper bound on the exact W1 (the solver is the oracle),
// and exact when two laws differ only in their last observation's
// conditional law under a uniform ground.
func TestTreeUpperBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 77))
	for trial := 0; trial < 600; trial++ {
		nO, k := 2+rng.IntN(3), 1+rng.IntN(4)
		g := ot.Discrete(nO)
		if trial%3 == 1 {
			g = ot.Ordered(nO)
		}
		L := ot.SeqLen(nO, k)
		row := randmodel.Sparse(rng, 0.4)
		p, q := row(L), row(L)
		if trial%4 == 3 {
			// Same prefixes' masses, different last observations.
			for x := 0; x < L; x += nO {
				s := 0.0
				for _, v := range p[x : x+nO] {
					s += v
				}
				c := row(nO)
				for o := range nO {
					q[x+o] = s * c[o]
				}
			}
		}
		tr, err := law.NewTree(nO, k)
		if err != nil {
			t.Fatal(err)
		}
		pw := newPairWorker(g, tr, W1)
		ub := pw.treeUpper(p, q, k)
		w, err := ot.SeqW1(g, k, p, q)
		if err != nil {
			t.Fatal(err)
		}
		if ub < w-1e-12 {
			t.Fatalf("trial %d (|O|=%d, k=%d): upper bound %v below W1 %v", trial, nO, k, ub, w)
		}
		if trial%4 == 3 && trial%3 != 1 && math.Abs(ub-w) > 1e-12 {
			t.Fatalf("trial %d (|O|=%d, k=%d): laws differ in the last position only: bound %v, W1 %v", trial, nO, k, ub, w)
		}
	}
}

// The law index names the first probe of each law, stops registering at
// its limit (a law met afterwards is its probe's own), and its worst case
// is in the estimate.
func TestLawIndex(t *testing.T) {
	laws := []float64{0.5, 0.5, 1, 0, 0.5, 0.5, 0, 1}
	x := newLawIndex(1, 1000, 3)
	var s lawScratch
	if got := x.canon(&s, 7, 0, laws, []int{0, 1}, 2); !slices.Equal(got, []int32{7, 7}) {
		t.Fatalf("first probe: %v", got)
	}
	// Representative 0 meets probe 7's law again, representative 1 a new
	// one.
	if got := x.canon(&s, 9, 0, laws, []int{2, 3}, 2); !slices.Equal(got, []int32{7, 9}) {
		t.Fatalf("second probe: %v", got)
	}
	// The index is full (3 entries): representative 0's law keeps its
	// probe, representative 1's unseen law (0.5, 0.5) is not registered.
	if got := x.canon(&s, 11, 0, laws, []int{0, 2}, 2); !slices.Equal(got, []int32{7, 11}) {
		t.Fatalf("full index: %v", got)
	}
	if got := x.canon(&s, 12, 0, laws, []int{0, 2}, 2); !slices.Equal(got, []int32{7, 12}) {
		t.Fatalf("full index, again: %v", got)
	}
	if got := lawIndexEntries([]int{3, 5}, 4, 0); got != 32 {
		t.Errorf("entries of 8 representatives and 4 probes: %d", got)
	}
	if got := lawIndexEntries([]int{1 << 24, 5}, 4, 0); got != lawIndexLimit(4, 0) {
		t.Errorf("entries past the limit: %d", got)
	}
}

// small's two-and-many closed form against the network simplex: residual
// problems with two atoms on one side and up to twelve on the other,
// under discrete, ordered and random metrics.
func TestSmallTwoMany(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 5))
	counted := 0
	for trial := 0; trial < 2000; trial++ {
		nO, k := 2+rng.IntN(3), 2+rng.IntN(2)
		g := ot.Discrete(nO)
		switch trial % 3 {
		case 1:
			g = ot.Ordered(nO)
		case 2:
			g = randGround(rng, nO)
		}
		tree, err := law.NewTree(nO, k)
		if err != nil {
			t.Fatal(err)
		}
		pw := newPairWorker(g, tree, W1)
		L := ot.SeqLen(nO, k)
		// p has two atoms, q many (or the other way): disjoint supports.
		perm := rng.Perm(L)
		many := 3 + rng.IntN(min(10, L-2))
		p, q := make([]float64, L), make([]float64, L)
		for _, x := range perm[:2] {
			p[x] = rng.Float64() + 0.05
		}
		for _, x := range perm[2 : 2+min(many, L-2)] {
			q[x] = rng.Float64() + 0.05
		}
		normalize(p)
		normalize(q)
		if trial%2 == 1 {
			p, q = q, p
		}
		got, ok := pw.small(p, q, k)
		if !ok {
			t.Fatalf("trial %d: two-and-many problem not taken", trial)
		}
		want, err := ot.SeqW1(g, k, p, q)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-12*math.Max(1, want) {
			t.Fatalf("trial %d (|O| = %d, k = %d): small %v, solver %v\np %v\nq %v", trial, nO, k, got, want, p, q)
		}
		counted++
	}
	if counted < 1000 {
		t.Fatalf("only %d trials", counted)
	}
}

func normalize(v []float64) {
	s := 0.0
	for _, x := range v {
		s += x
	}
	for i := range v {
		v[i] /= s
	}
}

// randGround returns the metric of random points on a line (distinct
// points: a metric, not a pseudometric).
func randGround(rng *rand.Rand, n int) ot.Ground {
	pts := make([]float64, n)
	for i := range pts {
		pts[i] = rng.Float64()
	}
	g := make(ot.Ground, n)
	for i := range g {
		g[i] = make([]float64, n)
		for j := range g[i] {
			g[i][j] = math.Abs(pts[i] - pts[j])
			if i != j && g[i][j] == 0 {
				g[i][j] = 1e-3
			}
		}
	}
	return g
}

// The law index is counted, like the pair matrices, once the class
// representatives are known, and not for tensors (no index).
func TestEstimateLawIndex(t *testing.T) {
	tree, err := law.NewTree(2, 6)
	if err != nil {
		t.Fatal(err)
	}
	classes := []int{1, 2, 4, 8, 16, 32, 1}
	if c := estimate(tree, 2, 147, 75, 2, nil, Options{}, 0); c.Index != 0 {
		t.Errorf("before the classes: index term %d", c.Index)
	}
	if c := estimate(tree, 2, 147, 75, 2, classes, Options{}, 0); c.Index != lawIndexEntryBytes(75)*63*75 {
		t.Errorf("63 representatives, 75 probes: index term %d", c.Index)
	}
	if c := estimate(tree, 2, 147, 75, 2, classes, Options{Tensor: true}, 0); c.Index != 0 {
		t.Errorf("tensor: index term %d", c.Index)
	}
}

// The probe sets of the law index and the brackets of a compact run cut
// the transport problems of Tiger m ≤ 2 at least in half against the
// pair loop without them (today's main solved them all), with the same
// partitions at the listed ε.
func TestSetsAndBracketsCutSolves(t *testing.T) {
	eps := []float64{0, 0.3, 0.5}
	run := func(off bool) *Result {
		noProbeSets, noBrackets = off, off
		defer func() { noProbeSets, noBrackets = false, false }()
		return compute(t, "tiger", fsc.KindStationary, 2, 10, Options{Eps: eps, Compact: true, Workers: 1})
	}
	got, want := run(false), run(true)
	samePartitions(t, "tiger m ≤ 2, T = 10", got, want, eps)
	t.Logf("transport problems: %d, without probe sets and brackets %d", got.Solves, want.Solves)
	if want.Solves == 0 || 2*got.Solves > want.Solves {
		t.Errorf("transport problems: %d, without probe sets and brackets %d: want at most half", got.Solves, want.Solves)
	}
}

// canon's probe sets: a probe meets two laws together that two different
// probes met first; a third probe with both laws finds the second in both
// sets (it registered them together), the second found nothing common.
func TestLawIndexProbeSets(t *testing.T) {
	// Laws of two representatives (2 atoms each) under four probes.
	A, X, B, Y := []float64{1, 0}, []float64{0, 1}, []float64{0.5, 0.5}, []float64{0.25, 0.75}
	probes := [][]float64{
		slices.Concat(A, X), // probe 0: A first
		slices.Concat(Y, B), // probe 1: B first
		slices.Concat(A, B), // probe 2: A and B together, first time
		slices.Concat(A, B), // probe 3: as probe 2
	}
	x := newLawIndex(1, len(probes), 100)
	var s lawScratch
	for k, laws := range probes {
		if ids := x.canon(&s, k, 0, laws, []int{0, 1}, 2); ids != nil {
			t.Fatalf("probe %d: first probes %v returned with probe sets", k, ids)
		}
		if met, want := s.metBefore(0, 1, x.words), k == 3; met != want {
			t.Errorf("probe %d: met before %v, want %v", k, met, want)
		}
	}
	if got := setWords(maxSetProbes + 1); got != 0 {
		t.Errorf("%d probes: %d words of probe sets, want none", maxSetProbes+1, got)
	}
}

// Under a tight budget the law index shrinks to a quarter of it instead
// of refusing the run: Tiger m ≤ 2, T = 13 in decision mode estimated
// 31.5 MiB with an index of 12.4 MiB, over a 30 MiB budget; now the index
// is counted at 7.5 MiB at most, the run fits and its partitions are
// those of the run without a budget.
func TestLawIndexUnderBudget(t *testing.T) {
	eps := []float64{0, 0.5}
	const budget = 30 << 20
	runtime.GC() // the live heap counts in the estimate
	// Two workers: the estimate has per-worker terms (suffix-law buffers),
	// and the budget boundary is pinned for that count (at 8 workers the
	// run needs 38.3 MiB).
	got := compute(t, "tiger", fsc.KindStationary, 2, 13, Options{Eps: eps, Compact: true, MemBudget: budget, Workers: 2})
	if got.Cost.Index > budget/4 || got.Cost.Index == 0 {
		t.Errorf("law index term %d bytes under a budget of %d", got.Cost.Index, budget)
	}
	want := compute(t, "tiger", fsc.KindStationary, 2, 13, Options{Eps: eps, Compact: true, MemBudget: -1, Workers: 2})
	samePartitions(t, "tiger m ≤ 2, T = 13, 30 MiB", got, want, eps)
	if want.Cost.Index <= budget/4 {
		t.Errorf("law index term %d bytes without a budget: the test needs more than a quarter of %d", want.Cost.Index, budget)
	}
}
