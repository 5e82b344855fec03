package bench

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// This file types in classic POMDPs of the literature from their published
// definitions. State, action and observation orders follow the files of
// Cassandra's pomdp-solve example collection (the usual way these problems
// are exchanged), so that index i of our model is index i of that file;
// names are ours where the file has only numbers. Each model has the
// discount of its ".95" file and the discrete ground metric.

// newClassic validates a dense model and wraps it with the discrete metric.
func newClassic(d pomdp.Dense, doc string) (Benchmark, error) {
	m, err := pomdp.New(d)
	if err != nil {
		return Benchmark{}, err
	}
	return finish(m, ot.Discrete(m.NumObservations()), doc)
}

// denseZeros returns n×k zeros.
func denseZeros(n, k int) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, k)
	}
	return out
}

// uniformOver returns the distribution on n points that is uniform on the
// points where keep is true.
func uniformOver(n int, keep func(i int) bool) []float64 {
	b := make([]float64, n)
	k := 0
	for i := range b {
		if keep(i) {
			k++
		}
	}
	for i := range b {
		if keep(i) {
			b[i] = 1 / float64(k)
		}
	}
	return b
}

// Tiger95 returns the Tiger problem as published by Kaelbling, Littman and
// Cassandra ("Planning and acting in partially observable stochastic
// domains", Artificial Intelligence 101, 1998, §5.1) with discount 0.95, the
// form of pomdp-solve's tiger.95.POMDP (registry name "tiger95"):
//
//	S = {tiger-left, tiger-right}, A = {listen, open-left, open-right},
//	O = {tiger-left, tiger-right}
//	listen: T identity, hears the tiger's side with probability 0.85, reward −1
//	open-left/open-right: reward +10 for the door without the tiger, −100 for
//	  the door with it; the problem resets (T(s, ·) = (½, ½)) and the
//	  observation is uninformative (½, ½)
//	b0 = (½, ½), discount 0.95, discrete metric
//
// It is the paper's full-action Tiger (Tiger(0.85, 0.5)) with the published
// names and a discount; the paper's tables use "tiger", which has no
// discount and the short names L and R.
func Tiger95() (Benchmark, error) {
	half := [][]float64{{0.5, 0.5}, {0.5, 0.5}}
	return newClassic(pomdp.Dense{
		Name:         "tiger95",
		States:       []string{"tiger-left", "tiger-right"},
		Actions:      []string{"listen", "open-left", "open-right"},
		Observations: []string{"tiger-left", "tiger-right"},
		T:            [][][]float64{{{1, 0}, {0, 1}}, half, half},
		Z:            [][][]float64{{{0.85, 0.15}, {0.15, 0.85}}, half, half},
		R: [][]float64{
			{-1, -100, 10},
			{-1, 10, -100},
		},
		B0:          []float64{0.5, 0.5},
		Discount:    0.95,
		HasDiscount: true,
	}, "Tiger of Kaelbling, Littman & Cassandra (1998), discount 0.95")
}

// gridMove returns the cell reached from (r, c) in direction d (0 north,
// 1 south, 2 east, 3 west) on a grid whose open cells are given by open,
// or (r, c) itself when the move would leave the grid or enter a closed
// cell.
func gridMove(open func(r, c int) bool, r, c, d int) (int, int) {
	dr := [4]int{-1, 1, 0, 0}[d]
	dc := [4]int{0, 0, 1, -1}[d]
	if open(r+dr, c+dc) {
		return r + dr, c + dc
	}
	return r, c
}

