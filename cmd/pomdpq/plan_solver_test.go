//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/pomdpq/pomdpq/internal/proctest"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// optimumT is the exact optimum over every policy (history-dependent,
// deterministic) of m's expected return over T stages discounted by γ,
// from belief b at depth t: the Bellman recursion over the belief tree,
// V_t(b) = max_a [Σ_s b(s) R(s, a) + γ Σ_z P(z | b, a) V_{t+1}(b_az)],
// V_T = 0. It is written here, apart from the code under test, as the
// ceiling any lifted policy's value must stay under.
func optimumT(m *pomdp.Model, b []float64, t, T int, gamma float64) float64 {
	if t == T {
		return 0
	}
	nS := m.NumStates()
	best := math.Inf(-1)
	for a := 0; a < m.NumActions(); a++ {
		v := 0.0
		for s, x := range b {
			v += x * m.R[s][a]
		}
		pred := make([]float64, nS)
		for s, x := range b {
			m.T[a].Entries(s, func(s2 int, p float64) { pred[s2] += x * p })
		}
		for z := 0; z < m.NumObservations(); z++ {
			next := make([]float64, nS)
			pz := 0.0
			for s2, x := range pred {
				next[s2] = x * m.Z[a].At(s2, z)
				pz += next[s2]
			}
			if pz == 0 {
				continue
			}
			for s2 := range next {
				next[s2] /= pz
			}
			v += gamma * pz * optimumT(m, next, t+1, T, gamma)
		}
		best = max(best, v)
	}
	return best
}

// TestPlanSARSOPLoop runs SARSOP in the loop (--planner cmd:'pomdpsol …')
// on Tiger, which has no discount (--solver-discount 0.95 gives the
// exported models one, as SARSOP requires), and on maze4x3.pomdp (its own
// γ = 0.95), m = 1, T = 3, ε = 0, 0.3, observation reward. Each row's
// lifted .pg evaluates (pomdpq evaluate) to the printed V_M within 1e-9
// relative, and V_M stays under the exact T-stage optimum over all
// policies (optimumT). Without --solver-discount, Tiger fails with
// SARSOP's assertion and the hint naming the flag.
func TestPlanSARSOPLoop(t *testing.T) {
	bin := findPOMDPSol(t)
	planner := "cmd:" + bin + " {model} --timeout 5 -o {policy}"
	maze := filepath.Join("..", "..", "datasets", "models", "maze4x3.pomdp")
	for _, tc := range []struct {
		name     string
		args     []string
		settings string
	}{
		{"tiger", []string{"--model", "tiger", "--solver-discount", "0.95"}, "solver discount 0.95"},
		{"maze4x3", []string{"--model", maze}, "the model's own"},
	} {
		dir := t.TempDir()
		res := runPlan(t, append(tc.args, "--m", "1", "--T", "3", "--eps", "0,0.3", "--reward", "observation", "--planner", planner, "--timeout", "60s", "--out", dir)...)
		if !strings.Contains(res.PlannerSettings, tc.settings) {
			t.Errorf("%s: planner settings %q, want %q", tc.name, res.PlannerSettings, tc.settings)
		}
		m, err := modelfile.Load(res.ModelFile)
		if err != nil {
			t.Fatal(err)
		}
		ceiling := optimumT(m, m.B0, 0, 3, res.Gamma)
		if len(res.Rows) != 2 {
			t.Fatalf("%s: %d rows", tc.name, len(res.Rows))
		}
		for _, r := range res.Rows {
			if r.VM > ceiling+1e-9 {
				t.Errorf("%s ε = %g: V_M %.9g above the exact optimum over all policies %.9g", tc.name, r.Epsilon, r.VM, ceiling)
			}
			var out, errb bytes.Buffer
			if err := run([]string{"evaluate", "--model", res.ModelFile, "--policy", r.PolicyFile, "--horizon", "3", "--json", "--progress", "off"}, &out, &errb); err != nil {
				t.Fatal(err)
			}
			var ev evaluateJSON
			if err := json.Unmarshal(out.Bytes(), &ev); err != nil {
				t.Fatal(err)
			}
			if math.Abs(ev.Value-r.VM) > 1e-9*math.Max(1, math.Abs(r.VM)) {
				t.Errorf("%s ε = %g: evaluate gives %.12g, plan V_M %.12g", tc.name, r.Epsilon, ev.Value, r.VM)
			}
			t.Logf("%s ε = %g: %d classes, V_Q %.6f, V_M %.6f (optimum over all policies %.6f)", tc.name, r.Epsilon, r.Classes, r.VQ, r.VM, ceiling)
		}
	}
	var out, errb bytes.Buffer
	err := run([]string{"plan", "--model", "tiger", "--T", "3", "--eps", "0", "--reward", "observation", "--planner", planner, "--progress", "off"}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "--solver-discount") || !strings.Contains(err.Error(), "exited with status") {
		t.Errorf("SARSOP on Tiger without --solver-discount: %v", err)
	}
}

