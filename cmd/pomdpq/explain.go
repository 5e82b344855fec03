package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/explain"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/statbb"
)

// explainJSON is the output of `pomdpq explain --json`: one of Pairs
// (--histories, --classes), Class (--class) or Steps (--merges).
type explainJSON struct {
	Model  string            `json:"model"`
	Family string            `json:"family"`
	T      int               `json:"T"`
	Eps    []float64         `json:"eps,omitempty"`
	Ground groundJSON        `json:"ground"`
	Pairs  []pairJSON        `json:"pairs,omitempty"`
	Class  *explain.Class    `json:"class,omitempty"`
	Steps  []*explain.Merges `json:"merges,omitempty"`
}

// pairJSON is one explained pair; for --classes, the classes and the
// representatives (their first members) the pair stands for.
type pairJSON struct {
	Class1 string `json:"class_1,omitempty"`
	Class2 string `json:"class_2,omitempty"`
	*explain.Pair
}

// explainOptions are the flags of explain besides the front end's.
type explainOptions struct {
	q                         *quotientFlags
	histories, classes, class *string
	merges, search            *bool
	probe, top                *int
	maxNodes                  *float64
}

// explainCommand registers explain's flags.
func explainCommand(stdout, stderr io.Writer) (*command, *explainOptions) {
	c := newCommand("explain", stdout, stderr)
	fs := c.fs
	o := &explainOptions{q: c.quotientFlags("probe family Π: stationary or clock", " of Π")}
	fs.Lookup("eps").Usage = "ε of the quotient (--classes, --class) or the grid whose steps --merges explains"
	o.histories = fs.String("histories", "", `two histories of one depth, observation names separated by spaces: "o1 o2 ; o1 o2"`)
	o.classes = fs.String("classes", "", "two classes of the ε-quotient, t:i,t:j (explained through their first members)")
	o.class = fs.String("class", "", "one class of the ε-quotient, t:i: members, belief, neighbours, rewards")
	o.merges = fs.Bool("merges", false, "what each step of the --eps grid merged")
	o.probe = fs.Int("probe", -1, "--class: family index of the probe the class belief is computed under (-1: the first under which most members are possible)")
	o.top = fs.Int("top", explain.DefaultTop, "length of every ranked list")
	o.search = fs.Bool("search", false, "clock m = 2, stationary m ≤ 3: search the family for each pair's argmax (as quotient does above --limit) instead of enumerating it; implied above --limit")
	o.maxNodes = fs.Float64("max-nodes", explainMaxNodes, "searched families: largest number of branch-and-bound nodes of one pair's witness search (an exact maximum: more than quotient's decision mode visits; the --classes partition keeps quotient's limit)")
	c.jsonFlag()
	c.verboseFlag()
	c.progressFlag(progressUsage)
	c.memFlag()
	c.workersFlag()
	return c, o
}

// explainArgs are the resolved flags of `pomdpq explain`.
type explainArgs struct {
	setup     *explain.Setup
	kind      fsc.Kind
	m         int
	eps       []float64
	histories string
	classes   string
	class     string
	merges    bool
	probe     int
	workers   int
	mem       int64
	// searched is set when the family is searched, not enumerated.
	searched *searchedFamily
}

func cmdExplain(args []string, stdout, stderr io.Writer) error {
	c, o := explainCommand(stdout, stderr)
	if err := c.parse(args); err != nil {
		return err
	}
	modes := 0
	for _, on := range []bool{*o.histories != "", *o.classes != "", *o.class != "", *o.merges} {
		if on {
			modes++
		}
	}
	if modes != 1 {
		return usageError{msg: "explain: give exactly one of --histories \"h ; h'\", --classes t:i,t:j, --class t:i or --merges"}
	}
	c.rep.Phase("load")
	in, err := o.q.resolve()
	if err != nil {
		return err
	}
	md := in.model
	a := explainArgs{kind: in.kind, m: in.M, eps: in.eps, histories: *o.histories, classes: *o.classes, class: *o.class,
		merges: *o.merges, probe: *o.probe, workers: c.nworkers(), mem: int64(c.mem)}
	a.setup = &explain.Setup{Model: md, Ground: in.ground.Ground, T: in.T, Convention: in.conv, Workers: a.workers, Top: *o.top}
	if err := a.family(in, *o.search, *o.maxNodes, c.rep.Progress); err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	var famName fmt.Stringer = a.setup.Search
	if a.setup.Family != nil {
		famName = a.setup.Family
	}
	out := explainJSON{Model: md.Name, Family: famName.String(), T: in.T, Ground: newGroundJSON(in.ground, "")}
	if a.histories == "" {
		out.Eps = a.eps
	}
	if err := a.run(ctx, &out, c.rep); err != nil {
		return err
	}
	c.rep.Phase("")
	return c.emit(out, func(w io.Writer) {
		writeSummary(w, a.summary(&out)...)
		head := fmt.Sprintf("model %s, %s, T = %d", md.Name, famName, in.T)
		if !c.isVerbose() {
			writeSummary(w, head+"; "+groundLine(in.ground, ""), verboseHint)
			return
		}
		fmt.Fprintf(w, "\n%s\n%s\n", head, groundLine(in.ground, ""))
		for _, p := range out.Pairs {
			printPair(w, p)
		}
		if out.Class != nil {
			printClass(w, out.Class, out.Eps[0])
		}
		for _, st := range out.Steps {
			printMerges(w, st)
		}
	})
}

