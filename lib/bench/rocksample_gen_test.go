package bench

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// rowSums checks that every row of every T and Z kernel of m sums to 1
// (within tol) with non-negative entries.
func rowSums(t *testing.T, m *pomdp.Model) {
	t.Helper()
	for a := range m.Actions {
		for s := range m.States {
			sum, neg := 0.0, false
			m.T[a].Entries(s, func(_ int, p float64) { sum += p; neg = neg || p < 0 })
			if neg || !(math.Abs(sum-1) <= 1e-12) {
				t.Fatalf("%s: T(%s, %s, ·) sums to %v (negative entry: %v)", m.Name, m.States[s], m.Actions[a], sum, neg)
			}
			sum = 0
			m.Z[a].Entries(s, func(_ int, p float64) { sum += p; neg = neg || p < 0 })
			if neg || !(math.Abs(sum-1) <= 1e-12) {
				t.Fatalf("%s: Z(%s, %s, ·) sums to %v (negative entry: %v)", m.Name, m.States[s], m.Actions[a], sum, neg)
			}
		}
	}
}

// TestRockSampleSizes checks |S| = n²·2^k + 1, |A| = 5 + k, |O| = 3 (Smith &
// Simmons 2004, Table 1 for (5,5), (5,7), (7,8); hand computation for the
// others), the discount and the kernel row sums.
func TestRockSampleSizes(t *testing.T) {
	cases := []struct {
		spec   string
		nS, nA int
	}{
		{"rocksample:5:5", 801, 10},
		{"rocksample:5:7", 3201, 12},
		{"rocksample:7:8", 12545, 13}, // the standard instance: 7·7·2⁸ + 1
		{"rocksample:3:2", 37, 7},     // generated layout
		{"rocksample:1:0", 2, 5},
		{"rocksample:1:1", 3, 6},
		{"rocksample:2:4", 65, 9}, // k = n²: a rock on every cell
		{"rocksample:6:6", 2305, 11},
	}
	for _, c := range cases {
		b := mustLookup(t, c.spec)
		m := b.Model
		if m.NumStates() != c.nS || m.NumActions() != c.nA || m.NumObservations() != 3 {
			t.Errorf("%s: sizes %d/%d/%d, want %d/%d/3", c.spec, m.NumStates(), m.NumActions(), m.NumObservations(), c.nS, c.nA)
		}
		if b.Name != c.spec || m.Name != c.spec {
			t.Errorf("%s: named %q / %q", c.spec, b.Name, m.Name)
		}
		if !m.HasDiscount || m.Discount != 0.95 {
			t.Errorf("%s: discount %v (set %v), want 0.95", c.spec, m.Discount, m.HasDiscount)
		}
		if b.Ground.Size() != 3 || b.Ground[0][1] != 1 || b.Ground[1][2] != 1 {
			t.Errorf("%s: ground metric %v, want discrete on 3 points", c.spec, b.Ground)
		}
		rowSums(t, m)
	}
}

