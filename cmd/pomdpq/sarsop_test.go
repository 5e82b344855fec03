package main

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// TestExportRenamedInfo: the paper's Tiger (observation "R", a keyword of
// the .pomdp format) is exported to .pomdp (it was refused), and info on
// the file shows the original names and the rename.
func TestExportRenamedInfo(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tiger.pomdp")
	if _, err := runCLI(t, "export", "tiger", "--out", file); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# pomdpq-rename observations R_ \"R\"\n", "observations: L R_\n"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("exported file lacks %q", want)
		}
	}
	out, err := runCLI(t, "info", file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"observations: 2 (L, R)\n", `renamed:      1 name restored from the file's rename comments: observation "R" (written R_)`, "format:       .pomdp, pomdp-solve's grammar\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	out, err = runCLI(t, "info", file, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Format, Dialect string
		Renamed         []pomdp.Rename
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Format != "pomdp" || got.Dialect != "pomdp-solve" || len(got.Renamed) != 1 || got.Renamed[0] != (pomdp.Rename{Space: "observations", Written: "R_", Original: "R"}) {
		t.Errorf("info --json: %+v", got)
	}
}

// TestInfoDialect: info says which dialect of .pomdp a file is in.
func TestInfoDialect(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{filepath.Join("..", "..", "lib", "pomdp", "testdata", "tiger95-pomdpsjl.pomdp"), "format:       .pomdp, POMDPs.jl dialect (a colon before the numbers of 28 T:/O:/R: statements, the first on line 16)\n"},
		{filepath.Join("..", "..", "datasets", "models", "tiger95.pomdp"), "format:       .pomdp, pomdp-solve's grammar\n"},
		{filepath.Join("..", "..", "datasets", "models", "tiger.json"), "format:       JSON\n"},
	} {
		out, err := runCLI(t, "info", tc.file)
		if err != nil || !strings.Contains(out, tc.want) {
			t.Errorf("info %s: %v\n%s\nwant %q", tc.file, err, out, tc.want)
		}
	}
	out, err := runCLI(t, "info", "tiger95")
	if err != nil || strings.Contains(out, "format:") {
		t.Errorf("info of a built-in names a file format: %v\n%s", err, out)
	}
}

// TestExportDiscount: --discount gives the paper's Tiger (no discount) the
// discount SARSOP needs; nothing else changes.
func TestExportDiscount(t *testing.T) {
	out, err := runCLI(t, "export", "tiger", "--discount", "0.95")
	if err != nil {
		t.Fatal(err)
	}
	got, err := cassandra.Read(strings.NewReader(out), "tiger.pomdp")
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := loadModel("tiger")
	if err != nil {
		t.Fatal(err)
	}
	if !got.HasDiscount || got.Discount != 0.95 || want.HasDiscount {
		t.Errorf("discount %v (%v); the built-in's %v", got.Discount, got.HasDiscount, want.HasDiscount)
	}
	if msg := sameModel(got, want); msg != "" {
		t.Errorf("besides the discount: %s", msg)
	}
}

// TestAnalyzeQuotientPOMDP: the quotient analyze exports for the paper's
// Tiger is written as .pomdp too (it was refused for its names) and reads
// back to the same model as the JSON export.
func TestAnalyzeQuotientPOMDP(t *testing.T) {
	dir := t.TempDir()
	if _, err := runCLI(t, "analyze", "tiger", "--out", filepath.Join(dir, "x.html"), "--T", "3", "--progress=off"); err != nil {
		t.Fatal(err)
	}
	p, err := modelfile.Load(filepath.Join(dir, "x-quotient.pomdp"))
	if err != nil {
		t.Fatal(err)
	}
	j, err := modelfile.Load(filepath.Join(dir, "x-quotient.json"))
	if err != nil {
		t.Fatal(err)
	}
	if msg := sameModel(p, j); msg != "" {
		t.Errorf("the .pomdp quotient differs from the JSON one: %s", msg)
	}
}

// counterValue (evaluate_test.go) is the hand-derived value at b0 of the
// counter policy, 4063900/209789 = c/(1 − k) in lib/policy's
// TestCounterPolicyFile.

