package repro

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// scaleTables are the scale tables (scale.go's helpers) with their pinned agreement
// {agree, compared} (docs/paper-map.md#06-scale-and-sampling; the rows that do not agree carry
// notes, checked below).
var scaleTables = map[string][2]int{
	"medium-scale":          {3, 5}, // the two Random rows are structural, not agreement
	"m2-scaling":            {5, 6},
	"meaningful-scale":      {0, 3},
	"convergence":           {5, 5},
	"sampling-variance":     {4, 4},
	"bootstrap-coverage":    {0, 3},
	"sample-complexity":     {0, 0},
	"new-benchmarks":        {4, 4},
	"scaling-gridworld":     {4, 4},
	"computational-profile": {3, 3},
}

// TestScale checks the pinned agreement of the scale tables with the paper
// and that every row not agreeing carries a note. Their cells, sampled
// statistics included (seeds are fixed), are pinned by TestGolden.
func TestScale(t *testing.T) {
	env := &Env{}
	names := make([]string, 0, len(scaleTables))
	for n := range scaleTables {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			s, err := Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			if testing.Short() && s.Heavy {
				t.Skip("heavy table")
			}
			tab, err := s.Build(context.Background(), env)
			if err != nil {
				t.Fatal(err)
			}
			agree, err := tab.Compare()
			if err != nil {
				t.Fatal(err)
			}
			if w := scaleTables[name]; agree != w[0] || tab.Compared() != w[1] {
				t.Errorf("%d/%d rows agree, want %d/%d", agree, tab.Compared(), w[0], w[1])
			}
			for i, st := range tab.Status {
				if st != OursOnly && st != Agree && tab.Note[i] == "" {
					t.Errorf("row %d (%s) has status %s without a note", i, tab.Key(i), st)
				}
			}
		})
	}
}

// TestScaleExactColumns checks the exact side of the medium-scale table
// against the values the exact pipeline gives (docs/conventions.md#checked-numbers numbers and
// lib/distance): the exact max W1 of GridWorld 8×8 and 10×10 at m = 1, T = 2 is
// 0.36, and the exact class counts equal the paper's printed (sampled) ones.
func TestScaleExactColumns(t *testing.T) {
	s, _ := Lookup("medium-scale")
	tab, err := s.Build(context.Background(), &Env{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tab.Compare(); err != nil {
		t.Fatal(err)
	}
	col := func(name string) int {
		return slices.IndexFunc(tab.Columns, func(c Column) bool { return c.Name == name })
	}
	for i := range tab.Rows {
		name := tab.Rows[i][0]
		if strings.HasPrefix(name, "GridWorld") {
			v, _ := strconv.ParseFloat(tab.Rows[i][col("exact_max_w1")], 64)
			if !(math.Abs(v-0.36) <= 5e-4) {
				t.Errorf("%s: exact max W1 %v, want 0.360", name, v)
			}
		}
		if strings.HasPrefix(name, "Random") {
			continue
		}
		var printed []string
		for _, c := range []string{"classes_eps0", "classes_eps0_1", "classes_eps0_25", "classes_eps0_45"} {
			printed = append(printed, tab.Printed[i][col(c)])
		}
		if got := tab.Rows[i][col("exact_classes")]; got != strings.Join(printed, "/") {
			t.Errorf("%s: exact classes %s, paper prints %s", name, got, strings.Join(printed, "/"))
		}
	}
}