// TestRockSampleLayouts checks the default layouts: the published (7,8)
// map written out in RockSampleLayout's doc, the (x, y) → (row, col)
// conversion of every published map, the repository's (4,4) map, and the
// rules of the generated ones.
func TestRockSampleLayouts(t *testing.T) {
	l, err := RockSampleLayout(7, 8)
	if err != nil {
		t.Fatal(err)
	}
	// RockSampleLayout's doc (from POMCP's Init_7_8: rocks (x,y) = (2,0),
	// (0,1), (3,1), (6,3), (2,4), (3,4), (5,5), (1,6), start (0,3)).
	want := [][2]int{{6, 2}, {5, 0}, {5, 3}, {3, 6}, {2, 2}, {2, 3}, {1, 5}, {0, 1}}
	if l.Start != [2]int{3, 0} || !reflect.DeepEqual(l.Rocks, want) {
		t.Errorf("RockSample(7,8) layout start %v rocks %v, want (3,0) and %v", l.Start, l.Rocks, want)
	}
	for nk, p := range publishedRocks {
		n, k := nk[0], nk[1]
		l, err := RockSampleLayout(n, k)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.rocks) != k || len(l.Rocks) != k {
			t.Fatalf("(%d,%d): %d published rocks, layout %d", n, k, len(p.rocks), len(l.Rocks))
		}
		if l.Start != [2]int{n / 2, 0} || l.Start != [2]int{n - 1 - p.start[1], p.start[0]} {
			t.Errorf("(%d,%d): start %v", n, k, l.Start)
		}
		for i, xy := range p.rocks {
			if l.Rocks[i] != [2]int{n - 1 - xy[1], xy[0]} {
				t.Errorf("(%d,%d): rock %d at %v from (x,y) %v", n, k, i, l.Rocks[i], xy)
			}
		}
		if err := checkRockLayout(n, k, l); err != nil {
			t.Errorf("(%d,%d): %v", n, k, err)
		}
	}
	if l, _ := RockSampleLayout(4, 4); l.Start != [2]int{0, 0} || !reflect.DeepEqual(l.Rocks, RockPositions()) {
		t.Errorf("RockSample(4,4) layout %v, want the layout of docs/benchmarks.md#rocksample", l)
	}
	for _, nk := range [][2]int{{1, 0}, {1, 1}, {2, 3}, {2, 4}, {3, 2}, {6, 6}, {10, 10}, {16, 6}} {
		n, k := nk[0], nk[1]
		l, err := RockSampleLayout(n, k)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := RockSampleLayout(n, k)
		if !reflect.DeepEqual(l, again) {
			t.Errorf("(%d,%d): layout not deterministic", n, k)
		}
		if l.Start != [2]int{n / 2, 0} || !strings.Contains(l.Source, "generated") {
			t.Errorf("(%d,%d): start %v, source %q", n, k, l.Start, l.Source)
		}
		if err := checkRockLayout(n, k, l); err != nil {
			t.Errorf("(%d,%d): %v", n, k, err)
		}
		for i, c := range l.Rocks {
			if c == l.Start && k < n*n {
				t.Errorf("(%d,%d): rock %d on the start cell", n, k, i)
			}
		}
	}
	// Regression: the generated RockSample(10,10) layout must never change.
	l, _ = RockSampleLayout(10, 10)
	want = [][2]int{{0, 1}, {4, 7}, {2, 3}, {7, 1}, {4, 8}, {9, 6}, {3, 1}, {7, 5}, {9, 7}, {7, 4}}
	if !reflect.DeepEqual(l.Rocks, want) {
		t.Errorf("RockSample(10,10) generated rocks %v, want %v", l.Rocks, want)
	}
	for _, nk := range [][2]int{{0, 0}, {-1, 2}, {2, 5}, {3, -1}} {
		if _, err := RockSampleLayout(nk[0], nk[1]); err == nil {
			t.Errorf("RockSampleLayout(%d, %d): no error", nk[0], nk[1])
		}
	}
}

