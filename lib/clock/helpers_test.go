package clock

import (
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/internal/benchtest"
	"github.com/pomdpq/pomdpq/internal/randmodel"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// lookup is benchtest.Lookup.
var lookup = benchtest.Lookup

// randomModel draws a dense model in which about 30% of the transition and
// observation entries are zero, so that some (history, prefix) pairs are
// impossible.
func randomModel(seed uint64, nS, nA, nO int) *pomdp.Model {
	return pomdp.Must(pomdp.New(randmodel.SparseDense(seed, 7, 0.3, nS, nA, nO)))
}

// coincide is a two-state model in which real beliefs have the stand-in's
// law: every action emits o0 surely from s0, a0 reveals the state (o0 in
// s0, o1 in s1) and a1 emits o0 from both states. A belief concentrated on
// s0, or any belief under the constant string a1…a1, emits o0…o0 surely:
// the point-mass law of an impossible history (law.PointMassStandIn).
func coincide() *pomdp.Model {
	id := [][]float64{{1, 0}, {0, 1}}
	return pomdp.Must(pomdp.New(pomdp.Dense{
		Name: "coincide", States: []string{"s0", "s1"}, Actions: []string{"a0", "a1"}, Observations: []string{"o0", "o1"},
		T: [][][]float64{id, id},
		Z: [][][]float64{{{1, 0}, {0, 1}}, {{1, 0}, {1, 0}}},
	}))
}

// strings returns A^T in base-|A| order (first action most significant).
func allStrings(nA, T int) [][]int {
	out := [][]int{{}}
	for range T {
		var next [][]int
		for _, s := range out {
			for a := range nA {
				next = append(next, append(append([]int(nil), s...), a))
			}
		}
		out = next
	}
	return out
}

func isConstant(s []int) bool {
	for _, a := range s {
		if a != s[0] {
			return false
		}
	}
	return true
}

// brute holds the laws of every open-loop string computed by package law
// with the point-mass stand-in (the independent oracle of these tests).
type brute struct {
	tree    law.Tree
	strs    [][]int
	laws    []*law.Laws
	constIx []int // indices of the constant strings (for T = 0, all)
}

func newBrute(t testing.TB, m *pomdp.Model, T int) *brute {
	t.Helper()
	nA, nO := m.NumActions(), m.NumObservations()
	eng, err := law.NewEngine(m, T, law.PointMassStandIn)
	if err != nil {
		t.Fatal(err)
	}
	br := &brute{tree: eng.Tree(), strs: allStrings(nA, T)}
	for i, s := range br.strs {
		var c *fsc.FSC
		if T == 0 {
			c = fsc.Constant(nA, nO, 0)
		} else {
			c = fsc.OpenLoop(nA, nO, s)
		}
		l, err := eng.Compute(c)
		if err != nil {
			t.Fatal(err)
		}
		br.laws = append(br.laws, l)
		if isConstant(s) {
			br.constIx = append(br.constIx, i)
		}
	}
	if T == 0 {
		br.constIx = br.constIx[:1]
	}
	return br
}

// partition groups histories whose law vectors over the probes ix agree
// within 1e-12 (first-fit against class representatives, history order).
func (br *brute) partition(ix []int) *partition.Partition {
	tr := br.tree
	labels := make([][]int, tr.T+1)
	for t := 0; t <= tr.T; t++ {
		var reps []int
		labels[t] = make([]int, tr.Count(t))
		for i := range labels[t] {
			c := -1
			for r, j := range reps {
				if br.equalLaws(ix, t, i, j) {
					c = r
					break
				}
			}
			if c < 0 {
				c = len(reps)
				reps = append(reps, i)
			}
			labels[t][i] = c
		}
	}
	return partition.FromLabels(labels)
}

func (br *brute) equalLaws(ix []int, t, i, j int) bool {
	for _, k := range ix {
		p, q := br.laws[k].Suffix(t, i), br.laws[k].Suffix(t, j)
		for x := range p {
			if !(math.Abs(p[x]-q[x]) <= 1e-12) {
				return false
			}
		}
	}
	return true
}

func (br *brute) all() []int {
	ix := make([]int, len(br.laws))
	for i := range ix {
		ix[i] = i
	}
	return ix
}

func (br *brute) standIns(ix []int) int64 {
	n := int64(0)
	for _, k := range ix {
		n += int64(br.laws[k].StandIns)
	}
	return n
}

// nestedLaws is the recursive transport between two laws on O^k computed
// from the laws themselves (first-step marginals, conditional laws, one
// |O|×|O| transport per step), independently of this package's belief
// recursion.
func nestedLaws(t testing.TB, g ot.Ground, k int, p, q []float64) float64 {
	if k == 0 {
		return 0
	}
	nO := len(g)
	n := len(p) / nO
	mp, mq := make([]float64, nO), make([]float64, nO)
	for o := range nO {
		for x := range n {
			mp[o] += p[o*n+x]
			mq[o] += q[o*n+x]
		}
	}
	cost := make([]float64, nO*nO)
	for o := range nO {
		for o2 := range nO {
			cost[o*nO+o2] = g[o][o2]
			if mp[o] == 0 || mq[o2] == 0 {
				continue
			}
			cp, cq := make([]float64, n), make([]float64, n)
			for x := range n {
				cp[x] = p[o*n+x] / mp[o]
				cq[x] = q[o2*n+x] / mq[o2]
			}
			cost[o*nO+o2] += nestedLaws(t, g, k-1, cp, cq)
		}
	}
	v, err := ot.W1(mp, mq, cost)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// distances returns the brute-force depth-t matrices max over the probes
// ix of the exact W1 (or nested transport) between suffix laws.
func (br *brute) distances(t testing.TB, g ot.Ground, tr Transport, ix []int) []partition.Matrix {
	tree := br.tree
	out := make([]partition.Matrix, tree.T+1)
	var s ot.Solver
	for d := 0; d <= tree.T; d++ {
		n := tree.Count(d)
		out[d] = partition.NewMatrix(n)
		k := tree.T - d
		for i := range n {
			for j := i + 1; j < n; j++ {
				best := 0.0
				for _, x := range ix {
					p, q := br.laws[x].Suffix(d, i), br.laws[x].Suffix(d, j)
					var v float64
					if tr == TransportNested {
						v = nestedLaws(t, g, k, p, q)
					} else {
						r, err := s.SeqW1(g, k, p, q)
						if err != nil {
							t.Fatal(err)
						}
						v = r.Value
					}
					best = math.Max(best, v)
				}
				out[d].Data[out[d].Index(i, j)] = best
			}
		}
	}
	return out
}
