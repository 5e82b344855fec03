package policy

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkEvaluateIterative: a 300-node graph on a 40-state random model
// (12,000 pairs, value iteration).
func BenchmarkEvaluateIterative(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := randomModel(rng, 40, 4, 8, 0.95)
	c := randomGraph(rng, 4, 8, 300)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Evaluate(m, c, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateFinite: the same graph over 100 steps.
func BenchmarkEvaluateFinite(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := randomModel(rng, 40, 4, 8, 0.95)
	c := randomGraph(rng, 4, 8, 300)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Evaluate(m, c, 100); err != nil {
			b.Fatal(err)
		}
	}
}
