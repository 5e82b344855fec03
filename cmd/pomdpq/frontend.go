package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// command is the front end every subcommand shares: one flag set, the
// common flags registered by name (--json, --verbose, --progress, --mem,
// --workers), the progress reporter on stderr and the choice between
// JSON and text on stdout. A subcommand makes one with newCommand,
// registers the common flags it takes and its own on c.fs, calls parse,
// and ends with emit:
//
//	c := newCommand("explain", stdout, stderr)
//	q := c.quotientFlags("probe family Π: stationary or clock", " of Π")
//	c.jsonFlag()
//	c.verboseFlag()
//	c.progressFlag(progressUsage)
//	c.memFlag()
//	c.workersFlag()
//	if err := c.parse(args); err != nil {
//		return err
//	}
//	c.rep.Phase("load")
//	in, err := q.resolve() // the model, its ground metric, Π, ε, stand-in
//	…
//	return c.emit(out, func(w io.Writer) {
//		writeSummary(w, sentences...) // the answer, ≤ 100 columns
//		if c.isVerbose() {
//			…                          // the full report
//		}
//	})
//
// c.budget() is the memory budget (--mem or the default), c.nworkers()
// --workers, c.rep the reporter to pass as Phase and Progress callbacks.
type command struct {
	name           string
	fs             *flag.FlagSet
	stdout, stderr io.Writer
	// The common flags; nil (or zero) when the command does not take it.
	asJSON   *bool
	verbose  *bool
	workers  *int
	progress progressFlag
	mem      memFlag
	// rep shows progress on stderr and times the phases; parse makes it
	// (off when the command has no --progress).
	rep *reporter
}

// progressUsage is the help text of --progress for most commands.
const progressUsage = "progress on stderr: auto, bar, lines or off"

// memUsage is the help text of --mem.
const memUsage = "memory budget, e.g. 8G (default: half of the physical memory or of the cgroup limit; unlimited: none)"

// newCommand returns the front end of subcommand name.
func newCommand(name string, stdout, stderr io.Writer) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &command{name: name, fs: fs, stdout: stdout, stderr: stderr, progress: "off"}
}

// jsonFlag registers --json.
func (c *command) jsonFlag() { c.asJSON = c.fs.Bool("json", false, "print JSON") }

// verboseFlag registers --verbose: the text output's detail after its
// summary.
func (c *command) verboseFlag() {
	c.verbose = c.fs.Bool("verbose", false, "text output: every detail after the summary (per-ε lines, settings, timings)")
}

// workersFlag registers --workers.
func (c *command) workersFlag() {
	c.workers = c.fs.Int("workers", 0, "worker goroutines (0: all cores)")
}

// progressFlag registers --progress (default auto) with help text usage.
func (c *command) progressFlag(usage string) {
	c.progress = "auto"
	c.fs.Var(&c.progress, "progress", usage)
}

// memFlag registers --mem.
func (c *command) memFlag() { c.fs.Var(&c.mem, "mem", memUsage) }

// parse parses args, which must all be flags, and starts the reporter.
func (c *command) parse(args []string) error {
	pos, err := c.parseArgs(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		msg := fmt.Sprintf("%s: unexpected argument %q (flags take the form --name value)", c.name, pos[0])
		switch pos[0] {
		case "auto", "bar", "lines", "off":
			if c.fs.Lookup("progress") != nil {
				msg = fmt.Sprintf("%s: unexpected argument %q (write --progress=%s)", c.name, pos[0], pos[0])
			}
		}
		return usageError{msg: msg}
	}
	return nil
}

// parseArgs parses args, flags before or after the positional arguments
// it returns, and starts the reporter.
func (c *command) parseArgs(args []string) ([]string, error) {
	pos, err := parseFlags(c.fs, args)
	if err != nil {
		return nil, err
	}
	c.rep = newReporter(c.stderr, string(c.progress))
	return pos, nil
}

// json reports whether --json was given.
func (c *command) json() bool { return c.asJSON != nil && *c.asJSON }

// isVerbose reports whether --verbose was given.
func (c *command) isVerbose() bool { return c.verbose != nil && *c.verbose }

// nworkers is --workers (0 when the command has none: all cores).
func (c *command) nworkers() int {
	if c.workers == nil {
		return 0
	}
	return *c.workers
}

// budget is the memory budget: --mem, or distance.DefaultMemBudget when
// it was not given; negative for --mem unlimited.
func (c *command) budget() int64 {
	if c.mem == 0 {
		return distance.DefaultMemBudget()
	}
	return int64(c.mem)
}

