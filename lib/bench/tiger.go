package bench

import (
	"fmt"
	"strconv"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// DefaultTigerAccuracy is the probability that listening reports the
// tiger's side correctly (docs/benchmarks.md#tiger).
const DefaultTigerAccuracy = 0.85

// tigerName returns the canonical registry name of a Tiger variant: the
// defaults are omitted so that "tiger" and Tiger(0.85, 0.5) agree.
func tigerName(base string, accuracy float64, extra ...float64) string {
	name := base
	trailing := len(extra) > 0 && extra[0] != 0.5
	if accuracy != DefaultTigerAccuracy || trailing {
		name += ":" + strconv.FormatFloat(accuracy, 'g', -1, 64)
	}
	if trailing {
		name += ":" + strconv.FormatFloat(extra[0], 'g', -1, 64)
	}
	return name
}

func checkAccuracy(model string, accuracy float64) error {
	if !(accuracy > 0.5 && accuracy <= 1) {
		return fmt.Errorf("bench: %s: accuracy %v outside (0.5, 1]", model, accuracy)
	}
	return nil
}

// listenObs returns Z for listen: rows tiger_left, tiger_right; columns L, R.
func listenObs(accuracy float64) *pomdp.Sparse {
	return pomdp.NewSparseDense([][]float64{
		{accuracy, 1 - accuracy},
		{1 - accuracy, accuracy},
	})
}

// TigerListen returns the listen-only Tiger
// (docs/benchmarks.md#listen-only-tiger; paper app:examples): S = {tiger_left, tiger_right}, A = {listen},
// O = {L, R}, T the identity,
//
//	Z(tiger_left, listen, L) = Z(tiger_right, listen, R) = accuracy,
//
// the other observation 1 − accuracy, R = 0, b0 = (½, ½), discrete metric.
// The paper's default accuracy is 0.85 (DefaultTigerAccuracy); its
// noise-sensitivity study sweeps 0.70 … 0.95. It returns an error if
// accuracy is not in (0.5, 1].
func TigerListen(accuracy float64) (Benchmark, error) {
	if err := checkAccuracy("tiger-listen", accuracy); err != nil {
		return Benchmark{}, err
	}
	m := &pomdp.Model{
		Name:         tigerName("tiger-listen", accuracy),
		States:       []string{"tiger_left", "tiger_right"},
		Actions:      []string{"listen"},
		Observations: []string{"L", "R"},
		T:            []pomdp.Kernel{pomdp.NewSparseDense([][]float64{{1, 0}, {0, 1}})},
		Z:            []*pomdp.Sparse{listenObs(accuracy)},
		R:            zeros(2, 1),
		B0:           []float64{0.5, 0.5},
	}
	return finish(m, ot.Discrete(2), fmt.Sprintf("Tiger, listen only, accuracy %g", accuracy))
}

// Tiger returns the full-action Tiger, the paper's default "Tiger"
// (docs/benchmarks.md#tiger): S = {tiger_left, tiger_right},
// A = {listen, open_left, open_right}, O = {L, R}.
//
//	listen:               T identity, Z as in TigerListen(accuracy)
//	open_left/open_right: T(s, ·) = (½, ½), Z(s', ·) = (½, ½)
//	R(·, listen) = −1
//	R(tiger_left, open_left)  = −100, R(tiger_right, open_left)  = +10
//	R(tiger_left, open_right) = +10,  R(tiger_right, open_right) = −100
//	b0 = (b0Left, 1 − b0Left)
//
// The ground metric is discrete (d(L, R) = 1). Paper defaults: accuracy
// 0.85, b0Left 0.5 (the belief-sensitivity study uses 0.1 … 0.9). It returns
// an error if accuracy is not in (0.5, 1] or b0Left not in [0, 1].
func Tiger(accuracy, b0Left float64) (Benchmark, error) {
	if err := checkAccuracy("tiger", accuracy); err != nil {
		return Benchmark{}, err
	}
	if !(b0Left >= 0 && b0Left <= 1) {
		return Benchmark{}, fmt.Errorf("bench: tiger: b0(tiger_left) = %v outside [0, 1]", b0Left)
	}
	id := pomdp.NewSparseDense([][]float64{{1, 0}, {0, 1}})
	reset := pomdp.NewSparseDense([][]float64{{0.5, 0.5}, {0.5, 0.5}})
	m := &pomdp.Model{
		Name:         tigerName("tiger", accuracy, b0Left),
		States:       []string{"tiger_left", "tiger_right"},
		Actions:      []string{"listen", "open_left", "open_right"},
		Observations: []string{"L", "R"},
		T:            []pomdp.Kernel{id, reset, reset},
		Z:            []*pomdp.Sparse{listenObs(accuracy), reset, reset},
		R: [][]float64{
			{-1, -100, 10},
			{-1, 10, -100},
		},
		B0: []float64{b0Left, 1 - b0Left},
	}
	return finish(m, ot.Discrete(2), fmt.Sprintf("Tiger, listen/open_left/open_right, accuracy %g, b0(tiger_left) %g", accuracy, b0Left))
}