// Maze4x3 returns the 4×3 maze of Russell and Norvig ("Artificial
// Intelligence: A Modern Approach", 1995, §17.1, Fig. 17.1) made partially
// observable as in Parr and Russell ("Approximating optimal policies for
// partially observable stochastic domains", IJCAI 1995) and Cassandra's
// 4x3.95.POMDP (registry name "maze4x3"):
//
//	 x=1   x=2   x=3   x=4
//	+-----+-----+-----+-----+
//	| 0   | 1   | 2   | 3 +1|   y=3
//	+-----+-----+-----+-----+
//	| 4   |#####| 5   | 6 −1|   y=2
//	+-----+-----+-----+-----+
//	| 7   | 8   | 9   | 10  |   y=1
//	+-----+-----+-----+-----+
//
// States are the 11 open cells, numbered row by row from the top as in
// Cassandra's file and named by Russell and Norvig's coordinates ("x1y3"
// is state 0). Actions north, south, east, west (the file's n, s, e, w)
// move in the intended direction with probability 0.8 and at right angles
// to it with 0.1 each; a move into the outer wall or the obstacle at (2,2)
// leaves the agent where it is.
//
// The terminal cells (4,3) and (4,2) pay +1 and −1 and every action taken
// there restarts the problem: the next state is drawn from b0, uniform over
// the 9 non-terminal cells (the "reset" formulation of Cassandra's file,
// which has no absorbing state). Every other cell costs −0.04 per step, so
// R(s, a) = +1, −1 or −0.04 depending on s only.
//
// Observations (deterministic, whatever the action) are Parr and Russell's
// two wall detectors on arriving in s': "left" when only the west
// neighbour is a wall or the obstacle, "right" when only the east one is,
// "both", "neither", and "good" / "bad" in the +1 / −1 cell. Discount 0.95.
//
// Cassandra's file writes b0 and the reset rows with six decimals
// (0.111111 … 0.111112); ours are exactly 1/9, so the two models agree
// within 1e-6.
func Maze4x3() (Benchmark, error) {
	const rows, cols = 3, 4
	open := func(r, c int) bool {
		return r >= 0 && r < rows && c >= 0 && c < cols && !(r == 1 && c == 1)
	}
	index := map[[2]int]int{}
	var cells [][2]int
	var states []string
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			if open(r, c) {
				index[[2]int{r, c}] = len(cells)
				cells = append(cells, [2]int{r, c})
				states = append(states, fmt.Sprintf("x%dy%d", c+1, rows-r))
			}
		}
	}
	nS := len(cells)
	good, bad := index[[2]int{0, 3}], index[[2]int{1, 3}]
	terminal := func(s int) bool { return s == good || s == bad }
	b0 := uniformOver(nS, func(s int) bool { return !terminal(s) })

	actions := []string{"north", "south", "east", "west"}
	// perpendicular[d] are the two directions at right angles to d.
	perpendicular := [4][2]int{{2, 3}, {2, 3}, {0, 1}, {0, 1}}
	T := make([][][]float64, len(actions))
	for a := range T {
		T[a] = denseZeros(nS, nS)
		for s, cell := range cells {
			if terminal(s) {
				copy(T[a][s], b0)
				continue
			}
			for _, m := range []struct {
				d int
				p float64
			}{{a, 0.8}, {perpendicular[a][0], 0.1}, {perpendicular[a][1], 0.1}} {
				r, c := gridMove(open, cell[0], cell[1], m.d)
				T[a][s][index[[2]int{r, c}]] += m.p
			}
		}
	}

	obs := []string{"left", "right", "neither", "both", "good", "bad"}
	z := denseZeros(nS, len(obs))
	for s, cell := range cells {
		wallW := !open(cell[0], cell[1]-1)
		wallE := !open(cell[0], cell[1]+1)
		o := 2 // neither
		switch {
		case s == good:
			o = 4
		case s == bad:
			o = 5
		case wallW && wallE:
			o = 3
		case wallW:
			o = 0
		case wallE:
			o = 1
		}
		z[s][o] = 1
	}
	R := denseZeros(nS, len(actions))
	for s := range R {
		r := -0.04
		switch s {
		case good:
			r = 1
		case bad:
			r = -1
		}
		for a := range R[s] {
			R[s][a] = r
		}
	}
	return newClassic(pomdp.Dense{
		Name: "maze4x3", States: states, Actions: actions, Observations: obs,
		T: T, Z: [][][]float64{z, z, z, z}, R: R, B0: b0,
		Discount: 0.95, HasDiscount: true,
	}, "4×3 maze of Russell & Norvig with Parr & Russell's wall sensors, reset at the ±1 cells, discount 0.95")
}

