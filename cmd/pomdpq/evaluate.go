package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/policy"
	"github.com/pomdpq/pomdpq/lib/pomdp"
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

// evaluateOptions are the flags of evaluate besides the front end's.
type evaluateOptions struct {
	model, policy, alpha, minOut, alphaOut, family, ground *string
	horizon, start, m, qT                                  *int
	qeps                                                   *float64
	// set holds the flags given.
	set map[string]bool
}

// evaluateCommand registers evaluate's flags.
func evaluateCommand(stdout, stderr io.Writer) (*command, *evaluateOptions) {
	c := newCommand("evaluate", stdout, stderr)
	f := c.fs
	o := &evaluateOptions{}
	o.model = f.String("model", "", "built-in model name or model file")
	o.policy = f.String("policy", "", "policy graph (.pg, pomdp-solve's format) or alpha-vector policy (.policy, SARSOP's)")
	o.horizon = f.Int("horizon", 0, "horizon T (0: the discounted infinite horizon for a .pg; for a .policy, the T whose tail bound is 0.001·max|R|)")
	o.start = f.Int("start", -1, "start node (-1: the best at b0)")
	c.jsonFlag()
	c.verboseFlag()
	o.alpha = f.String("alpha", "", "alpha vectors (.alpha) to compare max_α α·b0 with")
	o.minOut = f.String("minimize-out", "", "write the smallest equivalent graph (from the start node) to this .pg file")
	o.alphaOut = f.String("alpha-out", "", "write the exact value of every node as alpha vectors (.alpha) to this file")
	o.qeps = f.Float64("quotient-eps", 0, "look at the policy through the ε-quotient for this ε (with --family, --m, --T)")
	o.family = f.String("family", "stationary", "probe family of the quotient: stationary or clock")
	o.m = f.Int("m", 2, "memory bound of the quotient's probe family")
	o.qT = f.Int("T", 3, "horizon of the quotient")
	o.ground = f.String("ground", "", groundUsage+" (the quotient's distances)")
	c.progressFlag(progressUsage)
	return c, o
}

func cmdEvaluate(args []string, stdout, stderr io.Writer) error {
	c, o := evaluateCommand(stdout, stderr)
	if pos, err := c.parseArgs(args); err != nil {
		if isHelp(err) {
			return printHelp(stdout, "usage: pomdpq evaluate --model MODEL --policy FILE.pg|FILE.policy [--horizon T] [--json] [flags]", c.fs)
		}
		return err
	} else if len(pos) > 0 {
		return usageError{msg: fmt.Sprintf("evaluate: unexpected argument %q (usage: pomdpq evaluate --model MODEL --policy FILE.pg [--horizon T] [--json])", pos[0])}
	}
	if err := o.check(c); err != nil {
		return err
	}
	md, gd, err := loadModelGround(*o.model, *o.ground)
	if err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	if isVectorPolicy(*o.policy) {
		return evaluateVectors(ctx, *o.policy, md, *o.horizon, o.set, c)
	}
	return evaluateGraph(ctx, c, o, md, gd)
}

// check refuses flags that do not go together.
func (o *evaluateOptions) check(c *command) error {
	if *o.policy == "" {
		return usageError{msg: "evaluate: missing --policy FILE.pg (or FILE.policy)"}
	}
	o.set = map[string]bool{}
	c.fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	if o.set["start"] && *o.start < 0 {
		return usageError{msg: fmt.Sprintf("evaluate: --start %d: want a node number (0, 1, …)", *o.start)}
	}
	if o.set["ground"] && !o.set["quotient-eps"] {
		return usageError{msg: "evaluate: --ground is the ground metric of the quotient's distances: give --quotient-eps too (a policy's value does not depend on it)"}
	}
	if o.set["quotient-eps"] {
		if !(*o.qeps >= 0) {
			return usageError{msg: fmt.Sprintf("evaluate: --quotient-eps %g: want a non-negative tolerance", *o.qeps)}
		}
		if *o.qT < 1 || *o.m < 1 {
			return usageError{msg: fmt.Sprintf("evaluate: the quotient needs --T ≥ 1 and --m ≥ 1 (got --T %d, --m %d)", *o.qT, *o.m)}
		}
	}
	return nil
}

