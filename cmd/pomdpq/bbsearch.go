package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/pomdpq/pomdpq/lib/bb"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// searchArgs are the quotient settings shared by the two front ends of
// the branch-and-bound searches: clock2.go (lib/clock2) and statbb.go
// (lib/statbb).
type searchArgs struct {
	model    *pomdp.Model
	ground   ot.Described
	T        int
	eps      []float64
	metric   distance.Metric
	conv     law.Convention
	exact    bool
	dryRun   bool
	workers  int
	maxNodes float64
	mem      int64 // --mem: 0 default, negative none
	asJSON   bool
	rep      *reporter
	stdout   io.Writer
	// kind and m name the family's agents in the summary; verbose is
	// --verbose.
	kind    fsc.Kind
	m       int
	verbose bool
}

// options returns the search's options: decision mode at 0 (for the exact
// classes) and the listed ε, unless --exact-distances.
func (a searchArgs) options() bb.Options {
	opt := bb.Options{Ground: a.ground.Ground, Convention: a.conv, Workers: a.workers, MaxNodes: a.maxNodes, MemBudget: a.mem, Progress: a.rep.Progress}
	if !a.exact {
		opt.Eps = append([]float64{0}, a.eps...) // 0 gives the exact classes
	}
	return opt
}

// printFit prints, for --dry-run, whether an estimate of the given bytes
// fits the --mem budget; fits says what fits ("the run fits").
func (a searchArgs) printFit(bytes int64, fits string) {
	budget := bb.Budget(a.mem)
	switch {
	case budget < 0:
		fmt.Fprintln(a.stdout, "no memory budget (--mem unlimited)")
	case bytes > budget:
		fmt.Fprintf(a.stdout, "budget %s: the run does NOT fit\n", distance.FormatBytes(budget))
	default:
		fmt.Fprintf(a.stdout, "budget %s: %s\n", distance.FormatBytes(budget), fits)
	}
}

// run runs compute within the --mem budget, cancelled by an interrupt,
// and fills q with what every search reports: the classes at each ε, the
// largest distance, the settings and the estimated memory (estimate
// bytes) and the phases' times. The caller sets the family's size.
func (a searchArgs) run(q *quotientJSON, estimate int64, compute func(context.Context, bb.Options) (*bb.Distances, error)) error {
	defer softLimit(bb.Budget(a.mem))()
	ctx, cancel := signalContext()
	defer cancel()
	a.rep.Phase("search")
	res, err := compute(ctx, a.options())
	if err != nil {
		return err
	}
	a.rep.Phase("linkage")
	q.Histories, q.ExactClasses = res.Tree.Len(), res.Partition(0).Total()
	q.MaxDistance = res.MaxDistance()
	q.MaxDistanceExact = res.MaxDistanceExact()
	q.StandIns, q.Convention = -1, a.conv.String()
	q.Ground = newGroundJSON(a.ground, "")
	q.EstimateBytes, q.EstimatePhases = estimate, []estimateJSON{{"search", estimate}}
	for k, e := range a.eps {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := res.Partition(e)
		q.Classes = append(q.Classes, classJSON{Epsilon: e, Count: p.Total()})
		q.Summary = append(q.Summary, newClassSummary(e, p, a.kind, a.m))
		a.rep.Progress(k+1, len(a.eps))
	}
	a.rep.Phase("")
	q.Seconds, q.Phases = a.rep.Seconds(), a.rep.Phases()
	return nil
}

// searchText is what a search's text report says beside the shared lines:
// its first line, the family in the summary, its counts ("N search nodes,
// …"), the note on the stand-in and the end of the timing line.
type searchText struct {
	head, family, counts, standIn, tail string
}

// print prints the text report of a search run with distances res: the
// summary, and the full report under --verbose.
func (a searchArgs) print(q *quotientJSON, res *bb.Distances, s searchText) {
	w := a.stdout
	if !writeQuotientSummary(w, a.model.Name, s.family, a.T, q, a.ground, "", a.verbose) {
		return
	}
	fmt.Fprintln(w, s.head)
	fmt.Fprintln(w, groundLine(a.ground, ""))
	maxd := fmt.Sprintf("%.6g", q.MaxDistance)
	if !q.MaxDistanceExact {
		lo, hi := res.MaxBracket()
		maxd = searchedMaxText(lo, hi, slices.Min(a.eps))
	}
	fmt.Fprintf(w, "histories %d in %d exact classes, %s, max distance %s\n", q.Histories, q.ExactClasses, s.counts, maxd)
	fmt.Fprintf(w, "impossible histories take the %s stand-in (%s)\n", a.conv, s.standIn)
	printClasses(w, q)
	fmt.Fprintf(w, "; %s\n", s.tail)
}

// printClasses prints the table of classes per ε of a quotient and then
// starts the timing line (the seconds in all and per phase), which the
// caller ends.
func printClasses(w io.Writer, q *quotientJSON) {
	fmt.Fprintf(w, "%8s  %s\n", "epsilon", "classes")
	for _, c := range q.Classes {
		fmt.Fprintf(w, "%8g  %d\n", c.Epsilon, c.Count)
	}
	fmt.Fprintf(w, "%.3fs in all:", q.Seconds)
	for _, p := range q.Phases {
		fmt.Fprintf(w, " %s %.3fs", p.Name, p.Seconds)
	}
}

// searchedMaxText writes the max distance of a decision-mode search
// (lib/statbb, lib/clock2) from its bracket (lo, hi] of listed ε (the
// smallest listed ε is first; below it the bracket is [0, first]): the
// searches decide each pair only up to its ε-bracket, and the value they
// keep inside it depends on the search order, so only the bracket is
// printed.
func searchedMaxText(lo, hi, first float64) string {
	const exact = "--exact-distances for the exact value"
	switch {
	case math.IsInf(hi, 1):
		return fmt.Sprintf("> %g (pairs above the largest ε decided by a probe; %s)", lo, exact)
	case hi == first:
		return fmt.Sprintf("≤ %g (decided only at the listed ε; %s)", hi, exact)
	}
	return fmt.Sprintf("in (%g, %g] (decided only at the listed ε; %s)", lo, hi, exact)
}
