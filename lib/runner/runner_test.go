package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pomdpq/pomdpq/internal/proctest"
)

// TestMain lets the test binary stand in for the children of these tests:
// with RUNNER_TEST_CHILD set it runs the named behaviour instead of the
// tests.
func TestMain(m *testing.M) {
	switch os.Getenv("RUNNER_TEST_CHILD") {
	case "":
		os.Exit(m.Run())
	case "serve": // pomdpq classic-row JOB
		if err := Serve(context.Background(), os.Args[len(os.Args)-1], os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "pomdpq:", err)
			os.Exit(1)
		}
	case "sleep": // a child that outlives its limit, with a grandchild holding its output
		// It prints its pid (its process group's id) first; both sleep
		// for an hour, so that only the group's kill ends them.
		fmt.Println(os.Getpid())
		c := exec.Command("sleep", "3600")
		c.Stdout = os.Stdout
		if err := c.Start(); err != nil {
			os.Exit(3)
		}
		time.Sleep(time.Hour)
	case "grow": // a child whose resident set grows by 16 MiB every 5 ms, to 1 GiB
		var keep [][]byte
		for range 64 {
			b := make([]byte, 16<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			keep = append(keep, b)
			time.Sleep(5 * time.Millisecond)
		}
		fmt.Println(len(keep))
	}
	os.Exit(0)
}

func self(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// TestExecKillsGroupAtTimeLimit: a child sleeping past its 300 ms limit
// is killed with its grandchild, which holds the child's output open:
// Exec returns only once the output closes, so a kill of the child alone
// would leave Exec waiting for the grandchild's hour (the test binary's
// -timeout then fails the test). No wall time is asserted: the contract is
// that the time limit, not the child, ended the run (Killed), and that
// when Exec returns the child's process group is empty.
func TestExecKillsGroupAtTimeLimit(t *testing.T) {
	p, err := Exec(context.Background(), Limits{Wall: 300 * time.Millisecond}, []string{"RUNNER_TEST_CHILD=sleep"}, self(t))
	if err != nil {
		t.Fatal(err)
	}
	if p.Killed != ReasonKilledTime || p.Err == nil {
		t.Errorf("killed %q, exit %v; want %q and an exit error", p.Killed, p.Err, ReasonKilledTime)
	}
	pgid, err := strconv.Atoi(strings.TrimSpace(string(p.Stdout)))
	if err != nil {
		t.Fatalf("the child's pid: %q: %v", p.Stdout, err)
	}
	proctest.WaitGroupEmpty(t, pgid)
}

// TestExecKillsAtRSS: a child growing to 1 GiB is killed once its resident
// set passes 96 MiB, and its peak stays within the documented overshoot
// of one poll (it grows 16 MiB per 5 ms here; 64 MiB allowed).
func TestExecKillsAtRSS(t *testing.T) {
	const limit = 96 << 20
	p, err := Exec(context.Background(), Limits{RSS: limit}, []string{"RUNNER_TEST_CHILD=grow"}, self(t))
	if err != nil {
		t.Fatal(err)
	}
	if p.Killed != ReasonKilledMemory {
		t.Fatalf("killed %q (exit %v, peak %d MiB), want %q", p.Killed, p.Err, p.MaxRSS>>20, ReasonKilledMemory)
	}
	if p.MaxRSS > limit+64<<20 || p.PolledRSS <= limit {
		t.Errorf("peak %d MiB, polled %d MiB: want polled above the 96 MiB limit and the peak within 64 MiB of it", p.MaxRSS>>20, p.PolledRSS>>20)
	}
}

func modelPath(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "datasets", "models", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestInChild runs jobs in a child: one that finishes (its peak then the
// child's resident set), and δ_clk of GridWorld 3×3 at T = 6 (minutes and
// gigabytes unbounded), which must stop at its own 0.5 s deadline (not be
// killed by the parent's limit), and with a 64 MiB budget at the memory
// budget, within the limits.
func TestInChild(t *testing.T) {
	argv := []string{self(t)}
	env := []string{"RUNNER_TEST_CHILD=serve"}
	ctx := context.Background()
	r, err := InChild(ctx, argv, env, Job{Path: modelPath(t, "tiger95.pomdp"), M: 1, T: 3, Method: MethodExact, Seconds: 30, Mem: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if r.Over != "" || r.PeakHow != "rss" || r.PeakBytes <= 0 || r.Classes0 == 0 {
		t.Errorf("tiger95 T = 3: %+v, want a finished run with its resident peak", r)
	}
	gw := modelPath(t, "gridworld-3.pomdp")
	r, err = InChild(ctx, argv, env, Job{Path: gw, M: 1, T: 6, Method: MethodClock, Seconds: 0.5, Mem: 2 << 30})
	if err != nil {
		t.Fatal(err)
	}
	// ReasonTime: the child stopped itself at its own deadline (a child
	// that overran it would be killed at 0.5 s + TimeSlack, ReasonKilledTime).
	if r.Reason != ReasonTime || !strings.Contains(r.Over, "time limit") {
		t.Errorf("δ_clk T = 6 at 0.5 s: reason %q, %q after %.2f s; want stopped at its own time limit (%q)", r.Reason, r.Over, r.Wall, ReasonTime)
	}
	r, err = InChild(ctx, argv, env, Job{Path: gw, M: 1, T: 6, Method: MethodClock, Seconds: 60, Mem: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if r.Reason != ReasonMemory || !strings.Contains(r.Over, "prefix trees") || r.PeakBytes > 64<<20+MemSlack {
		t.Errorf("δ_clk T = 6 at 64 MiB: reason %q, %q, peak %d MiB; want stopped at the memory budget, peak within the slack", r.Reason, r.Over, r.PeakBytes>>20)
	}
}

// TestInProcessDeadline: one deadline covers the whole job: δ_clk of
// GridWorld 3×3 at T = 6 (minutes unbounded) stops at its 0.3 s limit
// with Reason time and no error. No wall time is asserted (the machine
// may be busy): the contract is the stop and its reason; a job that
// ignored the deadline would run for minutes and meet the test binary's
// -timeout.
func TestInProcessDeadline(t *testing.T) {
	r, err := InProcess(context.Background(), Job{Path: modelPath(t, "gridworld-3.pomdp"), M: 1, T: 6, Method: MethodClock, Seconds: 0.3, Mem: 2 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if r.Reason != ReasonTime || r.PeakHow != "go" || !strings.Contains(r.Over, ErrTimeLimit.Error()) {
		t.Errorf("got %+v, want stopped at the time limit", r)
	}
}

// TestSampledEstimate pins the sampled estimate's arithmetic on a case
// worked by hand: |O| = 2, T = 1, 3 probes, 1 worker. Pairs: depth 0 none,
// depth 1 one; atoms: 1·min(500, 2) + 2·1 = 4. So 1.5·(8·1·2 + 8·4·3) +
// 12 MiB = 168 + 12,582,912.
func TestSampledEstimate(t *testing.T) {
	if got, want := SampledEstimate(2, 1, 3, 1), int64(168+12<<20); got != want {
		t.Errorf("SampledEstimate(2, 1, 3, 1) = %d, want %d", got, want)
	}
	if f := SampledFamily(3, 2, 2); f.Len() != 3+Probes {
		t.Errorf("SampledFamily: %d probes, want |A| + %d", f.Len(), Probes)
	}
}
