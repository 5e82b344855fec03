package quotient

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpjson"
)

func build(t *testing.T, name string, m, T int, eps float64) (*Quotient, fsc.Family) {
	t.Helper()
	b, err := bench.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), m, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := distance.Compute(context.Background(), b.Model, fam, T, distance.Options{Ground: b.Ground})
	if err != nil {
		t.Fatal(err)
	}
	q, err := New(b.Model, T, r.Partition(eps))
	if err != nil {
		t.Fatal(err)
	}
	return q, fam
}

// TestSoundness checks thm:myhill-nerode (ii): at ε = 0 the quotient
// reproduces P_M^π for every probe of the family.
func TestSoundness(t *testing.T) {
	for _, tc := range []struct {
		model string
		m, T  int
	}{{"tiger", 2, 4}, {"gridworld:3", 1, 3}, {"tiger-listen", 1, 3}, {"witness", 1, 3}} {
		q, fam := build(t, tc.model, tc.m, tc.T, 0)
		if !q.RightInvariant() {
			t.Errorf("%s: exact partition is not right-invariant (prop:equiv-props (b))", tc.model)
		}
		for i := 0; i < fam.Len(); i++ {
			maxAbs, tv, err := q.SoundnessGap(fam.At(i))
			if err != nil {
				t.Fatal(err)
			}
			if !(maxAbs <= 1e-12 && tv <= 1e-12) {
				t.Fatalf("%s: probe %d: |P_M − P_Q| = %g (TV %g), want 0", tc.model, i, maxAbs, tv)
			}
		}
	}
}

// TestCoarseQuotientDiffers checks that the check can fail: the ε = 0.5
// quotient of GridWorld merges histories with different laws.
func TestCoarseQuotientDiffers(t *testing.T) {
	q, fam := build(t, "gridworld:3", 1, 2, 0.5)
	worst := 0.0
	for i := 0; i < fam.Len(); i++ {
		_, tv, err := q.SoundnessGap(fam.At(i))
		if err != nil {
			t.Fatal(err)
		}
		worst = math.Max(worst, tv)
	}
	if !(worst > 1e-6) {
		t.Fatalf("ε = 0.5 quotient reproduces every law (TV %g); expected a visible gap", worst)
	}
}

func TestTigerListenQuotient(t *testing.T) {
	// fig:tiger-quotient right: at ε = 0.5, [ε] → [{L,R}] → [O²].
	q, _ := build(t, "tiger-listen", 1, 2, 0.5)
	if q.Classes() != 3 {
		t.Fatalf("%d classes, want 3", q.Classes())
	}
	m, err := q.Export(fsc.Constant(1, 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	// root, depth-1 class entered by L or R, depth-2 class entered by L or R.
	if m.NumStates() != 5 {
		t.Fatalf("exported quotient has %d states (%v), want 5", m.NumStates(), m.States)
	}
	l, err := law.Compute(m, fsc.Constant(1, 2, 0), 2, law.UniformStandIn)
	if err != nil {
		t.Fatal(err)
	}
	// The class {L, R} aggregates b_L and b_R uniformly: belief (½, ½), so
	// the quotient's law of O_2 after L is (½, ½), not (0.745, 0.255).
	if got := l.Suffix(1, 0); !(math.Abs(got[0]-0.5) <= 1e-12) {
		t.Fatalf("quotient law after L = %v, want (0.5, 0.5)", got)
	}
}

func TestExportRoundTrip(t *testing.T) {
	// The exported quotient must load in other solvers: write it as a
	// Cassandra file (GridWorld; Tiger's observation "R" is a keyword of
	// that format) and as JSON, and read it back.
	gq, gfam := build(t, "gridworld:3", 1, 2, 0)
	gm, err := gq.Export(gfam.At(0))
	if err != nil {
		t.Fatal(err)
	}
	var cbuf bytes.Buffer
	if err := cassandra.Write(&cbuf, gm); err != nil {
		t.Fatal(err)
	}
	if back, err := cassandra.Read(&cbuf, "quotient.pomdp"); err != nil || back.NumStates() != gm.NumStates() {
		t.Fatalf("Cassandra round trip: %v", err)
	}
	q, fam := build(t, "tiger", 1, 3, 0)
	m, err := q.Export(fam.At(0))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := pomdpjson.Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	back, err := pomdpjson.Read(&buf, "quotient.json")
	if err != nil {
		t.Fatal(err)
	}
	if back.NumStates() != m.NumStates() {
		t.Fatalf("read back %d states, wrote %d", back.NumStates(), m.NumStates())
	}
	if got := q.ClassLabel(1, 0); got != "{L}" {
		t.Fatalf("ClassLabel(1, 0) = %q, want {L}", got)
	}
}

func TestNewRejects(t *testing.T) {
	b, _ := bench.Lookup("tiger")
	p := partition.FromLabels([][]int{{0}, {0, 1}})
	if _, err := New(b.Model, 2, p); err == nil {
		t.Error("partition with too few depths accepted")
	}
	p = partition.FromLabels([][]int{{0}, {0, 1, 2}, {0, 0, 0, 0}})
	if _, err := New(b.Model, 2, p); err == nil {
		t.Error("partition with the wrong number of histories accepted")
	}
}