// run computes what the flags ask for into out.
func (a *explainArgs) run(ctx context.Context, out *explainJSON, rep *reporter) error {
	s := a.setup
	if a.histories != "" {
		parts := strings.Split(a.histories, ";")
		if len(parts) != 2 {
			return usageError{msg: fmt.Sprintf("explain: --histories takes two histories separated by ';', got %d", len(parts))}
		}
		var hs [2][]int
		for k, p := range parts {
			h, err := explain.ParseHistory(s.Model, strings.TrimSpace(p))
			if err != nil {
				return usageError{msg: "explain: --histories: " + err.Error()}
			}
			hs[k] = h
		}
		if d0, d1 := len(hs[0]), len(hs[1]); d0 != d1 || d0 > s.T {
			return usageError{msg: fmt.Sprintf("explain: --histories: depths %d and %d; give two histories of one depth ≤ T = %d", d0, d1, s.T)}
		}
		rep.Phase("explain")
		p, err := explain.ExplainPair(ctx, s, hs[0], hs[1])
		if err != nil {
			return err
		}
		out.Pairs = append(out.Pairs, pairJSON{Pair: p})
		return nil
	}
	if a.merges && len(a.eps) < 2 {
		return usageError{msg: "explain: --merges explains the steps of an ε grid: give at least two values, e.g. --eps 0,0.1,0.3"}
	}
	if !a.merges && len(a.eps) != 1 {
		return usageError{msg: "explain: --classes and --class take one ε (--eps E)"}
	}
	if f := a.searched; f != nil {
		if a.class != "" {
			return usageError{msg: f.refusal(s.Model.NumActions(), s.Model.NumObservations())}
		}
		d, err := a.searchedQuotient(ctx, rep)
		if err != nil {
			return err
		}
		rep.Phase("explain")
		if a.classes != "" {
			return a.explainClasses(ctx, out, d.Partition(a.eps[0]), d.Tree)
		}
		return a.explainSteps(ctx, out, d.Partition(0), d.Partition)
	}
	res, err := a.quotient(ctx, rep)
	if err != nil {
		return err
	}
	rep.Phase("explain")
	part := res.Partition(a.eps[0])
	switch {
	case a.classes != "":
		return a.explainClasses(ctx, out, part, res.Tree)
	case a.class != "":
		t, c, err := explain.ParseClass(part, a.class)
		if err != nil {
			return usageError{msg: fmt.Sprintf("explain: --class at ε = %g: %v", a.eps[0], err)}
		}
		if a.probe < -1 || a.probe >= s.Family.Len() {
			return usageError{msg: fmt.Sprintf("explain: --probe %d: the family %s has probes 0 … %d", a.probe, s.Family, s.Family.Len()-1)}
		}
		if out.Class, err = explain.ExplainClass(s, part, t, c, a.probe); err != nil {
			return err
		}
	default:
		return a.explainSteps(ctx, out, res.Classes, res.Partition)
	}
	return nil
}

// explainSteps explains each step of the --eps grid, from the exact
// partition and the partition at each ε.
func (a *explainArgs) explainSteps(ctx context.Context, out *explainJSON, exact *partition.Partition, at func(float64) *partition.Partition) error {
	grid := slices.Clone(a.eps)
	slices.Sort(grid)
	for k := 1; k < len(grid); k++ {
		st, err := explain.ExplainMerges(ctx, a.setup, exact, at(grid[k-1]), at(grid[k]), grid[k-1], grid[k])
		if err != nil {
			return err
		}
		out.Steps = append(out.Steps, st)
	}
	return nil
}

