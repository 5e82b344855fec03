package bench

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// RockSample(4,4) layout (docs/benchmarks.md#rocksample).
const (
	rsSize     = 4
	rsRocks    = 4
	rsConfigs  = 1 << rsRocks
	rsTerminal = rsSize * rsSize * rsConfigs // 256
)

// RockPositions returns the (row, col) cells of rocks 0 … 3 of RockSample44:
// (0,1), (1,3), (2,1), (3,3).
func RockPositions() [][2]int { return [][2]int{{0, 1}, {1, 3}, {2, 1}, {3, 3}} }

// RockSampleState returns the RockSample44 state index of the agent at
// (row, col) with rock configuration rockbits (bit i set when rock i is
// good): (row·4 + col)·16 + rockbits. The terminal state is 256.
// It panics if an argument is out of range.
func RockSampleState(row, col, rockbits int) int {
	if row < 0 || row >= rsSize || col < 0 || col >= rsSize || rockbits < 0 || rockbits >= rsConfigs {
		panic(fmt.Sprintf("bench: RockSampleState(%d, %d, %d) out of range", row, col, rockbits))
	}
	return (row*rsSize+col)*rsConfigs + rockbits
}

// CheckEfficiency returns the RockSample sensor efficiency at Manhattan
// distance dist: η = max(0.5, 1 − dist/d_max) with d_max = 4·√2. This is
// the paper's sensor (docs/benchmarks.md#rocksample), used by RockSample44 only; Smith &
// Simmons' exponential sensor is RockSensorEfficiency.
func CheckEfficiency(dist int) float64 {
	return math.Max(0.5, 1-float64(dist)/(4*math.Sqrt2))
}

// RockSample44 returns RockSample(4,4) (docs/benchmarks.md#rocksample; paper |S| = 257, 9
// actions, 3 observations).
//
// States: index (row·4 + col)·16 + rockbits (bit i = 1 when rock i is
// good), named s_<row>_<col>_<q0q1q2q3> with q_i = G or B the quality of
// rock i (e.g. s_0_0_GBBB is index 1), plus the absorbing state "terminal"
// (index 256). Rocks at RockPositions. Actions move_north, move_south,
// move_east, move_west, sample, check_1 … check_4 (check_k checks rock
// k−1, the k-th rock); observations good, bad, none.
//
//	north/south: row ∓ 1 clipped; west: col − 1 clipped (reward 0)
//	east: col + 1, or from col 3 the terminal state with R = +10
//	sample on rock i's cell: R = +10 if rock i is good else −10; rock i becomes bad
//	sample elsewhere: R = −10, no state change; check_k: no state change, R = 0
//	Z(s', move or sample, none) = 1 for non-terminal s'
//	Z(s', check_k, true quality of rock k−1) = η, the other quality 1 − η,
//	    η = CheckEfficiency(Manhattan distance from the agent in s' to the rock)
//	terminal: absorbing under every action, emits none, R = 0
//	b0: agent at (0,0), the 16 rock configurations uniform
//
// Ground metric: discrete. No discount is set (the paper's quantities are
// finite-horizon). Smith & Simmons' RockSample, with an exponential
// Euclidean sensor and discount 0.95, is RockSample(n, k, settings).
// Construction costs O(|S|·|A|).
func RockSample44() (Benchmark, error) {
	nS := rsTerminal + 1
	rocks := RockPositions()
	rockAt := func(r, c int) int {
		for i, p := range rocks {
			if p[0] == r && p[1] == c {
				return i
			}
		}
		return -1
	}
	states := rs44States(nS)
	actions := []string{"move_north", "move_south", "move_east", "move_west", "sample", "check_1", "check_2", "check_3", "check_4"}
	nA := len(actions)
	R := zeros(nS, nA)
	for s := 0; s < rsTerminal; s++ {
		cell, bits := s/rsConfigs, s%rsConfigs
		r, c := cell/rsSize, cell%rsSize
		if c == rsSize-1 {
			R[s][rsEast] = 10
		}
		R[s][rsSample] = -10
		if i := rockAt(r, c); i >= 0 && bits>>i&1 == 1 {
			R[s][rsSample] = 10
		}
	}
	T, Z := rs44Kernels(nS, nA, rocks, rockAt)
	b0 := make([]float64, nS)
	for bits := 0; bits < rsConfigs; bits++ {
		b0[RockSampleState(0, 0, bits)] = 1.0 / rsConfigs
	}
	m := &pomdp.Model{
		Name:         "rocksample:4:4",
		States:       states,
		Actions:      actions,
		Observations: []string{"good", "bad", "none"},
		T:            T,
		Z:            Z,
		R:            R,
		B0:           b0,
	}
	return finish(m, ot.Discrete(3), "RockSample(4,4): 4×4 grid, 4 rocks, exit east")
}

