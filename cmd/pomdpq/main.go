// Command pomdpq computes bounded-agent quotients of finite POMDPs from the
// command line: the same capabilities as the notebooks, headless.
//
// Usage:
//
//	pomdpq info MODEL [--json] [--expected-rewards]
//	pomdpq export MODEL [--format pomdp|pomdpx|json] [--out FILE] [--ground discrete|FILE] [--ground-out FILE] [--discount G] [--expected-rewards]
//	pomdpq family --model MODEL --kind stationary|clock --m M [--T T] [--json]
//	pomdpq quotient --model MODEL --family stationary|clock --m M --T T --eps LIST [--metric w1|tv] [--ground discrete|FILE] [--json|--verbose]
//	pomdpq explain --model MODEL --family K --m M --T T --eps E (--histories "h ; h'" | --classes t:i,t:j | --class t:i | --merges) [--json|--verbose]
//	pomdpq evaluate --model MODEL --policy FILE.pg|FILE.policy [--horizon T] [--quotient-eps E [--ground discrete|FILE]] [--json|--verbose]
//	pomdpq plan --model MODEL --family stationary|clock --m M --T T --eps LIST [--planner P] [--reward R] [--out DIR] [--json|--verbose]
//	pomdpq exact --model MODEL --T T [--convention point-mass|possibility-pattern] [--mem SIZE] [--json]
//	pomdpq quotient … --shard i/n [--plan PLAN [--probes PART]] --save PART
//	pomdpq merge PART... [--out PLAN] [--eps LIST] [--json] [--missing]
//	pomdpq reproduce TABLE|all --out DIR
//	pomdpq reproduce classic-models [--models DIR] [--seconds 60] [--mem 4G] [--max-t 40] --out DIR
//	pomdpq bench [--out FILE]
//	pomdpq analyze MODEL [--policy FILE.pg] [--out report.html] [--m 1,2] [--T T] [--eps E] [--ground discrete|FILE]
//	pomdpq search-witness [--criteria LIST] [--max-states 5] [--max-t 4] [--grids 1,1:2,2,4] [--budget 60s] [--json] [--out DIR]
//
// MODEL is a built-in name (tiger, tiger-listen, gridworld:3, rocksample:4:4,
// netmon:9, hallway:10, witness, the classic tiger95, maze4x3, cheese, 1d,
// paint, …; `pomdpq models` lists them) or the path of a Cassandra .pomdp,
// a SARSOP POMDPX (.pomdpx, factored and mixed-observability files
// included; see pomdpx.Read) or a JSON model file (datasets/models/
// holds every built-in the notebooks use as such a file).
//
// export writes a model in Cassandra's .pomdp format (the default), in
// SARSOP's POMDPX (--format pomdpx: one state variable) or as JSON
// (--format json), or in the format of the extension of --out, to standard
// output or to --out. Models whose names the .pomdp format cannot hold
// (the paper's Tiger observes "R", a keyword) are written under
// other names listed in a comment at the top of the file, which pomdpq
// reads to restore them (pomdp.SafeNames). --discount G writes another
// discount (SARSOP needs one below 1; the paper's models have none).
//
// The ground metric d_O on the observations decides the distances, so
// every result that depends on it prints it ("ground metric …": its name
// or "discrete 0/1", a SHA-256 fingerprint of the matrix, and where it
// came from). A built-in brings its own (GridWorld: quadrant-manhattan,
// (|Δx| + |Δy|)/2 between quadrants); a JSON model file may carry one
// ("ground"); a .pomdp file cannot, and gets the discrete metric, printed
// as the default. --ground discrete|FILE replaces it: FILE is a .json or
// .csv matrix over the model's observations (pomdp.ReadGroundJSON and
// ReadGroundCSV document the forms), which must be a metric. export
// --format json writes the ground metric into the model; a .pomdp export
// lists it in a comment and writes it beside --out as OUT.ground.csv.
//
// The text output of quotient, plan, evaluate and explain starts with the answer
// in words, every line within 100 columns ("at ε = 0.3, 9 classes: a
// one-node agent cannot tell apart 8 of the 8 depth-3 histories"; per ε,
// the lifted policy's value, its regret against the bound and the
// verdict), then the ground metric; --verbose adds a blank line and the
// full report (every setting, the per-ε detail, the timings). plan exits
// with status 1, after printing, when a measured regret exceeds a
// certified bound. The commands share one front end (frontend.go: the
// common flags, the progress reporter, JSON or text; summary.go: the
// summary's sentences).
//
// JSON output schemas (stable; scripts and notebooks rely on them):
//
//	info:     {"name": string, "states": int, "actions": int, "observations": int, "discount": number|null,
//	          "rewards": "R(s,a)"|"R(s,a,s',o)", "reward_entries": int},
//	          and for a model file "format": "pomdp"|"pomdpx"|"json", "dialect": "pomdp-solve"|"POMDPs.jl" (.pomdp),
//	          "renamed": [{"space": string, "written": string, "original": string}, ...] (when any),
//	          "reward_entries_dropped": int (when --expected-rewards dropped any)
//	family:   {"kind": string, "m": int, "T": int, "size": int}
//	quotient: {"family_size": int, "distinct": int, "histories": int, "exact_classes": int,
//	           "max_distance": number, "max_distance_exact": bool, "estimate_bytes": int,
//	           "seconds": number (the whole command), "phases": [{"name": string, "seconds": number}, ...],
//	           "classes": [{"epsilon": number, "count": int}, ...],
//	           "stand_ins": int, "convention": string, "delta_clk": number (m = 1 stationary, when computed),
//	           "ground": GROUND}
//	          "estimate_bytes" is the largest of "estimate_phases": [{"phase": string, "bytes": int}, ...]
//	          (distances; delta-clk, the metered tables of δ_clk or where they were stopped)
//	GROUND:   {"label": string ("discrete 0/1" or "NAME [sha256 HEX]"), "name": string, "source": string,
//	           "sha256": string (12 hex digits of the matrix's SHA-256), "discrete": bool,
//	           "used": bool (false under --metric tv and for exact), "unused": string (why, when not used)}
//	quotient --family clock --m 2 (searched, lib/clock2): the quotient schema with "method": "search",
//	          "root_pairs": int, "search_nodes": int; "distinct" 0, "estimate_bytes" the fixed buffers
//	          (phase "search"), "stand_ins" −1 (not counted)
//	quotient --family stationary, searched (lib/statbb: --search, or a family above --limit): the
//	          quotient schema with "method": "search", "method_reason": string, "search_nodes": int;
//	          "distinct" 0, "stand_ins" −1 (not counted)
//	quotient --shard: {"round": 1|2, "shard": int, "count": int, "first": int, "end": int (the slice's
//	          family indices [first, end)), "family_size": int, "distinct": int, "file": string, "seconds": number, "phases": [...],
//	          "ground": GROUND}
//	merge:    the quotient schema without seconds, phases, estimate_bytes and delta_clk (distances
//	          parts; "distinct" sums the shards' probes; "ground" has only label, source and used: a part
//	          records the ground metric only inside its model hash); {"shards", "family_size", "histories",
//	          "exact_classes", "file"} for classes parts (the plan)
//	evaluate: {"value": number, "start_node": int, "nodes": int, "horizon": int (0: infinite)}, plus
//	          "alpha", "minimal_nodes" and "quotient" objects with --alpha, --minimize-out, --quotient-eps
//	          ("quotient" has "ground": GROUND)
//	evaluate with a SARSOP .policy: {"format": "sarsop", "vectors", "vector_length", "obs_values": int,
//	          "lower_bound": number, "lower_bound_vector": int, "lower_bound_action": string,
//	          "horizon", "horizon_requested": int, "stopped": string, "horizon_value", "discount",
//	          "max_abs_reward", "tail", "merge_error": number, "merged_beliefs": int, "bracket": [low, high],
//	          "beliefs", "widest_step": int, "split_b0": bool, "lower_bound_le_bracket_high": bool}
//	          (tail, bracket and the last absent when γ = 1)
//	explain:  {"model", "family": string, "T": int, "eps": [number] (not with --histories), "ground": GROUND, and one of
//	           "pairs": [{"class_1", "class_2" (--classes), "depth", "suffix_length", "history_1", "history_2",
//	           "probes": [PROBE, ...] (ranked), "num_probes", "best_probe": PROBE, "distance": number,
//	           "laws": [{"seq", "words", "p1", "p2"}, ...], "shown_mass_1", "shown_mass_2",
//	           "moves": [{"from", "to", "mass", "cost", "total"}, ...], "moves_total", "moves_shown",
//	           "most_different": {...}, "sentence": string}], "class": {...} (lib/explain.Class) or
//	           "merges": [{"eps_from", "eps_to", "classes_from", "classes_to", "merged_classes", "merges": [...]}, ...];
//	           PROBE = {"probe_index": int, "probe": string, "probe_short": string, "distance": number}
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
  info MODEL [--json] [--expected-rewards]
                                        sizes, rewards and validation of a model
  models                                list the built-in models
  export MODEL [--format pomdp|pomdpx|json] [--out FILE] [--ground-out FILE] [--discount G] [--expected-rewards]
                                        write a model as .pomdp (default), POMDPX or JSON (JSON keeps
                                        the ground metric; .pomdp: beside it, OUT.ground.csv)
  family --model MODEL --kind K --m M [--T T] [--json]
                                        size of a probe family (K = stationary or clock)
  quotient --model MODEL --family K --m M --T T --eps LIST [--metric w1|tv] [--ground G] [--json|--verbose]
                                        class counts of the ε-quotients (clock m = 2: searched, not
                                        enumerated; --enumerate for the enumeration)
  quotient … --shard i/n [--plan PLAN] --save PART
                                        one shard of a run split over a cluster (docs/scale-out.md)
  merge PART... [--out PLAN] [--eps LIST] [--json] [--missing]
                                        merge the parts of one round of a sharded run
  explain --model MODEL --family K --m M --T T --eps E (--histories "h ; h'" | --classes t:i,t:j | --class t:i | --merges) [--json|--verbose]
                                        why two histories or classes are apart, what a class is, what a step merged
  evaluate --model MODEL --policy FILE.pg|FILE.policy [--horizon T] [--json|--verbose]
                                        exact value of a policy graph (pomdp-solve .pg); lower bound,
                                        greedy T-step value and bracket of alpha vectors (SARSOP .policy)
  plan --model MODEL --family K --m M --T T --eps LIST [--planner best-fsc|open-loop|pbvi|cmd:'…']
       [--solver-discount G] [--reward own|observation|FILE] [--out DIR] [--json|--verbose]
                                        plan on the ε-quotients, lift to the model, regret vs certified bound
  exact --model MODEL --T T [--convention point-mass|possibility-pattern] [--mem SIZE] [--json]
                                        exact m = 1 quotients Q_op and Q_clk
  reproduce TABLE|all --out DIR         regenerate the paper's tables as CSV
  reproduce classic-models [--models DIR] [--seconds S] [--mem SIZE] [--out DIR]
                                        our quotients of every model file of a folder
  bench [--out FILE]                    time the main computations, write a table
  analyze MODEL [--policy FILE.pg] [--out report.html]
                                        one HTML page: families, curves, certificates, quotient
  search-witness [--budget 60s] [--json] [--out DIR]
                                        smallest models separating Q_op/Q_clk, m = 1/2, W1/TV

