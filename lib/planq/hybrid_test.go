package planq

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// TestHybridIdentity checks Step 2 of thm:hybrid (docs/certificates.md)
// independently of any distance: on random models and random partitions
// (any class may mix histories with different futures, and classes may
// have no possible member), for stationary, clock-aware and stochastic
// controllers with up to two nodes and γ ∈ {1, 0.9}, the signed hybrid
// terms sum to V_M(π) − V_Q(π) as value.Evaluate computes it, and B(π)
// is at least |V_M(π) − V_Q(π)|, and 0 for a deterministic controller on
// the exact partition (every history its own class; a stochastic
// controller's node is not a function of the observation history, so
// its quotient is not exact there).
func TestHybridIdentity(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 26))
	kinds := []struct {
		kind fsc.Kind
		m    int
	}{{fsc.KindStationary, 1}, {fsc.KindStationary, 2}, {fsc.KindClock, 1}, {fsc.KindStochasticStationary, 2}, {fsc.KindStochasticClock, 2}}
	cases := 0
	for i := 0; i < 60; i++ {
		m, err := randomModel(rng, i%2 == 0)
		if err != nil {
			t.Fatal(err)
		}
		T := 2 + rng.IntN(2)
		gamma := []float64{1, 0.9}[i%2]
		exact := randomPartition(rng, m.NumObservations(), T, 0)
		mixed := randomPartition(rng, m.NumObservations(), T, 1+rng.IntN(3))
		k := kinds[i%len(kinds)]
		fam, err := fsc.New(k.kind, m.NumActions(), m.NumObservations(), k.m, T, fsc.Options{Samples: 5, Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < min(fam.Len(), 12); j++ {
			c := fam.At(rng.IntN(fam.Len()))
			vm, err := value.Evaluate(m, c, T, value.LatentReward{Discount: gamma})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []*partition.Partition{exact, mixed} {
				q, err := quotient.New(m, T, p)
				if err != nil {
					t.Fatal(err)
				}
				seen, err := q.See(c)
				if err != nil {
					t.Fatal(err)
				}
				qm, err := seen.Model()
				if err != nil {
					t.Fatal(err)
				}
				vq, err := value.Evaluate(qm, c, T, value.LatentReward{Discount: gamma})
				if err != nil {
					t.Fatal(err)
				}
				abs, signed := hybridSum(seen, gamma)
				cases++
				if math.Abs(signed-(vm-vq)) > 1e-9 || abs < math.Abs(vm-vq)-1e-9 || (p == exact && c.Deterministic() && abs > 1e-9) {
					t.Errorf("model %d %s m=%d T=%d γ=%g controller %v: V_M − V_Q = %.12g, signed sum %.12g, B = %.12g (exact partition %v)",
						i, k.kind, k.m, T, gamma, c, vm-vq, signed, abs, p == exact)
				}
			}
		}
	}
	if cases < 200 {
		t.Errorf("only %d cases", cases)
	}
}

// randomPartition returns a partition of the depth-T tree over nO
// observations with at most k classes per depth (k = 0: every history
// its own class).
func randomPartition(rng *rand.Rand, nO, T, k int) *partition.Partition {
	labels := make([][]int, T+1)
	n := 1
	for t := range labels {
		labels[t] = make([]int, n)
		for i := range labels[t] {
			labels[t][i] = i
			if k > 0 {
				labels[t][i] = rng.IntN(k)
			}
		}
		n *= nO
	}
	return partition.FromLabels(labels)
}
