package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/shard"
)

// shardFlags are quotient's flags of a sharded run (lib/shard):
//
//	round 1: --shard i/n --save classes-i.pq
//	         (then: pomdpq merge classes-*.pq --out plan.pq)
//	round 2: --shard i/n --plan plan.pq [--probes classes-i.pq] --save dist-i.pq
//	         (then: pomdpq merge dist-*.pq --eps LIST)
type shardFlags struct {
	spec, save, plan, probes string
	index, count             int
}

func (s *shardFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.spec, "shard", "", "run shard i of n of the family (i/n, 0 ≤ i < n; an index range, a seed range for sampled families): round 1 without --plan, round 2 with it; needs --save")
	fs.StringVar(&s.save, "save", "", "file the shard's part is written to (atomically)")
	fs.StringVar(&s.plan, "plan", "", "round 2: the plan merged from every shard's round-1 part (pomdpq merge … --out)")
	fs.StringVar(&s.probes, "probes", "", "round 2: this shard's round-1 part, whose probe list saves grouping the slice again")
}

func (s *shardFlags) active() bool { return s.spec != "" }

// check parses --shard and refuses flags that do not go with it.
func (s *shardFlags) check(kind fsc.Kind, dryRun bool) error {
	if !s.active() {
		for name, v := range map[string]string{"save": s.save, "plan": s.plan, "probes": s.probes} {
			if v != "" {
				return usageError{msg: fmt.Sprintf("quotient: --%s needs --shard i/n", name)}
			}
		}
		return nil
	}
	i, n, ok := strings.Cut(s.spec, "/")
	var err1, err2 error
	s.index, err1 = strconv.Atoi(i)
	s.count, err2 = strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || s.count < 1 || s.index < 0 || s.index >= s.count {
		return usageError{msg: fmt.Sprintf("--shard: %q is not i/n with 0 ≤ i < n (e.g. --shard 0/3)", s.spec)}
	}
	switch {
	case s.save == "":
		return usageError{msg: "--shard needs --save FILE (the part pomdpq merge reads)"}
	case s.probes != "" && s.plan == "":
		return usageError{msg: "--probes is for round 2: give --plan too"}
	case dryRun:
		return usageError{msg: "--shard and --dry-run do not go together: plan the whole run with --dry-run alone"}
	}
	return nil
}

// family builds the whole family for a sharded run: --limit bounds the
// controllers one shard enumerates, not the family. A sampled family is
// indexed (sample i from the stream (seed, i)): a shard draws its seed
// range alone.
func (s *shardFlags) family(kind fsc.Kind, nA, nO, m, T int, limit int64, samples int, seed uint64) (fsc.Family, error) {
	if kind != fsc.KindStationary && kind != fsc.KindClock {
		if samples < s.count {
			return nil, usageError{msg: fmt.Sprintf("--shard %s: %d samples for %d shards", s.spec, samples, s.count)}
		}
		return fsc.New(kind, nA, nO, m, T, fsc.Options{Samples: samples, Seed: seed, Indexed: true})
	}
	size, err := fsc.Size(kind, nA, nO, m, T)
	if err != nil {
		return nil, err
	}
	if !size.IsInt64() || size.Int64() > math.MaxInt64/2 {
		return nil, fmt.Errorf("--shard: the %s family with m = %d, T = %d has %s controllers, more than the shard indices can address", kind, m, T, size)
	}
	if limit == 0 {
		limit = fsc.DefaultLimit
	}
	slice := new(big.Int).Quo(new(big.Int).Add(size, big.NewInt(int64(s.count-1))), big.NewInt(int64(s.count)))
	if slice.Int64() > limit {
		return nil, fmt.Errorf("--shard %s: each shard would enumerate up to %s of the %s controllers, above the limit %d; use more shards or raise --limit",
			s.spec, slice, size, limit)
	}
	return fsc.New(kind, nA, nO, m, T, fsc.Options{Limit: size.Int64()})
}

type shardJSON struct {
	Round      int         `json:"round"`
	Shard      int         `json:"shard"`
	Count      int         `json:"count"`
	First      int         `json:"first"`
	End        int         `json:"end"`
	FamilySize int         `json:"family_size"`
	Distinct   int64       `json:"distinct"`
	File       string      `json:"file"`
	Seconds    float64     `json:"seconds"`
	Phases     []phaseJSON `json:"phases"`
	Ground     groundJSON  `json:"ground"`
}