// planCLI runs the test binary as pomdpq plan (TestMain) and returns its
// stderr and exit status; started, when set, is called with the process
// once it runs.
func planCLI(t *testing.T, started func(*os.Process), args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"plan", "--progress", "off"}, args...)...)
	cmd.Env = append(os.Environ(), "POMDPQ_TEST_AS_CLI=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if started != nil {
		started(cmd.Process)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return stderr.String(), 0
	case errors.As(err, &ee):
		return stderr.String(), ee.ExitCode()
	}
	t.Fatal(err)
	return "", -1
}

// TestPlanBadSolverCLI runs `pomdpq plan` with bad solvers as a process:
// a missing binary, a non-zero exit, a garbage policy file, a hang past
// --timeout, and a hang ended by SIGTERM to pomdpq. Each exits with
// status 1 and an error naming the command and what went wrong; after a
// hang, the solver's shell and the child it started are gone, also when
// pomdpq itself is SIGKILLed (at f76fb23 both ran on: the case SIGKILL
// failed).
func TestPlanBadSolverCLI(t *testing.T) {
	dir := t.TempDir()
	shPid, kidPid := filepath.Join(dir, "sh.pid"), filepath.Join(dir, "kid.pid")
	hang := "echo $$ > " + shPid + "; sleep 3600 & echo $! > " + kidPid + "; echo hanging; wait # {model}"
	signalOnce := func(sig os.Signal) func(p *os.Process) {
		// sig once the solver has written both pids.
		return func(p *os.Process) {
			proctest.Until(t, func() bool {
				b, err := os.ReadFile(kidPid)
				return err == nil && len(bytes.TrimSpace(b)) > 0
			}, "the solver did not write its child's pid")
			p.Signal(sig)
		}
	}
	for _, tc := range []struct {
		name, cmd, timeout string
		started            func(*os.Process)
		want               []string
		hang               bool
	}{
		{"missing binary", "no-such-solver-pomdpq {model}", "10s", nil, []string{"exited with status 127", "no-such-solver-pomdpq"}, false},
		{"exit 3", "echo solving; echo out of memory >&2; exit 3 # {model}", "10s", nil, []string{"exited with status 3", "out of memory"}, false},
		{"garbage", "echo hello world > {policy}.pg # {model}", "10s", nil, []string{"cannot be read", "policy.pg"}, false},
		// 2s: room for the shell to write both pids on a busy machine (the
		// timeout is what is tested; no time is asserted).
		{"hang past --timeout", hang, "2s", nil, []string{"did not finish within 2s", "killed with its process group", "hanging"}, true},
		{"SIGTERM", hang, "60s", signalOnce(syscall.SIGTERM), []string{"was cancelled", "killed with its process group"}, true},
		// pomdpq itself SIGKILLed: nothing of it runs to kill the group;
		// the kernel's parent-death signal ends the shell and the watcher
		// the child (exit status -1: killed by a signal, no message).
		{"SIGKILL", hang, "60s", signalOnce(syscall.SIGKILL), nil, true},
	} {
		os.Remove(shPid)
		os.Remove(kidPid)
		stderr, code := planCLI(t, tc.started, "--model", "tiger", "--T", "2", "--eps", "0", "--planner", "cmd:"+tc.cmd, "--timeout", tc.timeout)
		if want := 1; tc.want == nil && code != -1 || tc.want != nil && code != want {
			t.Errorf("%s: exit status %d, want 1 (-1 after SIGKILL)\n%s", tc.name, code, stderr)
		}
		if tc.want == nil {
			tc.want = []string{} // killed: nothing printed, nothing to check
		} else {
			tc.want = append(tc.want, "pomdpq: ", tc.cmd)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.name, w, stderr)
			}
		}
		if tc.hang {
			for _, f := range []string{shPid, kidPid} {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
				if err != nil {
					t.Fatal(err)
				}
				// pomdpq has exited (wait returned); the solver's shell
				// and its child end as soon as the kernel schedules them.
				proctest.WaitGone(t, pid)
			}
		}
	}
}
