package distance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/internal/randmodel"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// manyObsModel returns a random model with nO observations whose rows
// keep about a quarter of their entries: with 8 states, 2 actions and 28
// observations, T = 4, the histories of length 1 and 2 have suffix laws
// over hundreds of sequences, and the exact classes number 1, 28, 268
// and 1,354 by depth on seed 1 (the last enough for the pivot pass).
func manyObsModel(seed uint64, nS, nA, nO int) *pomdp.Model {
	rng := rand.New(rand.NewPCG(seed, 28))
	d := randmodel.Dense(fmt.Sprint("many-obs-", seed), nS, nA, nO, randmodel.Sparse(rng, 0.75))
	return pomdp.Must(pomdp.New(d))
}

// work is what a distances pass did, in counts that do not depend on the
// machine: transport problems solved, their simplex pivots and residual
// sources × sinks, and pairs the loop visited.
type work struct{ solves, pivots, cells, visited int64 }

func (w work) String() string {
	return fmt.Sprintf("%d solves, %d pivots, %d cells, %d pairs visited", w.solves, w.pivots, w.cells, w.visited)
}

// The work of a decision-mode run does not depend on how many workers
// share it: with 2 and 8 workers it stays within a small factor of one
// worker's, on models with 28 observations and T = 4 (many large suffix
// supports, every history its own class), and the partitions are the
// same label for label. (With a largest-value-so-far private to each
// worker, a worker whose pairs the others settled first kept it at 0 and
// solved every later pair exactly, to the last pivot: see sharedMax. On
// seed 1 two workers then took 2.2× one worker's simplex pivots.)
func TestWorkIndependentOfWorkers(t *testing.T) {
	const T, factor = 4, 1.5
	eps := []float64{0, 0.1, 0.3}
	for seed := uint64(1); seed <= 3; seed++ {
		m := manyObsModel(seed, 8, 2, 28)
		fam, err := fsc.New(fsc.KindStationary, m.NumActions(), m.NumObservations(), 1, T, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var base work
		var want []string
		for _, workers := range []int{1, 2, 8} {
			r, err := Compute(context.Background(), m, fam, T, Options{Workers: workers, Eps: eps, Compact: true})
			if err != nil {
				t.Fatal(err)
			}
			got := work{r.Solves, r.simplexPivots, r.cells, r.visited}
			t.Logf("seed %d, %d workers: %v (%.2fs)", seed, workers, got, r.Seconds)
			var parts []string
			for _, e := range eps {
				parts = append(parts, fmt.Sprint(r.Partition(e).Labels))
			}
			if workers == 1 {
				base, want = got, parts
				if base.solves == 0 || base.pivots == 0 {
					t.Fatalf("seed %d: one worker solved no transport problem (%v): the test needs some", seed, base)
				}
				continue
			}
			for i, p := range parts {
				if p != want[i] {
					t.Errorf("seed %d, %d workers: partition at ε = %g differs from one worker's", seed, workers, eps[i])
				}
			}
			for _, c := range []struct {
				name      string
				got, base int64
			}{{"solves", got.solves, base.solves}, {"pivots", got.pivots, base.pivots}, {"cells", got.cells, base.cells}, {"visited", got.visited, base.visited}} {
				if float64(c.got) > factor*float64(c.base)+1000 {
					t.Errorf("seed %d, %d workers: %s %d, more than %g× one worker's %d", seed, workers, c.name, c.got, factor, c.base)
				}
			}
		}
	}
}

// The classes phase refines one shared set of labels, so its work (laws
// compared) does not grow with the workers: with 2 and 3 workers it stays
// within 1.25× of one worker's, and the exact classes are the same. (With
// a copy of the labels per worker, each worker's first probe compared
// every history with every class it met, from the partition by depth:
// the work grew with the workers, 5× in time on hallway T = 5 with two.)
func TestRefineWorkIndependentOfWorkers(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		m := manyObsModel(seed, 8, 2, 28)
		const T = 3
		fam, err := fsc.New(fsc.KindClock, m.NumActions(), m.NumObservations(), 1, T, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		g, err := ot.ForObservations(nil, m.NumObservations())
		if err != nil {
			t.Fatal(err)
		}
		tree, err := law.NewTree(m.NumObservations(), T)
		if err != nil {
			t.Fatal(err)
		}
		idx := make([]int, fam.Len())
		for i := range idx {
			idx[i] = i
		}
		var base int64
		var want *partition.Partition
		for _, workers := range []int{1, 2, 3} {
			r := &runner{m: m, fam: fam, T: T, g: g, tree: tree, workers: workers}
			labels := make([][]int, T+1)
			for d := range labels {
				labels[d] = make([]int, tree.Count(d))
			}
			if _, err := r.refine(context.Background(), idx, labels); err != nil {
				t.Fatal(err)
			}
			p := partition.FromLabels(labels)
			t.Logf("seed %d, %d workers: %d laws compared, %v classes", seed, workers, r.compared, p.Counts())
			if workers == 1 {
				base, want = r.compared, p
				continue
			}
			if !p.Equal(want) {
				t.Errorf("seed %d, %d workers: exact classes %v, one worker %v", seed, workers, p.Counts(), want.Counts())
			}
			if float64(r.compared) > 1.25*float64(base)+100 {
				t.Errorf("seed %d, %d workers: %d laws compared, one worker %d", seed, workers, r.compared, base)
			}
		}
	}
}