// run computes the shard's round and writes its part.
func (s *shardFlags) run(ctx context.Context, md *pomdp.Model, gd ot.Described, unused string, fam fsc.Family, T int, opt distance.Options, rep *reporter, asJSON bool, stdout io.Writer) error {
	r := shard.Run{Model: md, Ground: gd.Ground, Family: fam, T: T, Options: opt, Index: s.index, Count: s.count}
	var f *shard.File
	round := 1
	if s.plan == "" {
		var err error
		if f, err = r.Classes(ctx); err != nil {
			return err
		}
	} else {
		round = 2
		plan, err := readPart(s.plan)
		if err != nil {
			return err
		}
		var probes *shard.Part
		if s.probes != "" {
			p, err := readPart(s.probes)
			if err != nil {
				return err
			}
			probes = &p
		}
		if f, err = r.Distances(ctx, &plan, probes); err != nil {
			return err
		}
	}
	rep.Phase("save")
	if err := shard.Write(s.save, f); err != nil {
		return err
	}
	rep.Phase("")
	lo, hi := distance.ShardRange(fam.Len(), s.index, s.count)
	out := shardJSON{Round: round, Shard: s.index, Count: s.count, First: lo, End: hi, FamilySize: fam.Len(),
		Distinct: f.Distinct, File: s.save, Seconds: rep.Seconds(), Phases: rep.Phases(), Ground: newGroundJSON(gd, unused)}
	if asJSON {
		return writeJSON(stdout, out)
	}
	what := "exact classes"
	if round == 2 {
		what = "distances between the plan's representatives"
	}
	fmt.Fprintf(stdout, "shard %d/%d, round %d (%s): controllers [%d, %d) of %d, %d probes; wrote %s in %.3fs\n",
		s.index, s.count, round, what, lo, hi, fam.Len(), f.Distinct, s.save, out.Seconds)
	fmt.Fprintln(stdout, groundLine(gd, unused))
	return nil
}

func readPart(path string) (shard.Part, error) {
	f, err := shard.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return shard.Part{}, fmt.Errorf("%s: no such file", path)
	}
	if err != nil {
		return shard.Part{}, err
	}
	return shard.Part{Name: path, File: f}, nil
}

type planJSONOut struct {
	Shards       int    `json:"shards"`
	FamilySize   int64  `json:"family_size"`
	Histories    int    `json:"histories"`
	ExactClasses int    `json:"exact_classes"`
	File         string `json:"file"`
}

// cmdMerge merges the parts of one round: classes parts into a plan
// (--out), distances parts into the quotient's class counts.
func cmdMerge(args []string, stdout, stderr io.Writer) error {
	c := newCommand("merge", stdout, stderr)
	epsList := c.fs.String("eps", "0", "comma-separated ε values (distances parts)")
	out := c.fs.String("out", "", "file the plan is written to (classes parts)")
	c.jsonFlag()
	missing := c.fs.Bool("missing", false, "print the shards to rerun (Slurm --array syntax, e.g. 1,4-5; nothing when complete) and stop")
	files, err := c.parseArgs(args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError{msg: "merge: give the part files, e.g. pomdpq merge part-*.pq --eps 0,0.3"}
	}
	parts, err := readParts(files, *missing, stderr)
	if err != nil {
		return err
	}
	if *missing {
		if len(parts) == 0 {
			return fmt.Errorf("merge --missing: no readable part among %d files, so the shard count is unknown: rerun every shard", len(files))
		}
		miss, err := shard.Missing(parts)
		if err != nil {
			return err
		}
		if len(miss) > 0 {
			fmt.Fprintln(stdout, shard.Ranges(miss))
		}
		return nil
	}
	switch parts[0].Kind {
	case shard.KindClasses:
		return mergeClasses(c, parts, *out)
	case shard.KindDistances:
		return mergeDistances(c, parts, *epsList)
	}
	return fmt.Errorf("%s: a %s, not a part", parts[0].Name, parts[0].Kind)
}

