package bench

import (
	"fmt"
	"strconv"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// deterministic builds a model whose transitions are deterministic,
// next[a][s], and whose observation depends only on the arrival state,
// emit[s'] (so Z(s', a, emit[s']) = 1 for every action a).
func deterministic(name string, states, actions, obs []string, next [][]int, emit []int, b0 []float64) *pomdp.Model {
	nS := len(states)
	T := make([]pomdp.Kernel, len(actions))
	for a := range T {
		T[a] = buildCSR(nS, nS, func(s int, add func(int, float64)) { add(next[a][s], 1) })
	}
	z := buildCSR(nS, len(obs), func(s int, add func(int, float64)) { add(emit[s], 1) })
	return &pomdp.Model{
		Name:         name,
		States:       states,
		Actions:      actions,
		Observations: obs,
		T:            T,
		Z:            sameObs(z, len(actions)),
		R:            zeros(nS, len(actions)),
		B0:           b0,
	}
}

// StationaryWitness returns the POMDP of paper
// prop:stationary-counterexample (docs/benchmarks.md#stationary-witness):
// states p_L, p_R, x_0, y_0, x_1, y_1, d_U, d_X, d_Y; actions A, B;
// observations L, R, U, X, Y; b0 = ½ p_L + ½ p_R; discrete metric; R = 0.
//
//	p_L → x_0, p_R → y_0                      (either action)
//	x_0 → x_1, y_0 → y_1 under A;  x_0, y_0 → d_U under B
//	x_1, y_1 → d_U under A;  x_1 → d_X, y_1 → d_Y under B
//	d_U, d_X, d_Y → d_U                       (every action)
//
// Transitions are deterministic and the observation depends only on the
// arrival state: x_0 emits L, y_0 emits R, x_1, y_1 and d_U emit U, d_X
// emits X, d_Y emits Y; this gives exactly the emissions of the paper's
// model (p_L → x_0 emits L, B from x_1 → d_X emits X, …;
// docs/benchmarks.md#stationary-witness).
// p_L and p_R are never entered; their Z rows (L and R) are placeholders.
//
// At T = 3 the deterministic 1-node controllers give the same suffix law
// after L and R, while α(A) = α(B) = ½ gives {UU: ¾, UX: ¼} and
// {UU: ¾, UY: ¼} (W1 = ¼ under the discrete metric). The planning-table
// objective (1 when the actions at stages 2–3 are (A, B) and the last
// observation is X) is not part of the model.
func StationaryWitness() (Benchmark, error) {
	const (
		pL = iota
		pR
		x0
		y0
		x1
		y1
		dU
		dX
		dY
	)
	const (
		oL = iota
		oR
		oU
		oX
		oY
	)
	next := [][]int{
		//   p_L p_R x_0 y_0 x_1 y_1 d_U d_X d_Y
		/*A*/ {x0, y0, x1, y1, dU, dU, dU, dU, dU},
		/*B*/ {x0, y0, dU, dU, dX, dY, dU, dU, dU},
	}
	emit := []int{oL, oR, oL, oR, oU, oU, oU, oX, oY}
	b0 := make([]float64, 9)
	b0[pL], b0[pR] = 0.5, 0.5
	m := deterministic("witness",
		[]string{"p_L", "p_R", "x_0", "y_0", "x_1", "y_1", "d_U", "d_X", "d_Y"},
		[]string{"A", "B"},
		[]string{"L", "R", "U", "X", "Y"},
		next, emit, b0)
	return finish(m, ot.Discrete(5), "stationary witness (prop:stationary-counterexample)")
}

// InspectionChoice returns the inspection-choice POMDP of the value-bound
// tightness experiment (docs/benchmarks.md#inspection-choice): states root,
// left_mode, right_mode, success, failure, neutral; actions inspect, skip;
// observations left_hint, right_hint, success, failure, neutral; b0 = root;
// discrete metric.
//
//	root:       inspect → left_mode, skip → right_mode
//	left_mode:  inspect → success,   skip → neutral
//	right_mode: inspect → failure,   skip → neutral
//	success, failure, neutral: absorbing
//
// Transitions are deterministic and the observation depends only on the
// arrival state: left_mode emits left_hint, right_mode emits right_hint,
// success, failure and neutral emit their own name. root is never entered;
// its Z row (neutral) is a placeholder. The paper gives no reward (docs/benchmarks.md#inspection-choice), so
// R = 0; objectives are supplied by the caller.
func InspectionChoice() (Benchmark, error) {
	const (
		root = iota
		left
		right
		success
		failure
		neutral
	)
	next := [][]int{
		/*inspect*/ {left, success, failure, success, failure, neutral},
		/*skip*/ {right, neutral, neutral, success, failure, neutral},
	}
	// observation indices: left_hint 0, right_hint 1, success 2, failure 3, neutral 4
	emit := []int{4, 0, 1, 2, 3, 4}
	m := deterministic("inspection",
		[]string{"root", "left_mode", "right_mode", "success", "failure", "neutral"},
		[]string{"inspect", "skip"},
		[]string{"left_hint", "right_hint", "success", "failure", "neutral"},
		next, emit, pointMass(6, root))
	return finish(m, ot.Discrete(5), "inspection choice (value-bound tightness)")
}

// Channel returns the communication channel with k messages and c code
// symbols (docs/benchmarks.md#channel): states msg_0 … msg_{k−1}
// (identity transition), actions code_0 … code_{c−1}, observations
// recv_0 … recv_{c−1},
//
//	Z(s', code_a, recv_a) = 1 − noise,  Z(s', code_a, recv_b) = noise/(c − 1) for b ≠ a,
//
// for every state s'. b0 uniform, R = 0, discrete metric. It returns an
// error unless k ≥ 1, c ≥ 2 and 0 ≤ noise ≤ 1, and ErrTooLarge when
// k·c·(c+1) exceeds MaxEntries.
func Channel(k, c int, noise float64) (Benchmark, error) {
	name := fmt.Sprintf("channel:%d:%d:%s", k, c, strconv.FormatFloat(noise, 'g', -1, 64))
	if k < 1 || c < 2 {
		return Benchmark{}, fmt.Errorf("bench: %s: %d messages and %d symbols, want k ≥ 1 and c ≥ 2", name, k, c)
	}
	if !(noise >= 0 && noise <= 1) {
		return Benchmark{}, fmt.Errorf("bench: %s: noise %v outside [0, 1]", name, noise)
	}
	if err := checkSize(name, float64(k), float64(k)*float64(c)*(float64(c)+1)); err != nil {
		return Benchmark{}, err
	}
	id := buildCSR(k, k, func(s int, add func(int, float64)) { add(s, 1) })
	Z := make([]*pomdp.Sparse, c)
	for a := range Z {
		Z[a] = buildCSR(k, c, func(s int, add func(int, float64)) {
			for b := 0; b < c; b++ {
				if b == a {
					add(b, 1-noise)
				} else {
					add(b, noise/float64(c-1))
				}
			}
		})
	}
	m := &pomdp.Model{
		Name:         name,
		States:       names("msg", k),
		Actions:      names("code", c),
		Observations: names("recv", c),
		T:            sameKernel(id, c),
		Z:            Z,
		R:            zeros(k, c),
		B0:           pomdp.Uniform(k),
	}
	return finish(m, ot.Discrete(c), fmt.Sprintf("channel: %d messages, %d symbols, noise %g", k, c, noise))
}

// DefaultSensorAccuracy is SensorGrid's probability of reading the true
// position.
const DefaultSensorAccuracy = 0.8

// SensorGrid returns our reconstruction of the paper's sensor-grid
// localization example (app:examples "Sensor grid (W1 vs TV)"), which the
// paper specifies only as S = O = {1, …, 5} with d_O(o, o') = |o − o'|/4.
// States pos_1 … pos_5, one action sense, observations obs_1 … obs_5:
//
//	T = identity (a static target)
//	Z(s', sense, obs_s') = accuracy,  every other observation (1 − accuracy)/4
//
// R = 0, b0 uniform, ground metric ot.Ordered(5). With accuracy 0.8 the
// next-observation laws after histories (obs_2) and (obs_3) are at TV
// distance (accuracy − (1−accuracy)/4)² = 0.5625 and W1 distance
// 0.5625/4 = 0.140625: the paper reports TV ≈ 0.57 and W1 ≈ 0.14, so the
// example's point (W1 merges at ε = 0.2, TV does not) is reproduced. It
// returns an error if accuracy is not in [0, 1].
func SensorGrid(accuracy float64) (Benchmark, error) {
	name := "sensor-grid"
	if accuracy != DefaultSensorAccuracy {
		name += ":" + strconv.FormatFloat(accuracy, 'g', -1, 64)
	}
	if !(accuracy >= 0 && accuracy <= 1) {
		return Benchmark{}, fmt.Errorf("bench: %s: accuracy %v outside [0, 1]", name, accuracy)
	}
	const n = 5
	states, obs := make([]string, n), make([]string, n)
	for i := range n {
		states[i] = fmt.Sprintf("pos_%d", i+1)
		obs[i] = fmt.Sprintf("obs_%d", i+1)
	}
	z := buildCSR(n, n, func(s int, add func(int, float64)) {
		for o := 0; o < n; o++ {
			if o == s {
				add(o, accuracy)
			} else {
				add(o, (1-accuracy)/(n-1))
			}
		}
	})
	m := &pomdp.Model{
		Name:         name,
		States:       states,
		Actions:      []string{"sense"},
		Observations: obs,
		T:            []pomdp.Kernel{buildCSR(n, n, func(s int, add func(int, float64)) { add(s, 1) })},
		Z:            []*pomdp.Sparse{z},
		R:            zeros(n, 1),
		B0:           pomdp.Uniform(n),
	}
	b, err := finish(m, ot.Ordered(n), fmt.Sprintf("sensor grid on 5 positions, accuracy %g (reconstruction)", accuracy))
	b.GroundName = orderedName(n)
	return b, err
}

// orderedName names ot.Ordered(n).
func orderedName(n int) string { return fmt.Sprintf("ordered |i−j|/%d", n-1) }
