package baseline

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Defaults of BisimOptions (the paper's settings, app:experiments "Solver
// settings": 10 fixed-point iterations, discount 0.9).
const (
	DefaultBisimIterations = 10
	DefaultBisimDiscount   = 0.9
	DefaultBisimMaxStates  = 1024
)

// BisimOptions configure Bisimulation. The zero value means the paper's
// settings: DefaultBisimIterations iterations, γ = DefaultBisimDiscount,
// reward weight 1, no observation term, rewards normalised by their range.
type BisimOptions struct {
	Iterations int     // 0 means DefaultBisimIterations
	Discount   float64 // γ in (0, 1); 0 means DefaultBisimDiscount
	// RewardWeight c_R ≥ 0; 0 means 1.
	RewardWeight float64
	// ObsWeight c_O ≥ 0 weighs the total variation between the laws of
	// the next observation, Ō(s, a)(o) = Σ_{s'} T(s,a,s') Z(s',a,o).
	ObsWeight float64
	// RawRewards keeps R as it is instead of dividing it by R_max − R_min.
	RawRewards bool
	// MaxStates bounds |S| (the cost is quadratic in |S| per action and
	// iteration); 0 means DefaultBisimMaxStates.
	MaxStates int
	// Progress, when set, is called after every iteration.
	Progress func(done, total int)
}

// BisimResult is a bisimulation metric on the states of a model.
type BisimResult struct {
	// Metric[s][s'] is d(s, s') after the last iteration.
	Metric ot.Ground
	// Iterations done, and Change = max |d_k − d_{k−1}| of the last one
	// (the iterates converge geometrically at rate γ).
	Iterations int
	Change     float64
	// Solves counts the transport problems solved.
	Solves  int
	Seconds float64
}

// Bisimulation returns the bisimulation metric of Ferns, Panangaden and
// Precup (2004) on m's states after a fixed number of iterations of
//
//	d_{k+1}(s, s') = max_a [ c_R·|R̃(s,a) − R̃(s',a)| + c_O·TV(Ō(s,a), Ō(s',a))
//	                         + γ·W1_{d_k}(T(s,a,·), T(s',a,·)) ],   d_0 = 0,
//
// where R̃ = R/(R_max − R_min) (R itself with RawRewards, and 0 when R is
// constant), Ō(s, a) is the law of the next observation and W1_{d_k} the
// exact transport distance under d_k. Every iterate is a pseudometric.
// With the defaults (the paper's baseline, tab:baseline-full) observations
// do not enter: Tiger's two states end at distance 1 (the ±100 rewards of
// opening differ by the whole range), GridWorld's, which have no reward,
// at 0.
//
// Cost per iteration: |S|(|S| − 1)/2 pairs × |A| transport problems on
// the supports of two transition rows (closed form when one is a point
// mass). Errors: a discount outside (0, 1), negative weights, |S| above
// MaxStates (refused before any work), a transport failure, ctx's error.
func Bisimulation(ctx context.Context, m *pomdp.Model, opt BisimOptions) (*BisimResult, error) {
	start := time.Now()
	iters, gamma, cR := opt.Iterations, opt.Discount, opt.RewardWeight
	if iters == 0 {
		iters = DefaultBisimIterations
	}
	if gamma == 0 {
		gamma = DefaultBisimDiscount
	}
	if cR == 0 {
		cR = 1
	}
	maxS := opt.MaxStates
	if maxS == 0 {
		maxS = DefaultBisimMaxStates
	}
	switch {
	case iters < 0:
		return nil, fmt.Errorf("baseline: %d bisimulation iterations", iters)
	case !(gamma > 0 && gamma < 1):
		return nil, fmt.Errorf("baseline: bisimulation discount %v not in (0, 1)", opt.Discount)
	case cR < 0 || opt.ObsWeight < 0 || math.IsNaN(opt.ObsWeight):
		return nil, fmt.Errorf("baseline: negative bisimulation weight (reward %v, observation %v)", opt.RewardWeight, opt.ObsWeight)
	case m.NumStates() > maxS:
		return nil, fmt.Errorf("baseline: %d states exceed BisimOptions.MaxStates = %d (the cost is |S|²·|A| transport problems per iteration)", m.NumStates(), maxS)
	}
	nS, nA := m.NumStates(), m.NumActions()
	scale := 1.0
	if !opt.RawRewards {
		scale = rewardScale(m)
	}
	rows, obs := bisimRows(m, opt.ObsWeight > 0)
	d := newGround(nS)
	next := newGround(nS)
	res := &BisimResult{}
	var solver ot.Solver
	for k := 0; k < iters; k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		change := 0.0
		for s := 0; s < nS; s++ {
			for s2 := s + 1; s2 < nS; s2++ {
				v := 0.0
				for a := 0; a < nA; a++ {
					x := cR * scale * math.Abs(m.R[s][a]-m.R[s2][a])
					if opt.ObsWeight > 0 {
						x += opt.ObsWeight * ot.TV(obs[a][s], obs[a][s2])
					}
					r1, r2 := rows[a][s], rows[a][s2]
					w, err := solver.W1Func(r1.p, r2.p, func(i, j int) float64 { return d[r1.idx[i]][r2.idx[j]] })
					if err != nil {
						return nil, fmt.Errorf("baseline: bisimulation transport for states (%d, %d), action %d: %w", s, s2, a, err)
					}
					res.Solves++
					x += gamma * w.Value
					v = max(v, x)
				}
				next[s][s2], next[s2][s] = v, v
				change = max(change, math.Abs(v-d[s][s2]))
			}
		}
		d, next = next, d
		res.Iterations, res.Change = k+1, change
		if opt.Progress != nil {
			opt.Progress(k+1, iters)
		}
	}
	res.Metric = d
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// rewardScale returns 1 / (max R − min R), or 0 if the rewards are
// constant: the factor that normalises reward differences to [0, 1].
func rewardScale(m *pomdp.Model) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range m.R {
		for _, r := range row {
			lo, hi = min(lo, r), max(hi, r)
		}
	}
	if hi > lo {
		return 1 / (hi - lo)
	}
	return 0
}

// bisimRow is a transition row as (support, mass) pairs.
type bisimRow struct {
	idx []int
	p   []float64
}

// bisimRows returns the transition rows rows[a][s] and, if withObs, the
// next-observation laws obs[a][s] from a point mass at s.
func bisimRows(m *pomdp.Model, withObs bool) ([][]bisimRow, [][][]float64) {
	nS, nA, nO := m.NumStates(), m.NumActions(), m.NumObservations()
	rows := make([][]bisimRow, nA)
	obs := make([][][]float64, nA)
	pred := make([]float64, nS)
	unit := make([]float64, nS)
	for a := 0; a < nA; a++ {
		rows[a] = make([]bisimRow, nS)
		obs[a] = make([][]float64, nS)
		for s := 0; s < nS; s++ {
			var r bisimRow
			m.T[a].Entries(s, func(j int, p float64) {
				r.idx = append(r.idx, j)
				r.p = append(r.p, p)
			})
			rows[a][s] = r
			if withObs {
				clear(unit)
				unit[s] = 1
				m.Predict(pred, unit, a)
				obs[a][s] = make([]float64, nO)
				m.ObsProbs(obs[a][s], pred, a)
			}
		}
	}
	return rows, obs
}

func newGround(n int) ot.Ground {
	g := make(ot.Ground, n)
	flat := make([]float64, n*n)
	for i := range g {
		g[i] = flat[i*n : (i+1)*n]
	}
	return g
}
