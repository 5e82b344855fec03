package main

import (
	"fmt"
	"io"

	"github.com/pomdpq/pomdpq/lib/clock"
)

// exactJSON is the output of `pomdpq exact --json`.
type exactJSON struct {
	Convention string `json:"convention"`
	T          int    `json:"T"`
	Op         []int  `json:"op_classes"`  // per depth 0 … T
	Clk        []int  `json:"clk_classes"` // per depth 0 … T
	OpTotal    int    `json:"op_total"`
	ClkTotal   int    `json:"clk_total"`
	// ARI of Q_op and Q_clk over the labels of all depths.
	ARI        float64 `json:"ari"`
	StandIns   int64   `json:"stand_ins"`
	OpStandIns int64   `json:"op_stand_ins"`
	// Ground is the model's ground metric, which exact quotients do not
	// use ("used": false).
	Ground groundJSON `json:"ground"`
}

// exactUnused says why exact quotients do not depend on the ground metric.
const exactUnused = "exact quotients compare suffix laws for equality, the same under every ground metric"

// cmdExact prints the exact m = 1 quotients Q_op and Q_clk of a model
// (clock.Quotients) under a named labelling convention.
func cmdExact(args []string, stdout io.Writer) error {
	c := newCommand("exact", stdout, io.Discard)
	fs := c.fs
	model := fs.String("model", "", "built-in model name or model file")
	T := fs.Int("T", 2, "horizon")
	conv := fs.String("convention", "point-mass", "labelling of impossible strings: point-mass (def:equiv) or possibility-pattern (the authors' exact pipeline)")
	c.jsonFlag()
	asJSON := c.asJSON
	fs.Var(&c.mem, "mem", memUsage+"; the tables are stopped past it")
	if pos, err := c.parseArgs(args); err != nil {
		return err
	} else if len(pos) > 0 {
		return usageError{msg: fmt.Sprintf("exact: unexpected argument %q (flags take the form --name value)", pos[0])}
	}
	cv, err := clock.ParseConvention(*conv)
	if err != nil {
		return usageError{msg: "--convention: " + err.Error()}
	}
	md, gd, err := loadModel(*model)
	if err != nil {
		return err
	}
	budget := c.budget()
	defer softLimit(budget)()
	ctx, cancel := signalContext()
	defer cancel()
	r, err := clock.Quotients(ctx, md, *T, &clock.Options{Convention: cv, MaxBytes: float64(c.mem)})
	if err != nil {
		return err
	}
	out := exactJSON{Convention: cv.String(), T: *T, Op: r.Op.Counts(), Clk: r.Clk.Counts(), OpTotal: r.Op.Total(),
		ClkTotal: r.Clk.Total(), ARI: r.ARI, StandIns: r.StandIns, OpStandIns: r.OpStandIns,
		Ground: newGroundJSON(gd, exactUnused)}
	if *asJSON {
		return writeJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "model %s, T = %d, m = 1, convention %s\n", md.Name, *T, cv)
	fmt.Fprintln(stdout, groundLine(gd, exactUnused))
	fmt.Fprintf(stdout, "|Q_op|  = %d %v (constant strings)\n", out.OpTotal, out.Op)
	fmt.Fprintf(stdout, "|Q_clk| = %d %v (all open-loop strings)\n", out.ClkTotal, out.Clk)
	fmt.Fprintf(stdout, "ARI(Q_op, Q_clk) = %.4f over %d strings\n", r.ARI, len(r.Clk.Flat()))
	fmt.Fprintf(stdout, "impossible (string, probe) pairs: %d of the open-loop strings, %d of the constant ones\n", r.StandIns, r.OpStandIns)
	return nil
}
