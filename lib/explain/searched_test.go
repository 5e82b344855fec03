package explain

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bb"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// TestSearchedAgainstEnumeration: on 240 random models small enough to
// enumerate (clock m = 2, stationary m = 2 and 3, both conventions, the
// discrete and an ordered ground metric, random pairs of histories), the
// searched family's explanation has the brute-force maximum over the
// enumerated family as its distance (ExplainPair over fsc.New with a
// raised limit; TestPairAgainstOracles checks that against package law),
// its witness re-evaluated by package law gives that distance, the search's
// own maximum agrees, the distance recomputed by gonum's LP from the
// printed laws equals it, and only the argmax is listed.
func TestSearchedAgainstEnumeration(t *testing.T) {
	positive := 0
	for seed := uint64(0); seed < 240; seed++ {
		rng := rand.New(rand.NewPCG(seed, 23))
		nS, nA, nO := 2+int(seed%3), 2, 2
		kind, mm, T := fsc.KindClock, 2, 2+int(seed/3%2)
		switch seed % 3 {
		case 1:
			kind, mm, T = fsc.KindStationary, 2, 2+int(seed/3%3)
		case 2:
			kind, mm, T = fsc.KindStationary, 3, 3
		}
		if kind == fsc.KindClock && T == 2 {
			nO = 3
		}
		m := randomModel(seed, nS, nA, nO)
		conv := law.Convention(seed / 2 % 2)
		var g ot.Ground
		if seed%7 == 3 {
			g = ot.Ordered(nO)
		}
		fam, err := fsc.New(kind, nA, nO, mm, T, fsc.Options{Limit: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		opt := bb.Options{Ground: g, Convention: conv}
		searched := &Setup{Model: m, Ground: g, T: T, Convention: conv, Top: 1000, Search: StationarySearch(m, mm, T, opt)}
		if kind == fsc.KindClock {
			searched.Search = ClockSearch(m, T, opt)
		}
		enumerated := &Setup{Model: m, Ground: g, Family: fam, T: T, Convention: conv, Workers: 2}
		d := 1 + rng.IntN(T-1)
		h1, h2 := make([]int, d), make([]int, d)
		for i := range h1 {
			h1[i], h2[i] = rng.IntN(nO), rng.IntN(nO)
		}
		name := fmt.Sprintf("seed %d %s %s “%s” “%s”", seed, kind, conv, HistoryWords(m, h1), HistoryWords(m, h2))
		want, err := ExplainPair(context.Background(), enumerated, h1, h2)
		if err != nil {
			t.Fatalf("%s: enumerated: %v", name, err)
		}
		p, err := ExplainPair(context.Background(), searched, h1, h2)
		if err != nil {
			t.Fatalf("%s: searched: %v", name, err)
		}
		if math.Abs(p.Distance-want.Distance) > 1e-9 || math.Abs(p.Search.Distance-want.Distance) > 1e-9 {
			t.Fatalf("%s: searched witness %.12g (search %.12g), brute force over the %d enumerated probes %.12g",
				name, p.Distance, p.Search.Distance, want.NumProbes, want.Distance)
		}
		if p.Witness == nil || len(p.Probes) != 1 || p.NumProbes != 0 || !p.Search.OnlyArgmax || p.Best.Index != -1 {
			t.Fatalf("%s: a searched pair lists %d probes (num_probes %d, only_argmax %v, index %d), want the witness alone",
				name, len(p.Probes), p.NumProbes, p.Search.OnlyArgmax, p.Best.Index)
		}
		if kind == fsc.KindClock && (p.Witness.Nodes != 2 || p.Witness.Stages != T) || kind == fsc.KindStationary && (p.Witness.Nodes > mm || p.Witness.Clock()) {
			t.Fatalf("%s: witness %v is not a member of the family", name, p.Witness)
		}
		laws, err := law.Compute(m, p.Witness, T, conv)
		if err != nil {
			t.Fatal(err)
		}
		v, err := ot.SeqW1(searched.ground(), T-d, laws.Suffix(d, laws.Tree.Index(h1)), laws.Suffix(d, laws.Tree.Index(h2)))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(v-p.Distance) > 1e-12 {
			t.Fatalf("%s: witness re-evaluated by package law %.15g, explained %.15g", name, v, p.Distance)
		}
		checkPair(t, name, searched, p)
		if p.Distance > 0 {
			positive++
		}
	}
	if positive < 120 {
		t.Errorf("only %d of 240 pairs apart: the check is too weak", positive)
	}
}

// TestSearchedRefusals: a class card needs the family listed, and says
// so for a searched one.
func TestSearchedRefusals(t *testing.T) {
	m := randomModel(3, 3, 2, 2)
	s := &Setup{Model: m, T: 3, Search: ClockSearch(m, 3, bb.Options{})}
	part := partition.FromLabels([][]int{{0}, {0, 1}, {0, 0, 1, 1}, {0, 0, 0, 0, 1, 1, 1, 1}})
	if _, err := ExplainClass(s, part, 1, 0, -1); err == nil || !strings.Contains(err.Error(), "searched") {
		t.Errorf("ExplainClass: %v, want a refusal naming the search", err)
	}
}

// TestSearchedMerges: on random models, the merges of a searched family
// (one search per pair of representatives) have the diameters of the
// enumerated family's, whose nearest probe's distance is the brute-force
// maximum, and the searched nearest probe is a witness with index −1.
func TestSearchedMerges(t *testing.T) {
	compared := 0
	for seed := uint64(0); seed < 12; seed++ {
		m := randomModel(seed, 3, 2, 2)
		T := 3
		conv := law.Convention(seed % 2)
		fam, err := fsc.New(fsc.KindClock, 2, 2, 2, T, fsc.Options{Limit: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		enumerated := &Setup{Model: m, Family: fam, T: T, Convention: conv, Workers: 2}
		searched := &Setup{Model: m, T: T, Convention: conv, Search: ClockSearch(m, T, bb.Options{Convention: conv})}
		exact := partition.FromLabels([][]int{{0}, {0, 1}, {0, 1, 2, 3}, {0, 1, 2, 3, 4, 5, 6, 7}})
		coarse := partition.FromLabels([][]int{{0}, {0, 0}, {0, 0, 1, 1}, {0, 0, 0, 0, 1, 1, 1, 1}})
		want, err := ExplainMerges(context.Background(), enumerated, exact, exact, coarse, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ExplainMerges(context.Background(), searched, exact, exact, coarse, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Merges) != len(want.Merges) || got.Count != want.Count {
			t.Fatalf("seed %d: %d merges, enumerated %d", seed, len(got.Merges), len(want.Merges))
		}
		for k, w := range want.Merges {
			g := got.Merges[k]
			if g.Class != w.Class || math.Abs(g.Diameter-w.Diameter) > 1e-9 || g.Nearest.Index != -1 || g.Nearest.Probe == "" {
				t.Errorf("seed %d class %s: searched diameter %.12g (nearest #%d), enumerated %.12g", seed, w.Class, g.Diameter, g.Nearest.Index, w.Diameter)
			}
			if w.Diameter > 0 {
				compared++
			}
		}
	}
	if compared < 12 {
		t.Errorf("only %d positive diameters compared", compared)
	}
}
