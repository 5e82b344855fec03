package runner_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/runner"
)

// A job of the classic-models table run in this process: Tiger (the
// classic file) with one-node probes at T = 3, within 60 s and 1 GiB.
// Its 1 + 2 + 4 + 8 histories fall into 1 + 2 + 3 + 1 exact classes: the
// belief after listening depends only on the counts of L and R heard (LR
// and RL meet), and depth T has one class.
func ExampleInProcess() {
	job := runner.Job{Path: "../../datasets/models/tiger95.pomdp", M: 1, T: 3, Method: runner.MethodExact, Seconds: 60, Mem: 1 << 30}
	r, err := runner.InProcess(context.Background(), job)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d histories, %d probes, classes %d / %d / %d at ε = 0 / 0.1 / 0.3, finished: %t\n",
		r.Histories, r.FamilySize, r.Classes0, r.Classes01, r.Classes03, r.Over == "")
	// Output: 15 histories, 3 probes, classes 7 / 7 / 7 at ε = 0 / 0.1 / 0.3, finished: true
}

// The same job with a memory budget below distance.Plan's estimate is
// refused before anything is allocated, and says why.
func ExampleInProcess_refused() {
	job := runner.Job{Path: "../../datasets/models/tiger95.pomdp", M: 1, T: 3, Method: runner.MethodExact, Seconds: 60, Mem: 1 << 20}
	r, err := runner.InProcess(context.Background(), job)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Reason)
	// Output: refused
}
