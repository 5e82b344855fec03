package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/policy"
)

var (
	counterPG    = filepath.Join("..", "..", "datasets", "policies", "tiger95-counter.pg")
	counterAlpha = filepath.Join("..", "..", "datasets", "policies", "tiger95-counter.alpha")
	unrolledPG   = filepath.Join("..", "..", "datasets", "policies", "tiger95-unrolled.pg")
	tiger95File  = filepath.Join("..", "..", "datasets", "models", "tiger95.pomdp")
)

// counterValue is the exact value of the counter graph on tiger95 at b0
// from node 0, derived by hand (lib/policy/testdata/README.md):
// V₀ = (−1 − γ + γ²(10p² − 100q²)) / (1 − 2pqγ² − γ³(p² + q²)) with γ = 0.95,
// p = 0.85, q = 0.15. pomdp-solve printed 19.3713683744 for the same problem.
const counterValue = 4063900.0 / 209789

// TestEvaluateJSON: the documented four keys, for the built-in name and the
// model file, infinite and finite horizon; the value is the hand-derived
// one, and so is the value of the alpha file.
func TestEvaluateJSON(t *testing.T) {
	want := counterValue
	vs, err := policy.LoadAlpha(counterAlpha, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := policy.Value(vs, []float64{0.5, 0.5}); !(math.Abs(v-want) <= 1e-12) {
		t.Errorf("%s gives %.17g at b0, the hand derivation %.17g", counterAlpha, v, want)
	}
	for _, model := range []string{"tiger95", tiger95File} {
		for _, h := range []string{"0", "7"} {
			out, err := runCLI(t, "evaluate", "--model", model, "--policy", counterPG, "--horizon", h, "--json")
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if len(got) != 4 || got["start_node"] != 0.0 || got["nodes"] != 5.0 || got["horizon"] != map[string]float64{"0": 0, "7": 7}[h] {
				t.Errorf("%s horizon %s: %s", model, h, out)
			}
			v := got["value"].(float64)
			if h == "0" && !(v-want <= 1e-9 && want-v <= 1e-9) {
				t.Errorf("%s: value %v, the alpha vectors give %v", model, v, want)
			}
			if h == "7" && !(v < want) {
				t.Errorf("%s: 7 steps give %v, not below the infinite horizon's %v", model, v, want)
			}
		}
	}
}

// TestEvaluateText: --alpha earns "agree" against vectors derived by hand
// (datasets/policies/README.md), --minimize-out writes the minimal graph,
// --quotient-eps prints the analysis.
func TestEvaluateText(t *testing.T) {
	min := filepath.Join(t.TempDir(), "min.pg")
	alphaOut := filepath.Join(t.TempDir(), "ours.alpha")
	out, err := runCLI(t, "evaluate", "--model", "tiger95", "--policy", unrolledPG, "--alpha", counterAlpha,
		"--minimize-out", min, "--alpha-out", alphaOut, "--quotient-eps", "0.8", "--T", "4", "--progress=off", "--verbose")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"value at b0 19.37136837 from start node 0 of 12",
		"relative difference", ": agree (tolerance 1e-06 relative)",
		"smallest equivalent graph from node 0: 5 nodes (of 12)",
		"through the ε = 0.8 quotient (stationary m ≤ 2, T = 4,",
		"classes whose histories it tells apart: 2",
		"probe family stationary m ≤ 2: not a member",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	got, err := os.ReadFile(min)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(counterPG)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("minimised graph\n%s\nwant the counter\n%s", got, want)
	}
	// Our vectors of the unrolled graph: node 0's is the counter's node 0's.
	ours, err := policy.LoadAlpha(alphaOut, nil)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := policy.LoadAlpha(counterAlpha, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ours) != 12 || ours[0].Action != theirs[0].Action || !(math.Abs(ours[0].V[0]-theirs[0].V[0]) <= 1e-9) {
		t.Errorf("--alpha-out wrote %d vectors, first %v; the counter's first %v", len(ours), ours[0], theirs[0])
	}
	// A finite horizon is not compared with the (infinite-horizon) alpha vectors.
	out, err = runCLI(t, "evaluate", "--model", "tiger95", "--policy", counterPG, "--alpha", counterAlpha, "--horizon", "5")
	if err != nil || !strings.Contains(out, "not judged") {
		t.Errorf("finite horizon with --alpha: %v\n%s", err, out)
	}
}

func TestEvaluateErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.pg")
	if err := os.WriteFile(bad, []byte("0 0  1 2\n1 0  0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dash := filepath.Join(dir, "dash.pg")
	if err := os.WriteFile(dash, []byte("0 0  - 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(dir, "part.pg")
	if err := os.WriteFile(part, []byte("0 0  - 1\n1 0  1 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "tiger95"}, "missing --policy"},
		{[]string{"--model", "tiger95", "--policy", part, "--alpha-out", filepath.Join(dir, "part.alpha")}, "--alpha-out: node 0 of " + part + " has no value"},
		{[]string{"--model", "tiger95", "--policy", filepath.Join(dir, "none.pg")}, "policy file " + filepath.Join(dir, "none.pg") + " does not exist"},
		{[]string{"--model", "tiger95", "--policy", bad}, "policy: bad.pg:1: node 0, next node for observation tiger-right: dangling node 2"},
		{[]string{"--model", "tiger-listen", "--policy", counterPG}, "counter.pg:4: node 3, action: action 2 out of range"},
		{[]string{"--model", "tiger95", "--policy", dash}, `node 0 has no successor ("-") for observation tiger-left`},
		{[]string{"--model", "tiger95", "--policy", counterPG, "--start", "9"}, "--start 9 is not a node"},
		{[]string{"--model", "tiger95", "--policy", counterPG, "extra"}, "unexpected argument"},
		// Values that used to be ignored silently, and the file of a reached "-".
		{[]string{"--model", "tiger95", "--policy", counterPG, "--start", "-2"}, "--start -2: want a node number"},
		{[]string{"--model", "tiger95", "--policy", counterPG, "--quotient-eps", "-0.5"}, "--quotient-eps -0.5: want a non-negative tolerance"},
		{[]string{"--model", "tiger95", "--policy", counterPG, "--quotient-eps", "NaN"}, "--quotient-eps NaN: want a non-negative tolerance"},
		{[]string{"--model", "tiger95", "--policy", counterPG, "--quotient-eps", "0", "--T", "0"}, "the quotient needs --T ≥ 1 and --m ≥ 1"},
		{[]string{"--model", "tiger95", "--policy", dash}, dash + `: policy: node 0 has no successor`},
		{[]string{"--model", "tiger95", "--policy", dash, "--horizon", "1", "--quotient-eps", "0", "--T", "2"}, dash + `: policy: node 0 has no successor`},
	} {
		_, err := runCLI(t, append([]string{"evaluate"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want it to contain %q", tc.args, err, tc.want)
		}
	}
}

// TestEvaluateSample: pomdp-solve's own graph and vectors (third-party
// test inputs beside the repository). Twin: TestEvaluateText, whose
// vectors are derived by hand.
func TestEvaluateSample(t *testing.T) {
	pg := shared.Path(t, "TestEvaluateText", "policies", "tiger.95.pg")
	alpha := shared.Path(t, "TestEvaluateText", "policies", "tiger.95.alpha")
	model := shared.Path(t, "TestEvaluateText", "pomdp", "tiger.95.POMDP")
	out, err := runCLI(t, "evaluate", "--model", model, "--policy", pg, "--alpha", alpha)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "from start node 4 of 9") || !strings.Contains(out, ": agree") {
		t.Errorf("output:\n%s", out)
	}
}

// TestEvaluateAnalyzeHelp: -h and --help list every flag (they printed
// "flag: help requested" and exited 2, so --alpha, --start, --minimize-out,
// --alpha-out and --quotient-eps could not be discovered).
func TestEvaluateAnalyzeHelp(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		flags []string
	}{
		{[]string{"evaluate", "-h"}, []string{"-alpha", "-alpha-out", "-minimize-out", "-quotient-eps", "-start", "-horizon", "-family"}},
		{[]string{"evaluate", "--help"}, []string{"-policy"}},
		{[]string{"analyze", "--help"}, []string{"-policy", "-eps", "-mem", "-out"}},
	} {
		out, err := runCLI(t, tc.args...)
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if !strings.HasPrefix(out, "usage: pomdpq "+tc.args[0]) {
			t.Errorf("%v: output starts %q", tc.args, out[:min(len(out), 60)])
		}
		for _, f := range tc.flags {
			if !strings.Contains(out, "  "+f+" ") && !strings.Contains(out, "  "+f+"\n") {
				t.Errorf("%v: no %s in\n%s", tc.args, f, out)
			}
		}
	}
}