// TestRockSample78 hand-checks transitions, rewards, observation
// probabilities and b0 of the standard RockSample(7,8).
func TestRockSample78(t *testing.T) {
	m := mustLookup(t, "rocksample:7:8").Model
	st := func(r, c, bits int) int { return (r*7+c)*256 + bits }
	const terminal = 12544
	a := func(name string) int { return index(t, m.Actions, name) }
	if m.States[st(3, 0, 0b10000001)] != "s_3_0_GBBBBBBG" || m.States[terminal] != "terminal" {
		t.Errorf("names %q, %q", m.States[st(3, 0, 0b10000001)], m.States[terminal])
	}
	cases := []struct {
		s, act, next int
		reward       float64
		note         string
	}{
		{st(3, 6, 5), a("move_east"), terminal, 10, "east from the last column exits"},
		{st(3, 0, 5), a("move_east"), st(3, 1, 5), 0, "east"},
		{st(0, 4, 5), a("move_north"), st(0, 4, 5), 0, "north clipped"},
		{st(3, 4, 5), a("move_north"), st(2, 4, 5), 0, "north is row − 1"},
		{st(6, 4, 5), a("move_south"), st(6, 4, 5), 0, "south clipped"},
		{st(3, 0, 5), a("move_west"), st(3, 0, 5), 0, "west clipped"},
		{st(6, 2, 0b1), a("sample"), st(6, 2, 0), 10, "rock 0 at (6,2) good: +10, becomes bad"},
		{st(5, 3, 0b11111011), a("sample"), st(5, 3, 0b11111011), -10, "rock 2 at (5,3) bad: −10"},
		{st(0, 1, 0xff), a("sample"), st(0, 1, 0x7f), 10, "rock 7 at (0,1) good"},
		{st(3, 0, 0xff), a("sample"), st(3, 0, 0xff), -10, "no rock at the start: −10"},
		{st(2, 2, 7), a("check_8"), st(2, 2, 7), 0, "check: no change"},
		{terminal, a("move_east"), terminal, 0, "terminal absorbs"},
		{terminal, a("check_3"), terminal, 0, "terminal absorbs"},
	}
	for _, c := range cases {
		if p := m.TransitionProb(c.s, c.act, c.next); p != 1 {
			t.Errorf("T(%s, %s, %s) = %v, want 1 (%s)", m.States[c.s], m.Actions[c.act], m.States[c.next], p, c.note)
		}
		if r := m.R[c.s][c.act]; r != c.reward {
			t.Errorf("R(%s, %s) = %v, want %v (%s)", m.States[c.s], m.Actions[c.act], r, c.reward, c.note)
		}
	}
	good, bad, none := 0, 1, 2
	obs := []struct {
		s, act, o int
		want      float64
		note      string
	}{
		// η = (1 + 2^(−d/20))/2, values from a hand calculation (Python).
		{st(3, 0, 0b1), a("check_1"), good, 0.9412665935743222, "start to rock 0 at (6,2): d = √13, good"},
		{st(3, 0, 0b1), a("check_1"), bad, 1 - 0.9412665935743222, "d = √13, good rock reads bad"},
		{st(3, 0, 0), a("check_1"), bad, 0.9412665935743222, "d = √13, bad rock"},
		{st(1, 4, 0), a("check_7"), bad, 0.9829681644624229, "rock 6 at (1,5): d = 1"},
		{st(1, 4, 0), a("check_6"), bad, 0.9760844199054217, "rock 5 at (2,3): d = √2"},
		{st(3, 6, 0b1000), a("check_4"), good, 1, "on rock 3: exact"},
		{st(3, 6, 0b1000), a("check_4"), bad, 0, "on rock 3: exact"},
		{st(3, 6, 0), a("move_west"), none, 1, "moves emit none"},
		{st(3, 6, 0), a("sample"), none, 1, "sample emits none"},
		{terminal, a("check_2"), none, 1, "terminal emits none"},
	}
	for _, c := range obs {
		if p := m.ObsProb(c.s, c.act, c.o); !(math.Abs(p-c.want) <= 1e-12) {
			t.Errorf("Z(%s, %s, %s) = %v, want %v (%s)", m.States[c.s], m.Actions[c.act], m.Observations[c.o], p, c.want, c.note)
		}
	}
	for s, p := range m.B0 {
		want := 0.0
		if s >= st(3, 0, 0) && s < st(3, 1, 0) {
			want = 1.0 / 256
		}
		if p != want {
			t.Fatalf("b0(%s) = %v, want %v", m.States[s], p, want)
		}
	}
	// Equal kernels are shared.
	if m.T[a("check_1")] != m.T[a("check_8")] || m.Z[a("move_north")] != m.Z[a("sample")] {
		t.Error("check transitions or none observations are not shared")
	}
}

