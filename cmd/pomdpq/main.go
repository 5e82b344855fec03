// Command pomdpq computes bounded-agent quotients of finite POMDPs from the
// command line: the same capabilities as the notebooks, headless.
//
// Usage:
//
//	pomdpq info MODEL [--json]
//	pomdpq export MODEL [--format pomdp|json] [--out FILE]
//	pomdpq family --model MODEL --kind stationary|clock --m M [--T T] [--json]
//	pomdpq quotient --model MODEL --family stationary|clock --m M --T T --eps LIST [--metric w1|tv] [--json]
//	pomdpq evaluate --model MODEL --policy FILE.pg [--horizon T] [--json]
//	pomdpq plan --model MODEL --family stationary|clock --m M --T T --eps LIST [--planner P] [--reward R] [--out DIR] [--json]
//	pomdpq exact --model MODEL --T T [--convention point-mass|possibility-pattern] [--json]
//	pomdpq quotient … --shard i/n [--plan PLAN [--probes PART]] --save PART
//	pomdpq merge PART... [--out PLAN] [--eps LIST] [--json] [--missing]
//	pomdpq reproduce TABLE|all --out DIR
//	pomdpq reproduce classic-models [--models DIR] [--seconds 60] [--mem 4G] [--max-t 40] --out DIR
//	pomdpq bench [--out FILE]
//	pomdpq analyze MODEL [--policy FILE.pg] [--out report.html] [--m 1,2] [--T T] [--eps E]
//	pomdpq search-witness [--criteria LIST] [--max-states 5] [--max-t 4] [--grids 1,1:2,2,4] [--budget 60s] [--json] [--out DIR]
//
// MODEL is a built-in name (tiger, tiger-listen, gridworld:3, rocksample:4:4,
// netmon:9, hallway:10, witness, the classic tiger95, maze4x3, cheese, 1d,
// paint, …; `pomdpq models` lists them) or the path of a Cassandra .pomdp or
// JSON model file (datasets/models/ holds every built-in the notebooks use
// as such a file).
//
// export writes a model in Cassandra's .pomdp format (the default) or as
// JSON (--format json, or an --out file ending in .json), to standard
// output or to --out. Models whose names the .pomdp format cannot hold
// (the paper's Tiger observes "R", a keyword) need --format json.
//
// JSON output schemas (stable; scripts and notebooks rely on them):
//
//	info:     {"name": string, "states": int, "actions": int, "observations": int, "discount": number|null}
//	family:   {"kind": string, "m": int, "T": int, "size": int}
//	quotient: {"family_size": int, "distinct": int, "histories": int, "exact_classes": int,
//	           "max_distance": number, "max_distance_exact": bool, "estimate_bytes": int,
//	           "seconds": number (the whole command), "phases": [{"name": string, "seconds": number}, ...],
//	           "classes": [{"epsilon": number, "count": int}, ...],
//	           "stand_ins": int, "convention": string, "delta_clk": number (m = 1 stationary, when computed)}
//	quotient --family clock --m 2 (searched, lib/clock2): the quotient schema with "method": "search",
//	          "root_pairs": int, "search_nodes": int; "distinct" and "estimate_bytes" 0, "stand_ins" −1 (not counted)
//	quotient --shard: {"round": 1|2, "shard": int, "count": int, "first": int, "end": int (the slice's
//	          family indices [first, end)), "family_size": int, "distinct": int, "file": string, "seconds": number, "phases": [...]}
//	merge:    the quotient schema without seconds, phases, estimate_bytes and delta_clk (distances
//	          parts; "distinct" sums the shards' probes); {"shards", "family_size", "histories",
//	          "exact_classes", "file"} for classes parts (the plan)
//	evaluate: {"value": number, "start_node": int, "nodes": int, "horizon": int (0: infinite)}, plus
//	          "alpha", "minimal_nodes" and "quotient" objects with --alpha, --minimize-out, --quotient-eps
//	search-witness: {"witnesses": [{"criterion": string, "class": {"states": int, "observations": int, "actions": int, "grid": string},
//	           "T": int, "depth": int, "small_classes": int, "large_classes": int, "h1": string, "h2": string,
//	           "separating"|"w1"|"tv": {"probe": string, "law1": [{"suffix": string, "p": number}, ...], "law2": [...], "distance": number},
//	           "possible": bool, "verified": bool, "smallest_class": bool, ...}, ...],
//	           "not_found": {grid: [criterion, ...]}, "coverage": [{"grid", "class", "T", "mode", "visited", "tested", ...}, ...],
//	           "tested": int, "stopped": string, "seconds": number, and the options searched}
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "pomdpq:", err)
		var u usageError
		if errors.As(err, &u) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// usageError is a command-line mistake (exit status 2). flags is set for
