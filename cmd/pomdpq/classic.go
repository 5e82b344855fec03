package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/repro"
	"github.com/pomdpq/pomdpq/lib/runner"
)

// cmdClassicModels is `pomdpq reproduce classic-models`: every model file
// of a folder for m = 1 and m ≤ 2 at the largest T within the budgets. Each
// run is a child process (`pomdpq classic-row JOB`, run by runner.InChild)
// so that both budgets hold for the whole child (its process group is
// killed past its time limit or past its memory budget) and its peak
// resident memory is measured by getrusage, as `pomdpq bench` does.
func cmdClassicModels(args []string, stdout, stderr io.Writer) error {
	c := newCommand("reproduce classic-models", stdout, stderr)
	fs := c.fs
	out := fs.String("out", "out/tables", "directory for classic-models.csv")
	models := fs.String("models", "", "folder of .pomdp / .pomdpx / .json model files (default: datasets/models of the repository, found from the working directory)")
	seconds := fs.Float64("seconds", repro.DefaultClassicSeconds, "time budget of one run, seconds")
	mem := fs.String("mem", "4G", "memory budget of one run (e.g. 4G, 512M)")
	maxT := fs.Int("max-t", repro.DefaultClassicMaxT, "largest horizon tried")
	workers := fs.Int("workers", 0, "parallel workers per run (0: all cores)")
	inProcess := fs.Bool("in-process", false, "run every job in this process (peak memory then from runtime/metrics, not getrusage)")
	pos, err := c.parseArgs(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != repro.ClassicName {
		return usageError{msg: "usage: pomdpq reproduce classic-models [--models DIR] [--seconds 60] [--mem 4G] [--max-t 40] [--out DIR]"}
	}
	budget, err := distance.ParseBytes(*mem)
	if err != nil {
		return usageError{msg: err.Error()}
	}
	dir := *models
	if dir == "" {
		if dir, err = repro.FindModelsDir(""); err != nil {
			return err
		}
	}
	files, err := repro.ModelFiles(dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "classic-models: %d model files in %s; budgets %g s and %s per run\n", len(files), dir, *seconds, distance.FormatBytes(budget))
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	opt := repro.ClassicOptions{Dir: dir, Seconds: *seconds, Mem: budget, MaxT: *maxT, Workers: *workers,
		Log: func(format string, a ...any) {
			fmt.Fprintf(stderr, "%s  %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, a...))
		}}
	if !*inProcess {
		self, err := os.Executable()
		if err != nil {
			return err
		}
		opt.Run = func(ctx context.Context, job runner.Job) (*runner.Result, error) {
			return runner.InChild(ctx, []string{self, "classic-row"}, nil, job)
		}
	}
	start := time.Now()
	t, err := repro.ClassicModels(ctx, opt)
	if err != nil {
		return err
	}
	path, err := writeTableCSV(*out, t)
	if err != nil {
		return err
	}
	notes := filepath.Join(*out, t.Name+"-notes.txt")
	text := t.Title + "\n\n" + strings.Join(t.Notes, "\n\n") + "\n"
	if err := os.WriteFile(notes, []byte(text), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d rows in %.0f s: %s (notes: %s)\n", t.Name, len(t.Rows), time.Since(start).Seconds(), path, notes)
	return nil
}

// cmdClassicRow runs one job of the classic-models table in this process
// (the child of runner.InChild) and prints its result as JSON.
func cmdClassicRow(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return usageError{msg: "usage: pomdpq classic-row JOB-JSON"}
	}
	ctx, cancel := signalContext()
	defer cancel()
	return runner.Serve(ctx, args[0], stdout)
}
