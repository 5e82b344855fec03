//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// constantOptimum is the best value over the stationary m = 1 family (one
// action repeated) of m over T stages discounted by γ, computed apart from
// the code under test: a constant action ignores observations, so its
// value is Σ_t γ^t b_t·R(·, a) with b_{t+1} = b_t·T_a.
func constantOptimum(m *pomdp.Model, T int, gamma float64) float64 {
	best := math.Inf(-1)
	for a := 0; a < m.NumActions(); a++ {
		b := append([]float64(nil), m.B0...)
		v, w := 0.0, 1.0
		for t := 0; t < T; t++ {
			for s, x := range b {
				v += w * x * m.R[s][a]
			}
			next := make([]float64, len(b))
			for s, x := range b {
				m.T[a].Entries(s, func(s2 int, p float64) { next[s2] += x * p })
			}
			b, w = next, w*gamma
		}
		best = max(best, v)
	}
	return best
}

// planAcceptance runs `pomdpq plan --model path --m 1 --T 3 --eps
// 0,0.1,0.3 --reward observation` as a process (the test binary as
// pomdpq) and checks the acceptance of issue 18: it finishes within 2 GiB
// (peak resident set; its wall time is logged, not asserted, as the
// machine may be busy: issue 18's 60 s is a figure of an idle one),
// every row reports regret ≤ bound, the exact optimum over Π equals
// constantOptimum, and every lifted .pg evaluates (pomdpq evaluate) to the row's V_M within 1e-9 relative.
//
// The verdict is "within bound" when the row is certified; when the
// quotient a compared controller sees enters a class with no member
// possible under it (stand_in_reach > 0), plan says "within bound (not
// certified: stand-in class reached)", which is accepted then and only
// then. Today all three models' rows are certified.
func planAcceptance(t *testing.T, path string) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "plan", "--model", path, "--m", "1", "--T", "3", "--eps", "0,0.1,0.3", "--reward", "observation",
		"--progress", "off", "--json", "--out", dir)
	cmd.Env = append(os.Environ(), "POMDPQ_TEST_AS_CLI=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("plan %s: %v\n%s", path, err, stderr.String())
	}
	wall := time.Since(start)
	rss := int64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) << 10 // KiB on Linux
	t.Logf("%s: %.2f s, peak RSS %.1f MiB", filepath.Base(path), wall.Seconds(), float64(rss)/(1<<20))
	if rss > 2<<30 {
		t.Errorf("%s: peak RSS %d bytes, above 2 GiB", path, rss)
	}
	var res planOutJSON
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	m, err := modelfile.Load(res.ModelFile)
	if err != nil {
		t.Fatal(err)
	}
	if want := constantOptimum(m, 3, res.Gamma); res.Optimum == nil || math.Abs(*res.Optimum-want) > 1e-9*max(1, math.Abs(want)) {
		t.Errorf("%s: optimum over Π %v, constant actions give %.12g", path, res.Optimum, want)
	}
	if len(res.Rows) != 3 {
		t.Fatalf("%s: %d rows", path, len(res.Rows))
	}
	for _, r := range res.Rows {
		if r.Regret == nil || r.Bound == nil || *r.Regret > *r.Bound+1e-9 {
			t.Errorf("%s ε = %g: regret %v, bound %v", path, r.Epsilon, r.Regret, r.Bound)
		}
		reached := r.StandInReach != nil && *r.StandInReach > 0
		certified := r.Verdict == "within bound" && !reached
		standIn := r.Verdict == "within bound (not certified: stand-in class reached)" && reached
		if !certified && !standIn {
			t.Errorf("%s ε = %g: verdict %q (stand-in reach %v)", path, r.Epsilon, r.Verdict, r.StandInReach)
		}
		var out, errb bytes.Buffer
		if err := run([]string{"evaluate", "--model", res.ModelFile, "--policy", r.PolicyFile, "--horizon", "3", "--json", "--progress", "off"}, &out, &errb); err != nil {
			t.Fatal(err)
		}
		var ev evaluateJSON
		if err := json.Unmarshal(out.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if math.Abs(ev.Value-r.VM) > 1e-9*math.Max(1, math.Abs(r.VM)) || ev.StartNode != 0 {
			t.Errorf("%s ε = %g: evaluate gives %.12g from node %d, plan V_M %.12g", path, r.Epsilon, ev.Value, ev.StartNode, r.VM)
		}
		t.Logf("ε = %g: %d classes, regret %s ≤ bound %s: %s", r.Epsilon, r.Classes, fmtVal(r.Regret), fmtVal(r.Bound), r.Verdict)
	}
}

// TestPlanMaze4x3Acceptance is the in-repository twin of
// TestPlanSharedAcceptance: maze4x3.pomdp (datasets/models), the same
// settings and checks, the optimum pinned to the constant-action
// recursion.
func TestPlanMaze4x3Acceptance(t *testing.T) {
	planAcceptance(t, filepath.Join("..", "..", "datasets", "models", "maze4x3.pomdp"))
}

// TestPlanSharedAcceptance runs the acceptance on hallway and tiger-grid
// from ../shared/data/pomdp (third-party files, outside the repository).
func TestPlanSharedAcceptance(t *testing.T) {
	for _, name := range []string{"hallway.POMDP", "tiger-grid.POMDP"} {
		t.Run(strings.TrimSuffix(name, ".POMDP"), func(t *testing.T) {
			planAcceptance(t, shared.Path(t, "TestPlanMaze4x3Acceptance", "pomdp", name))
		})
	}
}
