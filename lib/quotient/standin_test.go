package quotient

import (
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// staticModel returns a one-action model whose state never moves, with
// emission rows z (z[s][o]) and initial belief b0.
func staticModel(t *testing.T, z [][]float64, b0 []float64) *pomdp.Model {
	t.Helper()
	nS, nO := len(z), len(z[0])
	d := pomdp.Dense{Name: "static", Actions: []string{"a"}, B0: b0}
	var tr [][]float64
	for s := 0; s < nS; s++ {
		d.States = append(d.States, "s"+string(rune('0'+s)))
		row := make([]float64, nS)
		row[s] = 1
		tr = append(tr, row)
		d.R = append(d.R, []float64{0})
	}
	for o := 0; o < nO; o++ {
		d.Observations = append(d.Observations, "o"+string(rune('0'+o)))
	}
	d.T, d.Z = [][][]float64{tr}, [][][]float64{z}
	m, err := pomdp.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestClassBeliefsHandDerived checks ClassBeliefs and StandInClasses
// against a hand derivation on a model with impossible histories.
//
// Model: states s0, s1 that never move, one action, b0 = (1/2, 1/2);
// s0 emits o0; s1 emits o0 or o1 with 1/2 each; nothing emits o2, so every
// history containing o2 is impossible. Beliefs by Bayes' rule:
//
//	o0:   ∝ (1/2·1, 1/2·1/2) = (1/2, 1/4)  → (2/3, 1/3)   P = 3/4
//	o1:   ∝ (0, 1/4)                       → (0, 1)       P = 1/4
//	o0o0: ∝ (2/3·1, 1/3·1/2)               → (4/5, 1/5)
//	o0o1, o1o0, o1o1:                      → (0, 1)
//	o2, o0o2, o1o2, o2·: impossible.
//
// Partition (depth 1): A = {o0, o2}, B = {o1}; (depth 2): X = {o0o0,
// o1o1, o2o0}, Z = {o0o1, o1o0}, Y = {o0o2, o1o2, o2o1, o2o2}. Class
// beliefs, the average over possible members:
//
//	A = (2/3, 1/3)                 (o2 carries no weight; mixing its
//	                                uniform stand-in gave (7/12, 5/12))
//	B = (0, 1)
//	X = ((4/5, 1/5) + (0, 1))/2 = (2/5, 3/5)  (not (13/30, 17/30))
//	Z = (0, 1)
//	Y = (1/2, 1/2)                 (no possible member: the stand-in)
//
// The quotient never predicts o2 (no state emits it), so Y is never
// entered: StandInReach = 0.
func TestClassBeliefsHandDerived(t *testing.T) {
	m := staticModel(t, [][]float64{{1, 0, 0}, {0.5, 0.5, 0}}, []float64{0.5, 0.5})
	p := partition.FromLabels([][]int{{0}, {0, 1, 0}, {0, 1, 2, 1, 0, 2, 0, 2, 2}})
	q, err := New(m, 2, p)
	if err != nil {
		t.Fatal(err)
	}
	pi := fsc.Constant(1, 3, 0)
	cb, err := q.ClassBeliefs(pi)
	if err != nil {
		t.Fatal(err)
	}
	want := [][][]float64{
		{{0.5, 0.5}},
		{{2. / 3, 1. / 3}, {0, 1}},
		{{2. / 5, 3. / 5}, {0, 1}, {0.5, 0.5}},
	}
	for d := range want {
		for c := range want[d] {
			for s, w := range want[d][c] {
				if math.Abs(cb[d][c][s]-w) > 1e-12 {
					t.Errorf("depth %d class %s: belief %v, want %v", d, q.ClassLabel(d, c), cb[d][c], want[d][c])
					break
				}
			}
		}
	}
	si, err := q.StandInClasses(pi)
	if err != nil {
		t.Fatal(err)
	}
	wantSI := [][]bool{{false}, {false, false}, {false, false, true}}
	for d := range wantSI {
		for c := range wantSI[d] {
			if si[d][c] != wantSI[d][c] {
				t.Errorf("depth %d class %s: stand-in %v, want %v", d, q.ClassLabel(d, c), si[d][c], wantSI[d][c])
			}
		}
	}
	if r, err := q.StandInReach(pi); err != nil || r != 0 {
		t.Errorf("StandInReach = %v, %v; want 0 (o2 is never predicted)", r, err)
	}
}

// TestStandInReachHandDerived checks that StandInReach sees a stand-in
// class that a quotient does enter (a partition that is not
// right-invariant). Model: s0 emits o0, s1 emits o1, states never move,
// b0 = (1/2, 1/2); o0o1 and o1o0 are impossible. Partition: C = {o0, o1}
// at depth 1, X = {o0o0, o1o1} and Y = {o0o1, o1o0} at depth 2. Then
// b̄_C = ((1, 0) + (0, 1))/2 = (1/2, 1/2); the quotient moves from C on o1
// (probability 1/2) to the class of rep(C)·o1 = o0o1, which is Y, a class
// with no possible member: StandInReach = 1/2.
func TestStandInReachHandDerived(t *testing.T) {
	m := staticModel(t, [][]float64{{1, 0}, {0, 1}}, []float64{0.5, 0.5})
	q, err := New(m, 2, partition.FromLabels([][]int{{0}, {0, 0}, {0, 1, 1, 0}}))
	if err != nil {
		t.Fatal(err)
	}
	if q.RightInvariant() {
		t.Fatal("the partition is right-invariant; the case needs one that is not")
	}
	r, err := q.StandInReach(fsc.Constant(1, 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r-0.5) > 1e-12 {
		t.Errorf("StandInReach = %v, want 1/2", r)
	}
}
