package statbb

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// coverT2 is an independent oracle for the stationary m ≤ 2 family at
// T = 2, small enough to enumerate on models with many observations. At
// T = 2 the only pairs are of depth-1 histories (o, o'), whose laws read
// α(0), α(1) and the two next-node entries β(0, o), β(0, o') (under the
// uniform stand-in an impossible history reads α only). So the family's
// maximum for every pair is attained on a family whose β(0, ·) rows take
// every value on every two distinct observations: the constant rows 0 and
// 1, and for every bit j of the observation index the row o ↦ bit j of o
// and its complement (two observations differ at some bit j, where one of
// the two rows gives (0, 1) and the other (1, 0)). With every action
// table that is |A|²·(2 + 2⌈log₂|O|⌉) controllers (hallway: 300).
func coverT2(nA, nO int) *fsc.List {
	var rows [][]int
	row := func(f func(o int) int) {
		r := make([]int, nO)
		for o := range r {
			r[o] = f(o)
		}
		rows = append(rows, r)
	}
	row(func(int) int { return 0 })
	row(func(int) int { return 1 })
	for j := 0; j < bits.Len(uint(nO-1)); j++ {
		row(func(o int) int { return o >> j & 1 })
		row(func(o int) int { return 1 - o>>j&1 })
	}
	l := &fsc.List{Name: "T = 2 cover of stationary m ≤ 2", K: fsc.KindStationary, Mem: 2}
	for a0 := 0; a0 < nA; a0++ {
		for a1 := 0; a1 < nA; a1++ {
			for _, r := range rows {
				c := &fsc.FSC{Nodes: 2, NumActions: nA, NumObs: nO, Act: [][]int{{a0, a1}},
					Next: [][][]int{{r, make([]int, nO)}}}
				l.Ctrls = append(l.Ctrls, c)
			}
		}
	}
	return l
}