// evaluateGraph is evaluate for a policy graph (.pg): its exact value,
// and what --alpha, --alpha-out, --minimize-out and --quotient-eps ask.
func evaluateGraph(ctx context.Context, c *command, o *evaluateOptions, md *pomdp.Model, gd ot.Described) error {
	pg, err := policy.LoadPG(*o.policy, md)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("policy file %s does not exist", *o.policy)
	}
	if err != nil {
		return err
	}
	start := *o.start
	if !o.set["start"] {
		start = pgStartHint(*o.policy) // a graph written by plan names its start node
	}
	rep := c.rep
	rep.Phase("evaluate")
	ev, err := policy.EvaluateContext(ctx, md, pg, *o.horizon, policy.Options{Progress: rep.Progress})
	var me *policy.MissingError
	if errors.As(err, &me) {
		return fmt.Errorf("%s: %w", *o.policy, err)
	}
	if err != nil {
		return err
	}
	rep.Phase("")
	from := ev.StartNode
	if start >= 0 {
		if start >= pg.Nodes {
			return usageError{msg: fmt.Sprintf("evaluate: --start %d is not a node (the graph has nodes 0 … %d)", start, pg.Nodes-1)}
		}
		if math.IsNaN(ev.Start[start]) {
			return fmt.Errorf("evaluate: from start node %d a \"-\" successor is reached with positive probability", start)
		}
		from = start
	}
	out := evaluateJSON{Value: ev.Start[from], StartNode: from, Nodes: ev.Nodes, Horizon: ev.Horizon}
	h := "the discounted infinite horizon"
	if *o.horizon > 0 {
		h = fmt.Sprintf("horizon %d", *o.horizon)
	}
	text := []string{fmt.Sprintf("value at b0 %.10g from start node %d of %d (%s, γ = %g)", out.Value, from, ev.Nodes, h, ev.Discount)}
	if ev.Method == "value iteration" {
		text = append(text, fmt.Sprintf("(%d (node, state) pairs: value iteration, %d sweeps, every value within %.2g of the exact one)", ev.Nodes*md.NumStates(), ev.Sweeps, ev.Bound))
	}
	// The summary: the value, what the options did, the quotient in a
	// sentence; the full text repeats the first and details the last.
	summary := []string{text[0]}
	for _, step := range []func() (string, error){
		func() (string, error) { return o.compareAlpha(md, start, &out) },
		func() (string, error) { return o.writeAlpha(pg, ev) },
		func() (string, error) { return o.minimize(pg, from, &out) },
	} {
		line, err := step()
		if err != nil {
			return err
		}
		if line != "" {
			text, summary = append(text, line), append(summary, line)
		}
	}
	if o.set["quotient-eps"] {
		lines, sentence, err := o.throughQuotient(ctx, rep, md, gd, pg, from, &out)
		if err != nil {
			return err
		}
		text, summary = append(text, lines...), append(summary, sentence, groundLine(gd, ""))
	}
	return c.emit(out, func(w io.Writer) { writeDetailed(w, summary, text, c.isVerbose()) })
}

// writeDetailed writes the summary and then, under --verbose, the full
// report text; without it, the hint when the full report says more.
func writeDetailed(w io.Writer, summary, text []string, verbose bool) {
	writeSummary(w, summary...)
	switch {
	case verbose:
		fmt.Fprintln(w)
		for _, l := range text {
			fmt.Fprintln(w, l)
		}
	case !slices.Equal(summary, text):
		fmt.Fprintln(w, verboseHint)
	}
}

// compareAlpha compares the value with the alpha vectors of --alpha.
func (o *evaluateOptions) compareAlpha(md *pomdp.Model, start int, out *evaluateJSON) (string, error) {
	if *o.alpha == "" {
		return "", nil
	}
	vs, err := policy.LoadAlpha(*o.alpha, md)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("alpha file %s does not exist", *o.alpha)
	}
	if err != nil {
		return "", err
	}
	av, arg := policy.Value(vs, md.B0)
	rel := math.Abs(av-out.Value) / math.Max(math.Abs(av), 1e-300)
	a := &alphaJSON{Value: av, Vector: arg, RelDiff: rel, Tol: alphaTol, Vectors: len(vs), Verdict: "not judged"}
	switch {
	case *o.horizon != 0 || start >= 0:
		a.Ignored = "alpha vectors value the infinite horizon from the best node; compare without --horizon and --start"
	case rel <= alphaTol:
		a.Verdict = "agree"
	default:
		a.Verdict = "differ"
	}
	out.Alpha = a
	line := fmt.Sprintf("alpha vectors (%d): max_α α·b0 = %.10g (vector %d); relative difference %.2g: %s", len(vs), av, arg, rel, a.Verdict)
	if a.Verdict != "not judged" {
		return line + fmt.Sprintf(" (tolerance %g relative)", alphaTol), nil
	}
	return line + " (" + a.Ignored + ")", nil
}

