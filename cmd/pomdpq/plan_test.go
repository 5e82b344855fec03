package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/planq"
)

func runPlan(t *testing.T, args ...string) planOutJSON {
	t.Helper()
	var out, errb bytes.Buffer
	if err := run(append([]string{"plan", "--progress", "off", "--json"}, args...), &out, &errb); err != nil {
		t.Fatalf("plan %v: %v\n%s", args, err, errb.String())
	}
	var res planOutJSON
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// TestPlanTigerAcceptance: Tiger, m ≤ 2 (147 controllers), T = 4,
// ε = 0, 0.3, 0.5, observation reward: regret 0 at ε = 0 within 1e-9 and
// regret ≤ bound at every ε; the lifted .pg evaluates to V_M within 1e-9
// relative.
func TestPlanTigerAcceptance(t *testing.T) {
	dir := t.TempDir()
	res := runPlan(t, "--model", "tiger", "--family", "stationary", "--m", "2", "--T", "4", "--eps", "0,0.3,0.5", "--reward", "observation", "--out", dir)
	if res.FamilySize != 147 || len(res.Rows) != 3 {
		t.Fatalf("family %d, rows %d", res.FamilySize, len(res.Rows))
	}
	for _, r := range res.Rows {
		if r.Regret == nil || r.Bound == nil {
			t.Fatalf("ε = %g: regret %v bound %v", r.Epsilon, r.Regret, r.Bound)
		}
		if r.Epsilon == 0 && math.Abs(*r.Regret) > 1e-9 {
			t.Errorf("ε = 0: regret %g", *r.Regret)
		}
		if *r.Regret > *r.Bound || r.Verdict != "within bound" {
			t.Errorf("ε = %g: regret %g, bound %g, verdict %q", r.Epsilon, *r.Regret, *r.Bound, r.Verdict)
		}
		if want := 2 * *res.LR * 4 * r.Epsilon; math.Abs(*r.Bound-want) > 1e-12 {
			t.Errorf("ε = %g: bound %g, 2·L_R·T·ε = %g", r.Epsilon, *r.Bound, want)
		}
		var out, errb bytes.Buffer
		if err := run([]string{"evaluate", "--model", res.ModelFile, "--policy", r.PolicyFile, "--horizon", "4", "--json", "--progress", "off"}, &out, &errb); err != nil {
			t.Fatal(err)
		}
		var ev evaluateJSON
		if err := json.Unmarshal(out.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if math.Abs(ev.Value-r.VM) > 1e-9*math.Max(1, math.Abs(r.VM)) || ev.StartNode != 0 {
			t.Errorf("ε = %g: evaluate gives %.12g from node %d, plan V_M %.12g", r.Epsilon, ev.Value, ev.StartNode, r.VM)
		}
	}
}

// TestPlanTigerOwnReward: with Tiger's latent reward no finite L_R exists
// for this family; the bound is reported as vacuous and no number is
// printed for it.
func TestPlanTigerOwnReward(t *testing.T) {
	res := runPlan(t, "--model", "tiger", "--m", "2", "--T", "4", "--eps", "0,0.5")
	if res.LR != nil || !strings.Contains(res.LRWhy, "no finite L_R") {
		t.Fatalf("L_R %v (%s)", res.LR, res.LRWhy)
	}
	for _, r := range res.Rows {
		if r.Bound != nil || r.Verdict != "vacuous bound" {
			t.Errorf("ε = %g: bound %v, verdict %q", r.Epsilon, r.Bound, r.Verdict)
		}
	}
	var out, errb bytes.Buffer
	if err := run([]string{"plan", "--model", "tiger", "--m", "2", "--T", "4", "--eps", "0.5", "--progress", "off", "--verbose"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "none (vacuous: L_R is infinite)") {
		t.Errorf("text output does not say the bound is vacuous:\n%s", out.String())
	}
}

// TestPlanMaze4x3: the model file, m = 1, T = 3, ε = 0, 0.1, 0.3,
// observation reward: regret ≤ bound in every row, certified although the
// maze has impossible histories (their count is printed; the quotients
// the compared controllers see enter no class without a possible member,
// which Row.StandInReach measures).
func TestPlanMaze4x3(t *testing.T) {
	res := runPlan(t, "--model", filepath.Join("..", "..", "datasets", "models", "maze4x3.pomdp"), "--m", "1", "--T", "3", "--eps", "0,0.1,0.3", "--reward", "observation")
	if res.StandIns == 0 {
		t.Errorf("stand_ins = 0; maze4x3 has impossible histories")
	}
	for _, r := range res.Rows {
		if r.Regret == nil || r.Bound == nil || *r.Regret > *r.Bound+1e-9 {
			t.Errorf("ε = %g: regret %v, bound %v", r.Epsilon, r.Regret, r.Bound)
		}
		if r.Verdict != "within bound" || r.StandInReach == nil || *r.StandInReach != 0 {
			t.Errorf("ε = %g: verdict %q, stand-in reach %v; want within bound, 0", r.Epsilon, r.Verdict, r.StandInReach)
		}
	}
}

// TestPlanRewardFileErrors: a bad reward file is named with its line and
// field.
func TestPlanRewardFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ body, want string }{
		{"-1 -100 10\n-1 10\n", "bad.txt:2: state tiger_right: 2 rewards"},
		{"-1 -100 x\n", "bad.txt:1: state tiger_left, action open_right: \"x\" is not a finite number"},
		{"-1 -100 10\n", "bad.txt:1: 1 reward rows"},
	} {
		p := filepath.Join(dir, "bad.txt")
		if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		err := run([]string{"plan", "--model", "tiger", "--T", "2", "--reward", p, "--progress", "off"}, &out, &errb)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.body, err, tc.want)
		}
	}
}

