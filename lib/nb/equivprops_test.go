package nb

import (
	"testing"

	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
)

func TestCheckEquivProps(t *testing.T) {
	const T = 3
	b, fam, r := tigerDistances(t, T)
	e, err := law.NewEngine(b.Model, T, law.UniformStandIn)
	if err != nil {
		t.Fatal(err)
	}
	var ls []*law.Laws
	for i := 0; i < fam.Len(); i++ {
		l, err := e.Compute(fam.At(i))
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	// broken: the library's distances with one depth-1 entry raised, so
	// that it disagrees with fwd and breaks a triangle.
	broken := make([]partition.Matrix, len(r.D))
	for d := range r.D {
		broken[d] = partition.Matrix{N: r.D[d].N, Data: append([]float64(nil), r.D[d].Data...)}
	}
	broken[1].Data[broken[1].Index(0, 1)] += 10
	tests := []struct {
		name       string
		fwd        []partition.Matrix
		thr        float64
		wantBroken bool
	}{
		{"≡^Π", r.D, 0, false},
		{"ε = 0.5", r.D, 0.5, false},
		{"fwd off by 10 on a pair", broken, 0, true},
	}
	for _, tt := range tests {
		p, err := CheckEquivProps(r, ls, tt.fwd, r.D, b.Ground, T, tt.thr)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		refl, pairs, triples := 0, 0, 0
		for d := 0; d < T; d++ {
			n := r.Tree.Count(d)
			refl, pairs, triples = refl+n, pairs+n*(n-1)/2, triples+n*n*n
		}
		if p.Refl != refl || p.Pairs != pairs || p.Triples != triples || len(p.Counts) != T+1 {
			t.Errorf("%s: counted %d, %d, %d over %d depths; want %d, %d, %d over %d", tt.name, p.Refl, p.Pairs, p.Triples, len(p.Counts), refl, pairs, triples, T+1)
		}
		if p.ReflMax > 1e-12 || p.TriViol != 0 {
			t.Errorf("%s: reflexivity %g, %d triangle violations", tt.name, p.ReflMax, p.TriViol)
		}
		if got := p.SymMax > 1 && p.LibMax > 1; got != tt.wantBroken {
			t.Errorf("%s: symmetry %g, library %g", tt.name, p.SymMax, p.LibMax)
		}
		if tt.thr == 0 && (p.TransViol != 0 || p.RIViol != 0) {
			t.Errorf("%s: ≡^Π not an equivalence: %d transitivity, %d of %d right-invariance violations", tt.name, p.TransViol, p.RIViol, p.RIChecks)
		}
	}
	if _, err := CheckEquivProps(r, ls, r.D[:1], r.D, b.Ground, T, 0); err == nil {
		t.Error("CheckEquivProps with distances of one depth: no error")
	}
}

func TestClassRightInvariance(t *testing.T) {
	const T = 3
	_, _, r := tigerDistances(t, T)
	tests := []struct {
		name     string
		p        *partition.Partition
		wantViol bool
	}{
		{"singletons", uniform(r, false), false},
		{"exact classes", r.Partition(0), false},
		{"one class per depth but the last split", split(uniform(r, true)), true},
	}
	for _, tt := range tests {
		c, v := ClassRightInvariance(r.Tree, tt.p, T)
		if (v > 0) != tt.wantViol || v > c {
			t.Errorf("%s: %d violations of %d checks", tt.name, v, c)
		}
	}
}

// split separates history 0 of depth 2 from the others of its class.
func split(p *partition.Partition) *partition.Partition {
	p.Labels[2][0] = 1 << 20
	return p
}
