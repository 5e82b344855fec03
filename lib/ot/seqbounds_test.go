package ot

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sparseLaw returns a random law over n atoms with about a share keep of
// them non-zero (at least one).
func sparseLaw(rng *rand.Rand, n int, keep float64) []float64 {
	p := make([]float64, n)
	s := 0.0
	for x := range p {
		if rng.Float64() < keep {
			p[x] = rng.Float64()
			s += p[x]
		}
	}
	if s == 0 {
		p[rng.IntN(n)], s = 1, 1
	}
	for x := range p {
		p[x] /= s
	}
	return p
}

// The window lower bounds (every window) and the tree coupling are on
// either side of the exact SeqW1 (the oracle), on random law pairs under
// discrete, ordered and random Euclidean grounds; the window of all k
// positions is SeqW1 itself. Law pairs of one conditional apart (q
// rewrites p's last observation) and mixtures of a common law keep the
// bounds close to W1, where a wrong side would show.
func TestSeqBoundsBracketW1(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 2))
	cases := []struct {
		name  string
		trial int
		mix   bool
	}{{"independent", 200, false}, {"mixtures", 200, true}}
	for _, c := range cases {
		for trial := range c.trial {
			o, k := 2+rng.IntN(3), 1+rng.IntN(4)
			var g Ground
			switch trial % 3 {
			case 0:
				g = Discrete(o)
			case 1:
				g = Ordered(o)
			default:
				g = randMetric(rng, o)
			}
			n := SeqLen(o, k)
			p, q := sparseLaw(rng, n, 0.5), sparseLaw(rng, n, 0.5)
			if c.mix {
				w := rng.Float64()
				for x := range q {
					q[x] = w*p[x] + (1-w)*q[x]
				}
			}
			var s Solver
			exact, err := s.SeqW1(g, k, p, q)
			if err != nil {
				t.Fatal(err)
			}
			w := exact.Value
			tol := 1e-12 * math.Max(1, w)
			up := s.TreeCoupling(g, k, p, q)
			if up < w-tol {
				t.Fatalf("%s %d (|O|=%d, k=%d): tree coupling %v below W1 %v", c.name, trial, o, k, up, w)
			}
			for from := range k {
				for j := 1; from+j <= k; j++ {
					lo, err := s.WindowLowerBound(g, k, from, j, p, q)
					if err != nil {
						t.Fatal(err)
					}
					if lo > w+tol {
						t.Fatalf("%s %d (|O|=%d, k=%d): window [%d, %d) bound %v above W1 %v", c.name, trial, o, k, from, from+j, lo, w)
					}
					if j == k && math.Abs(lo-w) > tol {
						t.Fatalf("%s %d: the window of all positions gives %v, W1 %v", c.name, trial, lo, w)
					}
				}
			}
		}
	}
}

// The tree coupling is exact when the two laws differ in their last
// observation's conditional laws only, under a uniform ground: every
// level above keeps its mass in place.
func TestTreeCouplingExactOnLastStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for trial := range 100 {
		o, k := 2+rng.IntN(4), 1+rng.IntN(3)
		g := Discrete(o)
		n := SeqLen(o, k)
		p := sparseLaw(rng, n, 0.6)
		q := make([]float64, n)
		for x := 0; x < n; x += o {
			s := 0.0
			for _, v := range p[x : x+o] {
				s += v
			}
			c := sparseLaw(rng, o, 0.7)
			for i := range o {
				q[x+i] = s * c[i]
			}
		}
		var s Solver
		w, err := SeqW1(g, k, p, q)
		if err != nil {
			t.Fatal(err)
		}
		if up := s.TreeCoupling(g, k, p, q); math.Abs(up-w) > 1e-12 {
			t.Fatalf("trial %d (|O|=%d, k=%d): tree coupling %v, W1 %v", trial, o, k, up, w)
		}
	}
}

// ProductW1 gives SeqW1's value under uniform grounds (the simplex is the
// oracle), and refuses other grounds.
func TestProductW1(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 4))
	for trial := range 150 {
		o, k := 2+rng.IntN(4), 1+rng.IntN(3)
		g := Discrete(o)
		if trial%2 == 1 {
			for i := range g {
				for j := range g[i] {
					g[i][j] *= 2.5
				}
			}
		}
		n := SeqLen(o, k)
		p, q := sparseLaw(rng, n, 0.5), sparseLaw(rng, n, 0.5)
		want, err := SeqW1(g, k, p, q)
		if err != nil {
			t.Fatal(err)
		}
		pf, err := NewProductW1(g, k)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pf.W1(p, q)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-12*math.Max(1, want) {
			t.Fatalf("trial %d (|O|=%d, k=%d): product flow %v, simplex %v", trial, o, k, got, want)
		}
	}
	if _, err := NewProductW1(Ordered(3), 2); err != ErrNotUniform {
		t.Fatalf("ordered ground: %v, want ErrNotUniform", err)
	}
}
