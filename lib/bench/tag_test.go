package bench

import (
	"math"
	"reflect"
	"testing"
)

// TestTagMap checks the 29-cell map of Pineau, Gordon & Thrun 2003 (the
// numbering of TagCells' doc).
func TestTagMap(t *testing.T) {
	cells := TagCells()
	if len(cells) != TagCellCount {
		t.Fatalf("%d cells, want 29", len(cells))
	}
	for _, c := range []struct {
		i    int
		cell [2]int
	}{{0, [2]int{4, 0}}, {9, [2]int{4, 9}}, {10, [2]int{3, 0}}, {19, [2]int{3, 9}}, {20, [2]int{2, 5}}, {22, [2]int{2, 7}}, {23, [2]int{1, 5}}, {28, [2]int{0, 7}}} {
		if cells[c.i] != c.cell {
			t.Errorf("cell %d at %v, want %v", c.i, cells[c.i], c.cell)
		}
	}
	// TagOpponentMove: robot in cell 0, opponent in cell 2 (distance 2):
	// north (cell 12) and east (cell 3) increase the distance, west does not.
	want := []TagOutcome{{2, 0.2}, {12, 0.4}, {3, 0.4}}
	if got := TagOpponentMove(0, 2); !reflect.DeepEqual(got, want) {
		t.Errorf("TagOpponentMove(0, 2) = %v, want %v", got, want)
	}
}

// TestTag checks sizes, names, row sums, b0 and hand-computed transitions,
// rewards and observations of Tag.
func TestTag(t *testing.T) {
	b := mustLookup(t, "tag")
	m := b.Model
	if m.NumStates() != 870 || m.NumActions() != 5 || m.NumObservations() != 30 {
		t.Fatalf("sizes %v, want 870/5/30", m)
	}
	if !m.HasDiscount || m.Discount != 0.95 || b.Ground.Size() != 30 {
		t.Errorf("discount %v (%v), ground %d points", m.Discount, m.HasDiscount, b.Ground.Size())
	}
	if m.States[TagState(3, 12)] != "r3_o12" || TagState(3, 12) != 102 || m.States[TagState(0, TagTagged)] != "r0_tagged" {
		t.Errorf("names %q %q", m.States[TagState(3, 12)], m.States[TagState(0, TagTagged)])
	}
	if m.Observations[0] != "cell_0" || m.Observations[29] != "here" {
		t.Errorf("observations %v", m.Observations)
	}
	rowSums(t, m)
	for s, p := range m.B0 {
		want := 1.0 / 841
		if s%30 == TagTagged {
			want = 0
		}
		if p != want {
			t.Fatalf("b0(%s) = %v, want %v", m.States[s], p, want)
		}
	}
	a := func(name string) int { return index(t, m.Actions, name) }
	type out struct {
		next int
		p    float64
	}
	S := TagState
	third := 0.8 / 3
	cases := []struct {
		s, act int
		outs   []out
		reward float64
		note   string
	}{
		{S(0, 2), a("east"), []out{{S(1, 2), 0.2}, {S(1, 3), 0.4}, {S(1, 12), 0.4}}, -1, "robot moves; opponent flees north or east"},
		{S(10, 20), a("north"), []out{{S(10, 20), 0.2}, {S(10, 21), 0.4}, {S(10, 23), 0.4}}, -1, "robot blocked by the wall; opponent flees north or east in the block"},
		{S(28, 26), a("west"), []out{{S(27, 26), 0.2}, {S(27, 23), 0.8}}, -1, "only south increases the distance from the robot's old cell"},
		{S(11, 0), a("tag"), []out{{S(11, 0), 1}}, -10, "failed tag; cornered opponent cannot move away"},
		{S(5, 5), a("tag"), []out{{S(5, TagTagged), 1}}, 10, "successful tag"},
		{S(5, 5), a("north"), []out{{S(15, 5), 0.2}, {S(15, 15), third}, {S(15, 6), third}, {S(15, 4), third}}, -1, "same cell: every move increases the distance"},
		{S(19, 0), a("east"), []out{{S(19, 0), 1}}, -1, "robot blocked by the border; opponent in the far corner: north would bring it closer"},
		{S(19, 1), a("west"), []out{{S(18, 1), 0.2}, {S(18, 0), 0.8}}, -1, "opponent flees west only (north to cell 11 is closer)"},
		{S(15, TagTagged), a("north"), []out{{S(20, TagTagged), 1}}, 0, "tagged: robot still moves, no reward"},
		{S(15, TagTagged), a("tag"), []out{{S(15, TagTagged), 1}}, 0, "tagged absorbs"},
	}
	for _, c := range cases {
		if r := m.R[c.s][c.act]; r != c.reward {
			t.Errorf("R(%s, %s) = %v, want %v (%s)", m.States[c.s], m.Actions[c.act], r, c.reward, c.note)
		}
		total := 0.0
		for _, o := range c.outs {
			if p := m.TransitionProb(c.s, c.act, o.next); !(math.Abs(p-o.p) <= 1e-15) {
				t.Errorf("T(%s, %s, %s) = %v, want %v (%s)", m.States[c.s], m.Actions[c.act], m.States[o.next], p, o.p, c.note)
			}
			total += o.p
		}
		if !(math.Abs(total-1) <= 1e-15) {
			t.Errorf("case %q lists mass %v", c.note, total)
		}
	}
	obs := []struct {
		s, o int
		note string
	}{
		{S(15, 15), 29, "opponent in the robot's cell: here"},
		{S(15, 6), 15, "otherwise the robot's cell"},
		{S(3, TagTagged), 3, "tagged: the robot's cell"},
	}
	for _, c := range obs {
		for act := range m.Actions {
			if p := m.ObsProb(c.s, act, c.o); p != 1 {
				t.Errorf("Z(%s, %s, %s) = %v, want 1 (%s)", m.States[c.s], m.Actions[act], m.Observations[c.o], p, c.note)
			}
		}
	}
}