// Cheese returns McCallum's cheese maze ("Overcoming incomplete perception
// with utile distinction memory", ICML 1993), in the form of Cassandra's
// cheese.95.POMDP (registry name "cheese"):
//
//	+----+----+----+----+----+
//	| 0  | 1  | 2  | 3  | 4  |
//	+----+----+----+----+----+
//	| 5  |####| 6  |####| 7  |
//	+----+----+----+----+----+
//	| 8  |####| 10 |####| 9  |
//	+----+----+----+----+----+
//
// The cheese is in cell 10 (state numbers as in Cassandra's file). Actions
// north, south, east, west (the file's N0, S0, E0, W0) move
// deterministically; a move into a wall leaves the mouse where it is. The
// mouse senses the walls around it: the observation is the set of walls
// among north, south, east, west ("walls-NSW" …), with a distinct "cheese"
// observation in the cheese cell; the 7 observations are numbered in order
// of their first appearance along the states. Entering the cheese pays +1;
// any action in the cheese cell moves the mouse to one of the 10 other
// cells uniformly at random, which is also b0. Discount 0.95.
func Cheese() (Benchmark, error) {
	const rows, cols = 3, 5
	open := func(r, c int) bool {
		return r >= 0 && r < rows && c >= 0 && c < cols && (r == 0 || c%2 == 0)
	}
	cells := [][2]int{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 0}, {1, 2}, {1, 4}, {2, 0}, {2, 4}, {2, 2}}
	states := []string{"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "cheese"}
	index := map[[2]int]int{}
	for s, c := range cells {
		index[c] = s
	}
	nS, goal := len(cells), len(cells)-1
	b0 := uniformOver(nS, func(s int) bool { return s != goal })

	actions := []string{"north", "south", "east", "west"}
	T := make([][][]float64, len(actions))
	R := denseZeros(nS, len(actions))
	for a := range T {
		T[a] = denseZeros(nS, nS)
		for s, cell := range cells {
			if s == goal {
				copy(T[a][s], b0)
				continue
			}
			r, c := gridMove(open, cell[0], cell[1], a)
			next := index[[2]int{r, c}]
			T[a][s][next] = 1
			if next == goal {
				R[s][a] = 1
			}
		}
	}

	var obs []string
	emit := make([]int, nS)
	for s, cell := range cells {
		name := "cheese"
		if s != goal {
			name = "walls-"
			for d, letter := range []string{"N", "S", "E", "W"} {
				if r, c := gridMove(open, cell[0], cell[1], d); r == cell[0] && c == cell[1] {
					name += letter
				}
			}
		}
		emit[s] = pomdp.Index(obs, name)
		if emit[s] < 0 {
			emit[s] = len(obs)
			obs = append(obs, name)
		}
	}
	z := denseZeros(nS, len(obs))
	for s, o := range emit {
		z[s][o] = 1
	}
	return newClassic(pomdp.Dense{
		Name: "cheese", States: states, Actions: actions, Observations: obs,
		T: T, Z: [][][]float64{z, z, z, z}, R: R, B0: b0,
		Discount: 0.95, HasDiscount: true,
	}, "McCallum's cheese maze (1993), wall-pattern observations, discount 0.95")
}