// readParts reads the part files; with missing, an unreadable one is
// reported on stderr and counted as missing instead of stopping.
func readParts(files []string, missing bool, stderr io.Writer) ([]shard.Part, error) {
	var parts []shard.Part
	for _, name := range files {
		p, err := readPart(name)
		if err != nil {
			if !missing {
				return nil, err
			}
			fmt.Fprintf(stderr, "pomdpq: %v (counted as missing)\n", err)
			continue
		}
		p.Probes = nil // the merges do not need them: keep memory to the partitions
		parts = append(parts, p)
	}
	return parts, nil
}

// mergeClasses merges round-1 parts into the plan round 2 reads.
func mergeClasses(c *command, parts []shard.Part, out string) error {
	if out == "" {
		return usageError{msg: "merge: these are round-1 (classes) parts: give --out plan.pq for the plan round 2 reads"}
	}
	plan, err := shard.MergeClasses(parts)
	if err != nil {
		return err
	}
	if err := shard.Write(out, plan); err != nil {
		return err
	}
	o := planJSONOut{Shards: len(parts), FamilySize: plan.FamilySize, File: out}
	for _, l := range plan.Labels {
		o.Histories += len(l)
		o.ExactClasses += slices.Max(l) + 1
	}
	return c.emit(o, func(w io.Writer) {
		fmt.Fprintf(w, "plan from %d shards: %d histories in %d exact classes; wrote %s\n", o.Shards, o.Histories, o.ExactClasses, out)
		fmt.Fprintf(w, "round 2: pomdpq quotient … --shard i/n --plan %s --save dist-i.pq, then pomdpq merge dist-*.pq --eps LIST\n", out)
	})
}

// mergeDistances merges round-2 parts and counts the classes at every ε.
func mergeDistances(c *command, parts []shard.Part, epsList string) error {
	eps, err := parseEps(epsList)
	if err != nil {
		return err
	}
	res, err := shard.MergeDistances(parts)
	if err != nil {
		return err
	}
	if e := slices.Max(eps); e+partition.ZeroTol > res.Cap {
		return fmt.Errorf("merge: ε = %g is above the parts' decision threshold %g: rerun round 2 with --eps including %g, or with --exact-distances", e, res.Cap-partition.ZeroTol, e)
	}
	h := parts[0].Header
	q := quotientJSON{FamilySize: res.FamilySize, Distinct: res.Distinct, ExactClasses: res.Classes.Total(),
		MaxDistance: res.MaxDistance(), MaxDistanceExact: res.MaxDistanceExact(), StandIns: res.StandIns, Convention: h.Convention}
	for _, l := range res.Classes.Labels {
		q.Histories += len(l)
	}
	for _, e := range eps {
		q.Classes = append(q.Classes, classJSON{Epsilon: e, Count: res.Partition(e).Total()})
	}
	// A part records the ground metric only inside its model hash (of the
	// model and the ground metric together): parts of runs with different
	// ground metrics do not merge, but the name is not in the file.
	q.Ground = groundJSON{Label: "recorded in the parts only through the model hash", Source: fmt.Sprintf("model hash %x (of the model and its ground metric; the shards' runs printed its name)", h.ModelHash[:6]), Used: h.Metric == distance.W1.String()}
	return c.emit(q, func(w io.Writer) {
		fmt.Fprintf(w, "model %s, %s m=%d T=%d (%d FSCs), T = %d, metric %s, merged from %d shards\n", h.Model, h.Family, h.M, h.T, h.FamilySize, h.T, h.Metric, len(parts))
		fmt.Fprintf(w, "ground metric: %s, %s\n", q.Ground.Label, q.Ground.Source)
		maxd := fmt.Sprintf("%.6g", q.MaxDistance)
		if !q.MaxDistanceExact {
			maxd = fmt.Sprintf("> %g (pairs above the largest ε decided by bounds; --exact-distances in round 2 for the exact value)", res.Cap-partition.ZeroTol)
		}
		fmt.Fprintf(w, "histories %d in %d exact classes, probes over the shards %d, max distance %s\n", q.Histories, q.ExactClasses, q.Distinct, maxd)
		fmt.Fprintf(w, "impossible-history stand-ins (%s): %d (history, probe) pairs\n", h.Convention, q.StandIns)
		fmt.Fprintf(w, "%8s  %s\n", "epsilon", "classes")
		for _, c := range q.Classes {
			fmt.Fprintf(w, "%8g  %d\n", c.Epsilon, c.Count)
		}
	})
}
