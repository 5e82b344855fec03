package witness

import (
	"fmt"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// The oracle: a separate, slow path that re-derives a witness from the
// definitions. It lists each probe family explicitly (its own loops, not
// package fsc), computes every law by summing over all state sequences
// (no beliefs, no dynamic programming, not package law or clock), groups
// histories by equality of their law vectors and runs greedy complete
// linkage itself. Only the exact W1 between two laws comes from package
// ot (an exact transport solver, tested on its own).

// MaxOracleWork bounds the oracle's work estimate (see OracleWork): a
// larger certification is refused before any law is computed.
const MaxOracleWork = 2e9

// OracleWork estimates the oracle's work for criterion cr on a model with
// nS states, nO observations and nA actions at horizon T: probes × |O|^T
// observation sequences × |S|^{T+1} state sequences (the sum over state
// sequences prunes zero-probability prefixes, so this is an upper bound),
// and names the largest factor.
func OracleWork(cr Criterion, nS, nO, nA, T int) (work float64, largest string) {
	probes := float64(nA)
	switch cr.base() {
	case Clk:
		probes = math.Pow(float64(nA), float64(T))
	case Mem:
		probes = float64(nA) + float64(nA*nA)*math.Pow(2, float64(2*nO))
	}
	seqs := math.Pow(float64(nO), float64(T))
	paths := math.Pow(float64(nS), float64(T+1))
	work = probes * seqs * paths
	largest = fmt.Sprintf("|S|^(T+1) = %.3g state sequences", paths)
	if seqs > paths && seqs >= probes {
		largest = fmt.Sprintf("|O|^T = %.3g observation sequences", seqs)
	} else if probes > paths {
		largest = fmt.Sprintf("%.3g probes", probes)
	}
	return work, largest
}

func checkOracleWork(cr Criterion, nS, nO, nA, T int) error {
	if w, largest := OracleWork(cr, nS, nO, nA, T); w > MaxOracleWork {
		return fmt.Errorf("witness: the brute-force oracle would need about %.3g operations for %s at |S| = %d, |O| = %d, |A| = %d, T = %d (largest factor: %s), above %.3g; lower T or use a smaller model",
			w, cr, nS, nO, nA, T, largest, float64(MaxOracleWork))
	}
	return nil
}

// oprobe is a deterministic controller of the oracle: open-loop when open
// is not nil (stage k plays open[k]), otherwise stationary with act[n]
// and next[n][o].
type oprobe struct {
	open []int
	act  []int
	next [][]int
}

func (p oprobe) nodes() int {
	if p.open != nil {
		return 1
	}
	return len(p.act)
}

// controller converts the probe for display.
func (p oprobe) controller(nA, nO int) *fsc.FSC {
	if p.open != nil {
		return fsc.OpenLoop(nA, nO, p.open)
	}
	next := make([][]int, len(p.next))
	for n := range next {
		next[n] = slices.Clone(p.next[n])
	}
	return &fsc.FSC{Nodes: len(p.act), NumActions: nA, NumObs: nO, Act: [][]int{slices.Clone(p.act)}, Next: [][][]int{next}}
}

// oracleFamily lists the probes of the smaller and the larger family of
// criterion cr, in a fixed order.
func oracleFamily(cr Criterion, nA, nO, T int) (small, large []oprobe) {
	switch cr.base() {
	case Clk:
		for a := 0; a < nA; a++ {
			small = append(small, oprobe{open: slices.Repeat([]int{a}, T)})
		}
		n := int(math.Pow(float64(nA), float64(T)))
		for i := 0; i < n; i++ {
			s := make([]int, T)
			for k, x := T-1, i; k >= 0; k-- {
				s[k] = x % nA
				x /= nA
			}
			large = append(large, oprobe{open: s})
		}
		return small, large
	}
	stationary := func(k int) []oprobe {
		var out []oprobe
		nAct := int(math.Pow(float64(nA), float64(k)))
		nNext := int(math.Pow(float64(k), float64(k*nO)))
		for ia := 0; ia < nAct; ia++ {
			for in := 0; in < nNext; in++ {
				p := oprobe{act: make([]int, k), next: make([][]int, k)}
				for n, x := k-1, ia; n >= 0; n-- {
					p.act[n] = x % nA
					x /= nA
				}
				x := in
				for n := k - 1; n >= 0; n-- {
					p.next[n] = make([]int, nO)
					for o := nO - 1; o >= 0; o-- {
						p.next[n][o] = x % k
						x /= k
					}
				}
				out = append(out, p)
			}
		}
		return out
	}
	small = stationary(1)
	if cr.base() == Mem {
		large = append(stationary(1), stationary(2)...)
	} else {
		large = small
	}
	return small, large
}

// pathMass returns Σ over state sequences s_t … s_T of
// start(s_t) Π_k T(s_{k−1}, a_k, s_k) Z(s_k, a_k, y_k), the actions played
// by p from node n at stage t while observing y (length T − t).
func pathMass(m *pomdp.Model, p oprobe, start []float64, node, t int, y []int) float64 {
	nS := m.NumStates()
	total := 0.0
	var rec func(k int, s int, node int, w float64)
	rec = func(k int, s int, node int, w float64) {
		if w == 0 {
			return
		}
		if k == len(y) {
			total += w
			return
		}
		var a int
		if p.open != nil {
			a = p.open[t+k]
		} else {
			a = p.act[node]
		}
		o := y[k]
		nn := node
		if p.open == nil {
			nn = p.next[node][o]
		}
		for s2 := 0; s2 < nS; s2++ {
			rec(k+1, s2, nn, w*m.TransitionProb(s, a, s2)*m.ObsProb(s2, a, o))
		}
	}
	for s := 0; s < nS; s++ {
		rec(0, s, node, start[s])
	}
	return total
}

// digits returns the base-nO digits of x (length k, most significant
// first): the observation sequence with index x.
func digits(x, nO, k int) []int {
	d := make([]int, k)
	for i := k - 1; i >= 0; i-- {
		d[i] = x % nO
		x /= nO
	}
	return d
}

// oracleLaws returns law[t][i], the conditional suffix law of depth-t
// history i under p, and possible[t][i]. An impossible history gets the
// point-mass stand-in (pointMass) or the law from the uniform
// distribution over (state, node) at its depth (the operational
// pipeline's stand-in; the node it would be in is not used).
func oracleLaws(m *pomdp.Model, p oprobe, T int, pointMass bool) (laws [][][]float64, possible [][]bool) {
	nS, nO := m.NumStates(), m.NumObservations()
	pow := func(k int) int { return int(math.Pow(float64(nO), float64(k))) }
	// Leaf masses P(x) for every x ∈ O^T.
	leaf := make([]float64, pow(T))
	for x := range leaf {
		leaf[x] = pathMass(m, p, m.B0, 0, 0, digits(x, nO, T))
	}
	laws = make([][][]float64, T+1)
	possible = make([][]bool, T+1)
	for t := 0; t <= T; t++ {
		n, L := pow(t), pow(T-t)
		laws[t] = make([][]float64, n)
		possible[t] = make([]bool, n)
		for i := 0; i < n; i++ {
			law := make([]float64, L)
			mass := 0.0
			for y := 0; y < L; y++ {
				law[y] = leaf[i*L+y]
				mass += law[y]
			}
			if mass > 0 {
				for y := range law {
					law[y] /= mass
				}
				possible[t][i] = true
			} else if pointMass || t == T {
				law[0] = 1
			} else {
				k := p.nodes()
				u := make([]float64, nS)
				for s := range u {
					u[s] = 1 / float64(nS*k)
				}
				sum := 0.0
				for y := 0; y < L; y++ {
					for node := 0; node < k; node++ {
						law[y] += pathMass(m, p, u, node, t, digits(y, nO, T-t))
					}
					sum += law[y]
				}
				for y := range law {
					law[y] /= sum
				}
			}
			laws[t][i] = law
		}
	}
	return laws, possible
}

// lawTol is the oracle's tolerance for equal laws (entry-wise).
const lawTol = 1e-9

func sameLaw(p, q []float64) bool {
	for k := range p {
		if math.Abs(p[k]-q[k]) > lawTol {
			return false
		}
	}
	return true
}

// oracleClasses groups the depth-t histories whose laws agree under every
// probe (laws[probe][t][i]); labels in order of first appearance.
func oracleClasses(laws [][][][]float64, t int) []int {
	n := len(laws[0][t])
	labels := make([]int, n)
	var reps []int
	for i := 0; i < n; i++ {
		labels[i] = -1
		for c, r := range reps {
			same := true
			for _, l := range laws {
				if !sameLaw(l[t][i], l[t][r]) {
					same = false
					break
				}
			}
			if same {
				labels[i] = c
				break
			}
		}
		if labels[i] < 0 {
			labels[i] = len(reps)
			reps = append(reps, i)
		}
	}
	return labels
}

// oracleGreedy is greedy complete linkage written from docs/conventions.md#partitions:
// singletons in history order; repeatedly merge the first pair of
// clusters (i < j) whose every cross distance is ≤ ε + 1e-12; rescan.
func oracleGreedy(d [][]float64, eps float64) []int {
	n := len(d)
	clusters := make([][]int, n)
	for i := range clusters {
		clusters[i] = []int{i}
	}
	for {
		merged := false
		for i := 0; i < len(clusters) && !merged; i++ {
			for j := i + 1; j < len(clusters) && !merged; j++ {
				ok := true
				for _, x := range clusters[i] {
					for _, y := range clusters[j] {
						if d[x][y] > eps+1e-12 {
							ok = false
						}
					}
				}
				if ok {
					clusters[i] = append(clusters[i], clusters[j]...)
					clusters = slices.Delete(clusters, j, j+1)
					merged = true
				}
			}
		}
		if !merged {
			break
		}
	}
	labels := make([]int, n)
	for c, cl := range clusters {
		for _, x := range cl {
			labels[x] = c
		}
	}
	return canonicalLabels(labels)
}

func canonicalLabels(l []int) []int {
	out := make([]int, len(l))
	seen := map[int]int{}
	for i, x := range l {
		c, ok := seen[x]
		if !ok {
			c = len(seen)
			seen[x] = c
		}
		out[i] = c
	}
	return out
}

// oracleDistances returns the depth-t matrices of max over probes of W1
// (discrete metric, additive cost) and of TV, and the probes attaining
// them.
func oracleDistances(nO, T, t int, laws [][][][]float64) (w1, tv [][]float64, argW, argT [][]int, err error) {
	n := len(laws[0][t])
	mk := func() [][]float64 {
		d := make([][]float64, n)
		for i := range d {
			d[i] = make([]float64, n)
		}
		return d
	}
	mi := func() [][]int {
		d := make([][]int, n)
		for i := range d {
			d[i] = make([]int, n)
		}
		return d
	}
	w1, tv, argW, argT = mk(), mk(), mi(), mi()
	g := ot.Discrete(nO)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			for k, l := range laws {
				p, q := l[t][i], l[t][j]
				v := 0.0
				for x := range p {
					v += math.Abs(p[x] - q[x])
				}
				v /= 2
				if v > tv[i][j] {
					tv[i][j], tv[j][i], argT[i][j] = v, v, k
				}
				if T-t == 0 {
					continue
				}
				w, e := ot.SeqW1(g, T-t, p, q)
				if e != nil {
					return nil, nil, nil, nil, fmt.Errorf("witness: oracle W1: %w", e)
				}
				if w > w1[i][j] {
					w1[i][j], w1[j][i], argW[i][j] = w, w, k
				}
			}
		}
	}
	return w1, tv, argW, argT, nil
}