// OneD returns the four-state 1-D maze of Cassandra, Kaelbling and Littman
// ("Acting optimally in partially observable stochastic domains", AAAI
// 1994), as in pomdp-solve's 1d.POMDP (registry name "1d"):
//
//	left — middle — goal — right
//
// S = {left, middle, right, goal} (the file's order), A = {w0, e0} (move
// west or east; a move off either end stays put). The agent observes
// "goal" in the goal and "nothing" elsewhere; reaching the goal pays +1,
// and any action in the goal moves the agent to left, middle or right
// uniformly at random. b0 is uniform over all four states (the file gives
// no start, and pomdp-solve's default is uniform). Discount 0.75, as in the
// file.
func OneD() (Benchmark, error) {
	const left, middle, right, goal = 0, 1, 2, 3
	third := 1.0 / 3
	reset := []float64{third, third, third, 0}
	step := func(to [3]int) [][]float64 {
		t := denseZeros(4, 4)
		for s, n := range to {
			t[s][n] = 1
		}
		copy(t[goal], reset)
		return t
	}
	west := step([3]int{left, left, goal})
	east := step([3]int{middle, goal, right})
	z := [][]float64{{1, 0}, {1, 0}, {1, 0}, {0, 1}}
	R := denseZeros(4, 2)
	for a, t := range [][][]float64{west, east} {
		for s := 0; s < 4; s++ {
			R[s][a] = t[s][goal]
		}
	}
	return newClassic(pomdp.Dense{
		Name:         "1d",
		States:       []string{"left", "middle", "right", "goal"},
		Actions:      []string{"w0", "e0"},
		Observations: []string{"nothing", "goal"},
		T:            [][][]float64{west, east},
		Z:            [][][]float64{z, z},
		R:            R,
		B0:           []float64{0.25, 0.25, 0.25, 0.25},
		Discount:     0.75, HasDiscount: true,
	}, "4-state 1-D maze of Cassandra, Kaelbling & Littman (1994), discount 0.75")
}

// Paint returns the part-painting problem of Kushmerick, Hanks and Weld
// ("An algorithm for probabilistic planning", Artificial Intelligence 76,
// 1995), as encoded in pomdp-solve's paint.95.POMDP (registry name
// "paint"). A part is flawed (FL) or not (NFL), blemished (BL) or not
// (NBL), painted (PA) or not (NPA); the four reachable states are
//
//	NFL-NBL-NPA, NFL-NBL-PA, FL-NBL-PA, FL-BL-NPA
//
// and a new part is unflawed-unpainted or flawed-blemished with probability
// ½ each (b0 = (½, 0, 0, ½)).
//
//	paint:   paints an unpainted part with probability 0.9 (painting hides
//	         a blemish), else nothing changes; observes NBL
//	inspect: no change; observes the blemish correctly with probability 0.75
//	ship, reject: the next part arrives (a draw from b0); observes NBL
//
// Rewards: shipping an unflawed painted part or rejecting a flawed
// blemished part pays +1; shipping any other part, or rejecting an
// unflawed part, costs −1; rejecting a flawed part whose blemish was
// painted over pays 0 (Cassandra's file leaves that reward out; we keep
// it so). Discount 0.95.
func Paint() (Benchmark, error) {
	const ok, okPainted, flawPainted, flawBlem = 0, 1, 2, 3
	b0 := []float64{0.5, 0, 0, 0.5}
	paint := denseZeros(4, 4)
	paint[ok][ok], paint[ok][okPainted] = 0.1, 0.9
	paint[okPainted][okPainted] = 1
	paint[flawPainted][flawPainted] = 1
	paint[flawBlem][flawBlem], paint[flawBlem][flawPainted] = 0.1, 0.9
	inspect := [][]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
	next := [][]float64{b0, b0, b0, b0}
	nbl := [][]float64{{1, 0}, {1, 0}, {1, 0}, {1, 0}}
	look := [][]float64{{0.75, 0.25}, {0.75, 0.25}, {0.75, 0.25}, {0.25, 0.75}}
	//             paint inspect ship reject
	R := [][]float64{
		{0, 0, -1, -1}, // NFL-NBL-NPA
		{0, 0, 1, -1},  // NFL-NBL-PA
		{0, 0, -1, 0},  // FL-NBL-PA
		{0, 0, -1, 1},  // FL-BL-NPA
	}
	return newClassic(pomdp.Dense{
		Name:         "paint",
		States:       []string{"NFL-NBL-NPA", "NFL-NBL-PA", "FL-NBL-PA", "FL-BL-NPA"},
		Actions:      []string{"paint", "inspect", "ship", "reject"},
		Observations: []string{"NBL", "BL"},
		T:            [][][]float64{paint, inspect, next, next},
		Z:            [][][]float64{nbl, look, nbl, nbl},
		R:            R,
		B0:           b0,
		Discount:     0.95, HasDiscount: true,
	}, "part painting of Kushmerick, Hanks & Weld (1995) as in Cassandra's paint.95, discount 0.95")
}
