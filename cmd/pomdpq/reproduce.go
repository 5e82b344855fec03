package main

import (
	"encoding/csv"
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
	c := newCommand("reproduce", stdout, stderr)
	fs := c.fs
	out := fs.String("out", "out/tables", "directory for the CSV files")
	workers := fs.Int("workers", 0, "parallel workers (0: all cores)")
	list := fs.Bool("list", false, "list the tables and exit")
	c.progressFlag("progress on stderr: auto (a bar on a terminal, a line per table otherwise), bar, lines or off")
	pos, err := c.parseArgs(args)
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
		return usageError{msg: "usage: pomdpq reproduce TABLE|all --out DIR (pomdpq reproduce --list shows the tables)"}
	}
	var specs []repro.Spec
	if pos[0] == "all" {
		specs = repro.Specs()
	} else {
		s, err := repro.Lookup(pos[0])
		if err != nil {
			return usageError{msg: err.Error()}
		}
		specs = []repro.Spec{s}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	rep := newReporter(stderr, string(c.progress))
	env := &repro.Env{Workers: *workers, Progress: func(stage string, done, total int) { rep.Progress(done, total) }}
	summary := [][]string{append(append([]string{"table"}, summaryColumns...), "seconds")}
	fmt.Fprintf(stdout, "%-28s %s  %s\n", "table", summaryHeader(), "file")
	var total repro.Counts
	var readings []string // each table's one reading and what it did
	for _, s := range specs {
		rep.Phase(s.Name)
		start := time.Now()
		t, err := s.Build(ctx, env)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		if _, err := t.Compare(); err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		path, err := writeTableCSV(*out, t)
		if err != nil {
			return err
		}
		secs := time.Since(start).Seconds()
		c := t.Counts()
		total = total.Add(c)
		summary = append(summary, append(append([]string{t.Name}, summaryCells(c)...), fmt.Sprintf("%.3f", secs)))
		if t.ReadingNote != "" {
			readings = append(readings, t.Name+": "+t.ReadingNote)
		}
		fmt.Fprintf(stdout, "%-28s %s  %s\n", t.Name, summaryLine(c), path)
	}
	rep.Phase("")
	fmt.Fprintf(stdout, "%-28s %s\n", "all", summaryLine(total))
	fmt.Fprintf(stdout, "%d tables in %s; %d of %d judged rows agree (%d exactly, %d statistically, %d by pattern), %d differ with a computed explanation, %d without; %d structural (fixed by the model's sizes), %d formula checks (arithmetic on the paper's constants), %d not judged, %d settings (not counted)\n",
		len(specs), wallTime(rep.Seconds()), total.Agreeing(), total.Judged(), total.Exact, total.Statistical, total.Pattern,
		total.Explained, total.Unexplained, total.Structural, total.Formula, total.NotJudged, total.Settings)
	if len(readings) > 0 {
		text := "The one reading each table declares (applied to every row; the only thing that explains a difference):\n\n" + strings.Join(readings, "\n\n") + "\n"
		if err := os.WriteFile(filepath.Join(*out, "readings.txt"), []byte(text), 0o644); err != nil {
			return err
		}
	}
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

// wallTime formats a wall time in seconds to a precision that shows it
// (to the microsecond below a second, to the millisecond above): a table
// that takes 11 ms is reported as 11ms, not as 0.0s.
func wallTime(secs float64) string {
	d := time.Duration(secs * float64(time.Second))
	if d < time.Second {
		return d.Round(time.Microsecond).String()
	}
	return d.Round(time.Millisecond).String()
}

// summaryColumns are the agreement.csv columns after "table": every row
// of a table is counted in exactly one of them (repro.Counts).
var summaryColumns = []string{"exact", "statistical", "pattern", "structural", "explained", "unexplained", "not_judged", "settings", "ours_only", "formula"}

func summaryCells(c repro.Counts) []string {
	return []string{itoa(c.Exact), itoa(c.Statistical), itoa(c.Pattern), itoa(c.Structural), itoa(c.Explained), itoa(c.Unexplained),
		itoa(c.NotJudged), itoa(c.Settings), itoa(c.OursOnly), itoa(c.Formula)}
}

func summaryHeader() string {
	return fmt.Sprintf("%5s %5s %7s %10s %9s %11s %10s %8s %7s", "exact", "stat", "pattern", "structural", "explained", "unexplained", "not-judged", "settings", "formula")
}

func summaryLine(c repro.Counts) string {
	return fmt.Sprintf("%5d %5d %7d %10d %9d %11d %10d %8d %7d", c.Exact, c.Statistical, c.Pattern, c.Structural, c.Explained, c.Unexplained, c.NotJudged, c.Settings, c.Formula)
}

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