type policyEval struct {
	LowerBound       float64    `json:"lower_bound"`
	LowerBoundVector int        `json:"lower_bound_vector"`
	LowerBoundAction string     `json:"lower_bound_action"`
	Horizon          int        `json:"horizon"`
	Value            float64    `json:"horizon_value"`
	Tail             float64    `json:"tail"`
	Bracket          [2]float64 `json:"bracket"`
	Consistent       bool       `json:"lower_bound_le_bracket_high"`
}

func evaluatePolicy(t *testing.T, args ...string) policyEval {
	t.Helper()
	out, err := runCLI(t, append([]string{"evaluate", "--json", "--progress=off"}, args...)...)
	if err != nil {
		t.Fatalf("evaluate %v: %v", args, err)
	}
	var e policyEval
	if err := json.Unmarshal([]byte(out), &e); err != nil {
		t.Fatalf("evaluate %v: %v\n%s", args, err, out)
	}
	return e
}

// TestEvaluateVectorPolicy: our own .policy of Tiger (datasets/policies)
// has the hand-derived lower bound at b0, and its bracket holds it; the
// default horizon is the smallest T with 0.95^T/0.05 ≤ 1e-3, i.e.
// T ≥ ln(5e-5)/ln(0.95) = 193.07.
func TestEvaluateVectorPolicy(t *testing.T) {
	file := filepath.Join("..", "..", "datasets", "policies", "tiger95-counter.policy")
	e := evaluatePolicy(t, "--model", "tiger95", "--policy", file)
	want := counterValue
	if math.Abs(e.LowerBound-want) > 1e-9*want || e.LowerBoundAction != "listen" {
		t.Errorf("lower bound %.15g (%s), hand-derived %.15g (listen)", e.LowerBound, e.LowerBoundAction, want)
	}
	if e.Horizon != 194 || !(e.Bracket[0] <= want && want <= e.Bracket[1]) || !e.Consistent {
		t.Errorf("horizon %d, bracket %v: want T = 194 and a bracket holding %.12g", e.Horizon, e.Bracket, want)
	}
	if tail := math.Pow(0.95, 194) * 100 / 0.05; math.Abs(e.Tail-tail) > 1e-12 {
		t.Errorf("tail %g, want γ^T·max|R|/(1−γ) = %g", e.Tail, tail)
	}
	e = evaluatePolicy(t, "--model", "tiger95", "--policy", file, "--horizon", "1")
	if e.Horizon != 1 || e.Value != -1 {
		t.Errorf("--horizon 1: T = %d value %v, want 1 and −1 (one listen)", e.Horizon, e.Value)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.policy")
	os.WriteFile(bad, []byte("<Policy><AlphaVector vectorLength=\"2\"><Vector action=\"7\" obsValue=\"0\">1 2</Vector></AlphaVector></Policy>"), 0o644)
	for _, tc := range []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{"--model", "tiger95", "--policy", file, "--alpha", "x.alpha"}, true, "--alpha is for policy graphs"},
		{[]string{"--model", "tiger95", "--policy", bad}, false, "bad.policy:1: vector 0, action: 7 is not an action of the model"},
		{[]string{"--model", "maze4x3", "--policy", file}, false, "tiger95-counter.policy:3: AlphaVector, vectorLength: 2, but the model has 11 states"},
		{[]string{"--model", "tiger", "--policy", file}, true, "no discount below 1"},
		{[]string{"--model", "tiger95", "--policy", filepath.Join(dir, "none.policy")}, false, "does not exist"},
	} {
		_, err := runCLI(t, append([]string{"evaluate"}, tc.args...)...)
		var u usageError
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.As(err, &u) != tc.usage {
			t.Errorf("evaluate %v: err %v, want one containing %q (usage %v)", tc.args, err, tc.want, tc.usage)
		}
	}
}