MODEL is a built-in name (see 'pomdpq models') or a .pomdp / .pomdpx / .json file.
G (--ground, for quotient, analyze, evaluate --quotient-eps and export) is the ground metric
on the observations: discrete, or a .json / .csv matrix file; by default the model's own
(a built-in's; a JSON model's "ground"), else discrete. Every output names the one used.`

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
		return cmdExport(rest, stdout, stderr)
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
	case "explain":
		return cmdExplain(rest, stdout, stderr)
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

// isModelFile reports whether a MODEL argument names a file rather than a
// built-in: it has a model file extension (.pomdp, .pomdpx, .xml, .json) or
// a directory part.
func isModelFile(spec string) bool {
	switch strings.ToLower(filepath.Ext(spec)) {
	case ".pomdp", ".pomdpx", ".xml", ".json":
		return true
	}
	return strings.ContainsRune(spec, os.PathSeparator)
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
	// Format and Dialect are set for a model file: "pomdp" with dialect
	// "pomdp-solve" or "POMDPs.jl", or "json".
	Format  string `json:"format,omitempty"`
	Dialect string `json:"dialect,omitempty"`
	// Renamed lists the names restored from the file's rename comments.
	Renamed []pomdp.Rename `json:"renamed,omitempty"`
	// Rewards is "R(s,a)", or "R(s,a,s',o)" when the model keeps a reward
	// of the next state or the observation (RewardEntries entries; values
	// use the expectation R(s,a)). RewardEntriesDropped counts the entries
	// --expected-rewards did not keep.
	Rewards              string `json:"rewards"`
	RewardEntries        int    `json:"reward_entries"`
	RewardEntriesDropped int    `json:"reward_entries_dropped,omitempty"`
}

func cmdInfo(args []string, stdout io.Writer) error {
	c := newCommand("info", stdout, io.Discard)
	fs := c.fs
	c.jsonFlag()
	asJSON := c.asJSON
	expected := fs.Bool("expected-rewards", false, expectedRewardsUsage)
	pos, err := c.parseArgs(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{msg: "usage: pomdpq info MODEL [--json] [--expected-rewards]"}
	}
	var src pomdp.Source
	m, gd, err := loadModel(pos[0], append(readOptions(*expected), pomdp.Describe(&src))...)
	if err != nil {
		return err
	}
	// Loaders validate; say so explicitly.
	verr := m.Validate()
	if *asJSON {
		out := infoJSON{Name: m.Name, States: m.NumStates(), Actions: m.NumActions(), Observations: m.NumObservations(),
			Format: src.Format, Dialect: src.Dialect, Renamed: src.Renames,
			Rewards: "R(s,a)", RewardEntries: m.Rewards.NumEntries(), RewardEntriesDropped: src.DroppedRewards}
		if m.Rewards != nil {
			out.Rewards = "R(s,a,s',o)"
		}
		if m.HasDiscount {
			d := m.Discount
			out.Discount = &d
		}
		return writeJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "model:        %s\n", m.Name)
	if src.Format != "" {
		fmt.Fprintf(stdout, "format:       %s\n", src.String())
	}
	if n := len(src.Renames); n > 0 {
		var l []string
		for _, r := range src.Renames {
			l = append(l, fmt.Sprintf("%s %q (written %s)", strings.TrimSuffix(r.Space, "s"), r.Original, r.Written))
		}
		what := "names"
		if n == 1 {
			what = "name"
		}
		fmt.Fprintf(stdout, "renamed:      %d %s restored from the file's rename comments: %s\n", n, what, preview(l))
	}
	fmt.Fprintf(stdout, "states:       %d\n", m.NumStates())
	fmt.Fprintf(stdout, "actions:      %d (%s)\n", m.NumActions(), preview(m.Actions))
	fmt.Fprintf(stdout, "observations: %d (%s)\n", m.NumObservations(), preview(m.Observations))
	if m.HasDiscount {
		fmt.Fprintf(stdout, "discount:     %g\n", m.Discount)
	} else {
		fmt.Fprintf(stdout, "discount:     none\n")
	}
	fmt.Fprintf(stdout, "ground:       %s\n", gd)
	rewards := m.RewardSummary()
	if src.DroppedRewards > 0 {
		rewards += fmt.Sprintf(", the expectation (--expected-rewards dropped %d entries R(s,a,s',o))", src.DroppedRewards)
	}
	fmt.Fprintf(stdout, "rewards:      %s\n", rewards)
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
