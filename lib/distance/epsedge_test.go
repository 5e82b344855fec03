package distance

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// programModel is a hand-built model whose two depth-1 histories have
// suffix laws W1 = TV = 1/2 apart exactly, from dyadic probabilities.
// Each state runs a "program": a group tag g and a sequence σ of three
// bits, (g, σ, i) for i = 0 … 4, moving to i + 1 (4 stays). Entering i = 1
// emits the tag, entering i = 2, 3, 4 emits σ's bits in order. The prior
// (in sixteenths) is 5 on (P, 000), 1 on each of (P, 111), (P, 001),
// (P, 110), 4 on (Q, 000) and 1 on each of (Q, 011), (Q, 100), (Q, 010),
// (Q, 101), all at i = 0. Both actions do the same, so every probe gives
// the same laws. After o₁ = 0 (group P) the law of o₂o₃o₄ is p = ⅝ on
// 000 and ⅛ on each of 111, 001, 110; after o₁ = 1 (group Q) it is
// q = ½ on 000 and ⅛ on each of 011, 100, 010, 101. They share ½ at 000;
// the rest, four atoms on each side, has no closed form. Under the
// discrete ground (Hamming cost on sequences):
//
//   - W1(p, q) ≤ 1/2: keep ½ at 000, move ⅛ each 000 → 100, 111 → 011,
//     001 → 101, 110 → 010, one bit each.
//   - W1(p, q) ≥ 1/2: f(x) = 1[x₁ ≠ x₂] is 1-Lipschitz under Hamming
//     (one bit changes f by at most 1), E_p f = 0, E_q f = ½.
//   - TV(p, q) = ½·(4·⅛ + 4·⅛) = 1/2.
//
// The one-step marginals of p and q are all (¾, ¼): the marginal bound
// is 0; the window of the first two bits (00 ¾, 11 ¼ against 00 ½, 01 ¼,
// 10 ¼) is ½, tight, and that of the last two is 0 (equal laws).
func programModel() *pomdp.Model {
	type prog struct {
		tag  int
		bits string
		b0   float64
	}
	progs := []prog{{0, "000", 5}, {0, "111", 1}, {0, "001", 1}, {0, "110", 1},
		{1, "000", 4}, {1, "011", 1}, {1, "100", 1}, {1, "010", 1}, {1, "101", 1}}
	nS := 5 * len(progs)
	states := make([]string, nS)
	tr := make([][]float64, nS)
	z := make([][]float64, nS)
	b0 := make([]float64, nS)
	for j, p := range progs {
		for i := 0; i < 5; i++ {
			s := 5*j + i
			states[s] = fmt.Sprintf("%c%s.%d", "PQ"[p.tag], p.bits, i)
			tr[s] = make([]float64, nS)
			tr[s][5*j+min(i+1, 4)] = 1
			z[s] = make([]float64, 2)
			switch {
			case i == 0:
				z[s][0] = 1 // never entered
			case i == 1:
				z[s][p.tag] = 1
			default:
				z[s][p.bits[i-2]-'0'] = 1
			}
		}
		b0[5*j] = p.b0 / 16
	}
	return pomdp.Must(pomdp.New(pomdp.Dense{Name: "program", States: states, Actions: []string{"a", "b"},
		Observations: []string{"0", "1"}, T: [][][]float64{tr, tr}, Z: [][][]float64{z, z}, B0: b0}))
}

