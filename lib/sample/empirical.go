package sample

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pomdpq/pomdpq/lib/ot"
)

// Empirical is an empirical law over the suffixes O^K: Counts[j] of the N
// sampled suffixes had index Atoms[j] (base-|O|, first observation most
// significant). Atoms are strictly increasing and every count is positive.
type Empirical struct {
	NumObs, K, N int
	Atoms        []int32
	Counts       []int32
}

// Len returns |O|^K, the number of possible suffixes.
func (e Empirical) Len() int { return pow(e.NumObs, e.K) }

// Probs writes the empirical probabilities as a dense vector of length
// |O|^K into dst (allocated when too short) and returns it.
func (e Empirical) Probs(dst []float64) []float64 {
	n := e.Len()
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	clear(dst)
	for j, a := range e.Atoms {
		dst[a] = float64(e.Counts[j]) / float64(e.N)
	}
	return dst
}

// W1 returns the exact W1 distance between two empirical laws over the same
// suffix space under the additive sequence cost built from g (nil: the
// discrete metric), solved on the empirical supports:
//
//	W1(P̂, Q̂) = min over couplings of P̂, Q̂ of E Σ_t g(o_t, o'_t).
//
// It returns an error when the laws have different suffix spaces or sample
// sizes mismatch their counts, and the errors of ot.Solver.SeqW1. It costs
// O(|O|^K) plus a transport problem on at most the two supports.
func W1(g ot.Ground, p, q Empirical) (float64, error) {
	if p.NumObs != q.NumObs || p.K != q.K {
		return 0, fmt.Errorf("sample: laws over different suffix spaces (|O| = %d, K = %d vs |O| = %d, K = %d)", p.NumObs, p.K, q.NumObs, q.K)
	}
	for _, e := range []Empirical{p, q} {
		if err := e.check(); err != nil {
			return 0, err
		}
	}
	if g == nil {
		g = ot.Discrete(p.NumObs)
	}
	var w transport
	w.g = g
	return w.dist(p, q, p.Counts, q.Counts)
}

// check reports inconsistent counts.
func (e Empirical) check() error {
	if len(e.Atoms) != len(e.Counts) {
		return fmt.Errorf("sample: empirical law has %d atoms and %d counts", len(e.Atoms), len(e.Counts))
	}
	total := 0
	for j, c := range e.Counts {
		if c < 0 || int(e.Atoms[j]) >= e.Len() || e.Atoms[j] < 0 {
			return fmt.Errorf("sample: empirical law entry %d (atom %d, count %d) out of range", j, e.Atoms[j], c)
		}
		total += int(c)
	}
	if total != e.N || e.N <= 0 {
		return fmt.Errorf("sample: empirical law counts sum to %d, N = %d", total, e.N)
	}
	return nil
}

// transport computes W1 between empirical laws with a reusable solver and
// dense scratch vectors (one per worker).
type transport struct {
	g    ot.Ground
	s    ot.Solver
	p, q []float64
	diam float64 // of g, computed on first use
}

// dist returns W1 between laws a and b with counts ca and cb (the laws'
// own counts or bootstrap counts over the same atoms).
func (w *transport) dist(a, b Empirical, ca, cb []int32) (float64, error) {
	return w.distAbove(a, b, ca, cb, -1)
}

// distAbove is dist for callers that only need values above floor: when
// the cheap bound k·diam(g)·TV is at most floor it is returned instead of
// solving (it is ≥ W1, so a running maximum ≥ floor is unchanged).
func (w *transport) distAbove(a, b Empirical, ca, cb []int32, floor float64) (float64, error) {
	n := a.Len()
	if len(w.p) < n {
		w.p = make([]float64, n)
		w.q = make([]float64, n)
	}
	p, q := w.p[:n], w.q[:n]
	fill := func(dst []float64, e Empirical, c []int32) {
		inv := 1 / float64(e.N)
		for j, at := range e.Atoms {
			dst[at] = float64(c[j]) * inv
		}
	}
	fill(p, a, ca)
	fill(q, b, cb)
	defer func() {
		for _, at := range a.Atoms {
			p[at] = 0
		}
		for _, at := range b.Atoms {
			q[at] = 0
		}
	}()
	if floor >= 0 {
		if ub := w.bound(a, b, ca, cb); ub <= floor {
			return ub, nil
		}
	}
	res, err := w.s.SeqW1(w.g, a.K, p, q)
	if err != nil {
		return 0, err
	}
	return res.Value, nil
}

