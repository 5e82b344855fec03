package distance

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/randmodel"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// gridModel returns a random model whose probabilities are multiples of
// 1/2 or 1/3 with many zeros: equal laws, impossible histories and tied
// distances are common, which is what the class path must get right.
func gridModel(seed uint64, nS, nA, nO int) *pomdp.Model {
	rng := rand.New(rand.NewPCG(seed, 11))
	row := func(n int) []float64 {
		r := make([]float64, n)
		k := 1 + rng.IntN(min(n, 3))
		for _, i := range rng.Perm(n)[:k] {
			r[i] = 1 / float64(k)
		}
		return r
	}
	d := randmodel.Dense(fmt.Sprint("grid-", seed), nS, nA, nO, row)
	d.B0 = row(nS)
	return pomdp.Must(pomdp.New(d))
}

// TestClassesMatchAllPairs checks Compute's class path against the
// all-histories reference (Options.AllPairs) on random models: the same
// greedy partitions label for label (class order and ties included) at
// every ε of a grid that contains every distance value, the same
// distances for every history pair, stand-in counts and maxima.
func TestClassesMatchAllPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	compared := 0
	for trial := 0; trial < 400; trial++ {
		nS, nA, nO := 2+rng.IntN(4), 1+rng.IntN(3), 2+rng.IntN(2)
		T := 2 + rng.IntN(3)
		m := gridModel(uint64(trial), nS, nA, nO)
		kind, mem := fsc.KindStationary, 1+rng.IntN(2)
		if trial%5 == 4 {
			kind, mem = fsc.KindClock, 1
		}
		fam, err := fsc.New(kind, nA, nO, mem, T, fsc.Options{Limit: 5000})
		if err != nil {
			continue // family too large for a quick test
		}
		opt := Options{Metric: Metric(trial % 2), Convention: law.Convention(trial / 2 % 2), Workers: 1 + trial%3}
		if trial%7 == 0 {
			opt.Ground = ot.Ordered(nO)
		}
		name := fmt.Sprintf("trial %d (%s, %v, T=%d, %v, %v)", trial, m.Name, fam, T, opt.Metric, opt.Convention)
		got, err := Compute(context.Background(), m, fam, T, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ref := opt
		ref.AllPairs = true
		want, err := Compute(context.Background(), m, fam, T, ref)
		if err != nil {
			t.Fatalf("%s: reference: %v", name, err)
		}
		if got.StandIns != want.StandIns || got.Distinct != want.Distinct || got.FamilySize != want.FamilySize {
			t.Fatalf("%s: stand-ins/distinct/family %d/%d/%d, reference %d/%d/%d", name,
				got.StandIns, got.Distinct, got.FamilySize, want.StandIns, want.Distinct, want.FamilySize)
		}
		// Every history pair: the class distance is the reference distance.
		grid := []float64{0}
		for tt := 0; tt < T; tt++ {
			n := got.Tree.Count(tt)
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					g, w := got.At(tt, i, j), want.D[tt].At(i, j)
					if math.Abs(g-w) > 1e-11 {
						t.Fatalf("%s: d(%d, %d) at depth %d = %v, reference %v", name, i, j, tt, g, w)
					}
					if got.D[tt].At(i, j) != g {
						t.Fatalf("%s: D and At differ at depth %d (%d, %d)", name, tt, i, j)
					}
					grid = append(grid, w)
				}
			}
		}
		slices.Sort(grid)
		grid = slices.Compact(grid)
		for _, eps := range grid {
			p, q := got.Partition(eps), partition.Greedy(want.D, eps)
			for tt := range p.Labels {
				if !slices.Equal(p.Labels[tt], q.Labels[tt]) {
					t.Fatalf("%s: ε = %v, depth %d: classes %v, reference %v", name, eps, tt, p.Labels[tt], q.Labels[tt])
				}
			}
			compared++
		}
		// Decision mode: asked for a few ε, the partitions at and below the
		// largest are the same, entries up to it exact, entries above it
		// still above it.
		asked := []float64{grid[rng.IntN(len(grid))], grid[rng.IntN(len(grid))] * 0.5}
		dopt := opt
		dopt.Eps = asked
		dec, err := Compute(context.Background(), m, fam, T, dopt)
		if err != nil {
			t.Fatalf("%s: decision mode: %v", name, err)
		}
		top := slices.Max(asked)
		for _, eps := range append(asked, 0, top/3) {
			p, q := dec.Partition(eps), partition.Greedy(want.D, eps)
			for tt := range p.Labels {
				if !slices.Equal(p.Labels[tt], q.Labels[tt]) {
					t.Fatalf("%s: decision mode %v, ε = %v, depth %d: classes %v, reference %v", name, asked, eps, tt, p.Labels[tt], q.Labels[tt])
				}
			}
		}
		for tt := 0; tt < T; tt++ {
			n := dec.Tree.Count(tt)
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					g, w := dec.At(tt, i, j), want.D[tt].At(i, j)
					if (w <= dec.Cap && math.Abs(g-w) > 1e-11) || (w > dec.Cap && !(g > dec.Cap && g <= w+1e-11)) {
						t.Fatalf("%s: decision mode up to %v: d(%d, %d) at depth %d = %v, reference %v", name, dec.Cap, i, j, tt, g, w)
					}
				}
			}
		}
		if math.Abs(got.MaxDistance()-want.MaxDistance()) > 1e-11 {
			t.Fatalf("%s: max distance %v, reference %v", name, got.MaxDistance(), want.MaxDistance())
		}
		// The class path's ε = 0 classes are Exact's.
		// The bounds pass applied at every depth (it normally runs only on
		// long suffixes): the same distances and partitions.
		func() {
			defer func(v int) { boundsMinSuffix = v }(boundsMinSuffix)
			boundsMinSuffix = 1
			for _, eps := range [][]float64{nil, asked} {
				bopt := opt
				bopt.Eps = eps
				bd, err := Compute(context.Background(), m, fam, T, bopt)
				if err != nil {
					t.Fatalf("%s: bounds pass: %v", name, err)
				}
				top := bd.Cap
				for tt := 0; tt < T; tt++ {
					n := bd.Tree.Count(tt)
					for i := 0; i < n; i++ {
						for j := i + 1; j < n; j++ {
							g, w := bd.At(tt, i, j), want.D[tt].At(i, j)
							if (w <= top && math.Abs(g-w) > 1e-11) || (w > top && !(g > top && g <= w+1e-11)) {
								t.Fatalf("%s: bounds pass (ε %v): d(%d, %d) at depth %d = %v, reference %v", name, eps, i, j, tt, g, w)
							}
						}
					}
				}
				for _, e := range append(eps, 0) {
					p, q := bd.Partition(e), partition.Greedy(want.D, e)
					for tt := range p.Labels {
						if !slices.Equal(p.Labels[tt], q.Labels[tt]) {
							t.Fatalf("%s: bounds pass, ε = %v, depth %d: classes %v, reference %v", name, e, tt, p.Labels[tt], q.Labels[tt])
						}
					}
				}
			}
		}()
		ex, err := Exact(context.Background(), m, fam, T, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !ex.Partition.Equal(got.Classes) {
			t.Fatalf("%s: classes %v, Exact %v", name, got.Classes, ex.Partition)
		}
	}
	if compared < 2000 {
		t.Fatalf("only %d partitions compared", compared)
	}
	t.Logf("%d partitions compared", compared)
}

