package distance

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
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
		opt := Options{Workers: 1 + trial%3}
		if trial%3 == 0 {
			opt.Eps = []float64{0, 0.1 * float64(trial%4), 0.5}
			// Every other run with ε in decision mode, where the pivot
			// pass applies.
			opt.Compact = trial%2 == 0
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
	for _, r := range runs {
		got, err := Compute(context.Background(), r.m, r.fam, r.T, r.opt)
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		for _, off := range []struct {
			name string
			flag *bool
		}{{"repeats skipped", &noLawIndex}, {"tree upper bounds", &noTreeUpper}, {"early stops", &noEarlyStop}, {"two-and-many closed form", &noTwoMany}, {"pivot pass", &noPivots}} {
			*off.flag = true
			want, err := Compute(context.Background(), r.m, r.fam, r.T, r.opt)
			*off.flag = false
			if err != nil {
				t.Fatalf("%s: without %s: %v", r.name, off.name, err)
			}
			sameDecisions(t, r.name+", "+off.name, got, want, r.opt.Eps)
			if got.Decisions != nil {
				sameBits(t, r.name+", "+off.name, got.Decisions, want.Decisions)
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
	x := newLawIndex(1, 3)
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
	if got := lawIndexEntries([]int{3, 5}, 4); got != 32 {
		t.Errorf("entries of 8 representatives and 4 probes: %d", got)
	}
	if got := lawIndexEntries([]int{1 << 20, 5}, 4); got != defaultLawIndexLimit {
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
	if c := estimate(tree, 2, 147, 75, 2, classes, Options{}, 0); c.Index != lawIndexBytes*63*75 {
		t.Errorf("63 representatives, 75 probes: index term %d", c.Index)
	}
	if c := estimate(tree, 2, 147, 75, 2, classes, Options{Tensor: true}, 0); c.Index != 0 {
		t.Errorf("tensor: index term %d", c.Index)
	}
}
