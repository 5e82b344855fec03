package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/plan"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// benchRow is one timed computation of `pomdpq bench`. Each row runs in its
// own process so that its peak resident memory can be measured.
type benchRow struct {
	name  string
	paper string // the paper's reported time, for context
	run   func(ctx context.Context) (string, error)
	// estimate, when set, runs instead of run and also returns the
	// pre-flight estimate of the peak memory in bytes.
	estimate func(ctx context.Context) (string, int64, error)
}

// quotientRow runs `pomdpq quotient ARGS --json` in the row's process: the
// command a user runs, δ_clk included where it applies. model is a
// built-in name, or "file:NAME" for a file of the folder given to
// `pomdpq bench --files DIR` (third-party models the repository does not
// carry; the row is skipped without it).
func quotientRow(model string, args ...string) func(ctx context.Context) (string, int64, error) {
	return func(ctx context.Context) (string, int64, error) {
		if name, ok := strings.CutPrefix(model, "file:"); ok {
			dir := os.Getenv(benchFilesEnv)
			if dir == "" {
				return "skipped: needs `pomdpq bench --files DIR` with " + name, 0, nil
			}
			model = filepath.Join(dir, name)
		}
		var buf bytes.Buffer
		full := append([]string{"--model", model, "--json", "--progress=off"}, args...)
		if err := cmdQuotient(full, &buf, io.Discard); err != nil {
			return "", 0, err
		}
		var out struct {
			quotientJSON
			Method string `json:"method"` // "search" when the family was searched
		}
		if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
			return "", 0, err
		}
		var counts []string
		for _, c := range out.Classes {
			counts = append(counts, strconv.Itoa(c.Count))
		}
		text := fmt.Sprintf("classes %s at ε = %s; %d histories, %d exact classes", strings.Join(counts, "/"), argValue(args, "--eps"), out.Histories, out.ExactClasses)
		if out.DeltaClk != nil {
			text += fmt.Sprintf(", δ_clk = %.4g", *out.DeltaClk)
		}
		if out.Method != "" {
			text += ", method " + out.Method
		}
		return text, out.EstimateBytes, nil
	}
}

func argValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// benchFilesEnv passes `pomdpq bench --files DIR` to the row processes.
const benchFilesEnv = "POMDPQ_BENCH_FILES"

func distRow(model string, kind fsc.Kind, m, T int, eps float64) func(ctx context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		b, err := bench.Lookup(model)
		if err != nil {
			return "", err
		}
		fam, err := fsc.New(kind, b.Model.NumActions(), b.Model.NumObservations(), m, T, fsc.Options{})
		if err != nil {
			return "", err
		}
		r, err := distance.Compute(ctx, b.Model, fam, T, distance.Options{Ground: b.Ground})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d FSCs (%d distinct), %d classes at ε=%g", r.FamilySize, r.Distinct, r.Partition(eps).Total(), eps), nil
	}
}

var benchRows = map[string]benchRow{}

func addBench(r benchRow) { benchRows[r.name] = r }

// tigerClockRow is the Tiger T = 10 row of tab:observation-planning: the
// exact Q_clk, the best open-loop string on the original (59,049 strings)
// and on the quotient.
func tigerClockRow(ctx context.Context) (string, error) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		return "", err
	}
	const T = 10
	r, err := clock.Quotients(ctx, b.Model, T, nil)
	if err != nil {
		return "", err
	}
	q, err := quotient.New(b.Model, T, r.Clk)
	if err != nil {
		return "", err
	}
	obj := value.ObsScore(b.Model.NumObservations())
	fam, err := fsc.NewClock(b.Model.NumActions(), b.Model.NumObservations(), 1, T, fsc.Options{})
	if err != nil {
		return "", err
	}
	best, err := value.Best(ctx, b.Model, fam, T, obj, value.Options{})
	if err != nil {
		return "", err
	}
	res, err := plan.OpenLoop(ctx, q, obj, 0)
	if err != nil {
		return "", err
	}
	i, vq, _ := plan.Best(res.Quotient, value.DefaultTol)
	return fmt.Sprintf("|Q_clk| = %d, V_orig = %.3f, V_Q = %.3f, regret %.3f", r.Clk.Total(), best.Value, vq, best.Value-res.Original[i]), nil
}

