package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/policy"
)

// evaluateJSON is the output of evaluate --json: the four documented keys,
// and the optional blocks of --alpha, --minimize-out and --quotient-eps.
// Flags: --alpha-out writes the per-node values as an .alpha file.
type evaluateJSON struct {
	Value     float64             `json:"value"`
	StartNode int                 `json:"start_node"`
	Nodes     int                 `json:"nodes"`
	Horizon   int                 `json:"horizon"`
	Alpha     *alphaJSON          `json:"alpha,omitempty"`
	Minimal   *int                `json:"minimal_nodes,omitempty"`
	Quotient  *policyQuotientJSON `json:"quotient,omitempty"`
}

type alphaJSON struct {
	Value   float64 `json:"value"`
	Vector  int     `json:"vector"`
	RelDiff float64 `json:"relative_difference"`
	Tol     float64 `json:"tolerance"`
	Verdict string  `json:"verdict"`
	Vectors int     `json:"vectors"`
	Ignored string  `json:"note,omitempty"`
}

type policyQuotientJSON struct {
	Family        string  `json:"family"`
	T             int     `json:"T"`
	Epsilon       float64 `json:"epsilon"`
	Classes       int     `json:"classes"`
	ModelValue    float64 `json:"model_value"`
	QuotientValue float64 `json:"quotient_value"`
	Soundness     float64 `json:"soundness_gap"`
	Splits        int     `json:"split_classes"`
	UpToNodes     int     `json:"nodes_up_to_T"`
	MinimalNodes  int     `json:"minimal_nodes"`
	Verdict       string  `json:"membership"`
	Reason        string  `json:"membership_reason"`
	// Ground is the ground metric of the quotient's distances.
	Ground groundJSON `json:"ground"`
}

// alphaTol is the relative tolerance within which evaluate says the exact
// value and the alpha vectors agree (a converged solver's precision).
const alphaTol = 1e-6