// writeAlpha writes every node's value as alpha vectors (--alpha-out).
func (o *evaluateOptions) writeAlpha(pg *fsc.FSC, ev *policy.Evaluation) (string, error) {
	if *o.alphaOut == "" {
		return "", nil
	}
	for n, v := range ev.Start {
		if math.IsNaN(v) {
			return "", fmt.Errorf("evaluate --alpha-out: node %d of %s has no value (a \"-\" successor is reached with positive probability from it), so there is no alpha vector to write for it; "+
				"--minimize-out writes the graph from the start node, whose nodes all have values", n, *o.policy)
		}
	}
	if err := policy.SaveAlpha(*o.alphaOut, ev.Alpha(pg)); err != nil {
		return "", err
	}
	what := "infinite-horizon"
	if *o.horizon > 0 {
		what = fmt.Sprintf("%d-step", *o.horizon)
	}
	return fmt.Sprintf("%s values of the %d nodes written to %s as alpha vectors", what, pg.Nodes, *o.alphaOut), nil
}

// minimize writes the smallest equivalent graph (--minimize-out).
func (o *evaluateOptions) minimize(pg *fsc.FSC, from int, out *evaluateJSON) (string, error) {
	if *o.minOut == "" {
		return "", nil
	}
	min, _, err := policy.Minimize(pg, from)
	if err != nil {
		return "", err
	}
	if err := policy.SavePG(*o.minOut, min); err != nil {
		return "", err
	}
	out.Minimal = &min.Nodes
	return fmt.Sprintf("smallest equivalent graph from node %d: %d nodes (of %d), written to %s with the start as node 0", from, min.Nodes, pg.Nodes, *o.minOut), nil
}

// throughQuotient looks at the policy through the ε-quotient
// (--quotient-eps): values on the model and on the quotient, the classes
// it tells apart, the nodes it needs and its membership in the family.
func (o *evaluateOptions) throughQuotient(ctx context.Context, rep *reporter, md *pomdp.Model, gd ot.Described, pg *fsc.FSC, from int, out *evaluateJSON) ([]string, string, error) {
	kind, err := fsc.ParseKind(*o.family)
	if err != nil || (kind != fsc.KindStationary && kind != fsc.KindClock) {
		return nil, "", usageError{msg: "evaluate: --family must be stationary or clock"}
	}
	q, err := policy.EpsQuotient(ctx, md, gd.Ground, kind, *o.m, *o.qT, *o.qeps, distance.Options{Phase: rep.Phase, Progress: rep.Progress})
	if err != nil {
		return nil, "", err
	}
	rep.Phase("analysis")
	a, err := policy.Analyze(q, pg, from, kind, *o.m)
	var me *policy.MissingError
	if errors.As(err, &me) {
		return nil, "", fmt.Errorf("%s: %w", *o.policy, err)
	}
	if err != nil {
		return nil, "", err
	}
	rep.Phase("")
	out.Quotient = &policyQuotientJSON{Family: a.Family, T: a.T, Epsilon: *o.qeps, Classes: a.Classes, ModelValue: a.ModelValue, QuotientValue: a.QuotientValue,
		Soundness: a.SoundnessMax, Splits: len(a.Splits), UpToNodes: a.UpTo.Nodes(), MinimalNodes: a.Minimal.Nodes, Verdict: a.Verdict.String(), Reason: a.Reason, Ground: newGroundJSON(gd, "")}
	text := []string{
		fmt.Sprintf("through the ε = %g quotient (%s, T = %d, %d classes), from node %d:", *o.qeps, a.Family, a.T, a.Classes, from),
		"  " + groundLine(gd, ""),
		fmt.Sprintf("  value over %d steps: model %.10g, quotient %.10g (difference %.3g); soundness gap max|P_M − P_Q| = %.3g", a.T, a.ModelValue, a.QuotientValue, a.QuotientValue-a.ModelValue, a.SoundnessMax),
		fmt.Sprintf("  classes whose histories it tells apart: %d", len(a.Splits))}
	for i, s := range a.Splits {
		if i == 5 {
			text = append(text, fmt.Sprintf("    … %d more", len(a.Splits)-5))
			break
		}
		text = append(text, "    "+s.String())
	}
	sentence := fmt.Sprintf("through the ε = %g quotient (%s %s): worth %.6g there, %.6g on the model; it tells apart %d %s, needs %d nodes for %d steps: %s of %s",
		*o.qeps, thousands(a.Classes), plural(a.Classes, "class", "classes"), a.QuotientValue, a.ModelValue,
		len(a.Splits), plural(len(a.Splits), "class", "classes"), a.UpTo.Nodes(), a.T, a.Verdict, a.Family)
	return append(text,
		fmt.Sprintf("  nodes needed: %d for %d steps (%v), %d for every horizon", a.UpTo.Nodes(), a.T, a.UpTo, a.Minimal.Nodes),
		fmt.Sprintf("  probe family %s: %s — %s", a.Family, a.Verdict, a.Reason)), sentence, nil
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
