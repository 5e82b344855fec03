package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
		c := exec.Command("sleep", "30")
		c.Stdout = os.Stdout
		if err := c.Start(); err != nil {
			os.Exit(3)
		}
		time.Sleep(30 * time.Second)
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
// is killed with its grandchild (which holds the child's output open, so
// that reaping the child alone would wait 30 s).
func TestExecKillsGroupAtTimeLimit(t *testing.T) {
	p, err := Exec(context.Background(), Limits{Wall: 300 * time.Millisecond}, []string{"RUNNER_TEST_CHILD=sleep"}, self(t))
	if err != nil {
		t.Fatal(err)
	}
	if p.Killed != ReasonKilledTime || p.Err == nil {
		t.Errorf("killed %q, exit %v; want %q and an exit error", p.Killed, p.Err, ReasonKilledTime)
	}
	if p.Wall > 300*time.Millisecond+TimeSlack {
		t.Errorf("returned after %v, want within the 300 ms limit + TimeSlack", p.Wall)
	}
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
// gigabytes unbounded), which must stop at its own 0.5 s deadline, and
// with a 64 MiB budget at the memory budget, within the limits.
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
	if r.Reason != ReasonTime || !strings.Contains(r.Over, "time limit") || r.Wall > 0.5+TimeSlack.Seconds() {
		t.Errorf("δ_clk T = 6 at 0.5 s: reason %q, %q after %.2f s; want stopped at the time limit within %v", r.Reason, r.Over, r.Wall, 0.5+TimeSlack.Seconds())
	}
	r, err = InChild(ctx, argv, env, Job{Path: gw, M: 1, T: 6, Method: MethodClock, Seconds: 60, Mem: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if r.Reason != ReasonMemory || !strings.Contains(r.Over, "prefix trees") || r.PeakBytes > 64<<20+MemSlack {
		t.Errorf("δ_clk T = 6 at 64 MiB: reason %q, %q, peak %d MiB; want stopped at the memory budget, peak within the slack", r.Reason, r.Over, r.PeakBytes>>20)
	}
}

// TestInProcessDeadline: one deadline covers the whole job.
func TestInProcessDeadline(t *testing.T) {
	start := time.Now()
	r, err := InProcess(context.Background(), Job{Path: modelPath(t, "gridworld-3.pomdp"), M: 1, T: 6, Method: MethodClock, Seconds: 0.3, Mem: 2 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if r.Reason != ReasonTime || r.PeakHow != "go" {
		t.Errorf("got %+v, want stopped at the time limit", r)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("returned after %v for a 0.3 s limit", el)
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