func tigerGapRow(ctx context.Context) (string, error) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		return "", err
	}
	d, err := clock.NewDistances(ctx, b.Model, b.Ground, 10, nil)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("δ_clk = %.4f (paper's column %.4f)", d.Gap, d.PaperColumn()), nil
}

func init() {
	addBench(benchRow{name: "tiger-T10-clk-quotient-planning", paper: "≈1,200 s (tab:observation-planning, t_Q)", run: tigerClockRow})
	addBench(benchRow{name: "tiger-T10-delta-clk", paper: "", run: tigerGapRow})
	addBench(benchRow{name: "tiger-m1-T10-distances", paper: "287 s (tab:hierarchical-scaling, direct)", run: distRow("tiger", fsc.KindStationary, 1, 10, 0.5)})
	addBench(benchRow{name: "tiger-m2-T7-distances", paper: "194 s (tab:principal-horizon)", run: distRow("tiger", fsc.KindStationary, 2, 7, 0.5)})
	addBench(benchRow{name: "gridworld3-m2-T2-distances", paper: "", run: distRow("gridworld:3", fsc.KindStationary, 2, 2, 0.3)})
	addBench(benchRow{name: "gridworld5-m1-T3-distances", paper: "", run: distRow("gridworld:5", fsc.KindStationary, 1, 3, 0.6)})
	addBench(benchRow{name: "rocksample-m2-T2-distances", paper: "321 s (tab:m2-scaling, sampled)", run: distRow("rocksample:4:4", fsc.KindStationary, 2, 2, 0.5)})
	addBench(benchRow{name: "netmon9-m2-T2-distances", paper: "6,802 s (tab:m2-scaling, sampled)", run: distRow("netmon:9", fsc.KindStationary, 2, 2, 0.3)})
	// Real models at real horizons: `pomdpq quotient` as users run it.
	for _, q := range []struct{ name, model, m, T, eps string }{
		{"quotient-tiger-m2-T12", "tiger", "2", "12", "0,0.3,0.5"},
		{"quotient-tiger-m2-T14", "tiger", "2", "14", "0,0.3,0.5"},
		{"quotient-tiger-m2-T16", "tiger", "2", "16", "0,0.3,0.5"},
		{"quotient-rocksample78-m1-T3", "rocksample:7:8", "1", "3", "0,0.1,0.3"},
		{"quotient-rocksample11-m1-T3", "rocksample:11:11", "1", "3", "0,0.1,0.3"},
		{"quotient-rocksample11-m1-T4", "rocksample:11:11", "1", "4", "0,0.1,0.3"},
		{"quotient-tag-m1-T3", "tag", "1", "3", "0,0.1,0.3"},
		{"quotient-hallway-m1-T3", "file:hallway.POMDP", "1", "3", "0,0.1,0.3"},
		{"quotient-hallway-m1-T4", "file:hallway.POMDP", "1", "4", "0,0.1,0.3"},
		{"quotient-hallway-m1-T5", "file:hallway.POMDP", "1", "5", "0,0.1,0.3"},
		{"quotient-tiger-grid-m1-T3", "file:tiger-grid.POMDP", "1", "3", "0,0.1,0.3"},
		{"quotient-tiger-grid-m1-T4", "file:tiger-grid.POMDP", "1", "4", "0,0.1,0.3"},
		{"quotient-rocksample11-pomdpx-m1-T2", "file:" + rockSample11File, "1", "2", "0,0.1,0.3"},
	} {
		args := []string{"--m", q.m, "--T", q.T, "--eps", q.eps}
		if q.model == "rocksample:11:11" {
			// δ_clk at T = 4 visits 5.4·10⁶ (history, prefix) pairs,
			// above the command's default gate.
			args = append(args, "--delta-clk-work", "1e7")
		}
		addBench(benchRow{name: q.name, estimate: quotientRow(q.model, args...)})
	}
	addBench(benchRow{name: "load-rocksample11-pomdpx", paper: "", run: loadRow(rockSample11File)})
}

// rockSample11File is RockSample(11,11) as POMDPX, the largest model file
// of the bench rows (247,809 states, 248 MB):
// `pomdpq export rocksample:11:11 --out DIR/rocksample_11_11.pomdpx`.
const rockSample11File = "rocksample_11_11.pomdpx"

