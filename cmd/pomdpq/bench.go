package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/plan"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// benchRow is one timed computation of `pomdpq bench`. Each row runs in its
// own process so that its peak resident memory can be measured.
type benchRow struct {
	name  string
	paper string // the paper's reported time, for context
	run   func(ctx context.Context) (string, error)
}

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
	addBench(benchRow{"tiger-T10-clk-quotient-planning", "≈1,200 s (tab:observation-planning, t_Q)", tigerClockRow})
	addBench(benchRow{"tiger-T10-delta-clk", "", tigerGapRow})
	addBench(benchRow{"tiger-m1-T10-distances", "287 s (tab:hierarchical-scaling, direct)", distRow("tiger", fsc.KindStationary, 1, 10, 0.5)})
	addBench(benchRow{"tiger-m2-T7-distances", "194 s (tab:principal-horizon)", distRow("tiger", fsc.KindStationary, 2, 7, 0.5)})
	addBench(benchRow{"gridworld3-m2-T2-distances", "", distRow("gridworld:3", fsc.KindStationary, 2, 2, 0.3)})
	addBench(benchRow{"gridworld5-m1-T3-distances", "", distRow("gridworld:5", fsc.KindStationary, 1, 3, 0.6)})
	addBench(benchRow{"rocksample-m2-T2-distances", "321 s (tab:m2-scaling, sampled)", distRow("rocksample:4:4", fsc.KindStationary, 2, 2, 0.5)})
	addBench(benchRow{"netmon9-m2-T2-distances", "6,802 s (tab:m2-scaling, sampled)", distRow("netmon:9", fsc.KindStationary, 2, 2, 0.3)})
}

func cmdBench(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "", "write the table as CSV to this file")
	only := fs.String("only", "", "comma-separated row names (default: all)")
	if _, err := parseFlags(fs, args); err != nil {
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
	table := [][]string{{"row", "seconds", "peak_rss_mib", "result", "paper"}}
	fmt.Fprintf(stdout, "%-30s %9s %9s  %s\n", "row", "seconds", "peak MiB", "result")
	for _, n := range names {
		row, ok := benchRows[n]
		if !ok {
			return usageError{fmt.Sprintf("bench: unknown row %q", n)}
		}
		cmd := exec.Command(self, "bench-row", n)
		cmd.Stderr = stderr
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
		// The child prints "seconds\tresult": its own timing excludes process start.
		parts := strings.SplitN(strings.TrimSpace(string(res)), "\t", 2)
		if len(parts) == 2 {
			fmt.Sscan(parts[0], &secs)
		}
		result := parts[len(parts)-1]
		table = append(table, []string{n, fmt.Sprintf("%.4f", secs), fmt.Sprintf("%.1f", rss), result, row.paper})
		fmt.Fprintf(stdout, "%-30s %9.4f %9.1f  %s\n", n, secs, rss, result)
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
		return usageError{"usage: pomdpq bench-row NAME"}
	}
	row, ok := benchRows[args[0]]
	if !ok {
		return usageError{fmt.Sprintf("bench: unknown row %q", args[0])}
	}
	ctx, cancel := signalContext()
	defer cancel()
	start := time.Now()
	res, err := row.run(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%.6f\t%s\n", time.Since(start).Seconds(), res)
	return nil
}