// given reports whether flag name was given on the command line.
func (c *command) given(name string) bool { return flagSet(c.fs, name) }

// emit writes v as JSON under --json, else calls text on stdout.
func (c *command) emit(v any, text func(w io.Writer)) error {
	if c.json() {
		return writeJSON(c.stdout, v)
	}
	text(c.stdout)
	return nil
}

// quotientFlags are the flags naming a model, a probe family Π, a horizon
// and the ε values of its quotients: quotient, plan and explain share
// them.
type quotientFlags struct {
	model, family, eps, standIn, ground *string
	m, T                                *int
	limit                               *int64
}

// quotientFlags registers --model, --family, --m, --T, --eps, --stand-in,
// --ground and --limit; of is appended to the help of --m (" of Π"), and
// familyUsage is the help of --family.
func (c *command) quotientFlags(familyUsage, of string) *quotientFlags {
	fs := c.fs
	return &quotientFlags{
		model:   fs.String("model", "", "built-in model name or model file"),
		family:  fs.String("family", "stationary", familyUsage),
		m:       fs.Int("m", 1, "memory bound (nodes)"+of),
		T:       fs.Int("T", 2, "horizon"),
		eps:     fs.String("eps", "0", "comma-separated ε values"),
		standIn: fs.String("stand-in", "uniform", "impossible-history stand-in: uniform or point-mass"),
		ground:  groundFlag(fs),
		limit:   fs.Int64("limit", 0, "largest family size to enumerate (0: the default limit)"),
	}
}

// quotientInput is what quotientFlags name, resolved: the model and its
// ground metric loaded, the family kind, the ε values and the stand-in
// convention parsed.
type quotientInput struct {
	model  *pomdp.Model
	ground ot.Described
	kind   fsc.Kind
	M, T   int
	eps    []float64
	conv   law.Convention
	limit  int64
}

// resolve loads the model and the ground metric and parses the rest;
// mistakes are usage errors naming the flag.
func (q *quotientFlags) resolve() (quotientInput, error) {
	md, gd, err := loadModelGround(*q.model, *q.ground)
	if err != nil {
		return quotientInput{}, err
	}
	kind, err := fsc.ParseKind(*q.family)
	if err != nil {
		return quotientInput{}, usageError{msg: err.Error()}
	}
	eps, err := parseEps(*q.eps)
	if err != nil {
		return quotientInput{}, err
	}
	cv, err := law.ParseConvention(*q.standIn)
	if err != nil {
		return quotientInput{}, usageError{msg: err.Error()}
	}
	return quotientInput{model: md, ground: gd, kind: kind, M: *q.m, T: *q.T, eps: eps, conv: cv, limit: *q.limit}, nil
}

func parseEps(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v < 0 {
			return nil, usageError{msg: fmt.Sprintf("--eps: %q is not a non-negative number", f)}
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, usageError{msg: "--eps: give at least one value, e.g. --eps 0,0.1,0.5"}
	}
	return out, nil
}

func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// progressFlag is --progress: a boolean flag (--progress forces the bar)
// that also takes auto, bar, lines or off.
type progressFlag string

func (p *progressFlag) String() string { return string(*p) }
func (p *progressFlag) Set(v string) error {
	if b, err := strconv.ParseBool(v); err == nil {
		v = "off"
		if b {
			v = "bar"
		}
	}
	switch v {
	case "auto", "bar", "lines", "off":
		*p = progressFlag(v)
		return nil
	}
	return fmt.Errorf("want auto, bar, lines or off")
}
func (p *progressFlag) IsBoolFlag() bool { return true }

// softLimit sets the Go runtime's soft memory limit to a command's memory
// budget (when it has one) and returns what restores the previous limit:
// near the budget the collector runs more often instead of letting
// garbage double the heap, so the estimates checked against the budget
// (which allow for that doubling) hold with room.
func softLimit(budget int64) (restore func()) {
	if budget <= 0 {
		return func() {}
	}
	old := debug.SetMemoryLimit(budget)
	return func() { debug.SetMemoryLimit(old) }
}

// memFlag is --mem: a memory size such as 8G.
type memFlag int64

func (m *memFlag) String() string { return distance.FormatBytes(int64(*m)) }
func (m *memFlag) Set(v string) error {
	if v == "unlimited" || v == "none" {
		*m = -1
		return nil
	}
	b, err := distance.ParseBytes(v)
	if err != nil {
		return err
	}
	*m = memFlag(b)
	return nil
}