// TestEvaluateSARSOPPolicy is the acceptance command on SARSOP's own
// Tiger.policy: the lower bound at b0 is the 19.3713 SARSOP printed. SARSOP
// prints numbers with 6 significant digits, so the vectors' bound and the
// printed one may differ by 5e-5 each: tolerance 1e-4. The model is read
// by the common model loader from Tiger.pomdpx and from Tiger.pomdp (the
// same model). Twin: TestEvaluateVectorPolicy, our own .policy of Tiger
// against the hand-derived 4063900/209789.
func TestEvaluateSARSOPPolicy(t *testing.T) {
	pol := shared.Path(t, "TestEvaluateVectorPolicy", "pomdpx", "Tiger.policy")
	for _, model := range []string{
		shared.Path(t, "TestEvaluateVectorPolicy", "pomdpx", "Tiger.pomdpx"),
		shared.Path(t, "TestEvaluateVectorPolicy", "pomdp", "Tiger.pomdp"),
	} {
		e := evaluatePolicy(t, "--model", model, "--policy", pol)
		if math.Abs(e.LowerBound-19.3713) > 1e-4 || e.LowerBoundVector != 4 || !e.Consistent {
			t.Errorf("%s: lower bound %.10g from vector %d (consistent %v), want 19.3713 from vector 4", model, e.LowerBound, e.LowerBoundVector, e.Consistent)
		}
	}
}

// rewardDetailPOMDP is a model whose reward depends on the next state and
// the observation (lib/pomdp's TestRewardTable derives its 10 entries).
const rewardDetailPOMDP = `discount: 0.9
values: reward
states: left right
actions: stay go
observations: beep quiet
T: stay identity
T: go : left 0.25 0.75
T: go : right 0.5 0.5
O: * : left 0.8 0.2
O: * : right 0.4 0.6
R: * : * : * : * -1
R: go : * : right : * 5
R: go : left : right : beep 7
R: stay : right : * : quiet 2
`

// TestInfoRewards: info says whether a model keeps R(s,a,s',o), export
// writes it (and --expected-rewards drops it, on info and export alike).
func TestInfoRewards(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "detail.pomdp")
	if err := os.WriteFile(file, []byte(rewardDetailPOMDP), 0o644); err != nil {
		t.Fatal(err)
	}
	kept := "rewards:      R(s,a,s',o) kept (10 entries); values use the expectation R(s,a)\n"
	px := filepath.Join(dir, "detail.pomdpx")
	flat := filepath.Join(dir, "flat.pomdp")
	for _, args := range [][]string{{"export", file, "--out", px}, {"export", file, "--out", flat, "--expected-rewards"}} {
		if _, err := runCLI(t, args...); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"info", file}, kept},
		{[]string{"info", px}, kept},
		{[]string{"info", file, "--expected-rewards"}, "rewards:      R(s,a), the expectation (--expected-rewards dropped 10 entries R(s,a,s',o))\n"},
		{[]string{"info", flat}, "rewards:      R(s,a)\n"},
		{[]string{"info", "tiger"}, "rewards:      R(s,a)\n"},
	} {
		out, err := runCLI(t, tc.args...)
		if err != nil || !strings.Contains(out, tc.want) {
			t.Errorf("%s: %v\n%s\nwant %q", strings.Join(tc.args, " "), err, out, tc.want)
		}
	}
	out, err := runCLI(t, "info", file, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Rewards       string
		RewardEntries int `json:"reward_entries"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Rewards != "R(s,a,s',o)" || got.RewardEntries != 10 {
		t.Errorf("info --json: %+v", got)
	}
}

// TestExportPOMDPXRenamedInfo: a model with names POMDPX cannot hold (a
// space) is exported to .pomdpx under renames, and info on the file shows
// the original names and the rename.
func TestExportPOMDPXRenamedInfo(t *testing.T) {
	dir := t.TempDir()
	m, err := pomdp.New(pomdp.Dense{States: []string{"tiger left", "tiger right"}, Actions: []string{"listen"}, Observations: []string{"L", "R"},
		T: [][][]float64{{{1, 0}, {0, 1}}}, Z: [][][]float64{{{0.85, 0.15}, {0.15, 0.85}}}, Discount: 0.95, HasDiscount: true})
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "spaced.json")
	if err := modelfile.Save(model, m); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "spaced.pomdpx")
	if _, err := runCLI(t, "export", model, "--out", file); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if want := "<!-- pomdpq-rename states tiger_left \"tiger left\" -->\n"; !strings.Contains(string(data), want) {
		t.Errorf("exported file lacks %q", want)
	}
	out, err := runCLI(t, "info", file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"format:       .pomdpx\n", `renamed:      2 names restored from the file's rename comments: state "tiger left" (written tiger_left), state "tiger right" (written tiger_right)`} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	back, err := modelfile.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(back.States, "|") != "tiger left|tiger right" {
		t.Errorf("states %q", back.States)
	}
}
