package clock2

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

// randomModel draws a small model whose rows have about 30 % zeros, so
// that impossible histories (and their stand-ins) occur.
func randomModel(seed uint64, nS, nA, nO int) *pomdp.Model {
	return pomdp.Must(pomdp.New(randmodel.SparseDense(seed, 11, 0.3, nS, nA, nO)))
}

// enumerate is the independent oracle: lib/distance over every controller
// of fsc.Clock(m = 2, T).
func enumerate(t testing.TB, m *pomdp.Model, g ot.Ground, T int, conv law.Convention, eps []float64) *distance.Result {
	t.Helper()
	fam, err := fsc.NewClock(m.NumActions(), m.NumObservations(), 2, T, fsc.Options{Limit: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	res, err := distance.Compute(context.Background(), m, fam, T, distance.Options{Ground: g, Convention: conv, MemBudget: -1, Eps: eps})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// compare checks the exact values against the oracle's (and the upper
// bounds against them), and the decision-mode partitions against the
// oracle's at every ε of eps.
func compare(t *testing.T, m *pomdp.Model, g ot.Ground, T int, conv law.Convention, eps []float64) (standIns int) {
	t.Helper()
	want := enumerate(t, m, g, T, conv, nil)
	got, err := Compute(context.Background(), m, T, Options{Ground: g, Convention: conv})
	if err != nil {
		t.Fatal(err)
	}
	for d := 0; d < T; d++ {
		n := want.Tree.Count(d)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				w, v := want.At(d, i, j), got.Lower[d].At(i, j)
				if math.Abs(w-v) > 1e-9 {
					t.Fatalf("%s T=%d %v: d(depth %d: %d, %d) = %.12g, enumeration %.12g", m.Name, T, conv, d, i, j, v, w)
				}
				if u := got.Upper[d].At(i, j); u < w-1e-9 {
					t.Fatalf("%s T=%d %v: upper bound %.12g below the enumeration's %.12g", m.Name, T, conv, u, w)
				}
			}
		}
	}
	dec, err := Compute(context.Background(), m, T, Options{Ground: g, Convention: conv, Eps: eps, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eps {
		a, b := want.Partition(e), dec.Partition(e)
		if fmt.Sprint(a.Labels) != fmt.Sprint(b.Labels) {
			t.Fatalf("%s T=%d %v ε=%g: decision partition %v, enumeration %v", m.Name, T, conv, e, b.Labels, a.Labels)
		}
	}
	return want.StandIns
}

func TestAgainstEnumeration(t *testing.T) {
	convs := []law.Convention{law.UniformStandIn, law.PointMassStandIn}
	cases := []struct {
		spec string
		T    int
		eps  []float64
	}{
		{"tiger", 1, []float64{0, 0.5}},
		{"tiger", 2, []float64{0, 0.1, 0.3, 0.5}},
		{"tiger", 3, []float64{0, 0.1, 0.3, 0.5, 1}},
		{"tiger:0.7:0.2", 3, []float64{0, 0.2, 0.4}},
		{"gridworld:3", 2, []float64{0, 0.25, 0.5}},
		{"witness", 2, []float64{0, 0.25}},
	}
	for _, c := range cases {
		for _, conv := range convs {
			t.Run(fmt.Sprintf("%s/T=%d/%v", c.spec, c.T, conv), func(t *testing.T) {
				b := lookup(t, c.spec)
				compare(t, b.Model, b.Ground, c.T, conv, c.eps)
			})
		}
	}
}

// TestRandomModels cross-checks 20 seeded sparse random models (impossible
// histories included) under both stand-in conventions.
func TestRandomModels(t *testing.T) {
	withStandIns := 0
	for seed := uint64(1); seed <= 20; seed++ {
		nS, nA, nO, T := 2+int(seed%3), 2, 2, 3
		switch {
		case seed%5 == 0:
			nO, T = 3, 2
		case seed%7 == 0:
			T = 4 // 1,048,576 controllers
		}
		m := randomModel(seed, nS, nA, nO)
		conv := law.Convention(seed % 2)
		t.Run(fmt.Sprintf("seed=%d/%v/T=%d", seed, conv, T), func(t *testing.T) {
			if compare(t, m, nil, T, conv, []float64{0, 0.1, 0.3}) > 0 {
				withStandIns++
			}
		})
	}
	if withStandIns < 5 {
		t.Errorf("only %d of 20 random models have impossible histories: the stand-in paths are barely exercised", withStandIns)
	}
}

// TestTigerT4 is the acceptance cross-check: the enumeration of the
// 26,873,856 controllers of Tiger at T = 4 (about 20 s) against the
// decision-mode search.
func TestTigerT4(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerates 26,873,856 controllers (about 20 s)")
	}
	b := lookup(t, "tiger")
	eps := []float64{0, 0.3, 0.5}
	want := enumerate(t, b.Model, b.Ground, 4, law.UniformStandIn, eps)
	got, err := Compute(context.Background(), b.Model, 4, Options{Ground: b.Ground, Eps: eps})
	if err != nil {
		t.Fatal(err)
	}
	counts := []int{16, 16, 11}
	for k, e := range eps {
		a, c := want.Partition(e), got.Partition(e)
		if fmt.Sprint(a.Labels) != fmt.Sprint(c.Labels) || c.Total() != counts[k] {
			t.Fatalf("ε=%g: %d classes %v, enumeration %d %v", e, c.Total(), c.Labels, a.Total(), a.Labels)
		}
	}
}

// TestDecisionBrackets: every decision-mode value lies in the ε-bracket
// of the exact value, and upper bounds hold.
func TestDecisionBrackets(t *testing.T) {
	b := lookup(t, "tiger")
	eps := []float64{0, 0.3, 0.5}
	ex, err := Compute(context.Background(), b.Model, 4, Options{Ground: b.Ground})
	if err != nil {
		t.Fatal(err)
	}
	dec, err := Compute(context.Background(), b.Model, 4, Options{Ground: b.Ground, Eps: eps})
	if err != nil {
		t.Fatal(err)
	}
	bracket := func(v float64) int {
		for k, e := range eps {
			if v <= e+1e-12 {
				return k
			}
		}
		return len(eps)
	}
	for d := range ex.Lower {
		for k, v := range ex.Lower[d].Data {
			lo, hi := dec.Lower[d].Data[k], dec.Upper[d].Data[k]
			if bracket(lo) != bracket(v) || lo > v+1e-9 || hi < v-1e-9 {
				t.Fatalf("depth %d entry %d: exact %.12g, decision [%.12g, %.12g]", d, k, v, lo, hi)
			}
		}
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Partition(0.1) of a run deciding {0, 0.3, 0.5} did not panic")
			}
		}()
		dec.Partition(0.1)
	}()
	if dec.Nodes >= ex.Nodes {
		t.Errorf("decision mode visited %d nodes, exact mode %d: the decision should prune more", dec.Nodes, ex.Nodes)
	}
}

