package statbb

import (
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/internal/randmodel"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

var (
	adversarialN   = flag.Int("adversarial", 60, "number of seeded adversarial random models cross-checked against enumeration")
	adversarialMax = flag.Int64("adversarial-max", 20000, "largest stationary family the adversarial cross-check enumerates")
)

// adversarialModel draws a small model of one of the kinds that caught
// the clock-aware search's bugs (randmodel.AdversarialKinds: dense,
// sparse, deterministic, grid, near-degenerate, tiny). It returns the
// model, a memory bound m ≤ 3, a horizon and the kind.
func adversarialModel(seed uint64) (*pomdp.Model, int, int, string) {
	rng := rand.New(rand.NewPCG(seed, 0xad))
	nS := 1 + rng.IntN(4)
	nA := 1 + rng.IntN(3)
	nO := 1 + rng.IntN(3)
	M := 1 + rng.IntN(3)
	T := 1 + rng.IntN(4)
	for M > 1 {
		n, _ := fsc.Size(fsc.KindStationary, nA, nO, M, 0)
		if n.Cmp(big.NewInt(*adversarialMax)) <= 0 {
			break
		}
		M-- // keep the enumeration small
	}
	for T > 1 && math.Pow(float64(nO), float64(T)) > 81 {
		T--
	}
	d, kind := randmodel.AdversarialDense(rng, seed, nS, nA, nO)
	return pomdp.Must(pomdp.New(d)), M, T, kind
}

// TestAdversarialRandom cross-checks exact values and decision-mode
// partitions against enumeration on seeded models of every kind
// (go test -run Adversarial -adversarial 2000 for a long run); compare
// adds the enumeration's own distances to the ε list.
func TestAdversarialRandom(t *testing.T) {
	kinds := map[string]int{}
	for seed := uint64(1); seed <= uint64(*adversarialN); seed++ {
		m, M, T, kind := adversarialModel(seed)
		kinds[kind]++
		conv := law.Convention(seed % 2)
		ok := t.Run(fmt.Sprintf("seed=%d/%s/S%dA%dO%d/m=%d/T=%d/%v", seed, kind, m.NumStates(), m.NumActions(), m.NumObservations(), M, T, conv), func(t *testing.T) {
			compare(t, m, nil, M, T, conv, []float64{0, 0.25, 0.5})
		})
		if !ok {
			break
		}
	}
	t.Logf("kinds: %v", kinds)
}

// tinyObservation is a two-state model with three observations: o0 has
// probability ½ everywhere, o2 probability p in state 0 only (o1 the
// rest). After o2 the belief is the point mass on state 0, after o0 it is
// uniform, and the next observation's laws differ by p/2 in total
// variation: above partition.ZeroTol for p ≥ 1e-11. (It caught a pruning
// basis that dropped directions of norm 1e-10 in lib/clock2.)
func tinyObservation(p float64) *pomdp.Model {
	return pomdp.Must(pomdp.New(pomdp.Dense{
		Name:         "tiny-observation",
		States:       []string{"s0", "s1"},
		Actions:      []string{"a", "b"},
		Observations: []string{"o0", "o1", "o2"},
		T:            [][][]float64{{{1, 0}, {0, 1}}, {{0, 1}, {1, 0}}},
		Z:            [][][]float64{{{0.5, 0.5 - p, p}, {0.5, 0.5, 0}}, {{0.5, 0.5 - p, p}, {0.5, 0.5, 0}}},
		B0:           []float64{0.5, 0.5},
	}))
}

// collidingBeliefs is a two-state model whose depth-1 beliefs after o0
// and o1 put 1.25e-14 and 4e-13 on state 1: equal after rounding to 12
// decimals, though observation o2 (likelihood ratio 1e12 for state 1)
// then makes them 0.012 and 0.29. (It caught belief interning by rounding
// in lib/clock2.)
func collidingBeliefs() *pomdp.Model {
	return pomdp.Must(pomdp.New(pomdp.Dense{
		Name:         "colliding-beliefs",
		States:       []string{"s0", "s1"},
		Actions:      []string{"a"},
		Observations: []string{"o0", "o1", "o2"},
		T:            [][][]float64{{{1, 0}, {0, 1}}},
		Z:            [][][]float64{{{0.8 - 1e-13, 0.2, 1e-13}, {0.1, 0.8, 0.1}}},
		B0:           []float64{1 - 1e-13, 1e-13},
	}))
}

// TestTinyDifferences: differences of 1e-10 in a law separate histories
// at ε = 0 as in the enumeration, and beliefs 4e-13 apart are not
// confused.
func TestTinyDifferences(t *testing.T) {
	for _, p := range []float64{1e-6, 1e-10, 1e-11} {
		m := tinyObservation(p)
		for _, conv := range []law.Convention{law.UniformStandIn, law.PointMassStandIn} {
			t.Run(fmt.Sprintf("tiny-observation/p=%g/%v", p, conv), func(t *testing.T) {
				want := compare(t, m, nil, 2, 2, conv, []float64{0})
				if want.At(1, 0, 2) <= 1e-12 {
					t.Fatalf("enumeration: d(o0, o2) = %g, the model does not separate", want.At(1, 0, 2))
				}
			})
		}
	}
	t.Run("colliding-beliefs", func(t *testing.T) {
		m := collidingBeliefs()
		tree, _ := law.NewTree(3, 3)
		h02, h12 := -1, -1
		for i := 0; i < tree.Count(2); i++ {
			switch fmt.Sprint(tree.History(2, i)) {
			case "[0 2]":
				h02 = i
			case "[1 2]":
				h12 = i
			}
		}
		want := compare(t, m, nil, 2, 3, law.UniformStandIn, []float64{0, 0.1})
		if d := want.At(2, h02, h12); d < 0.1 {
			t.Fatalf("enumeration: d(o0 o2, o1 o2) = %g, the model does not separate", d)
		}
	})
}
