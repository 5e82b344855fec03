package bench

import (
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// SeparatingNames lists the models of Separating.
var SeparatingNames = []string{"clk", "clk-free", "clk-free-det", "m2", "m2-free", "tv-free"}

// Separating returns one of the smallest separating models found by
// `pomdpq search-witness` (package witness, default options), typed here
// so that they can be loaded by name and written to datasets/models; the
// tests of package witness check that the search finds exactly these
// models. States are s0, s1, …, actions a0, a1, observations o0, o1;
// rewards are zero; discrete metric. With the horizon T at which each
// separates:
//
//   - "clk" (T = 2): one state; a0 emits o0, a1 emits o0 or o1 with
//     probability ½. Q_op ≠ Q_clk only through the point-mass stand-in:
//     o1 is impossible after a0.
//   - "clk-free" (T = 2): two states, b0 = s0; a0 stays and emits o0/o1
//     ½–½ from s0, o0 from s1; a1 jumps to a uniform state and reveals it.
//     After a1 the histories o0 and o1 are possible under every prefix,
//     equal under a1 a1 (the next state is uniform again) and a0 a0, and
//     split by a1 a0: the smallest stand-in-free Q_op ≠ Q_clk on halves.
//   - "clk-free-det" (T = 2): three states with deterministic transitions
//     and observations and b0 = ½ s0 + ½ s1, the shape of the paper's
//     nine-state witness (prop:stationary-counterexample):
//     a0: s0 → s0 (o0), s1 → s2 (o1), s2 → s0 (o0);
//     a1: s0 → s1 (o1), s1 → s2 (o0), s2 → s0 (o0), observation of the
//     state arrived in. Constant strings see o0 next after either
//     first observation; a0 a1 sees o1 after o0 and o0 after o1.
//   - "m2" (T = 2): one state; a0 emits o0, a1 emits o1. The m = 1 and
//     m ≤ 2 stationary quotients differ only through the uniform stand-in,
//     which averages over controller nodes the history never reaches.
//   - "m2-free" (T = 2): one state; a0 emits o0/o1 with ¾/¼, a1 with ½/½.
//     A 2-node controller that switches to a1 after o1 separates o0 from
//     o1; constant controllers cannot (the state never changes).
//   - "tv-free" (T = 3): two absorbing states, b0 uniform, one action,
//     each state emits its own observation: after o0 the suffix law is
//     δ(o0 o0), after o1 δ(o1 o1), so W1 = 2 and TV = 1, and the ε-
//     partitions differ for 1 ≤ ε < 2 (discrete metric, T ≥ 3 needed).
//
// It returns an error naming the known models for any other name.
func Separating(name string) (Benchmark, error) {
	h := 0.5
	id2 := [][]float64{{1, 0}, {0, 1}}
	var d pomdp.Dense
	T := 2
	switch name {
	case "clk":
		d = pomdp.Dense{T: [][][]float64{{{1}}, {{1}}}, Z: [][][]float64{{{1, 0}}, {{h, h}}}, B0: []float64{1}}
	case "clk-free":
		d = pomdp.Dense{T: [][][]float64{id2, {{h, h}, {h, h}}}, Z: [][][]float64{{{h, h}, {1, 0}}, id2}, B0: []float64{1, 0}}
	case "clk-free-det":
		d = pomdp.Dense{
			T: [][][]float64{{{1, 0, 0}, {0, 0, 1}, {1, 0, 0}}, {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}},
			Z: [][][]float64{{{1, 0}, {1, 0}, {0, 1}}, {{1, 0}, {0, 1}, {1, 0}}}, B0: []float64{h, h, 0}}
	case "m2":
		d = pomdp.Dense{T: [][][]float64{{{1}}, {{1}}}, Z: [][][]float64{{{1, 0}}, {{0, 1}}}, B0: []float64{1}}
	case "m2-free":
		d = pomdp.Dense{T: [][][]float64{{{1}}, {{1}}}, Z: [][][]float64{{{0.75, 0.25}}, {{h, h}}}, B0: []float64{1}}
	case "tv-free":
		d = pomdp.Dense{T: [][][]float64{id2}, Z: [][][]float64{id2}, B0: []float64{h, h}}
		T = 3
	default:
		return Benchmark{}, fmt.Errorf("bench: separating:%s: unknown model (want one of %s)", name, strings.Join(SeparatingNames, ", "))
	}
	names := func(p string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprint(p, i)
		}
		return out
	}
	d.Name = "separating:" + name
	d.States = names("s", len(d.B0))
	d.Actions = names("a", len(d.T))
	d.Observations = names("o", len(d.Z[0][0]))
	m, err := pomdp.New(d)
	if err != nil {
		return Benchmark{}, err
	}
	return finish(m, ot.Discrete(m.NumObservations()), fmt.Sprintf("smallest separating model %q of pomdpq search-witness (separates at T = %d)", name, T))
}
