package statbb

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/pomdpq/pomdpq/lib/law"
)

// bruteMax returns the largest exact W1 over every completion of the
// unknown entries s's last evaluation touched (ok false: too many to
// enumerate), the search node's maximum when those are the only unknown
// entries read (refBound's case). It restores nxt.
func bruteMax(s *searcher) (best float64, ok bool) {
	ents := slices.Clone(s.touched)
	total := 1
	for range ents {
		total *= s.k
		if total > 4096 {
			return 0, false
		}
	}
	for o := range total {
		v := o
		for _, e := range ents {
			s.nxt[e] = v % s.k
			v /= s.k
		}
		r := s.eval()
		if !r.leaf {
			panic(fmt.Sprintf("statbb test: a completion of the touched entries is not a leaf (%+v)", r))
		}
		if s.pm[0] && s.pm[1] {
			continue // both point masses: W1 = 0
		}
		n := s.p.pow[s.L]
		res, err := s.solver.SeqW1(s.p.g, s.L, s.law[0][:n], s.law[1][:n]) // the laws leafValue built
		if err != nil {
			panic(err)
		}
		best = max(best, res.Value)
	}
	for _, e := range ents {
		s.nxt[e] = -1
	}
	return best, true
}

// TestRefBoundAboveBruteForce: every refBound the search computes, on
// 240 random models (both stand-ins, m ≤ 2 and 3, T = 3 and 4), is at or
// above the largest W1 over the completions of its search node, found by
// enumerating them; and the decision partitions equal the enumeration's
// (compare). It fails if refBound is never finite (the check would be
// empty).
func TestRefBoundAboveBruteForce(t *testing.T) {
	var checked, useful int
	var mu sync.Mutex // compare's decision run has two workers
	checkRef = func(s *searcher, ref float64) {
		mu.Lock()
		defer mu.Unlock()
		if math.IsInf(ref, 1) {
			return // no bound: an action is unassigned or the deviation alone passes the threshold
		}
		want, ok := bruteMax(s)
		if !ok {
			return
		}
		checked++
		if ref < s.th {
			useful++
		}
		if ref < want {
			t.Errorf("refBound %.15g below the completions' maximum %.15g (h %v, %v, k = %d, L = %d, act %v)", ref, want, s.h[0], s.h[1], s.k, s.L, s.act)
		}
	}
	defer func() { checkRef = nil }()
	for seed := uint64(301); seed <= 540; seed++ {
		nS, nA, nO := 2+int(seed%3), 2+int(seed/3%2), 2+int(seed/7%2)
		M, T := 2, 3
		switch {
		case seed%9 == 0:
			M = 3
		case seed%4 == 0 && nO == 2:
			T = 4
		}
		m := randomModel(seed, nS, nA, nO)
		conv := law.Convention(seed % 2)
		t.Run(fmt.Sprintf("seed=%d/m=%d/T=%d/%v", seed, M, T, conv), func(t *testing.T) {
			compare(t, m, nil, M, T, conv, []float64{0, 0.1, 0.3})
		})
	}
	t.Logf("%d refBounds checked against brute force, %d below the threshold", checked, useful)
	if checked < 200 || useful == 0 {
		t.Errorf("%d refBounds checked, %d below the threshold: the check is too thin", checked, useful)
	}
}
