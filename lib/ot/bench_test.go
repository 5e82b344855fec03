package ot

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchLaws returns two dense random laws over {0,1}^k (every sequence
// charged), as for Tiger-like suffix laws with |O| = 2.
func benchLaws(k int) (p, q []float64) {
	rng := rand.New(rand.NewPCG(uint64(k), 42))
	n := SeqLen(2, k)
	return randLaw(rng, n, 0), randLaw(rng, n, 0)
}

// BenchmarkSeqW1 measures SeqW1 between two dense random laws on 2^k
// sequences under the discrete ground (Hamming sequence cost), the
// Tiger-like workload; 512 sequences is k = 9.
func BenchmarkSeqW1(b *testing.B) {
	for _, k := range []int{6, 8, 9, 10} {
		p, q := benchLaws(k)
		g := Discrete(2)
		b.Run(fmt.Sprintf("n=%d", SeqLen(2, k)), func(b *testing.B) {
			var s Solver
			b.ReportAllocs()
			pivots := 0
			for b.Loop() {
				r, err := s.SeqW1(g, k, p, q)
				if err != nil {
					b.Fatal(err)
				}
				pivots += r.Pivots
			}
			b.ReportMetric(float64(pivots)/float64(b.N), "pivots/op")
		})
	}
}

// BenchmarkW1Full measures the plain simplex on the full n×n Hamming cost
// matrix between the same laws (no shared-mass reduction).
func BenchmarkW1Full(b *testing.B) {
	for _, k := range []int{6, 8, 9, 10} {
		p, q := benchLaws(k)
		n := len(p)
		cost := flatCost(n, n, func(i, j int) float64 { return float64(popcount(uint(i ^ j))) })
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var s Solver
			b.ReportAllocs()
			pivots := 0
			for b.Loop() {
				r, err := s.W1(p, q, cost)
				if err != nil {
					b.Fatal(err)
				}
				pivots += r.Pivots
			}
			b.ReportMetric(float64(pivots)/float64(b.N), "pivots/op")
		})
	}
}

// BenchmarkLowerBound measures the cheap bound on the 512-sequence laws.
func BenchmarkLowerBound(b *testing.B) {
	p, q := benchLaws(9)
	g := Discrete(2)
	var s Solver
	b.ReportAllocs()
	for b.Loop() {
		_ = s.LowerBound(g, 9, p, q)
	}
}
