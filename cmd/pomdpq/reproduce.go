package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/lib/repro"
)

func cmdReproduce(args []string, stdout, stderr io.Writer) error {
	if slices.Contains(args, repro.ClassicName) {
		return cmdClassicModels(args, stdout, stderr)
	}
	fs := flag.NewFlagSet("reproduce", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "out/tables", "directory for the CSV files")
	workers := fs.Int("workers", 0, "parallel workers (0: all cores)")
	list := fs.Bool("list", false, "list the tables and exit")
	progress := progressFlag("auto")
	fs.Var(&progress, "progress", "progress on stderr: auto (a bar on a terminal, a line per table otherwise), bar, lines or off")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *list {
		for _, s := range repro.Specs() {
			fmt.Fprintf(stdout, "%-28s %-34s %s\n", s.Name, s.Label, s.Title)
		}
		for _, s := range repro.Extras() {
			fmt.Fprintf(stdout, "%-28s %-34s %s\n", s.Name, s.Label, s.Title)
		}
		return nil
	}
	if len(pos) != 1 {
		return usageError{"usage: pomdpq reproduce TABLE|all --out DIR (pomdpq reproduce --list shows the tables)"}
	}
	var specs []repro.Spec
	if pos[0] == "all" {
		specs = repro.Specs()
	} else {
		s, err := repro.Lookup(pos[0])
		if err != nil {
			return usageError{err.Error()}
		}
		specs = []repro.Spec{s}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	rep := newReporter(stderr, string(progress))
	env := &repro.Env{Workers: *workers, Progress: func(stage string, done, total int) { rep.Progress(done, total) }}
	summary := [][]string{{"table", "agree", "total", "explained", "seconds"}}
	fmt.Fprintf(stdout, "%-28s %7s  %s\n", "table", "agree", "file")
	for _, s := range specs {
		rep.Phase(s.Name)
		start := time.Now()
		t, err := s.Build(ctx, env)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		agree, err := t.Compare()
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		path, err := writeTableCSV(*out, t)
		if err != nil {
			return err
		}
		secs := time.Since(start).Seconds()
		explained := 0
		for i, st := range t.Status {
			if st == repro.Differs && strings.HasPrefix(t.Note[i], "paper differs:") {
				explained++
			}
		}
		summary = append(summary, []string{t.Name, itoa(agree), itoa(t.Compared()), itoa(explained), fmt.Sprintf("%.3f", secs)})
		fmt.Fprintf(stdout, "%-28s %3d/%-3d  %s\n", t.Name, agree, t.Compared(), path)
	}
	rep.Phase("")
	fmt.Fprintf(stdout, "%d tables in %.1fs\n", len(specs), rep.Seconds())
	f, err := os.Create(filepath.Join(*out, "agreement.csv"))
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.WriteAll(summary)
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func itoa(i int) string { return fmt.Sprint(i) }

// writeTableCSV writes t as DIR/NAME.csv and returns the path.
func writeTableCSV(dir string, t *repro.Table) (string, error) {
	path := filepath.Join(dir, t.Name+".csv")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if err := t.WriteCSV(f); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}
