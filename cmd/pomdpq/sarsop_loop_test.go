//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/policy"
)

// findPOMDPSol returns SARSOP's solver: $POMDPSOL, else the one .ci/ensure-sarsop.sh
// builds (.tools/sarsop/sarsop/src/pomdpsol), else pomdpsol on the PATH.
// Without one it skips t in one line, or fails t when CI=true and SARSOP's
// source is beside the repository (.ci/ensure-sarsop.sh should have built it).
func findPOMDPSol(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("POMDPSOL"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("POMDPSOL=%s: %v", p, err)
		}
		return p
	}
	built := filepath.Join("..", "..", ".tools", "sarsop", "sarsop", "src", "pomdpsol")
	if _, err := os.Stat(built); err == nil {
		abs, err := filepath.Abs(built)
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	if p, err := exec.LookPath("pomdpsol"); err == nil {
		return p
	}
	var tarballs []string
	if tools, ok := shared.FindTool(); ok {
		tarballs, _ = filepath.Glob(filepath.Join(tools, "sarsop-*.tar.gz"))
	}
	if shared.CI() && len(tarballs) > 0 {
		t.Fatalf("CI=true and SARSOP's source is at %s, but pomdpsol is not built: run .ci/ensure-sarsop.sh", tarballs[0])
	}
	t.Skip("SARSOP's pomdpsol not found ($POMDPSOL, .tools/sarsop/sarsop/src/pomdpsol (.ci/ensure-sarsop.sh) or PATH)")
	return ""
}