// explainClasses explains the pair of classes --classes names, of the
// partition part of the history tree, through their first members.
func (a *explainArgs) explainClasses(ctx context.Context, out *explainJSON, part *partition.Partition, tree law.Tree) error {
	ids := strings.Split(a.classes, ",")
	if len(ids) != 2 {
		return usageError{msg: fmt.Sprintf("explain: --classes takes two classes t:i,t:j, got %q", a.classes)}
	}
	var reps [2][]int
	for k, id := range ids {
		t, c, err := explain.ParseClass(part, strings.TrimSpace(id))
		if err != nil {
			return usageError{msg: fmt.Sprintf("explain: --classes at ε = %g: %v", a.eps[0], err)}
		}
		reps[k] = tree.History(t, part.Members(t, c)[0])
	}
	p, err := explain.ExplainPair(ctx, a.setup, reps[0], reps[1])
	if err != nil {
		return err
	}
	out.Pairs = append(out.Pairs, pairJSON{Class1: strings.TrimSpace(ids[0]), Class2: strings.TrimSpace(ids[1]), Pair: p})
	return nil
}

// family sets the probe source of the setup: the enumerated family, or,
// above the enumeration limit or with --search, the search of a family
// `quotient` searches (clock m = 2, stationary m ≤ 3); other families
// above the limit are refused with what would help.
func (a *explainArgs) family(in quotientInput, search bool, maxNodes float64, progress func(done, total int)) error {
	md := in.model
	nA, nO := md.NumActions(), md.NumObservations()
	if search && !hasSearch(in.kind, in.M) {
		return usageError{msg: fmt.Sprintf("explain: --search is for --family clock with --m 2 and --family stationary with --m ≤ %d (have %s, m = %d)", statbb.MaxM, in.kind, in.M)}
	}
	why := "--search"
	if !search {
		fam, err := fsc.New(in.kind, nA, nO, in.M, in.T, fsc.Options{Limit: in.limit, Indexed: true})
		var big *fsc.TooLargeError
		switch {
		case err == nil:
			a.setup.Family = fam
			return nil
		case !errors.As(err, &big):
			return fmt.Errorf("explain runs every probe of the family on the explained histories: %w", err)
		case !hasSearch(in.kind, in.M):
			return usageError{msg: searchedRefusal(big, nA, nO, md.Name)}
		}
		why = fmt.Sprintf("above the enumeration limit %d, --limit", big.Limit)
	}
	size, err := fsc.Size(in.kind, nA, nO, in.M, in.T)
	if err != nil {
		return err
	}
	a.searched = &searchedFamily{kind: in.kind, M: in.M, T: in.T, size: size, limit: in.limit, why: why, maxNodes: maxNodes}
	a.setup.Search = a.searched.searcher(in, a.mem, progress)
	return nil
}

// quotient computes the ε-partitions the way `pomdpq quotient` does
// (decision mode, its memory budget and pre-flight).
func (a *explainArgs) quotient(ctx context.Context, rep *reporter) (*distance.Result, error) {
	budget := a.mem
	if budget == 0 {
		budget = distance.DefaultMemBudget()
	}
	defer softLimit(budget)()
	s := a.setup
	opt := distance.Options{Metric: distance.W1, Ground: s.Ground, Convention: s.Convention, Workers: a.workers, MemBudget: a.mem,
		Phase: rep.Phase, Progress: rep.Progress, Eps: a.eps, Compact: true}
	return distance.Compute(ctx, s.Model, s.Family, s.T, opt)
}

