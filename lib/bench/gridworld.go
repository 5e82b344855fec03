package bench

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// GridWorld observation indices (docs/benchmarks.md#gridworld order).
const (
	NW = iota
	NE
	SW
	SE
)

// GridGroundName names GridGround in printed output.
const GridGroundName = "quadrant-manhattan"

// gridMergedName names the metric of GridWorldCoarse.
const gridMergedName = GridGroundName + " merged to North/South"

// GridGround returns the geometric ground metric on the GridWorld
// observations NW, NE, SW, SE (in that order): with quadrant coordinates
// NW (0,0), NE (0,1), SW (1,0), SE (1,1),
//
//	d(o, o') = (|Δx| + |Δy|) / 2,
//
// so adjacent quadrants are at distance 0.5 and opposite ones at 1.
func GridGround() ot.Ground {
	xy := [4][2]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
	g := make(ot.Ground, 4)
	for i := range g {
		g[i] = make([]float64, 4)
		for j := range g[i] {
			dx, dy := xy[i][0]-xy[j][0], xy[i][1]-xy[j][1]
			g[i][j] = (abs(dx) + abs(dy)) / 2
		}
	}
	return g
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// Quadrant returns the GridWorld observation index (NW, NE, SW or SE) of
// cell (r, c) of an n×n grid: top when r < n/2 and left when c < n/2, with
// real division (for n = 3 rows 0 and 1 are top, columns 0 and 1 left).
func Quadrant(n, r, c int) int {
	q := 0
	if !(2*r < n) {
		q += 2
	}
	if !(2*c < n) {
		q++
	}
	return q
}

// gridMoves lists (Δr, Δc) for up, down, left, right, stay.
var gridMoves = [5][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {0, 0}}

func clip(x, lo, hi int) int { return max(lo, min(x, hi)) }

func gridSize(name string, n int) error {
	if n < 1 {
		return fmt.Errorf("bench: %s: grid size %d, want n ≥ 1", name, n)
	}
	nS := float64(n) * float64(n)
	return checkSize(name, nS, nS*5*(2+4))
}

// gridWorld builds the n×n GridWorld with the given reward.
func gridWorld(name string, n int, goal bool) (*pomdp.Model, error) {
	if err := gridSize(name, n); err != nil {
		return nil, err
	}
	nS := n * n
	states := make([]string, nS)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			states[r*n+c] = fmt.Sprintf("s_%d_%d", r, c)
		}
	}
	T := make([]pomdp.Kernel, len(gridMoves))
	for a, mv := range gridMoves {
		T[a] = buildCSR(nS, nS, func(s int, add func(int, float64)) {
			r, c := s/n, s%n
			r2, c2 := clip(r+mv[0], 0, n-1), clip(c+mv[1], 0, n-1)
			add(r2*n+c2, 0.8)
			add(s, 0.2)
		})
	}
	z := buildCSR(nS, 4, func(s int, add func(int, float64)) {
		q := Quadrant(n, s/n, s%n)
		for o := 0; o < 4; o++ {
			if o == q {
				add(o, 0.7)
			} else {
				add(o, 0.1)
			}
		}
	})
	R := zeros(nS, len(gridMoves))
	if goal {
		for a := range R[nS-1] {
			R[nS-1][a] = 1
		}
	}
	return &pomdp.Model{
		Name:         name,
		States:       states,
		Actions:      []string{"up", "down", "left", "right", "stay"},
		Observations: []string{"NW", "NE", "SW", "SE"},
		T:            T,
		Z:            sameObs(z, len(gridMoves)),
		R:            R,
		B0:           pomdp.Uniform(nS),
	}, nil
}

// GridWorld returns the n×n GridWorld (docs/benchmarks.md#gridworld; the paper
// uses n = 3, 4, 5, 6, 8, 10). States s_r_c row-major (index r·n + c),
// actions up, down, left, right, stay, observations NW, NE, SW, SE:
//
//	T(s, a, move(s, a)) += 0.8,  T(s, a, s) += 0.2   (moves clipped at the border)
//	Z(s', a, o) = 0.7 if o = Quadrant(n, s'), else 0.1
//
// R = 0, b0 uniform, ground metric GridGround. Blocked moves and stay keep
// the agent with probability 1. It returns an error if n < 1 and
// ErrTooLarge beyond MaxStates. Construction costs O(n²).
func GridWorld(n int) (Benchmark, error) {
	m, err := gridWorld(fmt.Sprintf("gridworld:%d", n), n, false)
	if err != nil {
		return Benchmark{}, err
	}
	b, err := finish(m, GridGround(), fmt.Sprintf("%d×%d GridWorld, noisy quadrant observations", n, n))
	b.GroundName = GridGroundName
	return b, err
}

// GridWorldGoal returns GridWorld(n) with R(s, a) = 1 for the bottom-right
// cell s = n² − 1 and every action, 0 elsewhere (the paper's goal-reward
// GridWorld of the latent planning tables).
func GridWorldGoal(n int) (Benchmark, error) {
	m, err := gridWorld(fmt.Sprintf("gridworld-goal:%d", n), n, true)
	if err != nil {
		return Benchmark{}, err
	}
	b, err := finish(m, GridGround(), fmt.Sprintf("%d×%d GridWorld, reward 1 in the bottom-right cell", n, n))
	b.GroundName = GridGroundName
	return b, err
}

// GridCoarsening returns the paper's GridWorld observation coarsening
// {NW, NE} → North, {SW, SE} → South (the thm:data-processing experiment),
// as arguments for CoarsenObservations. Each call returns fresh slices.
func GridCoarsening() (groups [][]int, names []string) {
	return [][]int{{NW, NE}, {SW, SE}}, []string{"North", "South"}
}

// GridWorldCoarse returns GridWorld(n) with observations merged by
// GridCoarsening, so O = {North, South} and
//
//	Z(s', a, North) = Z(s', a, NW) + Z(s', a, NE),
//
// with the quotient metric CoarsenGround(GridGround(), groups):
// d(North, South) = 0.5. This is the metric under which the merge map is
// 1-Lipschitz (L_C = 1) from the geometric metric, the paper's δ_O = 0.5
// coarsening; with it the m = 1, T = 2 distance max D^W_{1,2} of the coarse
// 3×3 (5×5) grid is 1/6 ≈ 0.167 (0.175), the values printed in the paper
// (thm:data-processing experiment), whereas the discrete {0, 1} metric would
// give twice those values.
func GridWorldCoarse(n int) (Benchmark, error) {
	m, err := gridWorld(fmt.Sprintf("gridworld-coarse:%d", n), n, false)
	if err != nil {
		return Benchmark{}, err
	}
	groups, obsNames := GridCoarsening()
	cm, err := CoarsenObservations(m, groups, obsNames)
	if err != nil {
		return Benchmark{}, err
	}
	cm.Name = m.Name
	g, err := CoarsenGround(GridGround(), groups)
	if err != nil {
		return Benchmark{}, err
	}
	b, err := finish(cm, g, fmt.Sprintf("%d×%d GridWorld, observations coarsened to North/South", n, n))
	b.GroundName = gridMergedName
	return b, err
}