// runPOMDPSol runs pomdpsol on model in dir for at most the given seconds
// of search (its --timeout), writing out, in its own process group, which
// is killed if it still runs near the test binary's deadline (go test
// -timeout), so that nothing outlives the test. No wall time of its own is
// asserted: a busy machine makes pomdpsol slow, not wrong. It returns the
// standard output.
func runPOMDPSol(t *testing.T, bin, dir, model, out string, seconds int) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	if dl, ok := t.Deadline(); ok {
		ctx, cancel = context.WithDeadline(context.Background(), dl.Add(-10*time.Second))
	}
	defer cancel()
	// pomdpsol's own --timeout stops the search (and writes the policy) well
	// before the context's limit.
	cmd := exec.CommandContext(ctx, bin, model, "--precision", "1e-3", "--timeout", strconv.Itoa(seconds), "-o", out)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // anything it left behind; ESRCH when none
	}
	if ctx.Err() != nil {
		t.Fatalf("pomdpsol %s: killed at the test binary's deadline\n%s", model, stdout.String())
	}
	if err != nil {
		t.Fatalf("pomdpsol %s: %v\n%s\n%s", model, err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// sarsopBounds returns the lower and upper bound of the last row of the
// last table pomdpsol printed (Time, #Trial, #Backup, LBound, UBound, …),
// as printed.
func sarsopBounds(out string) (lb, ub string, err error) {
	lines := strings.Split(out, "\n")
	head := -1
	for i, l := range lines {
		if strings.Contains(l, "LBound") && strings.Contains(l, "UBound") {
			head = i
		}
	}
	if head < 0 {
		return "", "", errors.New("no LBound/UBound table in pomdpsol's output")
	}
	for _, l := range lines[head+1:] {
		f := strings.Fields(l)
		if len(f) >= 5 && !strings.HasPrefix(f[0], "-") {
			return f[3], f[4], nil
		}
	}
	return "", "", errors.New("the last LBound/UBound table has no row")
}

// sixDigits returns half a unit in the 6th significant digit of v, the
// rounding of a number SARSOP prints: pomdpsol prints its table with
// cout.precision(6) (SARSOP::print) and its vectors with the default
// precision, 6 (AlphaPlane::write). This reading applies to every number
// pomdpsol prints.
func sixDigits(v float64) float64 {
	if v == 0 {
		return 0 // 0 is printed only for 0
	}
	return 0.5 * math.Pow(10, math.Floor(math.Log10(math.Abs(v)))-5)
}

// TestSARSOPLoop: models exported by pomdpq (the paper's Tiger, whose
// observation "R" is written renamed, with the discount SARSOP needs; the
// 4×3 maze of datasets/models) are solved by the real SARSOP, and evaluate
// reads the .policy it writes: the lower bound at b0 we compute from its
// vectors equals the lower bound pomdpsol printed, within the rounding of
// its 6 printed digits (the printed bound's, plus the vectors' at b0).
// Each model goes as .pomdp, and as .pomdpx when export writes POMDPX.
func TestSARSOPLoop(t *testing.T) {
	bin := findPOMDPSol(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		args    []string
		horizon string // of the greedy evaluation (maze4x3's beliefs multiply fast)
	}{
		{"tiger", []string{"tiger", "--discount", "0.95"}, "60"},
		{"maze4x3", []string{filepath.Join("..", "..", "datasets", "models", "maze4x3.pomdp")}, "15"},
	} {
		for _, format := range []string{"pomdp", "pomdpx"} {
			file := filepath.Join(dir, tc.name+"."+format)
			_, err := runCLI(t, append([]string{"export", "--format", format, "--out", file}, tc.args...)...)
			var u usageError
			if format == "pomdpx" && errors.As(err, &u) {
				t.Logf("export --format pomdpx: %v (not in this build)", err)
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Run(tc.name+"."+format, func(t *testing.T) {
				checkSARSOP(t, bin, dir, file, tc.name+"-"+format+".policy", 20, tc.horizon)
			})
		}
	}
	// Mixed observability: SARSOP's RockSample(7,8), whose robot position is
	// fully observed (numObsValue 50, vectors over the 256 rock states); 10 s
	// of search. Twin: TestPOMDPXFactoredInfo, our own factored,
	// mixed-observability file with hand-derived sizes.
	t.Run("RockSample_7_8.pomdpx", func(t *testing.T) {
		rs := shared.Path(t, "TestPOMDPXFactoredInfo", "pomdpx", "RockSample_7_8.pomdpx")
		abs, err := filepath.Abs(rs)
		if err != nil {
			t.Fatal(err)
		}
		checkSARSOP(t, bin, dir, abs, "rocksample.policy", 10, "5")
	})
}

// checkSARSOP solves model with pomdpsol into dir/out and checks that
// evaluate's lower bound at b0 (over horizon T) is the one pomdpsol
// printed, within the rounding of its 6 printed digits.
func checkSARSOP(t *testing.T, bin, dir, model, out string, seconds int, horizon string) {
	t.Helper()
	text := runPOMDPSol(t, bin, dir, model, out, seconds)
	lbText, ubText, err := sarsopBounds(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	printed, err1 := strconv.ParseFloat(lbText, 64)
	upper, err2 := strconv.ParseFloat(ubText, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("bounds %q %q are not numbers", lbText, ubText)
	}
	pol := filepath.Join(dir, out)
	e := evaluatePolicy(t, "--model", model, "--policy", pol, "--horizon", horizon)
	m, _, err := loadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.LoadPolicy(pol, m)
	if err != nil {
		t.Fatal(err)
	}
	// The printed bound's rounding, plus the largest rounding of a vector at
	// b0 (entry y of a vector for obsValue x meets b0 at state x·|Y| + y).
	tol := sixDigits(printed)
	worst := 0.0
	for _, v := range p.Vectors {
		r := 0.0
		for y, x := range v.V {
			r += m.B0[v.ObsValue*p.VectorLength+y] * sixDigits(x)
		}
		worst = math.Max(worst, r)
	}
	tol += worst
	if d := math.Abs(e.LowerBound - printed); !(d <= tol) {
		t.Errorf("lower bound at b0 %.10g, pomdpsol printed %s: difference %.3g > tolerance %.3g", e.LowerBound, lbText, d, tol)
	}
	if !(e.LowerBound <= upper+sixDigits(upper)+tol) {
		t.Errorf("lower bound %.10g above pomdpsol's upper bound %s", e.LowerBound, ubText)
	}
	t.Logf("%s: pomdpsol printed [%s, %s]; evaluate: lower bound %.10g (tolerance %.2g), %d-step greedy value %.6g, %d vectors, %d obsValues",
		filepath.Base(model), lbText, ubText, e.LowerBound, tol, e.Horizon, e.Value, len(p.Vectors), p.NumObsValue)
}
