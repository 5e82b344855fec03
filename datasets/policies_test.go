package datasets

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/policy"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// policyRegen is what a failing TestPolicyFiles tells the developer to run.
const policyRegen = "go test ./datasets -run TestPolicyFiles -regen"

// counter returns the "listen until k more of one observation than of the
// other, then open the other door" controller of tiger95 (actions listen,
// open-left, open-right; observations tiger-left, tiger-right): node 0 is a
// difference of 0, nodes 1, 2, 3, 4, … differences +1, −1, +2, −2, …, and
// the last two nodes open the right and the left door and return to 0.
func counter(k int) *fsc.FSC {
	n := 2*k + 1
	openRight, openLeft := n-2, n-1
	node := func(d int) int {
		switch {
		case d >= k:
			return openRight
		case d <= -k:
			return openLeft
		case d > 0:
			return 2*d - 1
		case d < 0:
			return -2 * d
		}
		return 0
	}
	c := &fsc.FSC{Nodes: n, NumActions: 3, NumObs: 2, Act: [][]int{make([]int, n)}, Next: [][][]int{make([][]int, n)}}
	for d := -(k - 1); d <= k-1; d++ {
		c.Next[0][node(d)] = []int{node(d + 1), node(d - 1)}
	}
	c.Act[0][openRight], c.Act[0][openLeft] = 2, 1
	c.Next[0][openRight] = []int{0, 0}
	c.Next[0][openLeft] = []int{0, 0}
	return c
}

// handAlpha is the counter controller's alpha vectors (threshold 2) typed
// in pomdp-solve's layout from a hand derivation in exact fractions
// (lib/policy/testdata/README.md; lib/policy's TestCounterTwinFiles pins
// every number to the derivation). policies/ ships a copy: vectors that
// policy.Evaluate did not write, so that checking policy.Evaluate against
// them means something.
var handAlpha = filepath.Join("..", "lib", "policy", "testdata", "counter.alpha")

// policyFiles builds the files of policies/: the best counter controller of
// tiger95 (by exact discounted value), its hand-derived alpha vectors
// (handAlpha), and the same controller unrolled into a depth-3 policy tree
// (a graph that minimises back to the counter). It also returns README
// rows.
func policyFiles() (map[string][]byte, []string, error) {
	m := pomdp.Must(bench.Lookup("tiger95")).Model
	out := map[string][]byte{}
	var notes []string
	best, bestK := math.Inf(-1), 0
	for k := 1; k <= 5; k++ {
		ev, err := policy.Evaluate(m, counter(k), 0)
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, fmt.Sprintf("| %d | %d | %.10g |", k, 2*k+1, ev.Start[0]))
		if ev.Start[0] > best {
			best, bestK = ev.Start[0], k
		}
	}
	if bestK != 2 {
		return nil, nil, fmt.Errorf("the best threshold is %d; the hand-derived vectors of %s are for threshold 2", bestK, handAlpha)
	}
	c := counter(bestK)
	alpha, err := os.ReadFile(handAlpha)
	if err != nil {
		return nil, nil, err
	}
	var pg, unrolled bytes.Buffer
	if err := policy.WritePG(&pg, c); err != nil {
		return nil, nil, err
	}
	u, err := policy.Unroll(c, 0, 3)
	if err != nil {
		return nil, nil, err
	}
	if err := policy.WritePG(&unrolled, u); err != nil {
		return nil, nil, err
	}
	vp := &policy.VectorPolicy{Model: "tiger95.pomdp", VectorLength: m.NumStates(), NumObsValue: 1}
	hand, err := policy.ReadAlpha(bytes.NewReader(alpha), handAlpha, m)
	if err != nil {
		return nil, nil, err
	}
	for _, a := range hand {
		vp.Vectors = append(vp.Vectors, policy.ObsVector{Alpha: a})
	}
	var vpol bytes.Buffer
	if err := policy.WritePolicy(&vpol, vp); err != nil {
		return nil, nil, err
	}
	out["tiger95-counter.policy"] = vpol.Bytes()
	out["tiger95-counter.pg"] = pg.Bytes()
	out["tiger95-counter.alpha"] = alpha
	out["tiger95-unrolled.pg"] = unrolled.Bytes()
	out["README.md"] = policiesReadme(bestK, 2*bestK+1, u.Nodes, notes)
	return out, notes, nil
}

