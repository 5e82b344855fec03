package bench

import (
	"strconv"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Tag map and sizes (Pineau, Gordon & Thrun 2003).
const (
	// TagCellCount is the number of free cells of the Tag map.
	TagCellCount = 29
	// TagTagged is the opponent component of the tagged states.
	TagTagged = TagCellCount
	// TagDiscount is the discount factor of Tag.
	TagDiscount = 0.95
)

// tagMap is the Tag map, row 0 at the top (north), '.' free, '#' wall.
var tagMap = [...]string{
	"#####...##",
	"#####...##",
	"#####...##",
	"..........",
	"..........",
}

// TagCells returns the (row, col) cell of each Tag cell index 0 … 28 on
// the 5×10 map of Pineau, Gordon & Thrun 2003 (row 0 at the top, north):
// the two bottom rows are a 2×10 corridor and a 3×3 block stands on its
// columns 5 … 7.
//
//	row 0               26 27 28
//	row 1               23 24 25
//	row 2               20 21 22
//	row 3   10 11 12 13 14 15 16 17 18 19
//	row 4    0  1  2  3  4  5  6  7  8  9
//
// Cells are numbered from the bottom-left corner, row by row, as in the
// paper's figure.
func TagCells() [][2]int {
	var out [][2]int
	for r := len(tagMap) - 1; r >= 0; r-- {
		for c := 0; c < len(tagMap[r]); c++ {
			if tagMap[r][c] == '.' {
				out = append(out, [2]int{r, c})
			}
		}
	}
	return out
}

// TagState returns the Tag state index of the robot in cell robot and the
// opponent in cell opp (0 … 28), or TagTagged for the tagged states:
// robot·30 + opp. It panics if an argument is out of range.
func TagState(robot, opp int) int {
	if robot < 0 || robot >= TagCellCount || opp < 0 || opp > TagTagged {
		panic("bench: TagState(" + strconv.Itoa(robot) + ", " + strconv.Itoa(opp) + ") out of range")
	}
	return robot*(TagCellCount+1) + opp
}

// TagOpponentMove returns the opponent's next-cell distribution when the
// robot is in cell robot and the opponent in cell opp: each neighbouring
// free cell (north, south, east, west) whose Manhattan distance to the
// robot's cell exceeds the current one gets 0.8 / (number of such cells),
// and the opponent stays with the remaining probability (0.2, or 1 when no
// move increases the distance). Entries are (cell, probability) in the
// order stay, north, south, east, west, without zeros. It panics if a cell
// is outside 0 … 28.
func TagOpponentMove(robot, opp int) []TagOutcome {
	if robot < 0 || robot >= TagCellCount || opp < 0 || opp >= TagCellCount {
		panic("bench: TagOpponentMove(" + strconv.Itoa(robot) + ", " + strconv.Itoa(opp) + ") out of range")
	}
	cells := TagCells()
	return tagOpponent(cells, tagIndex(cells), robot, opp, nil)
}

// TagOutcome is one outcome of TagOpponentMove.
type TagOutcome struct {
	Cell int
	P    float64
}

// tagIndex returns the cell index of each (row, col), −1 on walls.
func tagIndex(cells [][2]int) [][]int {
	idx := make([][]int, len(tagMap))
	for r := range idx {
		idx[r] = make([]int, len(tagMap[r]))
		for c := range idx[r] {
			idx[r][c] = -1
		}
	}
	for i, c := range cells {
		idx[c[0]][c[1]] = i
	}
	return idx
}

// tagStep returns the cell reached from cell i by direction d (north,
// south, east, west), or i when blocked by a wall or the border.
func tagStep(cells [][2]int, idx [][]int, i, d int) int {
	r, c := cells[i][0], cells[i][1]
	switch d {
	case 0:
		r--
	case 1:
		r++
	case 2:
		c++
	case 3:
		c--
	}
	if r < 0 || r >= len(idx) || c < 0 || c >= len(idx[r]) || idx[r][c] < 0 {
		return i
	}
	return idx[r][c]
}

func tagDist(cells [][2]int, i, j int) int {
	d := 0
	for k := range 2 {
		if x := cells[i][k] - cells[j][k]; x < 0 {
			d -= x
		} else {
			d += x
		}
	}
	return d
}

// tagOpponent appends the opponent's move distribution to dst.
func tagOpponent(cells [][2]int, idx [][]int, robot, opp int, dst []TagOutcome) []TagOutcome {
	d := tagDist(cells, robot, opp)
	var away [4]int
	n := 0
	for dir := 0; dir < 4; dir++ {
		if j := tagStep(cells, idx, opp, dir); j != opp && tagDist(cells, robot, j) > d {
			away[n] = j
			n++
		}
	}
	if n == 0 {
		return append(dst, TagOutcome{opp, 1})
	}
	dst = append(dst, TagOutcome{opp, 0.2})
	for _, j := range away[:n] {
		dst = append(dst, TagOutcome{j, 0.8 / float64(n)})
	}
	return dst
}

// Tag returns the Tag problem of Pineau, Gordon & Thrun 2003 ("Point-based
// value iteration: an anytime algorithm for POMDPs", IJCAI): a robot
// chases an opponent that runs away on the 29-cell map of TagCells.
// |S| = 870, |A| = 5, |O| = 30.
//
// States: TagState(robot, opp) = robot·30 + opp, named r<robot>_o<opp>,
// and for opp = TagTagged r<robot>_tagged (29 × 30 = 870, the paper's
// count: the robot's cell times the opponent's 29 cells or "tagged").
// Actions north, south, east, west, tag; observations cell_0 … cell_28
// (the robot's cell) and here (the opponent is in the robot's cell).
//
//	moves: the robot moves one cell, staying put at walls and borders; R = −1
//	tag: R = +10 and the opponent becomes tagged if it is in the robot's cell,
//	    else R = −10 and the robot stays
//	the opponent (if not tagged and not just tagged) moves by TagOpponentMove
//	    from the robot's cell before the action: away with 0.8, stays with 0.2
//	tagged states: absorbing for the opponent (the robot still moves), R = 0
//	Z(s', a, here) = 1 if the opponent is in the robot's cell in s',
//	    else Z(s', a, cell_<robot in s'>) = 1 (also in tagged states)
//	b0: robot and opponent independent and uniform over the 29 cells
//	    (1/841 on each untagged state); discount TagDiscount = 0.95
//
// Choices where formulations differ, made here and documented: the robot
// position is observed exactly except when the opponent shares its cell
// (30 observations, as in the paper); "away" means a strictly larger
// Manhattan distance on the grid (walls are not routed around); the
// opponent flees from the robot's position before the robot's move; after
// a successful tag the game is over (zero reward forever) while the robot
// keeps its position dynamics, which keeps the 870 states of the paper.
// The map and sizes are recalled from the paper and its figure; they could
// not be checked against a copy here. Ground metric: discrete.
// Construction costs O(|S|·|A|).
func Tag() (Benchmark, error) {
	cells := TagCells()
	idx := tagIndex(cells)
	const nC = TagCellCount
	nS := nC * (nC + 1)
	states := make([]string, nS)
	for r := 0; r < nC; r++ {
		for o := 0; o <= nC; o++ {
			name := "r" + strconv.Itoa(r) + "_"
			if o == TagTagged {
				name += "tagged"
			} else {
				name += "o" + strconv.Itoa(o)
			}
			states[TagState(r, o)] = name
		}
	}
	obs := make([]string, nC+1)
	for i := 0; i < nC; i++ {
		obs[i] = "cell_" + strconv.Itoa(i)
	}
	const here = nC
	obs[here] = "here"
	actions := []string{"north", "south", "east", "west", "tag"}
	const tag = 4
	nA := len(actions)
	R := zeros(nS, nA)
	var moves []TagOutcome
	T := make([]pomdp.Kernel, nA)
	for a := 0; a < nA; a++ {
		T[a] = buildCSR(nS, nS, func(s int, add func(int, float64)) {
			r, o := s/(nC+1), s%(nC+1)
			if o == TagTagged {
				if a != tag {
					r = tagStep(cells, idx, r, a)
				}
				add(TagState(r, TagTagged), 1)
				return
			}
			if a == tag && o == r {
				add(TagState(r, TagTagged), 1)
				return
			}
			next := r
			if a != tag {
				next = tagStep(cells, idx, r, a)
			}
			moves = tagOpponent(cells, idx, r, o, moves[:0])
			for _, m := range moves {
				add(TagState(next, m.Cell), m.P)
			}
		})
	}
	for s := 0; s < nS; s++ {
		r, o := s/(nC+1), s%(nC+1)
		if o == TagTagged {
			continue
		}
		for a := 0; a < tag; a++ {
			R[s][a] = -1
		}
		R[s][tag] = -10
		if o == r {
			R[s][tag] = 10
		}
	}
	z := buildCSR(nS, nC+1, func(s int, add func(int, float64)) {
		r, o := s/(nC+1), s%(nC+1)
		if o == r {
			add(here, 1)
			return
		}
		add(r, 1)
	})
	b0 := make([]float64, nS)
	for r := 0; r < nC; r++ {
		for o := 0; o < nC; o++ {
			b0[TagState(r, o)] = 1.0 / (nC * nC)
		}
	}
	m := &pomdp.Model{
		Name:         "tag",
		States:       states,
		Actions:      actions,
		Observations: obs,
		Discount:     TagDiscount,
		HasDiscount:  true,
		T:            T,
		Z:            sameObs(z, nA),
		R:            R,
		B0:           b0,
	}
	return finish(m, ot.Discrete(nC+1), "Tag of Pineau, Gordon & Thrun 2003: 29-cell map, opponent flees with 0.8")
}
