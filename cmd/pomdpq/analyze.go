package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/report"
)

const analyzeUsage = "usage: pomdpq analyze MODEL [--policy FILE.pg] [--out report.html] [--m 1,2] [--T T] [--seconds S] [--curve-max E] [--eps E] [--ground discrete|FILE] [--mem SIZE]"

// cmdAnalyze writes the one-page HTML report of a model (package report)
// and, beside it, the quotient as .pomdp and JSON.
func cmdAnalyze(args []string, stdout, stderr io.Writer) error {
	c := newCommand("analyze", stdout, stderr)
	fs := c.fs
	out := fs.String("out", "", "the HTML file to write (default: MODEL-report.html in the current directory)")
	policyPath := fs.String("policy", "", "a pomdp-solve policy graph (.pg) to evaluate on the model and on the quotient")
	msList := fs.String("m", "1,2", "memory bounds of the stationary probe families, comma-separated")
	T := fs.Int("T", 0, "horizon (0: the largest T ≤ 6 whose estimate fits --seconds and --mem)")
	secs := fs.Float64("seconds", report.DefaultSeconds, "time budget of a chosen horizon, in estimated seconds of one core (0: none)")
	curveMax := fs.Float64("curve-max", 0, "end of the class-count curves' ε grid, up to which the partitions are decided (0: half the ground metric's largest entry)")
	eps := fs.Float64("eps", 0, "tolerance of the quotient drawn, checked and exported")
	ground := groundFlag(fs)
	c.progressFlag(progressUsage)
	c.memFlag()
	pos, err := c.parseArgs(args)
	if isHelp(err) {
		return printHelp(stdout, analyzeUsage, fs)
	}
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{msg: analyzeUsage}
	}
	ms, err := parseMs(*msList)
	if err != nil {
		return err
	}
	if *T < 0 {
		return usageError{msg: fmt.Sprintf("analyze: --T %d: want a positive horizon (or 0 to choose)", *T)}
	}
	if *secs < 0 {
		return usageError{msg: fmt.Sprintf("analyze: --seconds %g: want a non-negative number (0: no time budget)", *secs)}
	}
	if *eps < 0 {
		return usageError{msg: fmt.Sprintf("analyze: --eps %g: want a non-negative number", *eps)}
	}
	md, gd, err := loadModelGround(pos[0], *ground)
	if err != nil {
		return err
	}
	path := *out
	if path == "" {
		name := strings.TrimSuffix(filepath.Base(pos[0]), filepath.Ext(pos[0]))
		name = strings.NewReplacer(":", "-", string(filepath.Separator), "-").Replace(name)
		path = name + "-report.html"
	}
	timeBudget := *secs
	if timeBudget == 0 {
		timeBudget = -1 // no time budget
	}
	opt := report.Options{T: *T, Seconds: timeBudget, CurveTop: *curveMax, Ms: ms, Eps: *eps, MemBudget: int64(c.mem), Ground: gd.Ground, GroundName: gd.Name, GroundSource: gd.Source}
	var pol *solverPolicy
	if *policyPath != "" {
		if pol, err = loadPolicy(*policyPath, md); err != nil {
			return err
		}
		opt.Policy, opt.PolicyStart, opt.PolicyName = pol.graph, pol.start, filepath.Base(*policyPath)
	}
	rep := newReporter(stderr, string(c.progress))
	opt.Phase, opt.Progress = rep.Phase, rep.Progress
	budget := c.budget()
	defer softLimit(budget)()
	ctx, cancel := signalContext()
	defer cancel()
	r, err := report.Build(ctx, md, pos[0], opt)
	if err != nil {
		return err
	}
	if pol != nil && r.Policy != nil {
		r.Policy.Infinite, r.Policy.InfiniteNote = pol.infinite, pol.note
	}
	files, err := r.Write(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%s, T = %d, %.2fs)\n", path, md.Name, r.T, r.Seconds)
	if *T <= 0 {
		fmt.Fprintln(stdout, r.TReason)
	}
	fmt.Fprintln(stdout, groundLine(gd, ""))
	for _, f := range files {
		if f.Err == "" {
			fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(filepath.Dir(path), f.Name))
		} else {
			fmt.Fprintf(stdout, "not written: %s: %s\n", f.What, f.Err)
		}
	}
	for _, f := range r.Families {
		if f.Refused != "" {
			fmt.Fprintf(stdout, "m ≤ %d not computed: %s\n", f.M, f.Refused)
		}
	}
	return nil
}

// parseMs reads --m: positive memory bounds, comma-separated.
func parseMs(s string) ([]int, error) {
	var ms []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		k, err := strconv.Atoi(f)
		if err != nil || k < 1 {
			return nil, usageError{msg: fmt.Sprintf("analyze: --m: %q is not a positive memory bound", f)}
		}
		ms = append(ms, k)
	}
	if len(ms) == 0 {
		return nil, usageError{msg: "analyze: --m: give at least one memory bound, e.g. --m 1,2"}
	}
	return ms, nil
}
