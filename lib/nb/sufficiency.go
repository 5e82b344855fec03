package nb

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// OpenLoop returns the clock-aware m = 1 family of m at horizon T: every
// open-loop action string of length T.
func OpenLoop(m *pomdp.Model, T int) (fsc.Family, error) {
	return fsc.NewClock(m.NumActions(), m.NumObservations(), 1, T, fsc.Options{})
}

// SufficiencyRow is one (quotient, objective) line of the exact-sufficiency
// check (thm:exact-sufficiency, see [Sufficiency]).
type SufficiencyRow struct {
	Model, Quotient     string // the model's name; "Q_clk" or "Q_op"
	T, Classes, Strings int    // horizon, classes of the quotient, open-loop strings evaluated
	ObjectiveGap               // per objective: max over strings π of |E_M^π[G] − E_Q^π[G]|, strings moved, the worst
}

// Sufficiency evaluates every open-loop string of length T on m (named name
// in the rows) and on the quotients Q_clk and Q_op seen by it, for each
// objective of objs; a value moved by more than tol counts as changed.
// Rows come Q_clk first, then Q_op, each in the order of objs.
func Sufficiency(ctx context.Context, name string, m *pomdp.Model, T int, objs []value.Objective, tol float64) ([]SufficiencyRow, error) {
	r, err := clock.Quotients(ctx, m, T, nil)
	if err != nil {
		return nil, err
	}
	fam, err := OpenLoop(m, T)
	if err != nil {
		return nil, err
	}
	var rows []SufficiencyRow
	for _, qp := range []struct {
		label string
		p     *partition.Partition
	}{{"Q_clk", r.Clk}, {"Q_op", r.Op}} {
		gaps, err := ObjectiveGaps(m, T, qp.p, fam, objs, tol)
		if err != nil {
			return nil, fmt.Errorf("%s, %s: %w", name, qp.label, err)
		}
		for _, g := range gaps {
			rows = append(rows, SufficiencyRow{name, qp.label, T, qp.p.Total(), fam.Len(), g})
		}
	}
	return rows, nil
}

// RevealedCoin is a 6-state, 1-action model: the coin (heads with
// probability 0.8) is revealed once as x or y, then z is observed forever;
// the reward is 1 per step while the coin is heads (after the reveal). Its
// reward is latent: histories that the observations cannot tell apart earn
// different rewards.
func RevealedCoin() (*pomdp.Model, error) {
	T := make([][]float64, 6)
	for i := range T {
		T[i] = make([]float64, 6)
	}
	T[0][2], T[1][3], T[2][4], T[3][5], T[4][4], T[5][5] = 1, 1, 1, 1, 1, 1
	Z := [][]float64{{0, 0, 1}, {0, 0, 1}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 1}} // emission of the arrival state
	return pomdp.New(pomdp.Dense{Name: "revealed-coin",
		States:  []string{"heads0", "tails0", "heads1", "tails1", "heads2", "tails2"},
		Actions: []string{"go"}, Observations: []string{"x", "y", "z"},
		T: [][][]float64{T}, Z: [][][]float64{Z},
		R:  [][]float64{{0}, {0}, {1}, {0}, {1}, {0}},
		B0: []float64{0.8, 0.2, 0, 0, 0, 0}})
}

// LatentFacts holds the facts of the latent-reward discussion (see
// [LatentStory]).
type LatentFacts struct {
	TigerLR                  value.Lipschitz // empirical L_R of Tiger's reward, T = 4, every open-loop string
	TigerGap, GoalGap        float64         // max_π |V_M^π − V_{Q_clk}^π|, latent reward (Tiger T = 4, GridWorld 3×3 goal T = 3)
	TigerSpread, GoalSpread  float64         // belief differences inside Q_clk classes
	CoinVM, CoinVQ, CoinSnd  float64         // revealed coin, T = 3: V_M, V_{Q_clk}, soundness gap
	CoinClasses, CoinLRViols int             // its Q_clk classes; zero-distance pairs with different rewards
}

// LatentStory computes the latent-reward facts on exact clock-aware
// quotients: Tiger (T = 4) and GridWorld 3×3 with a goal (T = 3), whose
// rewards the quotient keeps, and [RevealedCoin] (T = 3), whose reward it
// does not.
func LatentStory(ctx context.Context) (LatentFacts, error) {
	var f LatentFacts
	var err error
	f.TigerLR, f.TigerGap, f.TigerSpread, err = latentOnBench(ctx, "tiger", 4, true)
	if err != nil {
		return f, err
	}
	_, f.GoalGap, f.GoalSpread, err = latentOnBench(ctx, "gridworld-goal:3", 3, false)
	if err != nil {
		return f, err
	}
	return f, latentCoin(ctx, &f)
}

// latentOnBench returns, for the built-in benchmark name at horizon T, the
// empirical L_R of its reward (when withLR), the largest latent-reward value
// gap between it and its Q_clk over every open-loop string, and the largest
// belief difference inside a Q_clk class.
func latentOnBench(ctx context.Context, name string, T int, withLR bool) (lr value.Lipschitz, gap, spread float64, err error) {
	b, err := bench.Lookup(name)
	if err != nil {
		return lr, 0, 0, err
	}
	fam, err := OpenLoop(b.Model, T)
	if err != nil {
		return lr, 0, 0, err
	}
	if withLR {
		if lr, err = value.EstimateLipschitz(ctx, b.Model, fam, T, value.LipschitzOptions{}); err != nil {
			return lr, 0, 0, err
		}
	}
	r, err := clock.Quotients(ctx, b.Model, T, nil)
	if err != nil {
		return lr, 0, 0, err
	}
	if gap, _, err = MaxValueGap(b.Model, T, r.Clk, fam, value.LatentReward{}); err != nil {
		return lr, 0, 0, err
	}
	spread, err = ClassBeliefSpread(b.Model, T, r.Clk, fam)
	return lr, gap, spread, err
}

// latentCoin fills in the revealed coin's facts (T = 3, its one string).
func latentCoin(ctx context.Context, f *LatentFacts) error {
	coin, err := RevealedCoin()
	if err != nil {
		return err
	}
	r, err := clock.Quotients(ctx, coin, 3, nil)
	if err != nil {
		return err
	}
	f.CoinClasses = r.Clk.Total()
	q, err := quotient.New(coin, 3, r.Clk)
	if err != nil {
		return err
	}
	pi := fsc.OpenLoop(1, 3, []int{0, 0, 0})
	qm, err := q.ForProbe(pi)
	if err != nil {
		return err
	}
	if f.CoinVM, err = value.Evaluate(coin, pi, 3, value.LatentReward{}); err != nil {
		return err
	}
	if f.CoinVQ, err = value.Evaluate(qm, pi, 3, value.LatentReward{}); err != nil {
		return err
	}
	if f.CoinSnd, _, err = q.SoundnessGap(pi); err != nil {
		return err
	}
	fam, err := OpenLoop(coin, 3)
	if err != nil {
		return err
	}
	clr, err := value.EstimateLipschitz(ctx, coin, fam, 3, value.LipschitzOptions{})
	f.CoinLRViols = clr.Violations
	return err
}
