package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSlurmScript runs deploy/slurm/quotient-array.sh against a stand-in
// sbatch (testdata/slurm/sbatch) that runs every job at once under sh, as
// Slurm runs --wrap, and prints job ids as "ID;CLUSTER" (sbatch --parsable
// on a multi-cluster site). It checks the dependency chain (each job after
// the previous one), that the merged result is the single run's, and that
// --resume recomputes only a lost part. The output directory has a space
// in its name (the jobs' commands must quote it). make test-cluster runs
// the same script on a real single-node Slurm.
func TestSlurmScript(t *testing.T) {
	for _, tool := range []string{"bash", "sh"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	script, err := filepath.Abs("../../deploy/slurm/quotient-array.sh")
	if err != nil {
		t.Fatal(err)
	}
	fake, err := filepath.Abs("testdata/slurm")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	state := filepath.Join(tmp, "state")
	if err := os.Mkdir(state, 0o755); err != nil {
		t.Fatal(err)
	}
	// pomdpq is this test binary running main().
	bin := filepath.Join(tmp, "pomdpq")
	// With FAIL_FINAL_MERGE=1 the final merge prints a line and fails.
	wrapper := fmt.Sprintf("#!/bin/sh\n"+
		"if [ \"${FAIL_FINAL_MERGE:-}\" = 1 ] && [ \"$1 $2\" = \"merge dist-0.pq\" ]; then echo partial; exit 3; fi\n"+
		"POMDPQ_TEST_AS_CLI=1 exec '%s' \"$@\"\n", os.Args[0])
	if err := os.WriteFile(bin, []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "out dir")
	// -eps: Go flags take one dash too; the script must still find the list.
	quotient := []string{"--model", "tiger", "--family", "clock", "--m", "2", "--T", "3", "-eps", "0,0.3,0.5"}
	// run submits with the environment env (the job's: sbatch exports it).
	run := func(dir string, env []string, extra ...string) (string, error) {
		args := append([]string{script, "--shards", "3", "--dir", dir, "--pomdpq", bin, "--max-running", "2", "--wait"}, extra...)
		cmd := exec.Command("bash", append(append(args, "--"), quotient...)...)
		for _, e := range os.Environ() {
			if !strings.HasPrefix(e, "SLURM_") { // when the tests themselves run under Slurm
				cmd.Env = append(cmd.Env, e)
			}
		}
		cmd.Env = append(append(cmd.Env, "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"), "FAKE_SBATCH_STATE="+state), env...)
		out, err := cmd.CombinedOutput()
		jobs, _ := os.ReadFile(filepath.Join(state, "jobs"))
		if err != nil {
			return string(jobs), fmt.Errorf("quotient-array.sh: %v\n%s\njobs:\n%s", err, out, jobs)
		}
		return string(jobs), nil
	}
	submit := func(extra ...string) string {
		t.Helper()
		jobs, err := run(dir, nil, extra...)
		if err != nil {
			t.Fatal(err)
		}
		return jobs
	}
	jobs := submit()
	want := "100 dependency= array=0-2%2\n101 dependency=afterok:100 array=\n102 dependency=afterok:101 array=0-2%2\n103 dependency=afterok:102 array=\n"
	if jobs != want {
		t.Fatalf("jobs submitted:\n%s\nwant:\n%s", jobs, want)
	}
	single, err := runCLI(t, append([]string{"quotient", "--progress=off", "--json"}, quotient...)...)
	if err != nil {
		t.Fatal(err)
	}
	compare := func() {
		t.Helper()
		var a, b quotientJSON
		if err := json.Unmarshal([]byte(single), &a); err != nil {
			t.Fatal(err)
		}
		merged, err := os.ReadFile(filepath.Join(dir, "result.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(merged, &b); err != nil {
			t.Fatal(err)
		}
		if a.FamilySize != b.FamilySize || a.ExactClasses != b.ExactClasses || !slices.Equal(a.Classes, b.Classes) ||
			a.MaxDistanceExact != b.MaxDistanceExact || (a.MaxDistanceExact && a.MaxDistance != b.MaxDistance) {
			t.Fatalf("merged through the script:\n%s\nsingle run:\n%s", merged, single)
		}
	}
	compare()
	// A lost part: --resume recomputes it alone.
	for _, f := range []string{"dist-1.pq", "result.json", "result.txt"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	submit("--resume")
	compare()
	logs, _ := filepath.Glob(filepath.Join(dir, "logs", "*-*.out"))
	var ran []string
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		if !strings.Contains(string(b), "skipped") {
			ran = append(ran, filepath.Base(l))
		}
	}
	if !slices.Equal(ran, []string{"dist-1.out"}) {
		t.Errorf("the resumed run computed %v, want [dist-1.out]", ran)
	}
	// The job's memory allocation is the shards' budget: 1 MiB is refused
	// with the estimate (not killed by the scheduler). Later ids: state
	// carries on.
	for k, env := range [][]string{{"SLURM_MEM_PER_NODE=1"}, {"SLURM_MEM_PER_CPU=1", "SLURM_CPUS_ON_NODE=1"}} {
		small := filepath.Join(tmp, fmt.Sprintf("small-%d", k))
		if _, err := run(small, env); err == nil {
			t.Errorf("%v: the run succeeded with a 1 MiB allocation", env)
			continue
		}
		log, _ := os.ReadFile(filepath.Join(small, "logs", "classes-0.out"))
		if !strings.Contains(string(log), "exceeds the budget 1.0 MiB") {
			t.Errorf("%v: shard 0's log does not refuse the budget:\n%s", env, log)
		}
	}
	// A failed final merge leaves no result file (and no partial one).
	failed := filepath.Join(tmp, "failed")
	if _, err := run(failed, []string{"FAIL_FINAL_MERGE=1"}); err == nil {
		t.Fatal("the run succeeded although its final merge failed")
	}
	for _, f := range []string{"result.txt", "result.json", ".result.txt.tmp", ".result.json.tmp"} {
		if _, err := os.Stat(filepath.Join(failed, f)); err == nil {
			t.Errorf("a failed final merge left %s", f)
		}
	}
}
