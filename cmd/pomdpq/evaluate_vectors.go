package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/pomdpq/pomdpq/lib/policy"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// vectorEvalJSON is the output of evaluate --json for a SARSOP .policy
// file (the schema is in main.go's doc comment).
type vectorEvalJSON struct {
	Format       string `json:"format"`
	Vectors      int    `json:"vectors"`
	VectorLength int    `json:"vector_length"`
	ObsValues    int    `json:"obs_values"`
	// LowerBound is Σ_x max_{α applicable} α·b0 (max_α α·b0 for a flat
	// model); LowerBoundVector its vector (−1 when b0 spreads over several
	// obsValues) and LowerBoundAction that vector's action.
	LowerBound       float64 `json:"lower_bound"`
	LowerBoundVector int     `json:"lower_bound_vector"`
	LowerBoundAction string  `json:"lower_bound_action,omitempty"`
	// The greedy policy over Horizon steps (Requested asked; Stopped says
	// why fewer).
	Horizon      int     `json:"horizon"`
	Requested    int     `json:"horizon_requested"`
	Stopped      string  `json:"stopped,omitempty"`
	Value        float64 `json:"horizon_value"`
	Discount     float64 `json:"discount"`
	MaxAbsReward float64 `json:"max_abs_reward"`
	// Tail = γ^T·max|R|/(1−γ) and Bracket = value ∓ (tail + merge_error),
	// absent when γ = 1.
	Tail       *float64    `json:"tail,omitempty"`
	MergeError float64     `json:"merge_error"`
	Merged     int         `json:"merged_beliefs"`
	Bracket    *[2]float64 `json:"bracket,omitempty"`
	Beliefs    int         `json:"beliefs"`
	Widest     int         `json:"widest_step"`
	Split      bool        `json:"split_b0,omitempty"`
	// BoundBelowHigh is whether lower_bound ≤ bracket[1] (absent without a
	// bracket).
	BoundBelowHigh *bool `json:"lower_bound_le_bracket_high,omitempty"`
}

// defaultBracketRel is the bracket's half-width relative to max|R| that the
// default horizon of a .policy evaluation aims at.
const defaultBracketRel = 1e-3

// maxDefaultHorizon caps the default horizon of a .policy evaluation.
const maxDefaultHorizon = 10000

// isVectorPolicy reports whether path names a SARSOP .policy file: by its
// extension (.policy), or by its content (XML) for another extension.
func isVectorPolicy(path string) bool {
	if strings.EqualFold(filepath.Ext(path), ".policy") {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head, _ := bufio.NewReader(f).Peek(512)
	return bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n\ufeff"), []byte("<"))
}

// evaluateVectors is evaluate for a SARSOP .policy file: the lower bound at
// b0, the value of the greedy policy over --horizon steps and the bracket
// of its discounted value. set holds the flags given; those of policy
// graphs are refused.
func evaluateVectors(ctx context.Context, path string, md *pomdp.Model, horizon int, set map[string]bool, c *command) error {
	asJSON, rep := c.json(), c.rep
	for _, f := range []string{"alpha", "alpha-out", "minimize-out", "start", "quotient-eps"} {
		if set[f] {
			return usageError{msg: fmt.Sprintf("evaluate: --%s is for policy graphs (.pg); %s is an alpha-vector policy (.policy)", f, path)}
		}
	}
	if horizon < 0 {
		return usageError{msg: fmt.Sprintf("evaluate: --horizon %d: want T ≥ 1", horizon)}
	}
	p, err := policy.LoadPolicy(path, md)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("policy file %s does not exist", path)
	}
	if err != nil {
		return err
	}
	gamma := 1.0
	if md.HasDiscount {
		gamma = md.Discount
	}
	how := "--horizon"
	if !set["horizon"] || horizon == 0 {
		if !(gamma < 1) {
			return usageError{msg: fmt.Sprintf("evaluate: %s has no discount below 1, so there is no default horizon: give --horizon T", md.Name)}
		}
		horizon = policy.BracketHorizon(gamma, defaultBracketRel, maxDefaultHorizon)
		how = fmt.Sprintf("default: the smallest T with γ^T/(1−γ) ≤ %g, at most %d", defaultBracketRel, maxDefaultHorizon)
	}
	lb, best, err := p.LowerBound(md.B0)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	rep.Phase("greedy policy")
	g, err := policy.EvaluateGreedy(ctx, md, p, horizon, policy.GreedyOptions{Progress: rep.Progress})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	rep.Phase("")
	out := vectorEvalJSON{Format: "sarsop", Vectors: len(p.Vectors), VectorLength: p.VectorLength, ObsValues: p.NumObsValue,
		LowerBound: lb, LowerBoundVector: -1, Horizon: g.Horizon, Requested: g.Requested, Stopped: g.Stopped,
		Value: g.Value, Discount: g.Discount, MaxAbsReward: g.MaxAbsReward, MergeError: g.MergeError, Merged: g.Merged,
		Beliefs: g.Beliefs, Widest: g.Widest, Split: g.Split}
	var with []int
	for _, k := range best {
		if k >= 0 {
			with = append(with, k)
		}
	}
	if len(with) == 1 {
		out.LowerBoundVector = with[0]
		out.LowerBoundAction = md.Actions[p.Vectors[with[0]].Action]
	}
	if !math.IsInf(g.Tail, 0) {
		tail := g.Tail
		out.Tail = &tail
		out.Bracket = &[2]float64{g.Low, g.High}
		ok := lb <= g.High
		out.BoundBelowHigh = &ok
	}
	if asJSON {
		return writeJSON(c.stdout, out)
	}
	var full bytes.Buffer
	printVectorEval(&full, path, p, g, out, lb, len(with), how)
	text := strings.Split(strings.TrimSuffix(full.String(), "\n"), "\n")
	sum := fmt.Sprintf("alpha-vector policy %s: lower bound %.6g at b0; acting greedily on it earns %.6g over T = %d steps",
		filepath.Base(path), lb, g.Value, g.Horizon)
	if g.Stopped != "" {
		sum += fmt.Sprintf(" (stopped there, of the %d asked)", g.Requested)
	}
	if out.Bracket != nil {
		sum += fmt.Sprintf(", discounted value in [%.6g, %.6g]", g.Low, g.High)
		if lb > g.High {
			sum += ": the vectors promise more than acting greedily on them earns"
		}
	}
	writeDetailed(c.stdout, []string{sum}, text, c.isVerbose())
	return nil
}

