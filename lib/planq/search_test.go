package planq

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// searchCase is a model, a family and ε values whose quotients are
// searched.
type searchCase struct {
	name string
	m    *pomdp.Model
	fam  fsc.Family
	T    int
	eps  []float64
}

func searchCases(t *testing.T) []searchCase {
	t.Helper()
	cfg, _ := tigerObs(t)
	maze, err := modelfile.Load(filepath.Join("..", "..", "datasets", "models", "maze4x3.pomdp"))
	if err != nil {
		t.Fatal(err)
	}
	mazeObs, err := value.WithObsReward(maze)
	if err != nil {
		t.Fatal(err)
	}
	fam := func(k fsc.Kind, m *pomdp.Model, mem, T int) fsc.Family {
		f, err := fsc.New(k, m.NumActions(), m.NumObservations(), mem, T, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	cases := []searchCase{
		{"tiger m≤2 T=4", cfg.Model, fam(fsc.KindStationary, cfg.Model, 2, 4), 4, []float64{0, 0.3, 0.5}},
		{"tiger clock m=1 T=3", cfg.Model, fam(fsc.KindClock, cfg.Model, 1, 3), 3, []float64{0, 0.2}},
		{"maze4x3 m=1 T=3", mazeObs, fam(fsc.KindStationary, mazeObs, 1, 3), 3, []float64{0, 0.1, 0.3}},
		{"maze4x3 own reward clock m=1 T=2", maze, fam(fsc.KindClock, maze, 1, 2), 2, []float64{0, 0.5}},
	}
	rng := rand.New(rand.NewPCG(7, 18))
	for i := 0; i < 12; i++ {
		m, err := randomModel(rng, i%2 == 0)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, searchCase{"random", m, fam(fsc.KindStationary, m, 2, 3), 3, []float64{0, 0.1, 0.3, 0.6}})
	}
	for i := 0; i < 12; i++ {
		// Many impossible histories, and classes with no possible member.
		m, err := impossibleModel(rng, i%2 == 0)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, searchCase{"impossible", m, fam(fsc.KindStationary, m, 2, 3), 3, []float64{0, 0.1, 0.3, 0.6}})
	}
	return cases
}

func (c searchCase) quotients(t *testing.T) []*quotient.Quotient {
	t.Helper()
	dist, err := distance.Compute(context.Background(), c.m, c.fam, c.T, distance.Options{Metric: distance.W1, Eps: c.eps})
	if err != nil {
		t.Fatal(err)
	}
	qs := make([]*quotient.Quotient, len(c.eps))
	for i, e := range c.eps {
		if qs[i], err = quotient.New(c.m, c.T, dist.Partition(e)); err != nil {
			t.Fatal(err)
		}
	}
	return qs
}

func searchEnv(c searchCase, workers int) *Env {
	gamma := 1.0
	if c.m.HasDiscount {
		gamma = c.m.Discount
	}
	return &Env{Model: c.m, T: c.T, Obj: value.LatentReward{Discount: gamma}, Family: c.fam, Workers: workers}
}

// TestSearchValuesMatchQuotientModel: every controller's value in the
// shared pass (class beliefs, deduplicated action trees, partitions shared
// across ε) equals value.Evaluate on the quotient model the controller sees
// (quotient.ForProbe), within 1e-12 relative, on Tiger, maze4x3 (whose
// histories include impossible ones), random models and random models
// with many impossible histories.
func TestSearchValuesMatchQuotientModel(t *testing.T) {
	for _, c := range searchCases(t) {
		qs := c.quotients(t)
		env := searchEnv(c, 0)
		p, err := valuePass(context.Background(), env, c.fam, qs)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for k, q := range qs {
			for i := 0; i < c.fam.Len(); i++ {
				ctrl := c.fam.At(i)
				qm, err := q.ForProbe(ctrl)
				if err != nil {
					t.Fatal(err)
				}
				want, err := value.Evaluate(qm, ctrl, c.T, env.Obj)
				if err != nil {
					t.Fatal(err)
				}
				if got := p.value(p.uq[k], i); math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
					t.Fatalf("%s, ε = %g, controller %d: pass %.17g, quotient model %.17g", c.name, c.eps[k], i, got, want)
				}
			}
		}
	}
}

// TestSearchIndependentOfWorkers: 1, 2 and 5 workers give bit-identical
// values, hence the same plans.
func TestSearchIndependentOfWorkers(t *testing.T) {
	for _, c := range searchCases(t)[:3] {
		qs := c.quotients(t)
		var first *pass
		for _, w := range []int{1, 2, 5} {
			p, err := valuePass(context.Background(), searchEnv(c, w), c.fam, qs)
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = p
				continue
			}
			for u := range p.vals {
				for i := 0; i < c.fam.Len(); i++ {
					if v, v1 := p.value(u, i), first.value(u, i); v != v1 {
						t.Fatalf("%s: %d workers: quotient %d controller %d: %v, 1 worker: %v", c.name, w, u, i, v, v1)
					}
				}
			}
		}
	}
}

// TestSearchCancelled: a cancelled context stops the pass with its error.
func TestSearchCancelled(t *testing.T) {
	c := searchCases(t)[0]
	qs := c.quotients(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := valuePass(ctx, searchEnv(c, 2), c.fam, qs); err == nil {
		t.Fatal("no error from a cancelled pass")
	}
}

// TestSearchWithoutDedup: past the key budget every controller is valued
// (slot nil) and the values are those of the deduplicated pass.
func TestSearchWithoutDedup(t *testing.T) {
	c := searchCases(t)[0]
	qs := c.quotients(t)
	dedup, err := valuePass(context.Background(), searchEnv(c, 2), c.fam, qs)
	if err != nil {
		t.Fatal(err)
	}
	defer func(b int) { maxDedupBytes = b }(maxDedupBytes)
	maxDedupBytes = 0
	all, err := valuePass(context.Background(), searchEnv(c, 2), c.fam, qs)
	if err != nil {
		t.Fatal(err)
	}
	if all.slot != nil || all.distinct != c.fam.Len() || dedup.distinct != 75 {
		t.Fatalf("without dedup: slot %v, %d valued; with: %d valued (want 147 and 75)", all.slot != nil, all.distinct, dedup.distinct)
	}
	for u := range all.vals {
		for i := 0; i < c.fam.Len(); i++ {
			if a, d := all.value(u, i), dedup.value(u, i); a != d {
				t.Fatalf("quotient %d controller %d: %v without dedup, %v with", u, i, a, d)
			}
		}
	}
}