// TestEpsOnDistance is the oracle of a distance equal to a listed ε
// (programModel: the depth-1 pair at W1 = TV = 1/2 exactly). It lists
// ε = 1/2, the ε whose threshold ε + ZeroTol is 1/2 exactly (the pair is
// within it: apart means above the threshold), the ε just below that
// (apart), and 1/4 (apart). Every path must give the two depth-1
// histories one class at the first two and two at the others, and the
// same partitions at every listed ε as the exact solve on the history
// tree, itself checked against Exact's classes and the distances of
// every pair of histories (AllPairs): decision mode, the compact layout with brackets, the suffix-law
// bounds on every pair (boundsMinSuffix 1, every problem "large",
// pivots on every depth), and the class path with the tree's laws or
// the representatives', under both metrics and stand-ins and 1–3
// workers.
func TestEpsOnDistance(t *testing.T) {
	m := programModel()
	const T = 4
	onThr := 0.5 - partition.ZeroTol
	if onThr+partition.ZeroTol != 0.5 {
		t.Fatalf("ε = %v: threshold %v, not 1/2", onThr, onThr+partition.ZeroTol)
	}
	below := prevFloat(onThr)
	eps := []float64{0, 0.25, below, onThr, 0.5}
	within := map[float64]bool{0: false, 0.25: false, below: false, onThr: true, 0.5: true}
	fam, err := fsc.New(fsc.KindStationary, 2, 2, 2, T, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	arcs, minSuffix, minClasses := denseArcs, boundsMinSuffix, pivotMinClasses
	defer func() { boundsMinSuffix, pivotMinClasses, denseArcs = minSuffix, minClasses, arcs }()
	for _, metric := range []Metric{W1, TV} {
		for _, conv := range []law.Convention{law.UniformStandIn, law.PointMassStandIn} {
			base := Options{Metric: metric, Convention: conv, Workers: 1}
			noClassDAG = true
			exact, err := Compute(context.Background(), m, fam, T, base)
			noClassDAG = false
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%v, %v", metric, conv)
			if l := exact.Classes.Labels[1]; l[0] == l[1] {
				t.Fatalf("%s: the depth-1 histories are one exact class", name)
			}
			if w := exact.At(1, 0, 1); w != 0.5 {
				t.Fatalf("%s: the depth-1 pair is %v apart, want 1/2", name, w)
			}
			for _, e := range eps {
				l := exact.Partition(e).Labels[1]
				if (l[0] == l[1]) != within[e] {
					t.Fatalf("%s: exact, ε = %v: depth-1 labels %v, want one class: %v", name, e, l, within[e])
				}
			}
			// The references: Exact's refinement (the ε = 0 classes) and
			// the distances of every pair of histories (AllPairs).
			ex, err := Exact(context.Background(), m, fam, T, base)
			if err != nil {
				t.Fatal(err)
			}
			for d := range ex.Partition.Labels {
				if !slices.Equal(ex.Partition.Labels[d], exact.Classes.Labels[d]) {
					t.Fatalf("%s: depth %d: Exact's classes %v, Compute's %v", name, d, ex.Partition.Labels[d], exact.Classes.Labels[d])
				}
			}
			all := base
			all.AllPairs = true
			ref, err := Compute(context.Background(), m, fam, T, all)
			if err != nil {
				t.Fatal(err)
			}
			samePartitions(t, name+", all pairs", exact, ref, eps)
			for _, v := range []struct {
				name            string
				compact, bounds bool
				dag, rep        bool
				workers         int
			}{
				{"decision mode", false, false, false, false, 2},
				{"compact", true, false, false, false, 3},
				{"compact, every bound", true, true, false, false, 2},
				{"class path", true, true, true, false, 1},
				{"class path, representatives' laws", true, true, true, true, 3},
				{"class path, decision mode", false, false, true, true, 2},
			} {
				opt := base
				opt.Eps, opt.Compact, opt.Workers = eps, v.compact, v.workers
				// Every bound: the bounds pass on every depth, the pivots on
				// every depth of two classes, and every problem "large"
				// (denseArcs 0), so that the sequential coupling and the
				// windows are tried on each.
				boundsMinSuffix, pivotMinClasses, denseArcs = minSuffix, minClasses, arcs
				if v.bounds {
					boundsMinSuffix, pivotMinClasses, denseArcs = 1, 2, 0
				}
				noClassDAG = !v.dag
				useClassDAG, useRepLaws = v.dag, v.rep
				got, err := Compute(context.Background(), m, fam, T, opt)
				noClassDAG, useClassDAG, useRepLaws = false, false, false
				if err != nil {
					t.Fatalf("%s, %s: %v", name, v.name, err)
				}
				if !slices.Equal(got.Classes.Labels[1], exact.Classes.Labels[1]) {
					t.Fatalf("%s, %s: exact classes %v, want %v", name, v.name, got.Classes.Labels[1], exact.Classes.Labels[1])
				}
				samePartitions(t, name+", "+v.name, got, exact, eps)
			}
		}
	}
}

func prevFloat(x float64) float64 { return math.Nextafter(x, math.Inf(-1)) }
