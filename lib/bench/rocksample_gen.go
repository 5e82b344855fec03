package bench

import (
	"fmt"
	"math"
	"strconv"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Defaults of RockSample.
const (
	// DefaultHalfEfficiency is the default half-efficiency distance d0 of
	// the RockSample sensor, the value hard-coded in POMCP's and DESPOT's
	// RockSample and the default of POMDPs.jl's RockSample.jl
	// (sensor_efficiency = 20).
	DefaultHalfEfficiency = 20.0
	// RockSampleDiscount is the discount factor of RockSample (Smith &
	// Simmons 2004).
	RockSampleDiscount = 0.95
)

// RockLayout is a RockSample map on an n×n grid: the agent's start cell
// and the rock cells, each as (row, col). Row 0 is the northern row
// (move_north decreases the row), col 0 the western column (move_east
// increases the column and leaves the map from col n − 1).
type RockLayout struct {
	Start [2]int
	Rocks [][2]int
	// Source says where the layout comes from (informational).
	Source string
}

// RockSampleSettings adjusts RockSample. The zero value (or a nil
// pointer) means the defaults.
type RockSampleSettings struct {
	// Layout gives the start and rock cells; nil means RockSampleLayout(n, k).
	Layout *RockLayout
	// HalfEfficiency is the sensor's half-efficiency distance d0 > 0
	// (+Inf gives a perfect sensor); 0 means DefaultHalfEfficiency.
	HalfEfficiency float64
}

// publishedRocks are the layouts hard-coded in POMCP's rocksample.cpp
// (Silver & Veness 2010), copied unchanged into DESPOT's
// base_rock_sample.cpp; POMCP's comments call the (5,7) and (7,8) ones
// equivalent to APPL's RockSample_5_7 and RockSample_7_8 problem files,
// which were generated with Smith's ZMDP for Smith & Simmons 2004. Cells are
// (x, y) as in those sources: x the column (east is x + 1), y the row
// counted from the south (north is y + 1). They were written down from
// memory of those sources; see RockSampleLayout.
var publishedRocks = map[[2]int]struct {
	start [2]int
	rocks [][2]int
}{
	{5, 5}:   {[2]int{0, 2}, [][2]int{{2, 4}, {0, 4}, {3, 3}, {2, 2}, {4, 1}}},
	{5, 7}:   {[2]int{0, 2}, [][2]int{{1, 0}, {2, 1}, {1, 2}, {2, 2}, {4, 2}, {0, 3}, {3, 4}}},
	{7, 8}:   {[2]int{0, 3}, [][2]int{{2, 0}, {0, 1}, {3, 1}, {6, 3}, {2, 4}, {3, 4}, {5, 5}, {1, 6}}},
	{11, 11}: {[2]int{0, 5}, [][2]int{{0, 3}, {0, 7}, {1, 8}, {2, 4}, {3, 3}, {3, 8}, {4, 3}, {5, 8}, {6, 1}, {9, 3}, {9, 9}}},
}

// RockSampleLayout returns the default layout of RockSample(n, k):
//
//   - (4,4): the repository's RockSample(4,4) map of docs/benchmarks.md#rocksample, rocks
//     at (0,1), (1,3), (2,1), (3,3), start (0,0);
//   - (5,5), (5,7), (7,8), (11,11): the published layouts (POMCP / DESPOT
//     sources, equal to the APPL RockSample_n_k files; see below), start in
//     the middle row of the western column. RockSample(7,8) has rocks at
//     (row, col) (6,2), (5,0), (5,3), (3,6), (2,2), (2,3), (1,5), (0,1)
//     and starts at (3,0);
//   - any other (n, k): a generated layout. The start is (⌊n/2⌋, 0), as in
//     the published ones, and the rocks are the first k cells of a
//     Fisher–Yates shuffle of the other n² − 1 cells (row-major order;
//     swap index j = i + x mod (n² − 1 − i) with x the i-th output of
//     SplitMix64 seeded with n·2³² + k), followed by the start cell when
//     k = n². The shuffle is implemented here, so the layout never changes.
//
// The published layouts are converted from the sources' (x, y), y counted
// from the south, to (row, col) = (n − 1 − y, x), which keeps north, east
// and the exit on the same sides. Provenance and what we could check: the
// sizes 7·7·2⁸ + 1 = 12,545 states and 13 actions of RockSample[7,8] are
// those of Smith & Simmons 2004 (HSVI) and of the SARSOP benchmarks; the
// coordinates were written down from the POMCP/DESPOT sources from memory,
// in an environment without access to the papers or the ZMDP/APPL problem
// files, so they are unverified against those files (the (7,8) layout is
// the one we are most confident of). The standard (10,10) instance of
// Smith & Simmons is not reproduced: we do not know its layout, so
// RockSample(10, 10) uses a generated one.
//
// It returns an error for n < 1 or k outside [0, n²].
func RockSampleLayout(n, k int) (RockLayout, error) {
	if n < 1 {
		return RockLayout{}, fmt.Errorf("bench: RockSample(%d, %d): need n ≥ 1", n, k)
	}
	if k < 0 || k > n*n {
		return RockLayout{}, fmt.Errorf("bench: RockSample(%d, %d): need 0 ≤ k ≤ n² = %d rocks", n, k, n*n)
	}
	if n == rsSize && k == rsRocks {
		return RockLayout{Start: [2]int{0, 0}, Rocks: RockPositions(), Source: "the paper's RockSample(4,4) layout (docs/benchmarks.md#rocksample)"}, nil
	}
	if p, ok := publishedRocks[[2]int{n, k}]; ok {
		conv := func(xy [2]int) [2]int { return [2]int{n - 1 - xy[1], xy[0]} }
		l := RockLayout{Start: conv(p.start), Source: fmt.Sprintf("published RockSample(%d,%d) layout (POMCP/DESPOT, APPL RockSample_%d_%d)", n, k, n, k)}
		for _, r := range p.rocks {
			l.Rocks = append(l.Rocks, conv(r))
		}
		return l, nil
	}
	start := [2]int{n / 2, 0}
	cells := make([][2]int, 0, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if [2]int{r, c} != start {
				cells = append(cells, [2]int{r, c})
			}
		}
	}
	state := uint64(n)<<32 | uint64(k)
	m := len(cells)
	for i := 0; i < min(k, m); i++ {
		j := i + int(splitMix64(&state)%uint64(m-i))
		cells[i], cells[j] = cells[j], cells[i]
	}
	cells = append(cells, start)
	return RockLayout{Start: start, Rocks: cells[:k:k], Source: fmt.Sprintf("generated RockSample(%d,%d) layout (SplitMix64 seed %d·2³² + %d)", n, k, n, k)}, nil
}

