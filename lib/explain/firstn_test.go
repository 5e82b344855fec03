package explain

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFirstN: the first n elements by a total order equal the prefix of
// a full stable sort, for lists shorter and longer than n, with many
// equal keys (ties broken by the index), and n from 0 to past the end.
func TestFirstN(t *testing.T) {
	type item struct{ key, idx int }
	cmp := func(a, b item) int {
		if a.key != b.key {
			return b.key - a.key // largest first
		}
		return a.idx - b.idx
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ size, keys, n int }{
		{0, 1, 3}, {5, 3, 0}, {5, 3, 8}, {40, 5, 1}, {400, 7, 8}, {1000, 1000, 8}, {1000, 3, 20}, {50, 50, 50},
	} {
		all := make([]item, c.size)
		for i := range all {
			all[i] = item{rng.IntN(c.keys), i}
		}
		want := slices.Clone(all)
		slices.SortStableFunc(want, cmp)
		want = want[:min(c.n, len(want))]
		got := firstN(slices.Clone(all), c.n, cmp)
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", fmt.Sprint(c), got, want)
		}
	}
}