// -h/--help, so run can print the subcommand's flags.
type usageError struct {
	msg   string
	flags *flag.FlagSet
}

func (e usageError) Error() string { return e.msg }

const usage = `usage: pomdpq COMMAND [arguments]

commands:
  info MODEL [--json]                   sizes and validation of a model
  models                                list the built-in models
  export MODEL [--format pomdp|json] [--out FILE]
                                        write a model as .pomdp (default) or JSON
  family --model MODEL --kind K --m M [--T T] [--json]
                                        size of a probe family (K = stationary or clock)
  quotient --model MODEL --family K --m M --T T --eps LIST [--metric w1|tv] [--json]
                                        class counts of the ε-quotients (clock m = 2: searched, not
                                        enumerated; --enumerate for the enumeration)
  quotient … --shard i/n [--plan PLAN] --save PART
                                        one shard of a run split over a cluster (docs/scale-out.md)
  merge PART... [--out PLAN] [--eps LIST] [--json] [--missing]
                                        merge the parts of one round of a sharded run
  evaluate --model MODEL --policy FILE.pg [--horizon T] [--json]
                                        exact value of a policy graph (pomdp-solve .pg)
  plan --model MODEL --family K --m M --T T --eps LIST [--planner best-fsc|open-loop|pbvi|cmd:'…']
       [--reward own|observation|FILE] [--out DIR] [--json]
                                        plan on the ε-quotients, lift to the model, regret vs certified bound
  exact --model MODEL --T T [--convention point-mass|possibility-pattern] [--json]
                                        exact m = 1 quotients Q_op and Q_clk
  reproduce TABLE|all --out DIR         regenerate the paper's tables as CSV
  reproduce classic-models [--models DIR] [--seconds S] [--mem SIZE] [--out DIR]
                                        our quotients of every model file of a folder
  bench [--out FILE]                    time the main computations, write a table
  analyze MODEL [--policy FILE.pg] [--out report.html]
                                        one HTML page: families, curves, certificates, quotient
  search-witness [--budget 60s] [--json] [--out DIR]
                                        smallest models separating Q_op/Q_clk, m = 1/2, W1/TV

MODEL is a built-in name (see 'pomdpq models') or a .pomdp / .json file.`

func run(args []string, stdout, stderr io.Writer) error {
	err := dispatch(args, stdout, stderr)
	var u usageError
	if errors.As(err, &u) && u.flags != nil && isHelp(err) {
		// -h or --help on a subcommand: its usage lines and flags, exit 0.
		var lines []string
		for _, l := range strings.Split(usage, "\n") {
			if strings.HasPrefix(l, "  "+args[0]+" ") || (len(lines) > 0 && strings.HasPrefix(l, "    ")) {
				lines = append(lines, l)
			} else if len(lines) > 0 && !strings.HasPrefix(l, "    ") {
				break
			}
		}
		if len(lines) == 0 {
			lines = []string{"usage: pomdpq " + args[0] + " [flags]"}
		}
		return printHelp(stdout, strings.Join(lines, "\n"), u.flags)
	}
	return err
}

// dispatch runs one subcommand.
func dispatch(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{msg: usage}
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "info":
		return cmdInfo(rest, stdout)
	case "export":
		return cmdExport(rest, stdout)
	case "models":
		for _, n := range bench.Names() {
			fmt.Fprintf(stdout, "%-26s %-20s %s\n", n.Pattern, n.Example, n.Doc)
		}
		return nil
	case "family":
		return cmdFamily(rest, stdout)
	case "quotient":
		return cmdQuotient(rest, stdout, stderr)
	case "exact":
		return cmdExact(rest, stdout)
	case "merge":
		return cmdMerge(rest, stdout, stderr)
	case "reproduce":
		return cmdReproduce(rest, stdout, stderr)
	case "evaluate":
		return cmdEvaluate(rest, stdout, stderr)
	case "plan":
		return cmdPlan(rest, stdout, stderr)
	case "bench":
		return cmdBench(rest, stdout, stderr)
	case "analyze":
		return cmdAnalyze(rest, stdout, stderr)
	case "search-witness":
		return cmdSearchWitness(rest, stdout, stderr)
	case "classic-row":
		return cmdClassicRow(args[1:], stdout)
	case "bench-row":
		return cmdBenchRow(rest, stdout)
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	return usageError{msg: fmt.Sprintf("unknown command %q\n%s", cmd, usage)}
}