// TestPlanSolverDiscountUsage: --solver-discount is refused, as a usage
// error naming the flag, for a planner other than cmd: and outside (0, 1].
func TestPlanSolverDiscountUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--solver-discount", "0.9"}, "--solver-discount applies to a cmd: planner, not best-fsc"},
		{[]string{"--planner", "cmd:true {model}", "--solver-discount", "2"}, "--solver-discount: planq: solver discount 2: want a discount in (0, 1]"},
		{[]string{"--planner", "cmd:true {model}", "--solver-discount", "0"}, "want a discount in (0, 1]"},
	} {
		var out, errb bytes.Buffer
		err := run(append([]string{"plan", "--model", "tiger", "--progress", "off"}, tc.args...), &out, &errb)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
}

// TestPlanViolations: plan fails after printing exactly when a row's
// certified bound is exceeded (planq.BoundViolated); an uncertified
// excess (a stand-in class reached) or a vacuous bound does not fail, and
// the message names every violating ε.
func TestPlanViolations(t *testing.T) {
	b := planq.Bound{Applies: true, Formula: "2·L_R·T·ε", Theorem: "cor:sim-to-real", Value: 0.25}
	row := func(eps, regret float64, v planq.Verdict) planq.Row {
		return planq.Row{Eps: eps, Regret: regret, Bound: b, Verdict: v}
	}
	cases := []struct {
		name string
		rows []planq.Row
		want []string // substrings of the error; nil: no error
	}{
		{"within", []planq.Row{row(0, 0, planq.WithinBound), row(0.1, 0.2, planq.WithinBound)}, nil},
		{"stand-in", []planq.Row{row(0.1, 0.5, planq.BoundViolatedStandIn)}, nil},
		{"vacuous", []planq.Row{row(0.1, 9, planq.VacuousBound)}, nil},
		{"one", []planq.Row{row(0, 0, planq.WithinBound), row(0.3, 0.5, planq.BoundViolated)},
			[]string{"BOUND VIOLATED", "ε = 0.3 (regret 0.5 > bound 0.25)", "cor:sim-to-real"}},
		{"two", []planq.Row{row(0.1, 0.3, planq.BoundViolated), row(0.3, 0.5, planq.BoundViolated)},
			[]string{"ε = 0.1 (regret 0.3", "ε = 0.3 (regret 0.5"}},
	}
	for _, tc := range cases {
		err := violations(&planq.Result{Rows: tc.rows})
		if (err != nil) != (tc.want != nil) {
			t.Errorf("%s: error %v, want one: %v", tc.name, err, tc.want != nil)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
	}
}
