package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/lib/witness"
)

const searchWitnessUsage = `usage: pomdpq search-witness [--criteria LIST] [--max-states 5] [--max-obs 3] [--max-actions 2] [--max-t 4]
       [--grids 1,1:2,2,4] [--class-models N] [--models N] [--budget DURATION] [--seed N] [--workers N]
       [--no-symmetry] [--json] [--out DIR] [--quiet]`

// cmdSearchWitness is `pomdpq search-witness`: the smallest models that
// separate Q_op from Q_clk, m = 1 from m ≤ 2, and W1 from TV (package
// witness), each certified by brute force.
func cmdSearchWitness(args []string, stdout, stderr io.Writer) error {
	c := newCommand("search-witness", stdout, stderr)
	fs := c.fs
	crit := fs.String("criteria", "all", "comma-separated criteria: clk, clk-free, m2, m2-free, tv, tv-free (or all)")
	maxS := fs.Int("max-states", witness.DefaultMaxStates, "largest |S|")
	maxO := fs.Int("max-obs", witness.DefaultMaxObs, "largest |O|")
	maxA := fs.Int("max-actions", witness.DefaultMaxActions, "largest |A|")
	maxT := fs.Int("max-t", witness.DefaultMaxT, "largest horizon T")
	grids := fs.String("grids", "1,1:2,2,4", "probability grids: g (entries multiples of 1/g) or dyn:init (T and Z rows on 1/dyn, b0 on 1/init)")
	classModels := fs.Int64("class-models", witness.DefaultClassModels, "exhaust a class of at most this many models, else sample this many")
	models := fs.Int64("models", witness.DefaultMaxModels, "budget: (model, horizon) pairs visited in all")
	budget := fs.Duration("budget", 0, "time budget, e.g. 60s (0: none); the report then says what was covered")
	seed := fs.Uint64("seed", 0, "seed of the samples of large classes (PCG)")
	workers := fs.Int("workers", 0, "goroutines (0: all cores)")
	noSym := fs.Bool("no-symmetry", false, "test every model, not one per orbit under relabelling states and actions")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	out := fs.String("out", "", "write every witness model into this directory as NAME.pomdp")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	pos, err := c.parseArgs(args)
	if isHelp(err) {
		return printHelp(stdout, searchWitnessUsage, fs)
	}
	if err != nil {
		return usageError{msg: err.Error() + "\n" + searchWitnessUsage}
	}
	if len(pos) > 0 {
		return usageError{msg: "search-witness takes no positional argument\n" + searchWitnessUsage}
	}
	cs, err := witness.ParseCriteria(*crit)
	if err != nil {
		return usageError{msg: err.Error()}
	}
	var gs []witness.Grid
	for _, f := range strings.Split(*grids, ",") {
		g, err := witness.ParseGrid(f)
		if err != nil {
			return usageError{msg: err.Error()}
		}
		gs = append(gs, g)
	}
	for _, v := range []struct {
		name   string
		val, l int
	}{{"--max-states", *maxS, 5}, {"--max-obs", *maxO, 3}, {"--max-actions", *maxA, 2}, {"--max-t", *maxT, 5}} {
		if v.val < 1 || v.val > v.l {
			return usageError{msg: fmt.Sprintf("%s %d: want 1 … %d (the oracle enumerates state sequences and probes: larger spaces are out of its reach)", v.name, v.val, v.l)}
		}
	}
	if *classModels < 1 || *models < 1 {
		return usageError{msg: "--class-models and --models must be positive"}
	}
	ctx, cancel := signalContext()
	defer cancel()
	if *budget > 0 {
		var c2 context.CancelFunc
		ctx, c2 = context.WithTimeout(ctx, *budget)
		defer c2()
	}
	opt := witness.Options{MaxStates: *maxS, MaxObs: *maxO, MaxActions: *maxA, MaxT: *maxT, Grids: gs, Criteria: cs,
		MaxModels: *models, ClassModels: *classModels, Seed: *seed, Workers: *workers, NoSymmetry: *noSym}
	if !*quiet {
		var last string
		start := time.Now()
		opt.Progress = func(p witness.Progress) {
			key := fmt.Sprintf("grid %s, %s, T = %d", p.Grid, p.Class, p.T)
			if key != last {
				last = key
				fmt.Fprintf(stderr, "search-witness %6.1fs  %s: %d models; %d tested before, %d witnesses\n",
					time.Since(start).Seconds(), key, p.Total, p.Tested, p.Found)
			}
		}
	}
	rep, err := witness.Search(ctx, opt)
	if err != nil {
		return err
	}
	if *out != "" {
		paths, err := rep.WriteModels(*out)
		if err != nil {
			return err
		}
		if !*quiet {
			fmt.Fprintf(stderr, "search-witness: wrote %d models into %s\n", len(paths), *out)
		}
	}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	_, err = io.WriteString(stdout, rep.Text())
	return err
}