// loadRow reads a model file of the folder of `pomdpq bench --files DIR`
// (skipped without it).
func loadRow(name string) func(ctx context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		dir := os.Getenv(benchFilesEnv)
		if dir == "" {
			return "skipped: needs `pomdpq bench --files DIR` with " + name, nil
		}
		m, err := modelfile.Load(filepath.Join(dir, name))
		if err != nil {
			return "", err
		}
		nnz := 0
		for a := range m.T {
			nnz += m.T[a].NNZ() + m.Z[a].NNZ()
		}
		return fmt.Sprintf("loaded %s: |S| = %d, |A| = %d, |O| = %d, %d non-zeros in T and Z", name, m.NumStates(), m.NumActions(), m.NumObservations(), nnz), nil
	}
}

func cmdBench(args []string, stdout, stderr io.Writer) error {
	c := newCommand("bench", stdout, stderr)
	fs := c.fs
	out := fs.String("out", "", "write the table as CSV to this file")
	only := fs.String("only", "", "comma-separated row names (default: all)")
	c.progressFlag(progressUsage)
	files := fs.String("files", "", "folder of model files for the file: rows (third-party hallway.POMDP, tiger-grid.POMDP; "+rockSample11File+" from pomdpq export rocksample:11:11)")
	if _, err := c.parseArgs(args); err != nil {
		return err
	}
	var names []string
	for n := range benchRows {
		names = append(names, n)
	}
	sort.Strings(names)
	if *only != "" {
		names = strings.Split(*only, ",")
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	table := [][]string{{"row", "seconds", "peak_rss_mib", "estimate_mib", "result", "paper"}}
	fmt.Fprintf(stdout, "%-30s %9s %9s %9s  %s\n", "row", "seconds", "peak MiB", "est. MiB", "result")
	rep := newReporter(stderr, string(c.progress))
	defer rep.Phase("")
	for _, n := range names {
		rep.Phase(n)
		row, ok := benchRows[n]
		if !ok {
			return usageError{msg: fmt.Sprintf("bench: unknown row %q", n)}
		}
		cmd := exec.Command(self, "bench-row", n)
		cmd.Stderr = stderr
		if *files != "" {
			abs, err := filepath.Abs(*files)
			if err != nil {
				return err
			}
			cmd.Env = append(os.Environ(), benchFilesEnv+"="+abs)
		}
		start := time.Now()
		res, err := cmd.Output()
		secs := time.Since(start).Seconds()
		if err != nil {
			return fmt.Errorf("bench row %s: %w", n, err)
		}
		rss := 0.0
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = float64(ru.Maxrss) / 1024 // Linux reports KiB
		}
		// The child prints "seconds\testimate\tresult": its own timing
		// excludes process start; estimate is 0 where the row has none.
		parts := strings.SplitN(strings.TrimSpace(string(res)), "\t", 3)
		est := 0.0
		if len(parts) == 3 {
			fmt.Sscan(parts[0], &secs)
			fmt.Sscan(parts[1], &est)
			est /= 1 << 20
		}
		result := parts[len(parts)-1]
		estCol := ""
		if est > 0 {
			estCol = fmt.Sprintf("%.1f", est)
		}
		table = append(table, []string{n, fmt.Sprintf("%.4f", secs), fmt.Sprintf("%.1f", rss), estCol, result, row.paper})
		fmt.Fprintf(stdout, "%-30s %9.4f %9.1f %9s  %s\n", n, secs, rss, estCol, result)
	}
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		w := csv.NewWriter(f)
		w.WriteAll(table)
		if err := w.Error(); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	return nil
}

// cmdBenchRow runs one row in this process (used by cmdBench).
func cmdBenchRow(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return usageError{msg: "usage: pomdpq bench-row NAME"}
	}
	row, ok := benchRows[args[0]]
	if !ok {
		return usageError{msg: fmt.Sprintf("bench: unknown row %q", args[0])}
	}
	ctx, cancel := signalContext()
	defer cancel()
	start := time.Now()
	var res string
	var est int64
	var err error
	if row.estimate != nil {
		res, est, err = row.estimate(ctx)
	} else {
		res, err = row.run(ctx)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%.6f\t%d\t%s\n", time.Since(start).Seconds(), est, res)
	return nil
}
