package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
)

type classJSON struct {
	Epsilon float64 `json:"epsilon"`
	Count   int     `json:"count"`
}

type quotientJSON struct {
	FamilySize  int         `json:"family_size"`
	Histories   int         `json:"histories"`
	MaxDistance float64     `json:"max_distance"`
	Seconds     float64     `json:"seconds"`
	Classes     []classJSON `json:"classes"`
	StandIns    int         `json:"stand_ins"`
	Convention  string      `json:"convention"`
	// DeltaClk is the cross-family gap δ_clk = ‖d^clk − d^op‖∞ of the m = 1
	// stationary family (cor:op-to-clk-transfer), when it was computed.
	DeltaClk *float64 `json:"delta_clk,omitempty"`
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
			return nil, usageError{fmt.Sprintf("--eps: %q is not a non-negative number", f)}
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, usageError{"--eps: give at least one value, e.g. --eps 0,0.1,0.5"}
	}
	return out, nil
}

func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

func cmdQuotient(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("quotient", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	model := fs.String("model", "", "built-in model name or model file")
	family := fs.String("family", "stationary", "stationary or clock")
	m := fs.Int("m", 1, "memory bound (nodes)")
	T := fs.Int("T", 2, "horizon")
	epsList := fs.String("eps", "0", "comma-separated ε values")
	metric := fs.String("metric", "w1", "w1 or tv")
	conv := fs.String("stand-in", "uniform", "impossible-history stand-in: uniform or point-mass")
	limit := fs.Int64("limit", 0, "largest family size to enumerate (0: the default limit)")
	asJSON := fs.Bool("json", false, "print JSON")
	progress := fs.Bool("progress", false, "report progress on stderr")
	gapWork := fs.Float64("delta-clk-work", 1e6, "compute δ_clk (m = 1 stationary) when the exact recursion visits at most this many (history, prefix) pairs; 0 disables")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	md, g, err := loadModel(*model)
	if err != nil {
		return err
	}
	kind, err := fsc.ParseKind(*family)
	if err != nil {
		return usageError{err.Error()}
	}
	eps, err := parseEps(*epsList)
	if err != nil {
		return err
	}
	met, err := distance.ParseMetric(*metric)
	if err != nil {
		return usageError{err.Error()}
	}
	cv, err := law.ParseConvention(*conv)
	if err != nil {
		return usageError{err.Error()}
	}
	fam, err := fsc.New(kind, md.NumActions(), md.NumObservations(), *m, *T, fsc.Options{Limit: *limit})
	if err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	opt := distance.Options{Metric: met, Ground: g, Convention: cv}
	if *progress {
		opt.Progress = func(done, total int) {
			if done == total || done%max(1, total/20) == 0 {
				fmt.Fprintf(stderr, "\rprobes %d/%d", done, total)
			}
			if done == total {
				fmt.Fprintln(stderr)
			}
		}
	}
	res, err := distance.Compute(ctx, md, fam, *T, opt)
	if err != nil {
		return err
	}
	out := quotientJSON{FamilySize: res.FamilySize, Histories: res.Tree.Len(), MaxDistance: res.MaxDistance(),
		Seconds: res.Seconds, StandIns: res.StandIns, Convention: cv.String()}
	for _, e := range eps {
		out.Classes = append(out.Classes, classJSON{Epsilon: e, Count: res.Partition(e).Total()})
	}
	// δ_clk certifies an operational (m = 1 stationary) quotient for the
	// clock-aware family; compute it where the exact recursion is tractable.
	var gapNote string
	if kind == fsc.KindStationary && *m == 1 && met == distance.W1 {
		if w := clock.Work(md.NumActions(), md.NumObservations(), *T); w <= *gapWork {
			var copt clock.Options
			if *progress {
				copt.Progress = func(done, total int) {
					if done == total || done%max(1, total/20) == 0 {
						fmt.Fprintf(stderr, "\rδ_clk class pairs %d/%d", done, total)
					}
					if done == total {
						fmt.Fprintln(stderr)
					}
				}
			}
			d, err := clock.NewDistances(ctx, md, g, *T, &copt)
			if err == nil {
				out.DeltaClk = &d.Gap
			} else {
				gapNote = err.Error()
			}
		} else {
			gapNote = fmt.Sprintf("the exact recursion would visit %.3g (history, prefix) pairs, above --delta-clk-work %g", w, *gapWork)
		}
	}
	if *asJSON {
		return writeJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "model %s, %v, T = %d, metric %s\n", md.Name, fam, *T, met)
	fmt.Fprintf(stdout, "histories %d, distinct probes %d, max distance %.6g, %.3fs\n", out.Histories, res.Distinct, out.MaxDistance, out.Seconds)
	fmt.Fprintf(stdout, "impossible-history stand-ins (%s): %d (history, probe) pairs\n", cv, res.StandIns)
	if out.DeltaClk != nil {
		fmt.Fprintf(stdout, "cross-family gap δ_clk = %.6g: an ε-quotient here is an (ε + δ_clk)-quotient for clock-aware m = 1 probes\n", *out.DeltaClk)
	} else if gapNote != "" {
		fmt.Fprintf(stdout, "cross-family gap δ_clk not computed: %s\n", gapNote)
	}
	fmt.Fprintf(stdout, "%8s  %s\n", "epsilon", "classes")
	for _, c := range out.Classes {
		fmt.Fprintf(stdout, "%8g  %d\n", c.Epsilon, c.Count)
	}
	return nil
}
