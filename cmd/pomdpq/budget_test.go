package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/runner"
)

// runChild runs this test binary as `pomdpq ARGS` in a child process whose
// resident set is bounded by rss (killed past it: a test of a memory
// budget must not take the machine's memory when the budget fails).
func runChild(t *testing.T, rss int64, args ...string) *runner.Process {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p, err := runner.Exec(context.Background(), runner.Limits{RSS: rss}, []string{"POMDPQ_TEST_AS_CLI=1"}, append([]string{self}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestQuotientEstimateCoversPhases: GridWorld 3×3, m = 1, T = 4 computes
// δ_clk, whose tables (127,172 beliefs) are far larger than the distances'
// (the old printed estimate, 7 MiB, for a peak of 105 MiB). The printed
// estimate is the largest of the phases' and at least the measured peak.
func TestQuotientEstimateCoversPhases(t *testing.T) {
	if testing.Short() {
		t.Skip("short: δ_clk of GridWorld 3×3 at T = 4 takes seconds")
	}
	p := runChild(t, 2<<30, "quotient", "--model", "gridworld:3", "--m", "1", "--T", "4", "--eps", "0", "--json", "--progress", "off")
	if p.Err != nil {
		t.Fatalf("%v: %s", p.Err, p.Stderr)
	}
	var out quotientJSON
	if err := json.Unmarshal(p.Stdout, &out); err != nil {
		t.Fatal(err)
	}
	var most int64
	var names []string
	for _, e := range out.EstimatePhases {
		most = max(most, e.Bytes)
		names = append(names, e.Phase)
	}
	if out.DeltaClk == nil || strings.Join(names, ",") != "distances,delta-clk" || out.EstimateBytes != most {
		t.Errorf("δ_clk %v, estimate %d, phases %v: want δ_clk computed and the estimate the largest of the distances' and δ_clk's", out.DeltaClk, out.EstimateBytes, out.EstimatePhases)
	}
	if out.EstimateBytes < p.MaxRSS {
		t.Errorf("estimated peak memory %d MiB below the measured peak %d MiB", out.EstimateBytes>>20, p.MaxRSS>>20)
	}
}

// TestQuotientRockSample11 is the run that printed "estimated peak memory
// 227.5 MiB" and peaked at 11.1 GB resident in δ_clk (048f40f), then was
// stopped at the budget (b8ef424: dense beliefs of 1.9 MiB each). With
// beliefs stored over their supports, δ_clk (= 1, as 048f40f printed)
// fits --mem 1G with the process under the budget; with --mem 320M (the
// model and the distances' result hold about 270 MiB) δ_clk is stopped at
// the budget with its phase, its largest term and what helps. Building
// the model alone peaks at about 345 MiB, which no budget lowers, so the
// process peak is checked against the larger budget only. (The child is
// killed past 1.5 times its budget, so a regression fails without taking
// the machine's memory.)
func TestQuotientRockSample11(t *testing.T) {
	if testing.Short() {
		t.Skip("short: builds RockSample 11×11")
	}
	for _, c := range []struct {
		mem    string
		budget int64
		want   []string
	}{
		{"1G", 1 << 30, []string{"9 exact classes", "cross-family gap δ_clk = 1:", "estimated peak memory"}},
		{"320M", 320 << 20, []string{"9 exact classes", "δ_clk not computed", "phase prefix trees", "largest term: interned beliefs", "lower T", "estimated peak memory"}},
	} {
		// Two workers: the distances' estimate has per-worker terms (at 8
		// cores it was 341.6 MiB, refused at 320M before δ_clk ran).
		p := runChild(t, c.budget+c.budget/2, "quotient", "--model", "rocksample:11:11", "--m", "1", "--T", "3", "--eps", "0,0.1,0.3", "--mem", c.mem,
			"--workers", "2", "--progress", "off", "--verbose")
		if p.Killed != "" || p.Err != nil {
			t.Fatalf("--mem %s: killed %q, exit %v (peak %d MiB): %s", c.mem, p.Killed, p.Err, p.MaxRSS>>20, p.Stderr)
		}
		out := string(p.Stdout)
		for _, want := range c.want {
			if !strings.Contains(out, want) {
				t.Errorf("--mem %s: output lacks %q:\n%s", c.mem, want, out)
			}
		}
		if c.budget >= 1<<30 && p.MaxRSS > c.budget {
			t.Errorf("--mem %s: peak resident %d MiB above the budget", c.mem, p.MaxRSS>>20)
		}
		t.Logf("--mem %s: peak %d MiB in %.1f s\n%s", c.mem, p.MaxRSS>>20, p.Wall.Seconds(), out)
	}
}

// TestDryRunClassesPhase: on the class path (above 2²⁰ histories) a dry
// run estimates the classes phase before any posterior DAG is built and
// again from the counted nodes; under a budget the later phases exceed,
// the dry run skips the bounds pass, so its peak resident memory is the
// classes phase's, and both estimates are within 2× of it (a ratio of
// memory, not a timing).
func TestDryRunClassesPhase(t *testing.T) {
	if testing.Short() {
		t.Skip("short: builds posterior DAGs over 2 million histories")
	}
	for _, model := range []string{"random:12:4:6:3", "random:20:3:8:1"} {
		T := map[string]string{"random:12:4:6:3": "8", "random:20:3:8:1": "7"}[model]
		p := runChild(t, 2<<30, "quotient", "--model", model, "--m", "1", "--T", T, "--eps", "0,0.1,0.3", "--dry-run", "--mem", "700M", "--json", "--progress", "off")
		if p.Err != nil {
			t.Fatalf("%s: %v: %s", model, p.Err, p.Stderr)
		}
		var out planJSON
		if err := json.Unmarshal(p.Stdout, &out); err != nil {
			t.Fatal(err)
		}
		if out.Fits || out.ClassesPhaseBytes == 0 || out.ClassesPhaseAheadBytes == 0 {
			t.Fatalf("%s: %+v: want a run that does not fit, with the classes phase estimated", model, out)
		}
		for _, est := range []int64{out.ClassesPhaseAheadBytes, out.ClassesPhaseBytes} {
			ratio := float64(est) / float64(p.MaxRSS)
			t.Logf("%s T = %s: classes phase estimate %d MiB, measured peak %d MiB (ratio %.2f)", model, T, est>>20, p.MaxRSS>>20, ratio)
			if ratio < 0.5 || ratio > 2 {
				t.Errorf("%s: classes phase estimate %d MiB, measured peak %d MiB: want within 2×", model, est>>20, p.MaxRSS>>20)
			}
		}
	}
}
