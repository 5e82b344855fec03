package bench_test

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Look a benchmark up by name and inspect its sizes and ground metric.
func ExampleLookup() {
	b, err := bench.Lookup("gridworld:3")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.Model)
	nw := b.Model.ObsIndex("NW")
	fmt.Println(b.Model.Observations, b.Ground[nw])
	// Output:
	// gridworld:3: |S|=9 |A|=5 |O|=4
	// [NW NE SW SE] [0 0.5 0.5 1]
}

// The listen-only Tiger of the paper's worked example: after hearing L the
// belief is (0.85, 0.15) and the next L has probability 0.745.
func ExampleTigerListen() {
	b := pomdp.Must(bench.TigerListen(bench.DefaultTigerAccuracy))
	m := b.Model
	L := m.ObsIndex("L")
	belief, p := m.Update(m.B0, 0, L)
	_, pLL := m.Update(belief, 0, L)
	fmt.Printf("P(L) = %.3f, b_L = %.2f, P(L | L) = %.3f\n", p, belief, pLL)
	// Output:
	// P(L) = 0.500, b_L = [0.85 0.15], P(L | L) = 0.745
}

// Merge GridWorld's quadrants into North/South with the matching quotient
// metric (the paper's thm:data-processing experiment).
func ExampleCoarsenObservations() {
	g := pomdp.Must(bench.GridWorld(3))
	groups, names := bench.GridCoarsening()
	coarse := pomdp.Must(bench.CoarsenObservations(g.Model, groups, names))
	d := pomdp.Must(bench.CoarsenGround(g.Ground, groups))
	fmt.Println(coarse.Observations, d)
	fmt.Printf("Z(s_0_0, stay, North) = %.1f\n", coarse.ObsProb(0, 4, 0))
	// Output:
	// [North South] [[0 0.5] [0.5 0]]
	// Z(s_0_0, stay, North) = 0.8
}

// Network Monitoring keeps its transition kernel factored.
func ExampleNetworkMonitoring() {
	b := pomdp.Must(bench.NetworkMonitoring(12))
	m := b.Model
	_, isKron := m.T[0].(*pomdp.Kron)
	fmt.Println(m, isKron)
	fmt.Println(m.States[5], m.Actions[12])
	// Output:
	// netmon:12: |S|=4096 |A|=13 |O|=3 true
	// s_UDUDDDDDDDDD do_nothing
}

// RockSample(4,4): exiting east from the last column pays +10.
func ExampleRockSample44() {
	b := pomdp.Must(bench.RockSample44())
	m := b.Model
	s := bench.RockSampleState(2, 3, 0b1010)
	east := m.ActionIndex("move_east")
	fmt.Println(m)
	fmt.Println(m.States[s], "--move_east-->", m.States[256], "reward", m.R[s][east])
	// Output:
	// rocksample:4:4: |S|=257 |A|=9 |O|=3
	// s_2_3_BGBG --move_east--> terminal reward 10
}

// List the names Lookup accepts.
func ExampleNames() {
	for _, e := range bench.Names() {
		fmt.Println(e.Pattern)
	}
	// Output:
	// tiger[:ACC[:B0LEFT]]
	// tiger-listen[:ACC]
	// gridworld:N
	// gridworld-goal:N
	// gridworld-coarse:N
	// rocksample[:N:K]
	// tag
	// netmon:N
	// hallway:L
	// witness
	// separating:NAME
	// inspection
	// channel:K:C:NOISE
	// random:S[:A:O]:SEED
	// sensor-grid[:ACC]
	// tiger95
	// maze4x3
	// cheese
	// 1d
	// paint
}

// Classic problems of the literature are built in too, typed from their
// published definitions: here the 4×3 maze of Russell & Norvig with Parr &
// Russell's wall sensors. In the corner (1,1) both "north" and "east" keep
// the agent in place with probability 0.1 (the slip into the wall).
func ExampleLookup_classic() {
	b, err := bench.Lookup("maze4x3")
	if err != nil {
		fmt.Println(err)
		return
	}
	m := b.Model
	fmt.Println(m, "discount", m.Discount)
	fmt.Println(m.Observations)
	s, north := m.StateIndex("x1y1"), m.ActionIndex("north")
	fmt.Printf("north from x1y1: x1y2 %.1f, x2y1 %.1f, stay %.1f\n",
		m.TransitionProb(s, north, m.StateIndex("x1y2")), m.TransitionProb(s, north, m.StateIndex("x2y1")), m.TransitionProb(s, north, s))
	// Output:
	// maze4x3: |S|=11 |A|=4 |O|=6 discount 0.95
	// [left right neither both good bad]
	// north from x1y1: x1y2 0.8, x2y1 0.1, stay 0.1
}

// The standard RockSample(7,8) of Smith & Simmons 2004: 12,545 states; a
// check from the start cell reads rock 0 with efficiency (1 + 2^(−√13/20))/2.
func ExampleRockSample() {
	b := pomdp.Must(bench.Lookup("rocksample:7:8"))
	m := b.Model
	layout := pomdp.Must(bench.RockSampleLayout(7, 8))
	fmt.Println(m, "discount", m.Discount)
	fmt.Println("start", layout.Start, "rocks", layout.Rocks)
	start := (3*7 + 0) * 256 // agent at (3,0), every rock bad
	fmt.Printf("Z(%s, check_1, bad) = %.4f\n", m.States[start], m.ObsProb(start, m.ActionIndex("check_1"), m.ObsIndex("bad")))
	// Output:
	// rocksample:7:8: |S|=12545 |A|=13 |O|=3 discount 0.95
	// start [3 0] rocks [[6 2] [5 0] [5 3] [3 6] [2 2] [2 3] [1 5] [0 1]]
	// Z(s_3_0_BBBBBBBB, check_1, bad) = 0.9413
}

// Tag of Pineau, Gordon & Thrun 2003: the opponent flees from the robot.
func ExampleTag() {
	b := pomdp.Must(bench.Tag())
	m := b.Model
	fmt.Println(m)
	s := bench.TagState(0, 2) // robot in cell 0, opponent in cell 2
	m.T[m.ActionIndex("east")].Entries(s, func(next int, p float64) {
		fmt.Printf("%s --east--> %s: %.1f\n", m.States[s], m.States[next], p)
	})
	// Output:
	// tag: |S|=870 |A|=5 |O|=30
	// r0_o2 --east--> r1_o2: 0.2
	// r0_o2 --east--> r1_o3: 0.4
	// r0_o2 --east--> r1_o12: 0.4
}