// splitMix64 advances *s and returns the next SplitMix64 output (Steele,
// Lea & Flood 2014).
func splitMix64(s *uint64) uint64 {
	*s += 0x9e3779b97f4a7c15
	z := *s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// RockSensorEfficiency returns the efficiency of the RockSample sensor of
// Smith & Simmons 2004 at Euclidean distance d with half-efficiency
// distance d0:
//
//	η = (1 + 2^(−d/d0)) / 2
//
// so η = 1 on the rock and η → 1/2 far away; a check reports the true
// quality with probability η.
func RockSensorEfficiency(d, d0 float64) float64 {
	return (1 + math.Exp2(-d/d0)) / 2
}

// RockSample returns RockSample(n, k) of Smith & Simmons 2004 ("Heuristic
// search value iteration for POMDPs", UAI): an n×n grid with k rocks of
// unknown quality, |S| = n²·2^k + 1, |A| = 5 + k, |O| = 3.
//
// States: index (row·n + col)·2^k + rockbits (bit i = 1 when rock i is
// good), named s_<row>_<col>_<q_0…q_{k−1}> with q_i = G or B, plus the
// absorbing state "terminal" (index n²·2^k). Actions move_north,
// move_south, move_east, move_west, sample, check_1 … check_k (check_j
// checks rock j − 1); observations good, bad, none.
//
//	moves are deterministic; north/south/west into the border: no change, R = 0
//	east from col n − 1: terminal with R = +10
//	sample on rock i's cell: R = +10 if rock i is good (it becomes bad), −10 if bad
//	sample elsewhere: R = −10, no change; check_j: no change, R = 0
//	Z(s', move or sample, none) = 1 for non-terminal s'
//	Z(s', check_j, true quality of rock j−1) = η, the other quality 1 − η,
//	    η = RockSensorEfficiency(Euclidean distance from the agent in s' to the rock, d0)
//	terminal: absorbing under every action, emits none, R = 0
//	b0: agent at the layout's start, the 2^k rock configurations uniform
//	discount RockSampleDiscount = 0.95
//
// The rock layout is settings.Layout, or RockSampleLayout(n, k) (which
// says where each default comes from); d0 is settings.HalfEfficiency or
// DefaultHalfEfficiency: the sensor's efficiency decays exponentially
// with distance and d0 is the distance at which it is halfway between
// perfect and useless, as described by Smith & Simmons; the value 20 is
// POMCP's and DESPOT's.
//
// Known differences from other formulations: the tables of Smith & Simmons
// and of SARSOP list |O| = 2 as we recall them; we keep the separate,
// uninformative none symbol of the repository's RockSample(4,4), which
// changes no value. POMCP and DESPOT treat a move off the grid and a sample
// on an empty cell as illegal (reward −100); here they are a no-op and −10.
//
// RockSample(4, 4, nil) is this model on the RockSample(4,4) map, and is
// not RockSample44: the paper's RockSample(4,4), which Lookup returns for
// "rocksample:4:4", uses a linear sensor over Manhattan distance
// (CheckEfficiency) and no discount.
//
// The model's name is "rocksample:N:K" when Lookup rebuilds the same model
// (default settings, (n, k) ≠ (4, 4)), "rocksample-custom:N:K" otherwise.
// Ground metric: discrete.
//
// Kernels are built directly in CSR form and shared where equal: the k
// check actions share one identity transition kernel, the moves and sample
// share one "none" observation kernel, and every deterministic kernel
// shares its row pointers and unit values. RockSample(7, 8, nil) stores
// 286,479 probabilities, keeps about 7 MB (names and rewards included) and
// builds and validates in about 10 ms; RockSample(10, 10, nil) keeps about
// 68 MB (see BenchmarkConstruct). Cost O(|S|·k).
//
// It returns an error for n < 1, k outside [0, n²], a malformed layout
// (wrong number of rocks, cells off the grid, two rocks on one cell), a
// d0 that is not positive, and an error wrapping ErrTooLarge, naming the
// dominant factor, when |S| exceeds MaxStates or the stored probabilities
// exceed MaxEntries.
func RockSample(n, k int, settings *RockSampleSettings) (Benchmark, error) {
	if n < 1 {
		return Benchmark{}, fmt.Errorf("bench: RockSample(%d, %d): need n ≥ 1", n, k)
	}
	if k < 0 {
		return Benchmark{}, fmt.Errorf("bench: RockSample(%d, %d): need k ≥ 0 rocks", n, k)
	}
	if err := rockSampleSize(n, k); err != nil {
		return Benchmark{}, err
	}
	var s RockSampleSettings
	if settings != nil {
		s = *settings
	}
	custom := s.Layout != nil || (s.HalfEfficiency != 0 && s.HalfEfficiency != DefaultHalfEfficiency) || (n == rsSize && k == rsRocks)
	d0 := s.HalfEfficiency
	if d0 == 0 {
		d0 = DefaultHalfEfficiency
	}
	if !(d0 > 0) {
		return Benchmark{}, fmt.Errorf("bench: RockSample(%d, %d): half-efficiency distance %v must be positive", n, k, d0)
	}
	var layout RockLayout
	if s.Layout != nil {
		layout = *s.Layout
		if err := checkRockLayout(n, k, layout); err != nil {
			return Benchmark{}, err
		}
	} else {
		var err error
		if layout, err = RockSampleLayout(n, k); err != nil {
			return Benchmark{}, err
		}
	}
	name := fmt.Sprintf("rocksample:%d:%d", n, k)
	if custom {
		name = fmt.Sprintf("rocksample-custom:%d:%d", n, k)
	}
	m := buildRockSample(n, k, layout, d0)
	m.Name = name
	doc := fmt.Sprintf("RockSample(%d,%d) of Smith & Simmons 2004: %d×%d grid, %d rocks, d0 = %g, %s", n, k, n, n, k, d0, layout.Source)
	return finish(m, ot.Discrete(3), doc)
}

// rockSampleSize returns ErrTooLarge (wrapped) when RockSample(n, k) would
// exceed MaxStates or MaxEntries, naming the dominant factor of
// |S| = n²·2^k + 1.
func rockSampleSize(n, k int) error {
	cells := float64(n) * float64(n)
	configs := math.Ldexp(1, k)
	nS := cells*configs + 1
	// T: 5 deterministic kernels plus one shared identity; Z: one shared
	// "none" kernel plus k check kernels of at most 2 entries per row.
	entries := nS * float64(6+1+2*k)
	if nS <= MaxStates && entries <= MaxEntries {
		return nil
	}
	big := fmt.Sprintf("the 2^%d = %.3g rock configurations", k, configs)
	if cells > configs {
		big = fmt.Sprintf("the %d×%d = %.0f cells", n, n, cells)
	}
	if nS > MaxStates {
		return fmt.Errorf("%w: rocksample:%d:%d has %d·%d·2^%d + 1 ≈ %.4g states, the limit is %d; the largest term is %s", ErrTooLarge, n, k, n, n, k, nS, MaxStates, big)
	}
	return fmt.Errorf("%w: rocksample:%d:%d stores about %.3g probabilities, the limit is %d; the largest term is %s", ErrTooLarge, n, k, entries, MaxEntries, big)
}

// checkRockLayout checks a user layout for RockSample(n, k).
func checkRockLayout(n, k int, l RockLayout) error {
	in := func(c [2]int) bool { return c[0] >= 0 && c[0] < n && c[1] >= 0 && c[1] < n }
	if !in(l.Start) {
		return fmt.Errorf("bench: RockSample(%d, %d): start cell %v is off the %d×%d grid", n, k, l.Start, n, n)
	}
	if len(l.Rocks) != k {
		return fmt.Errorf("bench: RockSample(%d, %d): layout has %d rocks, want %d", n, k, len(l.Rocks), k)
	}
	seen := make(map[[2]int]int, k)
	for i, c := range l.Rocks {
		if !in(c) {
			return fmt.Errorf("bench: RockSample(%d, %d): rock %d at %v is off the %d×%d grid", n, k, i, c, n, n)
		}
		if j, ok := seen[c]; ok {
			return fmt.Errorf("bench: RockSample(%d, %d): rocks %d and %d share cell %v", n, k, j, i, c)
		}
		seen[c] = i
	}
	return nil
}

// buildRockSample builds the (unvalidated, unnamed) model of RockSample
// for a checked layout.
func buildRockSample(n, k int, layout RockLayout, d0 float64) *pomdp.Model {
	nCells, nConf := n*n, 1<<k
	terminal := nCells * nConf
	nS := terminal + 1
	rockAt := make([]int, nCells) // rock index on each cell, or −1
	for i := range rockAt {
		rockAt[i] = -1
	}
	for i, c := range layout.Rocks {
		rockAt[c[0]*n+c[1]] = i
	}

	states := rockSampleStates(n, k)
	actions := rockSampleActions(k)

	// Deterministic kernels share the row pointers 0, 1, …, nS and the unit values.
	unitPtr := make([]int, nS+1)
	ones := make([]float64, nS)
	for i := range unitPtr {
		unitPtr[i] = i
	}
	for i := range ones {
		ones[i] = 1
	}
	det := func(col []int) *pomdp.Sparse {
		return &pomdp.Sparse{Rows: nS, Cols: nS, RowPtr: unitPtr, Col: col, Val: ones}
	}
	T, R := rockSampleMoves(n, k, rockAt, det)
	Z := rockSampleChecks(n, k, layout, d0, unitPtr, ones)
	b0 := make([]float64, nS)
	start := layout.Start[0]*n + layout.Start[1]
	for bits := 0; bits < nConf; bits++ {
		b0[start*nConf+bits] = 1 / float64(nConf)
	}
	return &pomdp.Model{
		States:       states,
		Actions:      actions,
		Observations: []string{"good", "bad", "none"},
		Discount:     RockSampleDiscount,
		HasDiscount:  true,
		T:            T,
		Z:            Z,
		R:            R,
		B0:           b0,
	}
}

// rockSampleStates returns the state names of RockSample(n, k): s_r_c_Q…Q
// (Q = G or B per rock) in the order cell·2^k + bits, then "terminal".
func rockSampleStates(n, k int) []string {
	nCells, nConf := n*n, 1<<k
	terminal := nCells * nConf
	states := make([]string, terminal+1)
	buf := make([]byte, 0, 32+k)
	for cell := 0; cell < nCells; cell++ {
		buf = append(buf[:0], "s_"...)
		buf = strconv.AppendInt(buf, int64(cell/n), 10)
		buf = append(buf, '_')
		buf = strconv.AppendInt(buf, int64(cell%n), 10)
		buf = append(buf, '_')
		pre := len(buf)
		for bits := 0; bits < nConf; bits++ {
			buf = buf[:pre]
			for i := 0; i < k; i++ {
				q := byte('B')
				if bits>>i&1 == 1 {
					q = 'G'
				}
				buf = append(buf, q)
			}
			states[cell*nConf+bits] = string(buf)
		}
	}
	states[terminal] = "terminal"
	return states
}

// rockSampleActions returns the actions of RockSample(n, k): the four
// moves, sample and check_1 … check_k.
func rockSampleActions(k int) []string {
	nA := 5 + k
	actions := make([]string, nA)
	copy(actions, []string{"move_north", "move_south", "move_east", "move_west", "sample"})
	for j := 1; j <= k; j++ {
		actions[4+j] = "check_" + strconv.Itoa(j)
	}
	return actions
}

// rockSampleMoves returns the deterministic kernels of RockSample(n, k)
// (det builds one from its column per state) and the rewards: +10 for
// exiting east and for sampling a good rock, −10 for sampling elsewhere.
func rockSampleMoves(n, k int, rockAt []int, det func(col []int) *pomdp.Sparse) ([]pomdp.Kernel, [][]float64) {
	nCells, nConf := n*n, 1<<k
	terminal := nCells * nConf
	nS, nA := terminal+1, 5+k
	moves := make([][]int, 5)
	for a := range moves {
		moves[a] = make([]int, nS)
	}
	R := zeros(nS, nA)
	for cell := 0; cell < nCells; cell++ {
		r, c := cell/n, cell%n
		to := [4]int{max(r-1, 0)*n + c, min(r+1, n-1)*n + c, r*n + c + 1, r*n + max(c-1, 0)}
		rock := rockAt[cell]
		for bits := 0; bits < nConf; bits++ {
			s := cell*nConf + bits
			for a := rsNorth; a <= rsWest; a++ {
				moves[a][s] = to[a]*nConf + bits
			}
			if c == n-1 {
				moves[rsEast][s] = terminal
				R[s][rsEast] = 10
			}
			moves[rsSample][s] = s
			R[s][rsSample] = -10
			if rock >= 0 && bits>>rock&1 == 1 {
				moves[rsSample][s] = s &^ (1 << rock)
				R[s][rsSample] = 10
			}
		}
	}
	identity := make([]int, nS)
	for s := range identity {
		identity[s] = s
	}
	T := make([]pomdp.Kernel, nA)
	for a := range moves {
		moves[a][terminal] = terminal
		T[a] = det(moves[a])
	}
	id := det(identity)
	for a := rsCheck1; a < nA; a++ {
		T[a] = id
	}
	return T, R
}

// rockSampleChecks returns the observation kernels of RockSample(n, k):
// "none" for the moves and sample (zNone's rows share unitPtr and ones),
// and for check_i "good" or "bad" with the sensor's efficiency at the
// distance to rock i (half-efficiency distance d0).
func rockSampleChecks(n, k int, layout RockLayout, d0 float64, unitPtr []int, ones []float64) []*pomdp.Sparse {
	nCells, nConf := n*n, 1<<k
	nS, nA := nCells*nConf+1, 5+k
	Z := make([]*pomdp.Sparse, nA)
	noneCol := make([]int, nS)
	for i := range noneCol {
		noneCol[i] = rsNone
	}
	zNone := &pomdp.Sparse{Rows: nS, Cols: 3, RowPtr: unitPtr, Col: noneCol, Val: ones}
	for a := 0; a < rsCheck1; a++ {
		Z[a] = zNone
	}
	eta := make([]float64, nCells)
	for i, rk := range layout.Rocks {
		for cell := range eta {
			dr, dc := float64(cell/n-rk[0]), float64(cell%n-rk[1])
			eta[cell] = RockSensorEfficiency(math.Hypot(dr, dc), d0)
		}
		z := &pomdp.Sparse{Rows: nS, Cols: 3, RowPtr: make([]int, nS+1), Col: make([]int, 0, 2*nS), Val: make([]float64, 0, 2*nS)}
		for cell := 0; cell < nCells; cell++ {
			e := eta[cell]
			for bits := 0; bits < nConf; bits++ {
				pGood, pBad := 1-e, e
				if bits>>i&1 == 1 {
					pGood, pBad = e, 1-e
				}
				if pGood != 0 {
					z.Col = append(z.Col, rsGood)
					z.Val = append(z.Val, pGood)
				}
				if pBad != 0 {
					z.Col = append(z.Col, rsBad)
					z.Val = append(z.Val, pBad)
				}
				z.RowPtr[cell*nConf+bits+1] = len(z.Col)
			}
		}
		z.Col = append(z.Col, rsNone)
		z.Val = append(z.Val, 1)
		z.RowPtr[nS] = len(z.Col)
		Z[rsCheck1+i] = z
	}
	return Z
}
