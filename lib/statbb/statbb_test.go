package statbb

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/benchtest"
	"github.com/pomdpq/pomdpq/internal/randmodel"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// lookup is benchtest.Lookup.
var lookup = benchtest.Lookup

// randomModel draws a small model whose rows have about 40 % zeros, so
// that impossible histories (and their stand-ins) occur.
func randomModel(seed uint64, nS, nA, nO int) *pomdp.Model {
	return pomdp.Must(pomdp.New(randmodel.SparseDense(seed, 17, 0.4, nS, nA, nO)))
}

// enumerate is the independent oracle: lib/distance over every controller
// of fsc.Stationary(m).
func enumerate(t testing.TB, m *pomdp.Model, g ot.Ground, M, T int, conv law.Convention) *distance.Result {
	t.Helper()
	fam, err := fsc.NewStationary(m.NumActions(), m.NumObservations(), M, fsc.Options{Limit: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	res, err := distance.Compute(context.Background(), m, fam, T, distance.Options{Ground: g, Convention: conv, MemBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// compare checks the exact values (and upper bounds) against the
// oracle's, and the decision-mode partitions against the oracle's at
// every ε of eps plus every distance the oracle found (up to eight), so
// that brackets are tested at their boundaries.
func compare(t *testing.T, m *pomdp.Model, g ot.Ground, M, T int, conv law.Convention, eps []float64) (want *distance.Result) {
	t.Helper()
	want = enumerate(t, m, g, M, T, conv)
	got, err := Compute(context.Background(), m, M, T, Options{Ground: g, Convention: conv})
	if err != nil {
		t.Fatal(err)
	}
	for d := 0; d < T; d++ {
		n := want.Tree.Count(d)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				w, v := want.At(d, i, j), got.Lower[d].At(i, j)
				if math.Abs(w-v) > 1e-9 {
					t.Fatalf("%s m=%d T=%d %v: d(depth %d: %v, %v) = %.12g, enumeration %.12g", m.Name, M, T, conv, d,
						want.Tree.History(d, i), want.Tree.History(d, j), v, w)
				}
				if u := got.Upper[d].At(i, j); u < w-1e-9 {
					t.Fatalf("%s m=%d T=%d %v: upper bound %.12g below the enumeration's %.12g", m.Name, M, T, conv, u, w)
				}
			}
		}
	}
	eps = append([]float64(nil), eps...)
	for d := 0; d < T; d++ {
		for _, v := range want.Full()[d].Data {
			if len(eps) < 8 && v > 0 && !containsNear(eps, v) {
				eps = append(eps, v)
			}
		}
	}
	dec, err := Compute(context.Background(), m, M, T, Options{Ground: g, Convention: conv, Eps: eps, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eps {
		a, b := want.Partition(e), dec.Partition(e)
		if fmt.Sprint(a.Labels) != fmt.Sprint(b.Labels) {
			t.Fatalf("%s m=%d T=%d %v ε=%g: decision partition %v, enumeration %v", m.Name, M, T, conv, e, b.Labels, a.Labels)
		}
	}
	return want
}

func containsNear(v []float64, x float64) bool {
	for _, y := range v {
		if math.Abs(x-y) < 1e-12 {
			return true
		}
	}
	return false
}

// TestAgainstEnumeration cross-checks Tiger, GridWorld and Witness under
// both stand-in conventions.
func TestAgainstEnumeration(t *testing.T) {
	convs := []law.Convention{law.UniformStandIn, law.PointMassStandIn}
	cases := []struct {
		spec string
		M, T int
		eps  []float64
	}{
		{"tiger", 1, 3, []float64{0, 0.1, 0.3}},
		{"tiger", 2, 2, []float64{0, 0.1, 0.3, 0.5}},
		{"tiger", 2, 4, []float64{0, 0.1, 0.3, 0.5, 1}},
		{"tiger", 3, 3, []float64{0, 0.3, 0.5}},
		{"tiger:0.7:0.2", 2, 3, []float64{0, 0.2, 0.4}},
		{"gridworld:3", 2, 2, []float64{0, 0.25, 0.5}},
		{"gridworld:3", 1, 3, []float64{0, 0.25, 0.5}},
		{"witness", 2, 2, []float64{0, 0.25}},
	}
	for _, c := range cases {
		for _, conv := range convs {
			t.Run(fmt.Sprintf("%s/m=%d/T=%d/%v", c.spec, c.M, c.T, conv), func(t *testing.T) {
				b := lookup(t, c.spec)
				compare(t, b.Model, b.Ground, c.M, c.T, conv, c.eps)
			})
		}
	}
}

// TestRandomModels cross-checks 100 seeded sparse random models
// (impossible histories included) under both conventions, m ≤ 2 and, for
// a fifth of them, m ≤ 3.
func TestRandomModels(t *testing.T) {
	withStandIns := 0
	for seed := uint64(1); seed <= 100; seed++ {
		nS, nA, nO, T, M := 2+int(seed%3), 2, 2, 3, 2
		switch {
		case seed%5 == 0:
			M, T = 3, 2
		case seed%7 == 0:
			nO, T = 3, 2
		case seed%11 == 0:
			T = 4
		}
		m := randomModel(seed, nS, nA, nO)
		conv := law.Convention(seed % 2)
		t.Run(fmt.Sprintf("seed=%d/m=%d/T=%d/%v", seed, M, T, conv), func(t *testing.T) {
			if compare(t, m, nil, M, T, conv, []float64{0, 0.1, 0.3}).StandIns > 0 {
				withStandIns++
			}
		})
	}
	if withStandIns < 20 {
		t.Errorf("only %d of 100 random models have impossible histories: the stand-in paths are barely exercised", withStandIns)
	}
}

func TestErrors(t *testing.T) {
	b := lookup(t, "tiger")
	if _, err := Compute(context.Background(), b.Model, 2, 0, Options{}); err == nil {
		t.Error("T = 0 accepted")
	}
	if _, err := Compute(context.Background(), b.Model, 4, 2, Options{}); err == nil {
		t.Error("m = 4 accepted")
	}
	if _, err := Compute(context.Background(), nil, 2, 2, Options{}); err == nil {
		t.Error("nil model accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Compute(ctx, b.Model, 2, 6, Options{Ground: b.Ground}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
	_, err := Compute(context.Background(), b.Model, 2, 6, Options{Ground: b.Ground, MaxNodes: 3})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "--max-nodes") {
		t.Errorf("node limit 3: err = %v, want ErrTooLarge naming --max-nodes", err)
	}
	// 10 KiB hold Tiger's matrices at T = 5 (5.4 KiB with the
	// collector's factor) but not the belief tables as they grow.
	_, err = Compute(context.Background(), b.Model, 2, 5, Options{Ground: b.Ground, MemBudget: 10 << 10})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "largest term: belief table") || !strings.Contains(err.Error(), "--mem") {
		t.Errorf("budget 10 KiB: err = %v, want ErrTooLarge naming the belief table and --mem", err)
	}
	// Tag at T = 4: the matrices over 27,000 depth-3 histories need 11.7
	// GiB (×2), refused before anything is allocated.
	tag := lookup(t, "tag")
	if c := EstimateCost(tag.Model, 4, 1); c.Matrices != 2*8*(30*29/2+900*899/2+27000*26999/2) {
		t.Errorf("tag T = 4: matrices %d bytes, want 16 per pair of histories of depth < 4", c.Matrices)
	}
	_, err = Compute(context.Background(), tag.Model, 2, 4, Options{MemBudget: 1 << 30})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "distance matrices") {
		t.Errorf("tag T = 4, budget 1 GiB: err = %v, want ErrTooLarge naming the matrices", err)
	}
}

// TestCancelMidSearch: a cancellation stops a running search. The
// progress hook cancels the run when the first history pair is done; the
// contract is on work, not time: the search returns context.Canceled,
// and of the pairs still in flight at the cancellation (one per other
// worker) at most those finish, out of the hundreds the run would search.
func TestCancelMidSearch(t *testing.T) {
	m := lookup(t, "random:12:3:12:5").Model
	for _, workers := range []int{1, 2, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		after, total := -1, 0 // pairs done after the cancellation; all pairs
		progress := func(done, n int) {
			total = n
			if after < 0 {
				cancel()
			}
			after++
		}
		_, err := Compute(ctx, m, 2, 3, Options{Eps: []float64{0, 0.1, 0.3}, Workers: workers, Progress: progress})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%d workers: err = %v, want context.Canceled", workers, err)
		}
		if after > workers-1 || total < 10*workers {
			t.Errorf("%d workers: %d of %d pairs done after the cancellation, want at most %d (the pairs in flight)", workers, after, total, workers-1)
		}
	}
}