// bound returns k·diam(g)·TV(P, Q) from the atoms (the sparse form of
// ot.UpperBound), with p and q filled.
func (w *transport) bound(a, b Empirical, ca, cb []int32) float64 {
	if w.diam == 0 {
		for _, row := range w.g {
			for _, v := range row {
				w.diam = math.Max(w.diam, v)
			}
		}
	}
	tv := 0.0
	for _, at := range a.Atoms {
		if d := w.p[at] - w.q[at]; d > 0 {
			tv += d
		}
	}
	return float64(a.K) * w.diam * tv
}

// resample writes into dst the counts of a multinomial resample of size e.N
// from e (a bootstrap resample of its N trajectories), by conditional
// binomials over the atoms: O(atoms) binomial draws.
func (e Empirical) resample(dst []int32, r *rand.Rand) {
	left := e.N
	rest := e.N // Σ of the counts not yet visited
	for j, c := range e.Counts {
		if left == 0 {
			dst[j] = 0
			continue
		}
		if j == len(e.Counts)-1 || int(c) == rest {
			dst[j] = int32(left)
			left = 0
			continue
		}
		x := binomial(r, left, float64(c)/float64(rest))
		dst[j] = int32(x)
		left -= x
		rest -= int(c)
	}
}

// binomial draws from Binomial(n, p) exactly: by inversion when n·min(p,
// 1−p) < 10, else by Hörmann's transformed rejection with squeeze (BTRS,
// "The generation of binomial random variates", 1993).
func binomial(r *rand.Rand, n int, p float64) int {
	if n <= 0 || p <= 0 {
		return 0
	}
	if p >= 1 {
		return n
	}
	if p > 0.5 {
		return n - binomial(r, n, 1-p)
	}
	if float64(n)*p < 10 {
		return binomialInversion(r, n, p)
	}
	return binomialBTRS(r, n, p)
}

func binomialInversion(r *rand.Rand, n int, p float64) int {
	q := 1 - p
	s := p / q
	f := math.Pow(q, float64(n)) // P(X = 0) ≥ e^{−10·(1+p)} > 0 here
	u := r.Float64()
	for x := 0; x < n; x++ {
		if u < f {
			return x
		}
		u -= f
		f *= s * float64(n-x) / float64(x+1)
	}
	return n
}

func binomialBTRS(r *rand.Rand, n int, p float64) int {
	fn := float64(n)
	q := 1 - p
	spq := math.Sqrt(fn * p * q)
	b := 1.15 + 2.53*spq
	a := -0.0873 + 0.0248*b + 0.01*p
	c := fn*p + 0.5
	vr := 0.92 - 4.2/b
	alpha := (2.83 + 5.1/b) * spq
	lpq := math.Log(p / q)
	m := math.Floor((fn + 1) * p)
	h := lgamma(m+1) + lgamma(fn-m+1)
	for {
		u := r.Float64() - 0.5
		v := r.Float64()
		us := 0.5 - math.Abs(u)
		k := math.Floor((2*a/us+b)*u + c)
		if k < 0 || k > fn {
			continue
		}
		if us >= 0.07 && v <= vr {
			return int(k)
		}
		v = math.Log(v * alpha / (a/(us*us) + b))
		if v <= h-lgamma(k+1)-lgamma(fn-k+1)+(k-m)*lpq {
			return int(k)
		}
	}
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

func pow(b, e int) int {
	x := 1
	for range e {
		x *= b
	}
	return x
}
