package bb

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// tol is a variable so that sums with it round as the code's do.
var tol = partition.ZeroTol

func TestDecision(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name    string
		eps     []float64
		wantEps []float64
		cap     float64
		theta   [][2]float64 // (lb, threshold)
		advice  string       // the end of NodeAdvice
	}{
		{"exact", nil, nil, inf, [][2]float64{{0, BoundSlack}, {0.5, 0.5 + BoundSlack}}, "drop --exact-distances)"},
		{"exact (empty list)", []float64{}, nil, inf, [][2]float64{{1, 1 + BoundSlack}}, "drop --exact-distances)"},
		{"decision", []float64{0.5, 0, 0.3}, []float64{0, 0.3, 0.5}, 0.5 + tol,
			[][2]float64{{0, tol}, {tol, tol}, {0.1, 0.3 + tol}, {0.3 + tol, 0.3 + tol}, {0.4, 0.5 + tol}, {0.6, inf}}, "(--max-nodes)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := slices.Clone(c.eps)
			d := NewDecision(in)
			if !slices.Equal(in, c.eps) {
				t.Errorf("NewDecision changed its argument to %v", in)
			}
			if !slices.Equal(d.Eps, c.wantEps) || (d.Eps == nil) != (c.wantEps == nil) || d.Cap != c.cap {
				t.Errorf("NewDecision(%v) = %+v, want Eps %v, Cap %g", c.eps, d, c.wantEps, c.cap)
			}
			for _, p := range c.theta {
				if got := d.Theta(p[0]); got != p[1] {
					t.Errorf("Theta(%g) = %g, want %g", p[0], got, p[1])
				}
			}
			if a := d.NodeAdvice(); !strings.HasPrefix(a, "lower T or raise the node limit") || !strings.HasSuffix(a, c.advice) {
				t.Errorf("NodeAdvice() = %q, want it to end in %q", a, c.advice)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	cases := []struct {
		name      string
		got, want int64
	}{
		{"NodeLimit(0)", NodeLimit(0), 2e8},
		{"NodeLimit(-1)", NodeLimit(-1), -1},
		{"NodeLimit(1e3)", NodeLimit(1e3), 1000},
		{"Budget(0)", Budget(0), distance.DefaultMemBudget()},
		{"Budget(-1)", Budget(-1), -1},
		{"Budget(4096)", Budget(4096), 4096},
		{"Workers(0)", int64(Workers(0)), int64(runtime.GOMAXPROCS(0))},
		{"Workers(-3)", int64(Workers(-3)), int64(runtime.GOMAXPROCS(0))},
		{"Workers(3)", int64(Workers(3)), 3},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}

// distances returns the distances over the binary tree of horizon 2 with
// the depth-1 pair at v and, at depth 2, the pairs (0, 1) and (2, 3) at
// 0.1, every other pair at 0.9.
func distances(t *testing.T, d Decision, v float64) Distances {
	tree, err := law.NewTree(2, 2)
	if err != nil {
		t.Fatal(err)
	}
	r := NewDistances("test", tree, d)
	for k := range r.Lower {
		r.Lower[k], r.Upper[k] = partition.NewMatrix(tree.Count(k)), partition.NewMatrix(tree.Count(k))
	}
	r.Lower[1].Data[0] = v
	for i := range r.Lower[2].Data {
		r.Lower[2].Data[i] = 0.9
	}
	r.Lower[2].Data[r.Lower[2].Index(0, 1)] = 0.1
	r.Lower[2].Data[r.Lower[2].Index(2, 3)] = 0.1
	return r
}

func TestDistances(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name    string
		eps     []float64
		max     float64
		exact   bool
		lo, hi  float64         // MaxBracket
		classes map[float64]int // ε → classes over all depths
	}{
		{"exact", nil, 0.95, true, 0.95, 0.95, map[float64]int{0: 7, 0.1: 5, 0.9: 4, 1: 3}},
		{"decided, max inside", []float64{0, 0.5, 1}, 0.5 + tol, false, 0.5, 1, map[float64]int{0: 7, 0.5: 5, 1: 3}},
		{"decided, max above the cap", []float64{0, 0.5}, 0.5 + tol, false, 0.5, inf, map[float64]int{0: 7, 0.5: 5}},
		{"decided, max below the smallest ε", []float64{0.96, 2}, 0, false, 0, 0.96, map[float64]int{0.96: 3, 2: 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := distances(t, NewDecision(c.eps), 0.95)
			if r.Tree.T != 2 || len(r.Lower) != 3 || len(r.Upper) != 3 {
				t.Fatalf("tree T = %d, %d and %d matrices, want 2, 3 and 3", r.Tree.T, len(r.Lower), len(r.Upper))
			}
			if got := r.MaxDistance(); math.Abs(got-c.max) > 1e-15 || r.MaxDistanceExact() != c.exact {
				t.Errorf("MaxDistance() = %g (exact %v), want %g (exact %v)", got, r.MaxDistanceExact(), c.max, c.exact)
			}
			if lo, hi := r.MaxBracket(); lo != c.lo || hi != c.hi {
				t.Errorf("MaxBracket() = (%g, %g], want (%g, %g]", lo, hi, c.lo, c.hi)
			}
			for eps, want := range c.classes {
				if got := r.Partition(eps).Total(); got != want {
					t.Errorf("Partition(%g): %d classes, want %d", eps, got, want)
				}
			}
		})
	}
}

func TestPartitionUndecided(t *testing.T) {
	r := distances(t, NewDecision([]float64{0, 0.5}), 0.2)
	defer func() {
		msg := fmt.Sprint(recover())
		if !strings.HasPrefix(msg, "test: Partition(0.3) of a run that decided only ε ∈ [0 0.5]") {
			t.Errorf("panic %q, want the package, the ε asked and the ε decided", msg)
		}
	}()
	r.Partition(0.3)
}

func TestRun(t *testing.T) {
	var seen []int
	r := NewRun(context.Background(), 4, func(done, total int) {
		if total != 4 {
			t.Errorf("progress total %d, want 4", total)
		}
		seen = append(seen, done)
	})
	defer r.Stop()
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Done()
		}()
	}
	wg.Wait()
	if !slices.Equal(seen, []int{1, 2, 3}) {
		t.Errorf("progress %v, want 1, 2, 3", seen)
	}
	jobs := make(chan int, 1)
	if !Send(r, jobs, 7) || <-jobs != 7 {
		t.Fatal("Send before a failure did not hand the job over")
	}
	if r.Err() != nil || r.Context().Err() != nil {
		t.Fatalf("a running run has error %v, context %v", r.Err(), r.Context().Err())
	}
	first := errors.New("first")
	r.Fail(first)
	r.Fail(errors.New("second"))
	if r.Err() != first || r.Context().Err() == nil {
		t.Errorf("after two failures: error %v, context %v; want the first and a cancelled context", r.Err(), r.Context().Err())
	}
	if Send(r, make(chan int), 8) {
		t.Error("Send on a cancelled run handed the job over")
	}
}

func TestRunParentCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := NewRun(ctx, 1, nil)
	defer r.Stop()
	r.Done() // no progress function: nothing to call
	cancel()
	if !errors.Is(r.Err(), context.Canceled) || r.Context().Err() == nil {
		t.Errorf("parent cancelled: error %v, context %v", r.Err(), r.Context().Err())
	}
}

func TestCheckAndGround(t *testing.T) {
	b, err := bench.Lookup("tiger") // two observations
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	cases := []struct {
		name string
		m    *pomdp.Model
		T    int
		g    ot.Ground
		err  string // "" for none
	}{
		{"nil model", nil, 2, nil, "pkg: nil model"},
		{"T = 0", m, 0, nil, "pkg: horizon T = 0, want T ≥ 1"},
		{"discrete", m, 3, nil, ""},
		{"ordered", m, 3, ot.Ordered(2), ""},
		{"ground of the wrong size", m, 3, ot.Discrete(3), "pkg: model tiger: "},
		{"tree too large", m, 30, nil, "histories"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Check("pkg", c.m, c.T)
			var g ot.Ground
			if err == nil {
				g, err = Ground("pkg", c.m, c.T, c.g)
			}
			switch {
			case c.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("error %v, want one containing %q", err, c.err)
			case c.err == "" && (len(g) != 2 || (c.g != nil && g[0][1] != c.g[0][1])):
				t.Fatalf("ground %v for %v", g, c.g)
			}
		})
	}
}
