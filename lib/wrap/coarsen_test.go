package wrap_test

import (
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/wrap"
)

func TestCover(t *testing.T) {
	grid := bench.GridGround() // NW, NE, SW, SE; adjacent 0.5, opposite 1
	tests := []struct {
		name  string
		g     ot.Ground
		delta float64
		want  []int
	}{
		{"grid δ = 0", grid, 0, []int{0, 1, 2, 3}},
		{"grid δ = 0.5", grid, 0.5, []int{0, 1}}, // first minimal cover in lexicographic order
		{"grid δ = 1", grid, 1, []int{0}},
		{"discrete δ = 0.99", ot.Discrete(3), 0.99, []int{0, 1, 2}},
		{"ordered(5) δ = 0.25", ot.Ordered(5), 0.25, []int{0, 3}}, // d = |i−j|/4: {0,1} and {2,3,4}
	}
	for _, tc := range tests {
		got, err := wrap.Cover(tc.g, tc.delta, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			}
		}
	}
	if _, err := wrap.Cover(ot.Discrete(30), 0.5, 1000); err == nil {
		t.Error("a search over the subset limit was not refused")
	}
	if _, err := wrap.Cover(grid, -1, 0); err == nil {
		t.Error("δ < 0 accepted")
	}
}

// The paper's North/South merge is the δ_O-coarsening onto {NW, SW} with
// δ_O = 0.5 (§7.5) and d(NW, SW) = 0.5: the same channel as the merge.
func TestQuantizeGrid(t *testing.T) {
	c, err := wrap.Quantize(bench.GridGround(), []string{"NW", "NE", "SW", "SE"}, []int{bench.NW, bench.SW})
	if err != nil {
		t.Fatal(err)
	}
	if c.Delta != 0.5 {
		t.Errorf("δ_O = %v, want 0.5", c.Delta)
	}
	want := []int{0, 0, 1, 1}
	for o, j := range c.Map {
		if j != want[o] {
			t.Errorf("q(%d) = %d, want %d", o, j, want[o])
		}
	}
	groups, _ := bench.GridCoarsening()
	g, ok := c.Channel.Groups()
	if !ok || len(g) != 2 || len(g[0]) != len(groups[0]) || g[1][1] != groups[1][1] {
		t.Errorf("groups %v, merge groups %v", g, groups)
	}
	if !(math.Abs(c.Channel.Ground[0][1]-0.5) <= 0) {
		t.Errorf("d(NW, SW) = %v", c.Channel.Ground[0][1])
	}
	L, _, _, _ := c.Channel.Lipschitz(bench.GridGround())
	if L != 1 {
		t.Errorf("L_C = %v, want 1", L)
	}
	if c.Histories(2) != 7 {
		t.Errorf("coarsened histories at T = 2: %d, want 1 + 2 + 4", c.Histories(2))
	}
	for _, bad := range [][]int{nil, {4}, {0, 0}} {
		if _, err := wrap.Quantize(bench.GridGround(), []string{"NW", "NE", "SW", "SE"}, bad); err == nil {
			t.Errorf("representatives %v accepted", bad)
		}
	}
}
