package runner_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/repro"
	"github.com/pomdpq/pomdpq/lib/runner"
)

// The documented slack of a child's limits (see the package comment):
// the watchdog kills at the budget + MemSlack, and a child can touch at
// most pollGrowth more in one PollInterval. The time limit (enforced
// TimeSlack after the budget) is checked by its outcome, not by the
// child's wall time, which a busy machine stretches.
const pollGrowth = 128 << 20

// TestClassicStepBudgets runs the classic-models step of `make reproduce`
// (every model file of datasets/models, m = 1 and m ≤ 2, 5 s and 2 GiB per
// job, each job a child process, as `pomdpq reproduce classic-models
// --seconds 5 --mem 2G` runs it) and checks every child's measured peak
// resident set (getrusage) against the budget plus the documented slack,
// and that every child either finished or stopped at a budget (by itself,
// or killed by the parent at the limit + slack), never failed. Wall times
// are logged, not asserted. It takes minutes.
func TestClassicStepBudgets(t *testing.T) {
	if testing.Short() {
		t.Skip("short: the classic-models step takes minutes")
	}
	const seconds, mem = 5.0, int64(2 << 30)
	bin := filepath.Join(t.TempDir(), "pomdpq")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/pomdpq").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var mu sync.Mutex
	type ran struct {
		job runner.Job
		r   *runner.Result
	}
	var runs []ran
	opt := repro.ClassicOptions{Dir: filepath.Join("..", "..", "datasets", "models"), Seconds: seconds, Mem: mem,
		Run: func(ctx context.Context, job runner.Job) (*runner.Result, error) {
			r, err := runner.InChild(ctx, []string{bin, "classic-row"}, nil, job)
			if err == nil {
				mu.Lock()
				runs = append(runs, ran{job, r})
				mu.Unlock()
			}
			return r, err
		},
		Log: t.Logf}
	tab, err := repro.ClassicModels(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	files, err := repro.ModelFiles(opt.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 2*len(files) {
		t.Errorf("%d rows, want 2 per model file (%d files)", len(tab.Rows), len(files))
	}
	maxPeak, maxWall := int64(0), 0.0
	reasons := map[string]int{}
	for _, x := range runs {
		r := x.r
		reasons[r.Reason]++
		maxPeak, maxWall = max(maxPeak, r.PeakBytes), max(maxWall, r.Wall)
		if r.PeakHow != "rss" || r.PeakBytes <= 0 {
			t.Errorf("%s m=%d T=%d %s: peak not measured (%q %d)", filepath.Base(x.job.Path), x.job.M, x.job.T, x.job.Method, r.PeakHow, r.PeakBytes)
		}
		if r.PeakBytes > mem+runner.MemSlack+pollGrowth {
			t.Errorf("%s m=%d T=%d %s: peak resident %s above the 2 GiB budget + %s slack (%s)", filepath.Base(x.job.Path), x.job.M, x.job.T, x.job.Method,
				distance.FormatBytes(r.PeakBytes), distance.FormatBytes(runner.MemSlack+pollGrowth), r.Over)
		}
		if r.Reason == runner.ReasonFailed || (r.Reason == "") != (r.Over == "") {
			t.Errorf("%s m=%d T=%d %s: reason %q, %q: want a finished run or a stop at a budget", filepath.Base(x.job.Path), x.job.M, x.job.T, x.job.Method,
				r.Reason, r.Over)
		}
	}
	t.Logf("%d jobs; largest peak %s, longest wall %.1f s; stops: %v", len(runs), distance.FormatBytes(maxPeak), maxWall, reasons)
}
