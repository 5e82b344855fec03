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
	wrapper := fmt.Sprintf("#!/bin/sh\nPOMDPQ_TEST_AS_CLI=1 exec '%s' \"$@\"\n", os.Args[0])
	if err := os.WriteFile(bin, []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "out dir")
	quotient := []string{"--model", "tiger", "--family", "clock", "--m", "2", "--T", "3", "--eps", "0,0.3,0.5"}
	submit := func(extra ...string) string {
		t.Helper()
		args := append([]string{script, "--shards", "3", "--dir", dir, "--pomdpq", bin, "--max-running", "2", "--wait"}, extra...)
		cmd := exec.Command("bash", append(append(args, "--"), quotient...)...)
		cmd.Env = append(os.Environ(), "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"), "FAKE_SBATCH_STATE="+state)
		out, err := cmd.CombinedOutput()
		jobs, _ := os.ReadFile(filepath.Join(state, "jobs"))
		if err != nil {
			t.Fatalf("quotient-array.sh: %v\n%s\njobs:\n%s", err, out, jobs)
		}
		return string(jobs)
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
}