func cmdEvaluate(args []string, stdout, stderr io.Writer) error {
	fset := flag.NewFlagSet("evaluate", flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	model := fset.String("model", "", "built-in model name or model file")
	pgPath := fset.String("policy", "", "policy graph (.pg, pomdp-solve's format) or alpha-vector policy (.policy, SARSOP's)")
	horizon := fset.Int("horizon", 0, "horizon T (0: the discounted infinite horizon for a .pg; for a .policy, the T whose tail bound is 0.001·max|R|)")
	start := fset.Int("start", -1, "start node (-1: the best at b0)")
	asJSON := fset.Bool("json", false, "print JSON")
	alphaPath := fset.String("alpha", "", "alpha vectors (.alpha) to compare max_α α·b0 with")
	minOut := fset.String("minimize-out", "", "write the smallest equivalent graph (from the start node) to this .pg file")
	alphaOut := fset.String("alpha-out", "", "write the exact value of every node as alpha vectors (.alpha) to this file")
	qeps := fset.Float64("quotient-eps", 0, "look at the policy through the ε-quotient for this ε (with --family, --m, --T)")
	family := fset.String("family", "stationary", "probe family of the quotient: stationary or clock")
	mem := fset.Int("m", 2, "memory bound of the quotient's probe family")
	qT := fset.Int("T", 3, "horizon of the quotient")
	ground := fset.String("ground", "", groundUsage+" (the quotient's distances)")
	progress := progressFlag("auto")
	fset.Var(&progress, "progress", "progress on stderr: auto, bar, lines or off")
	if pos, err := parseFlags(fset, args); err != nil {
		if isHelp(err) {
			return printHelp(stdout, "usage: pomdpq evaluate --model MODEL --policy FILE.pg|FILE.policy [--horizon T] [--json] [flags]", fset)
		}
		return err
	} else if len(pos) > 0 {
		return usageError{msg: fmt.Sprintf("evaluate: unexpected argument %q (usage: pomdpq evaluate --model MODEL --policy FILE.pg [--horizon T] [--json])", pos[0])}
	}
	if *pgPath == "" {
		return usageError{msg: "evaluate: missing --policy FILE.pg (or FILE.policy)"}
	}
	set := map[string]bool{}
	fset.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["start"] && *start < 0 {
		return usageError{msg: fmt.Sprintf("evaluate: --start %d: want a node number (0, 1, …)", *start)}
	}
	if set["ground"] && !set["quotient-eps"] {
		return usageError{msg: "evaluate: --ground is the ground metric of the quotient's distances: give --quotient-eps too (a policy's value does not depend on it)"}
	}
	if set["quotient-eps"] {
		if !(*qeps >= 0) {
			return usageError{msg: fmt.Sprintf("evaluate: --quotient-eps %g: want a non-negative tolerance", *qeps)}
		}
		if *qT < 1 || *mem < 1 {
			return usageError{msg: fmt.Sprintf("evaluate: the quotient needs --T ≥ 1 and --m ≥ 1 (got --T %d, --m %d)", *qT, *mem)}
		}
	}
	md, gd, err := loadModelGround(*model, *ground)
	if err != nil {
		return err
	}
	if isVectorPolicy(*pgPath) {
		ctx, cancel := signalContext()
		defer cancel()
		return evaluateVectors(ctx, *pgPath, md, *horizon, set, *asJSON, stdout, newReporter(stderr, string(progress)))
	}
	c, err := policy.LoadPG(*pgPath, md)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("policy file %s does not exist", *pgPath)
	}
	if err != nil {
		return err
	}
	if !set["start"] {
		*start = pgStartHint(*pgPath) // a graph written by plan names its start node
	}
	ctx, cancel := signalContext()
	defer cancel()
	rep := newReporter(stderr, string(progress))
	rep.Phase("evaluate")
	ev, err := policy.EvaluateContext(ctx, md, c, *horizon, policy.Options{Progress: rep.Progress})
	var me *policy.MissingError
	if errors.As(err, &me) {
		return fmt.Errorf("%s: %w", *pgPath, err)
	}
	if err != nil {
		return err
	}
	rep.Phase("")
	from := ev.StartNode
	if *start >= 0 {
		if *start >= c.Nodes {
			return usageError{msg: fmt.Sprintf("evaluate: --start %d is not a node (the graph has nodes 0 … %d)", *start, c.Nodes-1)}
		}
		if math.IsNaN(ev.Start[*start]) {
			return fmt.Errorf("evaluate: from start node %d a \"-\" successor is reached with positive probability", *start)
		}
		from = *start
	}
	out := evaluateJSON{Value: ev.Start[from], StartNode: from, Nodes: ev.Nodes, Horizon: ev.Horizon}
	var text []string
	h := "the discounted infinite horizon"
	if *horizon > 0 {
		h = fmt.Sprintf("horizon %d", *horizon)
	}
	text = append(text, fmt.Sprintf("value at b0 %.10g from start node %d of %d (%s, γ = %g)", out.Value, from, ev.Nodes, h, ev.Discount))
	if ev.Method == "value iteration" {
		text = append(text, fmt.Sprintf("(%d (node, state) pairs: value iteration, %d sweeps, every value within %.2g of the exact one)", ev.Nodes*md.NumStates(), ev.Sweeps, ev.Bound))
	}
	if *alphaPath != "" {
		vs, err := policy.LoadAlpha(*alphaPath, md)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("alpha file %s does not exist", *alphaPath)
		}
		if err != nil {
			return err
		}
		av, arg := policy.Value(vs, md.B0)
		rel := math.Abs(av-out.Value) / math.Max(math.Abs(av), 1e-300)
		a := &alphaJSON{Value: av, Vector: arg, RelDiff: rel, Tol: alphaTol, Vectors: len(vs), Verdict: "not judged"}
		switch {
		case *horizon != 0 || *start >= 0:
			a.Ignored = "alpha vectors value the infinite horizon from the best node; compare without --horizon and --start"
		case rel <= alphaTol:
			a.Verdict = "agree"
		default:
			a.Verdict = "differ"
		}
		out.Alpha = a
		line := fmt.Sprintf("alpha vectors (%d): max_α α·b0 = %.10g (vector %d); relative difference %.2g: %s", len(vs), av, arg, rel, a.Verdict)
		if a.Verdict != "not judged" {
			line += fmt.Sprintf(" (tolerance %g relative)", alphaTol)
		} else {
			line += " (" + a.Ignored + ")"
		}
		text = append(text, line)
	}
	if *alphaOut != "" {
		for n, v := range ev.Start {
			if math.IsNaN(v) {
				return fmt.Errorf("evaluate --alpha-out: node %d of %s has no value (a \"-\" successor is reached with positive probability from it), so there is no alpha vector to write for it; "+
					"--minimize-out writes the graph from the start node, whose nodes all have values", n, *pgPath)
			}
		}
		if err := policy.SaveAlpha(*alphaOut, ev.Alpha(c)); err != nil {
			return err
		}
		what := "infinite-horizon"
		if *horizon > 0 {
			what = fmt.Sprintf("%d-step", *horizon)
		}
		text = append(text, fmt.Sprintf("%s values of the %d nodes written to %s as alpha vectors", what, c.Nodes, *alphaOut))
	}
	if *minOut != "" {
		min, _, err := policy.Minimize(c, from)
		if err != nil {
			return err
		}
		if err := policy.SavePG(*minOut, min); err != nil {
			return err
		}
		out.Minimal = &min.Nodes
		text = append(text, fmt.Sprintf("smallest equivalent graph from node %d: %d nodes (of %d), written to %s with the start as node 0", from, min.Nodes, c.Nodes, *minOut))
	}
	if set["quotient-eps"] {
		kind, err := fsc.ParseKind(*family)
		if err != nil || (kind != fsc.KindStationary && kind != fsc.KindClock) {
			return usageError{msg: "evaluate: --family must be stationary or clock"}
		}
		q, err := policy.EpsQuotient(ctx, md, gd.Ground, kind, *mem, *qT, *qeps, distance.Options{Phase: rep.Phase, Progress: rep.Progress})
		if err != nil {
			return err
		}
		rep.Phase("analysis")
		a, err := policy.Analyze(q, c, from, kind, *mem)
		if errors.As(err, &me) {
			return fmt.Errorf("%s: %w", *pgPath, err)
		}
		if err != nil {
			return err
		}
		rep.Phase("")
		out.Quotient = &policyQuotientJSON{Family: a.Family, T: a.T, Epsilon: *qeps, Classes: a.Classes, ModelValue: a.ModelValue, QuotientValue: a.QuotientValue,
			Soundness: a.SoundnessMax, Splits: len(a.Splits), UpToNodes: a.UpTo.Nodes(), MinimalNodes: a.Minimal.Nodes, Verdict: a.Verdict.String(), Reason: a.Reason, Ground: newGroundJSON(gd, "")}
		text = append(text,
			fmt.Sprintf("through the ε = %g quotient (%s, T = %d, %d classes), from node %d:", *qeps, a.Family, a.T, a.Classes, from),
			"  "+groundLine(gd, ""),
			fmt.Sprintf("  value over %d steps: model %.10g, quotient %.10g (difference %.3g); soundness gap max|P_M − P_Q| = %.3g", a.T, a.ModelValue, a.QuotientValue, a.QuotientValue-a.ModelValue, a.SoundnessMax),
			fmt.Sprintf("  classes whose histories it tells apart: %d", len(a.Splits)))
		for i, s := range a.Splits {
			if i == 5 {
				text = append(text, fmt.Sprintf("    … %d more", len(a.Splits)-5))
				break
			}
			text = append(text, "    "+s.String())
		}
		text = append(text,
			fmt.Sprintf("  nodes needed: %d for %d steps (%v), %d for every horizon", a.UpTo.Nodes(), a.T, a.UpTo, a.Minimal.Nodes),
			fmt.Sprintf("  probe family %s: %s — %s", a.Family, a.Verdict, a.Reason))
	}
	if *asJSON {
		return writeJSON(stdout, out)
	}
	for _, l := range text {
		fmt.Fprintln(stdout, l)
	}
	return nil
}

// isHelp reports whether a parseFlags error is -h or --help.
func isHelp(err error) bool {
	var u usageError
	return errors.As(err, &u) && u.msg == flag.ErrHelp.Error()
}

// printHelp writes a subcommand's usage line and its flags with their
// defaults to w (-h and --help).
func printHelp(w io.Writer, usage string, fset *flag.FlagSet) error {
	fmt.Fprintln(w, usage)
	fmt.Fprintln(w, "\nflags:")
	fset.SetOutput(w)
	fset.PrintDefaults()
	fset.SetOutput(io.Discard)
	return nil
}