// TestRockSampleSettings checks RockSample(4,4) against RockSample44, a
// custom layout and sensor, and the errors for bad settings.
func TestRockSampleSettings(t *testing.T) {
	// rocksample:4:4 and rocksample are the paper's RockSample44, unchanged.
	paper, err := RockSample44()
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"rocksample", "rocksample:4:4", " RockSample:4:4 "} {
		if b := mustLookup(t, spec); !reflect.DeepEqual(b, paper) {
			t.Errorf("Lookup(%q) is not RockSample44()", spec)
		}
	}
	// RockSample(4, 4, nil): same map, Smith & Simmons sensor, own name.
	b, err := RockSample(4, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	if m.Name != "rocksample-custom:4:4" || m.NumStates() != 257 || m.NumActions() != 9 {
		t.Errorf("RockSample(4,4) = %v", m)
	}
	s := RockSampleState(0, 0, 0b0001) // rock 0 at (0,1), distance 1, good
	if p := m.ObsProb(s, 5, 0); !(math.Abs(p-0.9829681644624229) <= 1e-12) {
		t.Errorf("RockSample(4,4) check_1 at d = 1: %v, want (1 + 2^(−1/20))/2", p)
	}
	for sp := range paper.Model.States {
		for a := range paper.Model.Actions {
			if m.R[sp][a] != paper.Model.R[sp][a] {
				t.Fatalf("R(%s, %s) differs from RockSample44", m.States[sp], m.Actions[a])
			}
		}
		if m.States[sp] != paper.Model.States[sp] || m.B0[sp] != paper.Model.B0[sp] {
			t.Fatalf("state %d differs from RockSample44", sp)
		}
	}
	// A custom layout and a perfect sensor.
	lay := &RockLayout{Start: [2]int{2, 2}, Rocks: [][2]int{{0, 0}, {2, 1}}}
	b, err = RockSample(3, 2, &RockSampleSettings{Layout: lay, HalfEfficiency: math.Inf(1)})
	if err != nil {
		t.Fatal(err)
	}
	m = b.Model
	if m.Name != "rocksample-custom:3:2" || m.B0[(2*3+2)*4+3] != 0.25 {
		t.Errorf("custom model %v, b0 %v", m, m.B0)
	}
	if p := m.ObsProb((2*3+2)*4+1, 5, 0); p != 1 {
		t.Errorf("perfect sensor: Z(good) = %v at distance 2√2", p)
	}
	if r := m.R[(2*3+1)*4+0b10][4]; r != 10 {
		t.Errorf("custom rock 1 at (2,1): sample reward %v, want 10", r)
	}
	rowSums(t, m)
	// A half-efficiency distance of 20 set explicitly keeps the registry name.
	if b, _ := RockSample(3, 2, &RockSampleSettings{HalfEfficiency: 20}); b.Name != "rocksample:3:2" {
		t.Errorf("explicit default d0: name %q", b.Name)
	}
	bad := []struct {
		n, k     int
		s        *RockSampleSettings
		contains string
	}{
		{0, 3, nil, "n ≥ 1"},
		{3, -1, nil, "k ≥ 0"},
		{2, 5, nil, "k ≤ n²"},
		{3, 2, &RockSampleSettings{HalfEfficiency: -1}, "half-efficiency"},
		{3, 2, &RockSampleSettings{HalfEfficiency: math.NaN()}, "half-efficiency"},
		{3, 2, &RockSampleSettings{Layout: &RockLayout{Rocks: [][2]int{{0, 0}}}}, "1 rocks, want 2"},
		{3, 2, &RockSampleSettings{Layout: &RockLayout{Rocks: [][2]int{{0, 0}, {0, 3}}}}, "rock 1 at [0 3] is off"},
		{3, 2, &RockSampleSettings{Layout: &RockLayout{Rocks: [][2]int{{1, 1}, {1, 1}}}}, "share cell"},
		{3, 2, &RockSampleSettings{Layout: &RockLayout{Start: [2]int{-1, 0}, Rocks: [][2]int{{1, 1}, {0, 1}}}}, "start cell"},
		{7, 30, nil, "2^30"},
	}
	for _, c := range bad {
		b, err := RockSample(c.n, c.k, c.s)
		if err == nil || b.Model != nil || !strings.Contains(err.Error(), c.contains) {
			t.Errorf("RockSample(%d, %d, %+v) = %v, %v; want an error mentioning %q", c.n, c.k, c.s, b, err, c.contains)
		}
	}
}

// TestRockSampleLookupErrors checks the registry's messages for bad
// RockSample parameters and the size guard.
func TestRockSampleLookupErrors(t *testing.T) {
	cases := []struct {
		spec     string
		sentinel error
		contains string
	}{
		{"rocksample:0:3", nil, "n ≥ 1"},
		{"rocksample:3:-2", nil, "k ≥ 0"},
		{"rocksample:2:5", nil, "k ≤ n²"},
		{"rocksample:x:2", nil, `N: "x" is not an integer`},
		{"rocksample:7:", nil, `K: "" is not an integer`},
		{"rocksample:7", nil, "rocksample[:N:K]"},
		{"rocksample:7:8:20", nil, "parameters"},
		{"rocksample:7:30", ErrTooLarge, "the largest term is the 2^30"},
		{"rocksample:12:12", ErrTooLarge, "rock configurations"},
		{"rocksample:7:1000", ErrTooLarge, "2^1000"},
		{"rocksample:600:1", ErrTooLarge, "the 600×600 = 360000 cells"},
		{"rocksample:100000000000:1", ErrTooLarge, "cells"},
		{"tag:1", nil, "parameters"},
	}
	for _, c := range cases {
		b, err := Lookup(c.spec)
		if err == nil || b.Model != nil {
			t.Errorf("Lookup(%q): no error", c.spec)
			continue
		}
		if c.sentinel != nil && !errors.Is(err, c.sentinel) {
			t.Errorf("Lookup(%q) = %v, want %v", c.spec, err, c.sentinel)
		}
		if !strings.Contains(err.Error(), c.contains) {
			t.Errorf("Lookup(%q) = %q, want it to mention %q", c.spec, err, c.contains)
		}
	}
}

// TestRockSampleLarge builds the large standard sizes (10,10) and (11,11)
// within the limits.
func TestRockSampleLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 350,000 states")
	}
	for _, c := range []struct {
		spec   string
		nS, nA int
	}{{"rocksample:10:10", 102401, 15}, {"rocksample:11:11", 247809, 16}} {
		m := mustLookup(t, c.spec).Model
		if m.NumStates() != c.nS || m.NumActions() != c.nA {
			t.Errorf("%s: %v", c.spec, m)
		}
	}
}