func TestErrors(t *testing.T) {
	b := lookup(t, "tiger")
	if _, err := Compute(context.Background(), b.Model, 0, Options{}); err == nil {
		t.Error("T = 0 accepted")
	}
	if _, err := Compute(context.Background(), nil, 2, Options{}); err == nil {
		t.Error("nil model accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Compute(ctx, b.Model, 5, Options{Ground: b.Ground}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
	_, err := Compute(context.Background(), b.Model, 5, Options{Ground: b.Ground, MaxNodes: 10})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "--max-nodes") || !strings.Contains(err.Error(), "Options.Eps") {
		t.Errorf("node limit 10: err = %v, want ErrTooLarge naming --max-nodes and decision mode", err)
	}
	// A decision-mode run is not told to use decision mode.
	_, err = Compute(context.Background(), b.Model, 6, Options{Ground: b.Ground, MaxNodes: 2, Eps: []float64{0, 0.3, 0.5}})
	if !errors.Is(err, ErrTooLarge) || strings.Contains(err.Error(), "Options.Eps") || !strings.Contains(err.Error(), "--max-nodes") {
		t.Errorf("decision mode, node limit 2: err = %v, want ErrTooLarge naming --max-nodes only", err)
	}
	g := lookup(t, "gridworld:3")
	// 100 KiB for the search tables beside the fixed buffers.
	_, err = Compute(context.Background(), g.Model, 3, Options{Ground: g.Ground, Workers: 1, MemBudget: EstimateCost(g.Model, 3, 1).Bytes() + 100<<10})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "largest term: realisable roots") || !strings.Contains(err.Error(), "--mem") {
		t.Errorf("budget 100 KiB: err = %v, want ErrTooLarge naming the roots and --mem", err)
	}
	if _, err := Compute(context.Background(), g.Model, 2, Options{Ground: g.Ground, MemBudget: -1, Eps: []float64{0.5}}); err != nil {
		t.Errorf("no budget: %v", err)
	}
}