// TestClassesBenchmarks compares the two paths on the paper's models.
func TestClassesBenchmarks(t *testing.T) {
	for _, tc := range []struct {
		model string
		kind  fsc.Kind
		m, T  int
	}{
		{"tiger", fsc.KindStationary, 2, 5},
		{"gridworld:3", fsc.KindStationary, 2, 2},
		{"gridworld:3", fsc.KindStationary, 1, 3},
		{"witness", fsc.KindStationary, 1, 3},
		{"rocksample:4:4", fsc.KindStationary, 1, 2},
	} {
		got := compute(t, tc.model, tc.kind, tc.m, tc.T, Options{})
		want := compute(t, tc.model, tc.kind, tc.m, tc.T, Options{AllPairs: true})
		for _, eps := range []float64{0, 0.1, 0.2, 0.3, 0.49, 0.5, 0.6, 1} {
			p, q := got.Partition(eps), want.Partition(eps)
			for tt := range p.Labels {
				if !slices.Equal(p.Labels[tt], q.Labels[tt]) {
					t.Fatalf("%s %v m=%d T=%d ε=%v depth %d: %v, reference %v", tc.model, tc.kind, tc.m, tc.T, eps, tt, p.Labels[tt], q.Labels[tt])
				}
			}
		}
	}
}

// Partition above the decided range of a decision-mode run panics with
// a message saying what to do.
func TestDecisionRange(t *testing.T) {
	r := compute(t, "tiger", fsc.KindStationary, 1, 3, Options{Eps: []float64{0.1, 0.3}})
	if r.Partition(0.3).Total() == 0 {
		t.Fatal("no classes")
	}
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "add 0.5 to Options.Eps") {
			t.Fatalf("recovered %q", msg)
		}
	}()
	r.Partition(0.5)
}

// TestBudget checks the pre-flight refusal: a budget below the estimate
// is refused before any law is computed, naming the largest term.
func TestBudget(t *testing.T) {
	b := lookup(t, "tiger")
	fam, err := fsc.NewStationary(3, 2, 2, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compute(context.Background(), b.Model, fam, 13, Options{MemBudget: 64 << 20, AllPairs: true})
	var be *BudgetError
	if !errorsAs(err, &be) {
		t.Fatalf("64 MiB budget: got %v, want a *BudgetError", err)
	}
	if name, _ := be.Cost.Largest(); name != "pair matrices over histories" {
		t.Errorf("largest term %q, want the pair matrices", name)
	}
	if be.Stage != "before the laws" {
		t.Errorf("refused %s, want before the laws", be.Stage)
	}
	for _, want := range []string{"exceeds the budget 64.0 MiB", "largest term: pair matrices over histories", "--dry-run", "--mem"} {
		if !contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	// The same run fits the default budget and reports its estimate.
	r, err := Compute(context.Background(), b.Model, fam, 8, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Cost.Known || r.Cost.Bytes() <= 0 || r.Cost.Pairs == 0 {
		t.Errorf("cost %+v", r.Cost)
	}
	if got := len(r.Phases); got != 4 {
		t.Errorf("phases %v, want probes, classes, distances, expand", r.Phases)
	}
}

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{{"8G", 8 << 30}, {"512M", 512 << 20}, {"1.5GiB", 3 << 29}, {"100", 100}, {"2kb", 2048}} {
		got, err := ParseBytes(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "G", "-1G", "x"} {
		if _, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q) accepted", bad)
		}
	}
}

func errorsAs(err error, target **BudgetError) bool {
	be, ok := err.(*BudgetError)
	if ok {
		*target = be
	}
	return ok
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