func printPair(w io.Writer, p pairJSON) {
	fmt.Fprintln(w)
	if p.Class1 != "" {
		fmt.Fprintf(w, "classes %s and %s, through their first members:\n", p.Class1, p.Class2)
	}
	if p.Search != nil {
		by := "the controller the search found"
		if !p.Search.Exact {
			by = fmt.Sprintf("the best controller the search found before its node limit (the maximum is ≤ %.6g)", p.Search.Upper)
		}
		fmt.Fprintf(w, "histories “%s” and “%s” (depth %d): distance %.6g, by %s: %s\n",
			p.History1, p.History2, p.Depth, p.Distance, by, p.Best.Probe)
		fmt.Fprintln(w, p.Sentence)
		fmt.Fprintln(w, searchNote(p.Search))
	} else {
		fmt.Fprintf(w, "histories “%s” and “%s” (depth %d): distance %.6g, by probe %d of %d: %s\n",
			p.History1, p.History2, p.Depth, p.Distance, p.Best.Index, p.NumProbes, p.Best.Probe)
		fmt.Fprintln(w, p.Sentence)
		fmt.Fprintf(w, "probes ranked by distance (first %d of %d):\n", len(p.Probes), p.NumProbes)
	}
	for _, q := range p.Probes {
		if p.Search != nil {
			break
		}
		if q.Bounded {
			fmt.Fprintf(w, "≥ %10.6g  #%d %s (≤ %.6g: bounds show it is not first; not solved)\n",
				q.Distance, q.Index, q.Probe, q.Upper)
			continue
		}
		fmt.Fprintf(w, "  %10.6g  #%d %s\n", q.Distance, q.Index, q.Probe)
	}
	under := fmt.Sprintf("probe #%d", p.Best.Index)
	if p.Search != nil {
		under = "the search's controller"
	}
	fmt.Fprintf(w, "laws of the next %d observations under %s (shown: %.4g of the first, %.4g of the second):\n",
		p.Suffix, under, p.Shown1, p.Shown2)
	fmt.Fprintf(w, "  %10s  %10s  sequence\n", "first", "second")
	for _, x := range p.Laws {
		fmt.Fprintf(w, "  %10.6g  %10.6g  %s\n", x.P1, x.P2, x.Words)
	}
	fmt.Fprintf(w, "optimal transport plan, largest moves (whole plan costs %.6g = the distance; shown %.6g):\n", p.MovesTotal, p.MovesShown)
	for _, mv := range p.Moves {
		fmt.Fprintf(w, "  %10.6g × cost %-6.4g  %s → %s\n", mv.Mass, mv.Cost, mv.From, mv.To)
	}
}

func printClass(w io.Writer, c *explain.Class, eps float64) {
	fmt.Fprintf(w, "\nclass %s of the ε = %g quotient: %d histories of depth %d\n", c.ID, eps, c.Members, c.Depth)
	fmt.Fprintf(w, "first members: %s\n", strings.Join(c.First, " | "))
	fmt.Fprintf(w, "belief (entropy %.4g bits; shown %.4g of the mass): ", c.Entropy, c.Shown)
	for k, b := range c.Belief {
		if k > 0 {
			fmt.Fprint(w, ", ")
		}
		fmt.Fprintf(w, "%s %.4g", b.State, b.Prob)
	}
	fmt.Fprintf(w, "\n%s\n", c.ProbeNote)
	for _, nb := range []struct {
		what string
		cs   []explain.ClassCount
	}{{"comes from", c.From}, {"goes to", c.To}} {
		if len(nb.cs) == 0 {
			continue
		}
		parts := make([]string, len(nb.cs))
		for k, x := range nb.cs {
			parts[k] = fmt.Sprintf("%s (%d)", x.Class, x.Histories)
		}
		fmt.Fprintf(w, "%s: %s\n", nb.what, strings.Join(parts, ", "))
	}
	if len(c.Rewards) > 0 {
		parts := make([]string, len(c.Rewards))
		for k, r := range c.Rewards {
			parts[k] = fmt.Sprintf("%s %.4g", r.Action, r.Reward)
		}
		fmt.Fprintf(w, "expected immediate reward: %s\n", strings.Join(parts, ", "))
	}
}

func printMerges(w io.Writer, st *explain.Merges) {
	fmt.Fprintf(w, "\nε = %g → %g: %d → %d classes, %d merged classes", st.EpsFrom, st.EpsTo, st.ClassesFrom, st.ClassesTo, st.Count)
	if len(st.Merges) < st.Count {
		fmt.Fprintf(w, " (first %d shown)", len(st.Merges))
	}
	fmt.Fprintln(w)
	for _, mg := range st.Merges {
		bound := ""
		if !mg.Exact {
			bound = "≥ "
		}
		nearest := fmt.Sprintf("#%d %s", mg.Nearest.Index, mg.Nearest.Probe)
		if mg.Nearest.Index < 0 {
			nearest = "the search's controller " + mg.Nearest.Probe
		}
		fmt.Fprintf(w, "  ε = %g merges %s into %s (%d histories): the nearest probe, %s, sees “%s” and “%s” %s%.4g apart\n",
			st.EpsTo, strings.Join(mg.Joined, " + "), mg.Class, mg.Members, nearest, mg.History1, mg.History2, bound, mg.Diameter)
	}
}
