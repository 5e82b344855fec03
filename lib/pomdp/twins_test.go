package pomdp

import (
	"path/filepath"
	"testing"
)

// twinFiles are this project's own classic-style model files
// (testdata/twins), each exercising what one or more of the third-party
// classic files exercise, with the model every entry of which is derived
// by hand from the file's text (or, for Tiger, from its published
// definition). They are the in-repository twins of
// TestReadCassandraSharedFiles and TestReadCassandraSharedValues.
var twinFiles = []struct {
	file     string
	features string // what of the classic files it exercises
	want     dense
	tol      float64
}{
	{
		// Kaelbling, Littman & Cassandra (1998): listen −1 and hear the
		// correct side with 0.85; open the tiger's door −100, the other +10;
		// opening resets the tiger uniformly. γ = 0.95 (tiger.95).
		file:     "tiger.POMDP",
		features: "tiger.95: identity and uniform, full observation matrix, single rewards, .POMDP extension",
		want: dense{states: []string{"tiger-left", "tiger-right"}, actions: []string{"listen", "open-left", "open-right"},
			obs: []string{"tiger-left", "tiger-right"},
			t:   [][][]float64{{{1, 0}, {0, 1}}, {{0.5, 0.5}, {0.5, 0.5}}, {{0.5, 0.5}, {0.5, 0.5}}},
			z:   [][][]float64{{{0.85, 0.15}, {0.15, 0.85}}, {{0.5, 0.5}, {0.5, 0.5}}, {{0.5, 0.5}, {0.5, 0.5}}},
			r:   [][]float64{{-1, -100, 10}, {-1, 10, -100}}, b0: []float64{0.5, 0.5}, discount: 0.95},
	},
	{
		// R: * : * : goal : seen 1.0 and Z(goal, ·, seen) = 0.9, so
		// R(s, a) = 0.9·T(s, a, goal): go-west from goal 0.9·0.25 = 0.225,
		// from east 0.9·0.8 = 0.72; go-east from middle 0.9·0.5 = 0.45, from
		// goal 0.225. No start line: uniform.
		file:     "corridor.POMDP",
		features: "1d, hallway: rewards on (end state, observation); network: no start; a matrix across lines; O row form without a colon",
		want: dense{states: []string{"west", "middle", "goal", "east"}, actions: []string{"go-west", "go-east"},
			obs: []string{"nothing", "seen"},
			t: [][][]float64{
				{{1, 0, 0, 0}, {1, 0, 0, 0}, {0.25, 0.25, 0.25, 0.25}, {0, 0, 0.8, 0.2}},
				{{0.2, 0.8, 0, 0}, {0, 0, 0.5, 0.5}, {0.25, 0.25, 0.25, 0.25}, {0, 0, 0, 1}}},
			z: [][][]float64{
				{{1, 0}, {1, 0}, {0.1, 0.9}, {1, 0}},
				{{1, 0}, {1, 0}, {0.1, 0.9}, {1, 0}}},
			r:  [][]float64{{0, 0}, {0, 0.45}, {0.225, 0.225}, {0.72, 0}},
			b0: []float64{0.25, 0.25, 0.25, 0.25}, discount: 0.75},
		tol: 1e-15,
	},
	{
		// Costs negated; state 1 is worn, 2 broken; the fix row of broken
		// (0.333333 three times) and the start (0.333337 + 2·0.333333 =
		// 1.000003) are renormalised.
		file:     "repair.POMDP",
		features: "bridge-repair: values: cost, discount 1.0; concert: named states by number; mini-hall2: six-decimal rows renormalised",
		want: dense{states: []string{"ok", "worn", "broken"}, actions: []string{"wait", "fix"}, obs: []string{"quiet", "noisy"},
			t: [][][]float64{
				{{0.6, 0.3, 0.1}, {0, 0.7, 0.3}, {0, 0, 1}},
				{{1, 0, 0}, {1, 0, 0}, {1.0 / 3, 1.0 / 3, 1.0 / 3}}},
			z: [][][]float64{
				{{0.9, 0.1}, {0.5, 0.5}, {0.1, 0.9}},
				{{0.9, 0.1}, {0.5, 0.5}, {0.1, 0.9}}},
			r:  [][]float64{{0, -4}, {-1, -4}, {-3, -10}},
			b0: []float64{0.333337 / 1.000003, 0.333333 / 1.000003, 0.333333 / 1.000003}, discount: 1},
		tol: 1e-15,
	},
	{
		// b moves lo-A to hi-B (its two later lines override the wildcard
		// line); the second b reward line overrides the first.
		file:     "parr.POMDP",
		features: "parr95: start include with a name, a wildcard action over named states; later lines override",
		want: dense{states: []string{"I", "lo-A", "lo-B", "hi-A", "hi-B"}, actions: []string{"a", "b"},
			obs: []string{"left", "right", "none"},
			t: [][][]float64{
				{{0, 0.5, 0.5, 0, 0}, {0, 0, 0, 1, 0}, {0, 0, 0, 0, 1}, {1, 0, 0, 0, 0}, {1, 0, 0, 0, 0}},
				{{0, 0.5, 0.5, 0, 0}, {0, 0, 0, 0, 1}, {0, 0, 0, 0, 1}, {1, 0, 0, 0, 0}, {1, 0, 0, 0, 0}}},
			z: [][][]float64{
				{{0, 0, 1}, {0.75, 0.25, 0}, {0.25, 0.75, 0}, {0, 0, 1}, {0, 0, 1}},
				{{0, 0, 1}, {0.75, 0.25, 0}, {0.25, 0.75, 0}, {0, 0, 1}, {0, 0, 1}}},
			r:  [][]float64{{0, 0}, {0, 0}, {0, 0}, {1, 0}, {0, 2}},
			b0: []float64{1, 0, 0, 0, 0}, discount: 0.95},
	},
}

// TestReadCassandraTwinFiles reads our own classic-style files: the checks
// TestReadCassandraSharedFiles makes on the third-party ones (sizes, a
// discount, Validate, an exact round trip), and every entry against the
// model derived by hand from the file.
func TestReadCassandraTwinFiles(t *testing.T) {
	for _, tc := range twinFiles {
		t.Run(tc.file, func(t *testing.T) {
			m, err := LoadFile(filepath.Join("testdata", "twins", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			checkClassicFile(t, m, len(tc.want.states), len(tc.want.actions), len(tc.want.obs))
			checkDense(t, m, tc.want, tc.tol)
			if want := tc.file[:len(tc.file)-len(".POMDP")]; m.Name != want {
				t.Errorf("Name = %q, want %q (the file's base name)", m.Name, want)
			}
		})
	}
}

// TestReadCassandraInvalidTwin: our own file with "values: rewards" on line
// 3 and no discount, as ejs4 and ejs5 have (twin of
// TestReadCassandraInvalidShared).
func TestReadCassandraInvalidTwin(t *testing.T) {
	checkValuesRewards(t, filepath.Join("testdata", "twins", "values-rewards.POMDP"), 2, 1, 2)
}

// TestReadJSONTigerTwin: testdata/tiger.json describes the same model as
// our own Tiger file typed from the published definition (twin of
// TestReadJSONTigerClassicFile).
func TestReadJSONTigerTwin(t *testing.T) {
	j, err := LoadFile(filepath.Join("testdata", "tiger.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadFile(filepath.Join("testdata", "twins", "tiger.POMDP"))
	if err != nil {
		t.Fatal(err)
	}
	if err := sameModel(j, c); err != nil {
		t.Errorf("tiger.json vs twins/tiger.POMDP: %v", err)
	}
}