// printVectorEval writes the full text report of evaluate for an
// alpha-vector policy p.
func printVectorEval(stdout io.Writer, path string, p *policy.VectorPolicy, g *policy.Greedy, out vectorEvalJSON, lb float64, with int, how string) {
	fmt.Fprintf(stdout, "alpha-vector policy %s (model %q): %d vectors of length %d, %d obsValue(s)\n", path, p.Model, len(p.Vectors), p.VectorLength, p.NumObsValue)
	which := fmt.Sprintf("vector %d, action %s", out.LowerBoundVector, out.LowerBoundAction)
	if out.LowerBoundVector < 0 {
		which = fmt.Sprintf("summed over the %d obsValues b0 puts mass on", with)
	}
	fmt.Fprintf(stdout, "lower bound at b0: %.10g  (max over the applicable vectors of α·b0; %s)\n", lb, which)
	fmt.Fprintf(stdout, "greedy policy on the vectors over T = %d steps (%s): value %.10g  (γ = %g; %d beliefs, at most %d in one step; %d merged within %g)\n",
		g.Horizon, how, g.Value, g.Discount, g.Beliefs, g.Widest, g.Merged, policy.MergeCell)
	if g.Stopped != "" {
		fmt.Fprintf(stdout, "  stopped at T = %d of the %d asked: %s\n", g.Horizon, g.Requested, g.Stopped)
	}
	if g.Split {
		fmt.Fprintln(stdout, "  b0 spreads over several obsValues: evaluated from each, weighted by its probability (the agent sees the fully observed part from the start, as in SARSOP)")
	}
	if out.Bracket == nil {
		fmt.Fprintln(stdout, "discounted value: no bracket (γ = 1: the rewards after T are not bounded)")
		return
	}
	fmt.Fprintf(stdout, "discounted value of the greedy policy in [%.10g, %.10g]: value ∓ (γ^T·max|R|/(1−γ) = %.3g with max|R| = %g, + merge error %.3g)\n",
		g.Low, g.High, g.Tail, g.MaxAbsReward, g.MergeError)
	if lb <= g.High {
		fmt.Fprintln(stdout, "lower bound ≤ the bracket's upper end: consistent")
	} else {
		fmt.Fprintf(stdout, "lower bound %.10g exceeds the bracket's upper end %.10g: the vectors promise more than acting greedily on them earns\n", lb, g.High)
	}
}