// rs44States returns the nS state names of RockSample44: s_r_c_Q…Q (Q = G
// or B per rock), then "terminal".
func rs44States(nS int) []string {
	states := make([]string, nS)
	for r := 0; r < rsSize; r++ {
		for c := 0; c < rsSize; c++ {
			for bits := 0; bits < rsConfigs; bits++ {
				q := make([]byte, rsRocks)
				for i := range q {
					q[i] = 'B'
					if bits>>i&1 == 1 {
						q[i] = 'G'
					}
				}
				states[RockSampleState(r, c, bits)] = fmt.Sprintf("s_%d_%d_%s", r, c, q)
			}
		}
	}
	states[rsTerminal] = "terminal"
	return states
}

// rs44Kernels returns the transition and observation kernels of
// RockSample44's nA actions, with the rocks at rocks (rockAt(r, c) is the
// rock at a cell, or −1).
func rs44Kernels(nS, nA int, rocks [][2]int, rockAt func(r, c int) int) ([]pomdp.Kernel, []*pomdp.Sparse) {
	// next returns the successor of non-terminal s under action a.
	next := func(s, a int) int {
		cell, bits := s/rsConfigs, s%rsConfigs
		r, c := cell/rsSize, cell%rsSize
		switch a {
		case rsNorth:
			r = max(r-1, 0)
		case rsSouth:
			r = min(r+1, rsSize-1)
		case rsWest:
			c = max(c-1, 0)
		case rsEast:
			if c == rsSize-1 {
				return rsTerminal
			}
			c++
		case rsSample:
			if i := rockAt(r, c); i >= 0 {
				bits &^= 1 << i
			}
		}
		return RockSampleState(r, c, bits)
	}
	T := make([]pomdp.Kernel, nA)
	Z := make([]*pomdp.Sparse, nA)
	for a := 0; a < nA; a++ {
		T[a] = buildCSR(nS, nS, func(s int, add func(int, float64)) {
			if s == rsTerminal {
				add(s, 1)
				return
			}
			add(next(s, a), 1)
		})
		Z[a] = buildCSR(nS, 3, func(s int, add func(int, float64)) {
			if s == rsTerminal || a < rsCheck1 {
				add(rsNone, 1)
				return
			}
			i := a - rsCheck1
			cell, bits := s/rsConfigs, s%rsConfigs
			r, c := cell/rsSize, cell%rsSize
			dist := abs(float64(r-rocks[i][0])) + abs(float64(c-rocks[i][1]))
			eta := CheckEfficiency(int(dist))
			if bits>>i&1 == 1 {
				add(rsGood, eta)
				add(rsBad, 1-eta)
			} else {
				add(rsGood, 1-eta)
				add(rsBad, eta)
			}
		})
	}
	return T, Z
}

// The actions and observations of RockSample by index (check_i is
// rsCheck1 + i − 1).
const (
	rsNorth = iota
	rsSouth
	rsEast
	rsWest
	rsSample
	rsCheck1
)

const (
	rsGood = iota
	rsBad
	rsNone
)