// loadModel resolves a built-in name or a model file. Files get the
// discrete ground metric.
func loadModel(spec string) (*pomdp.Model, ot.Ground, error) {
	if spec == "" {
		return nil, nil, usageError{msg: "missing --model (a built-in name or a .pomdp/.json file)"}
	}
	ext := strings.ToLower(filepath.Ext(spec))
	if ext == ".pomdp" || ext == ".json" || strings.ContainsRune(spec, os.PathSeparator) {
		m, err := pomdp.LoadFile(spec)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, missingFile(spec, err)
		}
		if err != nil {
			return nil, nil, err
		}
		return m, ot.Discrete(m.NumObservations()), nil
	}
	b, err := bench.Lookup(spec)
	if err != nil {
		return nil, nil, err
	}
	return b.Model, b.Ground, nil
}

// missingFile returns the error for a model file that does not exist: it
// names the path and, when the file's base name is a built-in model (as for
// every file of datasets/models), says that the name alone will do. Nothing
// is substituted for the file.
func missingFile(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is named once, below
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if b, lerr := bench.Lookup(base); lerr == nil {
		return fmt.Errorf("model file %s: %w (the built-in model %q needs no file: use the name %s)", path, err, b.Name, b.Name)
	}
	return fmt.Errorf("model file %s: %w", path, err)
}

// parseFlags parses flags that may come before or after one positional
// argument.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	args = joinProgress(fs, args)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, usageError{msg: err.Error(), flags: fs}
			}
			return nil, usageError{msg: err.Error()}
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// joinProgress rewrites "--progress MODE" (auto, bar, lines or off given
// as the next argument) to "--progress=MODE" when fs has the boolean-style
// --progress flag, which would otherwise take MODE for a positional
// argument.
func joinProgress(fs *flag.FlagSet, args []string) []string {
	f := fs.Lookup("progress")
	if f == nil {
		return args
	}
	if _, ok := f.Value.(*progressFlag); !ok {
		return args
	}
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if (a == "--progress" || a == "-progress") && i+1 < len(args) {
			switch args[i+1] {
			case "auto", "bar", "lines", "off":
				out = append(out, a+"="+args[i+1])
				i++
				continue
			}
		}
		if a == "--" {
			return append(out, args[i:]...)
		}
		out = append(out, a)
	}
	return out
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

type infoJSON struct {
	Name         string   `json:"name"`
	States       int      `json:"states"`
	Actions      int      `json:"actions"`
	Observations int      `json:"observations"`
	Discount     *float64 `json:"discount"`
}

func cmdInfo(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	fs.SetOutput(io.Discard)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{msg: "usage: pomdpq info MODEL [--json]"}
	}
	m, _, err := loadModel(pos[0])
	if err != nil {
		return err
	}
	// Loaders validate; say so explicitly.
	verr := m.Validate()
	if *asJSON {
		out := infoJSON{Name: m.Name, States: m.NumStates(), Actions: m.NumActions(), Observations: m.NumObservations()}
		if m.HasDiscount {
			d := m.Discount
			out.Discount = &d
		}
		return writeJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "model:        %s\n", m.Name)
	fmt.Fprintf(stdout, "states:       %d\n", m.NumStates())
	fmt.Fprintf(stdout, "actions:      %d (%s)\n", m.NumActions(), preview(m.Actions))
	fmt.Fprintf(stdout, "observations: %d (%s)\n", m.NumObservations(), preview(m.Observations))
	if m.HasDiscount {
		fmt.Fprintf(stdout, "discount:     %g\n", m.Discount)
	} else {
		fmt.Fprintf(stdout, "discount:     none\n")
	}
	nnz := 0
	for _, k := range m.T {
		nnz += k.NNZ()
	}
	fmt.Fprintf(stdout, "T non-zeros:  %d\n", nnz)
	if verr != nil {
		fmt.Fprintf(stdout, "validation:   FAILED: %v\n", verr)
		return verr
	}
	fmt.Fprintf(stdout, "validation:   ok (rows stochastic within %g)\n", pomdp.RowTol)
	return nil
}

func preview(names []string) string {
	if len(names) <= 8 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:6], ", ") + fmt.Sprintf(", … (%d more)", len(names)-6)
}
