package planq

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pomdpq/pomdpq/internal/proctest"
	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/value"
)

func tigerCommand(t *testing.T, tmpl string, timeout time.Duration) (*Result, error) {
	t.Helper()
	return modelCommand(t, "tiger", tmpl, timeout)
}

// modelCommand is tigerCommand on another built-in model.
func modelCommand(t *testing.T, name, tmpl string, timeout time.Duration) (*Result, error) {
	t.Helper()
	b, err := bench.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := value.WithObsReward(b.Model)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCommand(tmpl, timeout)
	if err != nil {
		return nil, err
	}
	return Run(context.Background(), Config{Model: m, Ground: b.Ground, Kind: fsc.KindStationary, M: 1, T: 3, Eps: []float64{0, 0.5}, Planner: c})
}

// TestCommandFakeSolvers runs fake solvers: one writing a policy graph
// (always listen), one writing alpha vectors, one exiting 3, a missing
// binary, one writing garbage and one hanging past its limit.
func TestCommandFakeSolvers(t *testing.T) {
	// Always listen: value 3·0.5 on Tiger's observation reward over T = 3.
	res, err := tigerCommand(t, `printf '0 0  0 0 \n' > {policy}.pg # {model}`, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		if d := r.VM - 1.5; d > 1e-12 || d < -1e-12 {
			t.Errorf("graph solver, ε = %g: V_M = %g, want 1.5", r.Eps, r.VM)
		}
		if r.Bound.Applies {
			t.Errorf("an external solver's policy must not be covered: %v", r.Bound)
		}
	}
	if res.Baseline == nil || res.Baseline.Value != 1.5 {
		t.Errorf("baseline %+v", res.Baseline)
	}

	for _, tc := range []struct {
		name, cmd string
		timeout   time.Duration
		want      []string
	}{
		{"exit 3", `echo solving; echo out of memory >&2; exit 3`, 10 * time.Second, []string{"exited with status 3", "out of memory"}},
		{"missing binary", `no-such-solver-pomdpq {model}`, 10 * time.Second, []string{"exited with status 127", "no-such-solver-pomdpq"}},
		{"garbage", `echo hello world > {policy}.pg`, 10 * time.Second, []string{"cannot be read", "policy.pg"}},
		{"nothing written", `true {model}`, 10 * time.Second, []string{"wrote no policy"}},
		// 2 s: room for the shell to start and echo on a busy machine
		// (the timeout is what is tested; no time is asserted).
		{"hang", `echo started; sleep 3600`, 2 * time.Second, []string{"did not finish within 2s", "started"}},
	} {
		_, err := tigerCommand(t, tc.cmd+` # {model}`, tc.timeout)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
		if !strings.Contains(err.Error(), tc.cmd) {
			t.Errorf("%s: error does not name the command: %v", tc.name, err)
		}
	}
}

// TestCommandKillsProcessGroup: a solver that leaves a background child
// and hangs is killed with the child.
func TestCommandKillsProcessGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	_, err := tigerCommand(t, `sleep 3600 & echo $! > `+pidFile+`; wait # {model}`, 2*time.Second)
	if err == nil {
		t.Fatal("no error")
	}
	waitGone(t, readPid(t, pidFile))
}