func policiesReadme(k, nodes, unrolled int, rows []string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `# Policy files

Policies for the model files of [../models](../models), written by this project's own code
(`+"`datasets/policies_test.go`"+`, package `+"`lib/policy`"+`) in pomdp-solve's and SARSOP's formats, so that notebooks
and `+"`pomdpq evaluate`"+` have solver-style inputs without third-party files.

- [tiger95-counter.pg](tiger95-counter.pg): a policy graph for [tiger95.pomdp](../models/tiger95.pomdp):
  listen until one observation is ahead of the other by %d, then open the other door and start
  again. Node 0 is a difference of 0 (start there), nodes 1, 2, … differences +1, −1, …; the last
  two nodes open the right and the left door. %d nodes.
- [tiger95-counter.alpha](tiger95-counter.alpha): its alpha vectors, one per node, in
  pomdp-solve's layout: exact fractions derived by hand (V₀ = 4063900/209789 at node 0,
  `+"`lib/policy/testdata/README.md`"+`) rounded to float64, not computed by `+"`policy.Evaluate`"+`,
  so that `+"`go test ./datasets`"+` can check the exact evaluation of the graph against them.
- [tiger95-counter.policy](tiger95-counter.policy): the same hand-derived vectors as an alpha-vector
  policy in SARSOP's `+"`.policy`"+` format (XML; `+"`policy.WritePolicy`"+`), the kind of file SARSOP's
  `+"`pomdpsol`"+` writes: `+"`pomdpq evaluate --model tiger95 --policy FILE.policy`"+` prints its lower
  bound at b0 and the value of acting greedily on it.
- [tiger95-unrolled.pg](tiger95-unrolled.pg): the same controller unrolled into a policy tree of
  depth 3 whose leaves lead into a copy of the graph (`+"`policy.Unroll`"+`, %d nodes): what a
  finite-horizon solver's output looks like. `+"`policy.Minimize`"+` from node 0 gives back the counter.

The difference threshold is the best of 1 … 5 by exact discounted value at b0 from node 0:

| threshold | nodes | value at b0 (γ = 0.95) |
|---|---|---|
`, k, nodes, unrolled)
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
	b.WriteString(`
Regenerate (and review the diff) with

    ` + policyRegen + `

` + "`go test ./datasets`" + ` regenerates them in memory and fails if a committed file differs.
`)
	return []byte(b.String())
}

// TestPolicyFiles regenerates policies/ in memory and checks the committed
// bytes (with -regen it rewrites them), and that the files read back: the
// graph's exact evaluation meets its hand-derived alpha vectors, and the
// unrolled graph minimises to the counter.
func TestPolicyFiles(t *testing.T) {
	dir := "policies"
	want, _, err := policyFiles()
	if err != nil {
		t.Fatal(err)
	}
	if *regen {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for file, data := range want {
			if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("%v; run %s", err, policyRegen)
	}
	for _, e := range entries {
		if _, ok := want[e.Name()]; !ok {
			t.Errorf("datasets/%s/%s is not generated; remove it or generate it, then run %s", dir, e.Name(), policyRegen)
		}
	}
	for file, data := range want {
		got, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("datasets/%s/%s is not current (%v); run %s and review the diff", dir, file, err, policyRegen)
		}
	}
	m, err := modelfile.Load(filepath.Join("models", "tiger95.pomdp"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := policy.LoadPG(filepath.Join(dir, "tiger95-counter.pg"), m)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := policy.LoadAlpha(filepath.Join(dir, "tiger95-counter.alpha"), m)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := policy.Evaluate(m, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The vectors are derived by hand, the evaluation is a dense LU solve:
	// they meet within 1e-13 relative, node by node.
	if v, _ := policy.Value(vs, m.B0); !(math.Abs(v-ev.Value) <= 1e-13*math.Abs(v)) {
		t.Errorf("graph value %.17g, its hand-derived alpha vectors %.17g", ev.Value, v)
	}
	for n, a := range vs {
		for s, v := range a.V {
			if !(math.Abs(ev.V[n][s]-v) <= 1e-13*math.Max(1, math.Abs(v))) {
				t.Errorf("node %d, state %d: exact evaluation %.17g, hand-derived vector %.17g", n, s, ev.V[n][s], v)
			}
		}
	}
	u, err := policy.LoadPG(filepath.Join(dir, "tiger95-unrolled.pg"), m)
	if err != nil {
		t.Fatal(err)
	}
	min, _, err := policy.Minimize(u, 0)
	if err != nil {
		t.Fatal(err)
	}
	if min.String() != c.String() {
		t.Errorf("unrolled graph minimises to %v, want the counter %v", min, c)
	}
}