// checkCoverT2 compares the search's exact T = 2 distances and decision
// partitions with coverT2's enumeration.
func checkCoverT2(t *testing.T, m *pomdp.Model, g ot.Ground, conv law.Convention) {
	t.Helper()
	fam := coverT2(m.NumActions(), m.NumObservations())
	for _, c := range fam.Ctrls {
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	want, err := distance.Compute(context.Background(), m, fam, 2, distance.Options{Ground: g, Convention: conv, MemBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Compute(context.Background(), m, 2, 2, Options{Ground: g, Convention: conv})
	if err != nil {
		t.Fatal(err)
	}
	n := want.Tree.Count(1)
	positive := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			w, v := want.At(1, i, j), got.Lower[1].At(i, j)
			if math.Abs(w-v) > 1e-9 {
				t.Fatalf("%s %v: d(o%d, o%d) = %.12g, cover enumeration %.12g", m.Name, conv, i, j, v, w)
			}
			if w > 1e-9 {
				positive++
			}
		}
	}
	if positive == 0 {
		t.Fatalf("%s: every depth-1 distance is 0: the check is vacuous", m.Name)
	}
	eps := []float64{0, 0.1, 0.3}
	dec, err := Compute(context.Background(), m, 2, 2, Options{Ground: g, Convention: conv, Eps: eps})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eps {
		a, b := want.Partition(e), dec.Partition(e)
		if fmt.Sprint(a.Labels) != fmt.Sprint(b.Labels) {
			t.Fatalf("%s %v ε=%g: decision partition %v, cover enumeration %v", m.Name, conv, e, b.Labels, a.Labels)
		}
		t.Logf("%s %v ε=%g: %d classes (search and cover enumeration)", m.Name, conv, e, b.Total())
	}
}

// TestCoverT2 is the oracle on our own models with many observations: Tag
// (870 states, 30 observations: 2.9·10¹⁹ controllers) and a random model
// with 12 observations. It is the in-repository twin of
// TestCoverT2SharedFiles.
func TestCoverT2(t *testing.T) {
	if testing.Short() {
		t.Skip("short: Tag's laws at T = 2 for 450 controllers")
	}
	for _, spec := range []string{"tag", "random:12:3:12:5"} {
		b := lookup(t, spec)
		for _, conv := range []law.Convention{law.UniformStandIn, law.PointMassStandIn} {
			t.Run(fmt.Sprintf("%s/%v", spec, conv), func(t *testing.T) { checkCoverT2(t, b.Model, b.Ground, conv) })
		}
	}
}

// TestCoverT2SharedFiles runs the oracle on hallway and tiger-grid (the
// issue's models; 1.1·10¹⁴ and 4.0·10¹¹ controllers).
func TestCoverT2SharedFiles(t *testing.T) {
	for _, file := range []string{"hallway.POMDP", "tiger-grid.POMDP"} {
		m, err := modelfile.Load(shared.Path(t, "TestCoverT2", "pomdp", file))
		if err != nil {
			t.Fatal(err)
		}
		for _, conv := range []law.Convention{law.UniformStandIn, law.PointMassStandIn} {
			t.Run(fmt.Sprintf("%s/%v", file, conv), func(t *testing.T) { checkCoverT2(t, m, nil, conv) })
		}
	}
}

// randomControllers draws n stationary controllers with 1 or 2 nodes,
// half of them with a constant next-node row (the search's first
// candidates are not special: these are independent probes).
func randomControllers(seed uint64, nA, nO, n int) *fsc.List {
	rng := rand.New(rand.NewPCG(seed, 3))
	l := &fsc.List{Name: "random stationary m ≤ 2", K: fsc.KindStationary, Mem: 2}
	for range n {
		k := 1 + rng.IntN(2)
		c := &fsc.FSC{Nodes: k, NumActions: nA, NumObs: nO, Act: [][]int{make([]int, k)}, Next: [][][]int{make([][]int, k)}}
		for q := range k {
			c.Act[0][q] = rng.IntN(nA)
			c.Next[0][q] = make([]int, nO)
			constant := rng.IntN(2) == 0
			v := rng.IntN(k)
			for o := range nO {
				if !constant {
					v = rng.IntN(k)
				}
				c.Next[0][q][o] = v
			}
		}
		l.Ctrls = append(l.Ctrls, c)
	}
	return l
}

// checkSampled checks the search at T = 3, where no enumeration fits,
// against sampled controllers: no sampled controller separates a pair by
// more than the search's upper bound, and every pair a sample puts above
// a listed ε is above it in the search's decision too.
func checkSampled(t *testing.T, m *pomdp.Model, T int) {
	t.Helper()
	fam := randomControllers(7, m.NumActions(), m.NumObservations(), 60)
	sample, err := distance.Compute(context.Background(), m, fam, T, distance.Options{MemBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	eps := []float64{0, 0.1, 0.3}
	got, err := Compute(context.Background(), m, 2, T, Options{Eps: eps})
	if err != nil {
		t.Fatal(err)
	}
	full := sample.Full()
	checked, above := 0, 0
	for d := 1; d < T; d++ {
		for k, v := range full[d].Data {
			lo, hi := got.Lower[d].Data[k], got.Upper[d].Data[k]
			if v > hi+1e-9 {
				t.Fatalf("%s T=%d depth %d entry %d: a sampled controller gives %.12g above the search's upper bound %.12g", m.Name, T, d, k, v, hi)
			}
			for _, e := range eps {
				if v > e+1e-9 && !(lo > e+1e-12) {
					t.Fatalf("%s T=%d depth %d entry %d: a sampled controller gives %.12g > ε = %g, the search decided %.12g", m.Name, T, d, k, v, e, lo)
				}
			}
			checked++
			if v > 0.3 {
				above++
			}
		}
	}
	t.Logf("%s T=%d: %d pairs checked against 60 sampled controllers, %d above ε = 0.3 in the sample", m.Name, T, checked, above)
}

// TestSampledT3 is the sampled check on a random model with 8
// observations; the in-repository twin of TestSampledT3SharedFiles.
func TestSampledT3(t *testing.T) {
	checkSampled(t, lookup(t, "random:8:3:8:5").Model, 3)
}

// TestSampledT3SharedFiles runs the sampled check on hallway and
// tiger-grid at T = 3 (the search takes seconds there).
func TestSampledT3SharedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("short: hallway and tiger-grid at T = 3")
	}
	for _, file := range []string{"hallway.POMDP", "tiger-grid.POMDP"} {
		m, err := modelfile.Load(shared.Path(t, "TestSampledT3", "pomdp", file))
		if err != nil {
			t.Fatal(err)
		}
		checkSampled(t, m, 3)
	}
}

// checkM1 compares the one-node search with the enumeration of the
// |A| one-node controllers at horizon T (a real-model check of the
// search's machinery at T = 3, where m ≤ 2 cannot be enumerated).
func checkM1(t *testing.T, m *pomdp.Model, T int) {
	t.Helper()
	for _, conv := range []law.Convention{law.UniformStandIn, law.PointMassStandIn} {
		want := enumerate(t, m, nil, 1, T, conv)
		eps := []float64{0, 0.1, 0.3}
		got, err := Compute(context.Background(), m, 1, T, Options{Convention: conv, Eps: eps})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range eps {
			a, b := want.Partition(e), got.Partition(e)
			if fmt.Sprint(a.Labels) != fmt.Sprint(b.Labels) {
				t.Fatalf("%s m=1 T=%d %v ε=%g: search %d classes, enumeration %d", m.Name, T, conv, e, b.Total(), a.Total())
			}
			t.Logf("%s m=1 T=%d %v ε=%g: %d classes (search and enumeration)", m.Name, T, conv, e, b.Total())
		}
	}
}

// TestM1 is the one-node check on a random model with 12 observations;
// the in-repository twin of TestM1SharedFiles.
func TestM1(t *testing.T) {
	checkM1(t, lookup(t, "random:12:3:12:5").Model, 3)
}

// TestM1SharedFiles runs the one-node check on hallway and tiger-grid at
// T = 3.
func TestM1SharedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("short: hallway and tiger-grid at T = 3")
	}
	for _, file := range []string{"hallway.POMDP", "tiger-grid.POMDP"} {
		m, err := modelfile.Load(shared.Path(t, "TestM1", "pomdp", file))
		if err != nil {
			t.Fatal(err)
		}
		checkM1(t, m, 3)
	}
}