// TestCommandLeftoverChild: a solver that writes its policy and exits 0
// while a child it started in the background still runs (holding its
// output open) is read at once, and the child is killed. An earlier main
// waited on the output pipe, gave up after 2 s and reported the run as
// failed.
func TestCommandLeftoverChild(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	// The child sleeps an hour, past the 20 s timeout: a run that waited
	// for it would end at the timeout with an error, not a result.
	res, err := tigerCommand(t, `printf '0 0  0 0 \n' > {policy}.pg; sleep 3600 & echo $! > `+pidFile+` # {model}`, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows[0].VM != 1.5 {
		t.Errorf("V_M = %g, want 1.5 (always listen)", res.Rows[0].VM)
	}
	waitGone(t, readPid(t, pidFile))
}

// readPid reads the process id a test's solver wrote.
func readPid(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// waitGone waits until process pid is gone (proctest.WaitGone: no
// deadline of its own; a killed process ends when the kernel schedules
// it, which on a busy machine may be a moment after the kill).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	proctest.WaitGone(t, pid)
}

// TestCommandSARSOP runs the real SARSOP when it is available and a
// .policy reader is registered.
func TestCommandSARSOP(t *testing.T) {
	bin := os.Getenv("POMDPSOL")
	if bin == "" {
		if p := filepath.Join("..", "..", ".tools", "sarsop", "sarsop", "src", "pomdpsol"); fileExists(p) {
			bin, _ = filepath.Abs(p)
		} else if p, err := exec.LookPath("pomdpsol"); err == nil {
			bin = p
		}
	}
	if bin == "" {
		var tarballs []string
		if tools, ok := shared.FindTool(); ok {
			tarballs, _ = filepath.Glob(filepath.Join(tools, "sarsop-*.tar.gz"))
		}
		if shared.CI() && len(tarballs) > 0 {
			t.Fatalf("CI=true and SARSOP's source is at %s, but pomdpsol is not built: run .ci/ensure-sarsop.sh", tarballs[0])
		}
		t.Skip("SARSOP not found ($POMDPSOL, .tools/sarsop/sarsop/src/pomdpsol (.ci/ensure-sarsop.sh), PATH)")
	}
	// tiger95 carries γ = 0.95; SARSOP asserts a discount below 1, so the
	// paper's Tiger (none) fails unless the command writes one.
	res, err := modelCommand(t, "tiger95", bin+` {model} --timeout 10 -o {policy}`, 60*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 2 {
		t.Fatalf("%d rows", len(res.Rows))
	}
	if _, err := tigerCommand(t, bin+` {model} --timeout 10 -o {policy}`, 60*time.Second); err == nil || !strings.Contains(err.Error(), "--solver-discount") {
		t.Errorf("SARSOP on Tiger without a solver discount: %v", err)
	}
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	m, err := value.WithObsReward(b.Model)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCommand(bin+` {model} --timeout 10 -o {policy} # {discount}`, 60*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if c, err = c.WithDiscount(0.95); err != nil {
		t.Fatal(err)
	}
	res, err = Run(context.Background(), Config{Model: m, Ground: b.Ground, Kind: fsc.KindStationary, M: 1, T: 3, Eps: []float64{0, 0.5}, Planner: c})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.PlannerSettings, "solver discount 0.95") || res.Gamma != 1 {
		t.Errorf("settings %q, γ %g: want the solver's 0.95 printed and values with Tiger's γ = 1", res.PlannerSettings, res.Gamma)
	}
}

// TestCommandDiscount: {discount} is the discount written into the model
// the solver is given (a fake solver echoes the file's discount line and
// the placeholder, then always listens); WithDiscount refuses values
// outside (0, 1].
func TestCommandDiscount(t *testing.T) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	m, err := value.WithObsReward(b.Model)
	if err != nil {
		t.Fatal(err)
	}
	seen := filepath.Join(t.TempDir(), "seen")
	c, err := NewCommand(`grep '^discount' {model} >> `+seen+`; echo placeholder {discount} >> `+seen+`; printf '0 0  0 0 \n' > {policy}.pg`, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		g    float64
		want string
	}{{0, "discount: 1\nplaceholder 1\n"}, {0.9, "discount: 0.9\nplaceholder 0.9\n"}} {
		os.Remove(seen)
		cc := c
		if tc.g > 0 {
			if cc, err = c.WithDiscount(tc.g); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Run(context.Background(), Config{Model: m, Kind: fsc.KindStationary, M: 1, T: 2, Eps: []float64{0}, Planner: cc}); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(seen)
		if err != nil {
			t.Fatal(err)
		}
		// Once for the baseline on the original, once for the quotient.
		if string(got) != tc.want+tc.want {
			t.Errorf("discount %g: the solver saw %q, want %q twice", tc.g, got, tc.want)
		}
	}
	for _, g := range []float64{-0.5, 0, 1.5} {
		if _, err := c.WithDiscount(g); err == nil {
			t.Errorf("WithDiscount(%g): no error", g)
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestReaders: a Command without Readers reads the built-in formats; one
// given its own map reads exactly that map's extensions, and the default
// map handed out is a fresh copy (changing it changes no other Command).
func TestReaders(t *testing.T) {
	zz := func(string, *pomdp.Model) (*SolverPolicy, error) { return nil, nil }
	added := DefaultReaders()
	added[".zz"] = zz
	cases := []struct {
		name string
		c    Command
		want string
	}{
		{"default", Command{}, ".alpha .pg .policy"},
		{"added", Command{Readers: added}, ".alpha .pg .policy .zz"},
		{"only", Command{Readers: map[string]PolicyReader{".zz": zz}}, ".zz"},
		{"default after another's map changed", Command{}, ".alpha .pg .policy"},
	}
	for _, tc := range cases {
		if got := strings.Join(tc.c.Extensions(), " "); got != tc.want {
			t.Errorf("%s: Extensions() = %q, want %q", tc.name, got, tc.want)
		}
	}
}
